/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fioset.h: the string set and growing list the fio model keeps linear with (fioset.c). */
#ifndef IOS_BENCH_FIOSET_H
#define IOS_BENCH_FIOSET_H

#include <stdbool.h>
#include <stddef.h>

/* fioset.c: a set of strings (paths, device keys) and a list that grows in amortised O(1) */
struct sset {
        char **v;
        size_t n, cap;
};
int sset_add(struct sset *s, const char *key);        /* 1 added, 0 there already, < 0 error */
bool sset_has(const struct sset *s, const char *key);
void sset_done(struct sset *s);
void sset_donep(struct sset *s);       /* for _cleanup_ */
struct list {
        char ***v;                      /* a NULL-terminated strv, owned elsewhere */
        size_t n, cap;
};
int list_push(struct list *l, const char *s);

#endif
