/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * grow.c: the one way an array grows.  The room doubles (at least 8), so
 * pushing n elements costs O(n); a size that would not fit in size_t is
 * refused before realloc() sees it.
 */
#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

void *ios_grow(void *arr, size_t *cap, size_t need, size_t elem)
{
        size_t nc;
        void *n;

        assert(cap && elem > 0);
        if (need <= *cap && arr)
                return arr;
        nc = *cap < 8 ? 8 : *cap;
        while (nc < need) {
                if (nc > SIZE_MAX / 2) {
                        nc = need;
                        break;
                }
                nc *= 2;
        }
        if (elem == 0 || nc > SIZE_MAX / elem) {
                errno = ENOMEM;
                return NULL;
        }
        n = realloc(arr, nc * elem);
        if (!n)
                return NULL;
        *cap = nc;
        return n;
}
