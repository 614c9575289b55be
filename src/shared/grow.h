/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* grow.h: the one growth helper for arrays (grow.c). */
#ifndef IOS_GROW_H
#define IOS_GROW_H

#include <stddef.h>

/*
 * Room for at least need elements of elem bytes in arr, which has room for
 * *cap (0 and NULL at first): the new array (arr itself when it has room),
 * its room in *cap; NULL with arr and *cap untouched when out of memory or
 * when need * elem would overflow.  The room doubles (at least 8).
 *   v = ios_grow(a->v, &a->cap, a->n + 1, sizeof(*v)); if (!v) return -ENOMEM; a->v = v;
 */
void *ios_grow(void *arr, size_t *cap, size_t need, size_t elem);

#endif
