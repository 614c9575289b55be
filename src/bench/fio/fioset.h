/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* fioset.h: the string set and growing list the fio model keeps linear with (fioset.c). */
#ifndef IOS_BENCH_FIOSET_H
#define IOS_BENCH_FIOSET_H

#include <stdbool.h>
#include <stddef.h>

/* fioset.c: a set of strings (paths, device keys), each with a count, and a list that grows in
 * amortised O(1) */
struct bench_sset {
        char **v;
        unsigned *c;                    /* c[i]: the count of v[i] (bench_sset_count) */
        size_t n, cap;
};
int bench_sset_add(struct bench_sset *s, const char *key);        /* 1 added, 0 there already, < 0 error */
bool bench_sset_has(const struct bench_sset *s, const char *key);
/* key added if missing and its count raised by one: the new count in *ret, or < 0 */
int bench_sset_count(struct bench_sset *s, const char *key, unsigned *ret);
unsigned bench_sset_counted(const struct bench_sset *s, const char *key);  /* 0 for a key not there */
void bench_sset_done(struct bench_sset *s);
void bench_sset_donep(struct bench_sset *s);       /* for _cleanup_ */
struct bench_list {
        char ***v;                      /* a NULL-terminated strv, owned elsewhere */
        size_t n, cap;
};
int bench_list_push(struct bench_list *l, const char *s);

#endif
