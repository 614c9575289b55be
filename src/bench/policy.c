/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.c: --policy for --compare (and `iosched-apply validate`): after
 * each scheduler switch, write the policy's tunables for that disk that
 * apply under that scheduler: its queue/ settings, and the queue/iosched/
 * ones the scheduler has.  So each candidate runs as the policy would run it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "bench.h"

struct bench_policy {
        struct ios_policy *p;
        struct bench_attr *attrs;       /* of the last call */
        size_t n;
};

static void attrs_clear(struct bench_policy *bp)
{
        for (size_t i = 0; i < bp->n; i++) {
                free(bp->attrs[i].attr);
                free(bp->attrs[i].value);
        }
        free(bp->attrs);
        bp->attrs = NULL;
        bp->n = 0;
}

static int tune(void *userdata, const struct ios_device *d, const char *sched,
                const struct bench_attr **ret, size_t *ret_n)
{
        struct bench_policy *bp = userdata;
        struct ios_wanted w = {};
        int e;

        attrs_clear(bp);
        e = ios_policy_resolve(bp->p, d, &w);
        if (e < 0)
                return e;
        bp->attrs = calloc(w.n ? w.n : 1, sizeof(*bp->attrs));
        if (!bp->attrs) {
                ios_wanted_done(&w);
                return -ENOMEM;
        }
        /* nr_requests first: a switch resets it, and the kernel wants it before iosched/ */
        for (int pass = 0; pass < 3; pass++)
                for (size_t i = 0; i < w.n; i++) {
                        const char *k = w.s[i].key, *t = startswith(k, "queue/iosched/");

                        if (streq(k, "scheduler"))
                                continue;
                        if ((pass == 0) != streq(k, "queue/nr_requests") || (pass == 2) != !!t)
                                continue;
                        if (t && !ios_iosched_tunable_of(sched, t))
                                continue;
                        bp->attrs[bp->n].attr = strdup(k);
                        bp->attrs[bp->n].value = strdup(w.s[i].value);
                        bp->n++;
                }
        ios_wanted_done(&w);
        *ret = bp->attrs;
        *ret_n = bp->n;
        return 0;
}

int bench_policy_hooks(const char *file, struct bench_compare_hooks *h, struct bench_error *err)
{
        struct bench_policy *bp = calloc(1, sizeof(*bp));
        struct ios_error pe = {};
        int e;

        if (!bp)
                return -ENOMEM;
        e = ios_policy_load(NULL, file && *file ? file : NULL, 0, &bp->p, &pe);
        if (e < 0) {
                free(bp);
                if (pe.line)
                        return bench_error_set(err, BENCH_EXIT_USAGE, -e, "%s:%u: %s", pe.file, pe.line, pe.msg);
                return bench_error_set(err, BENCH_EXIT_USAGE, -e, "cannot load policy%s%s: %s",
                                       pe.file[0] ? " " : "", pe.file, pe.msg[0] ? pe.msg : strerror(-e));
        }
        h->tune = tune;
        h->userdata = bp;
        return 0;
}

void bench_policy_hooks_done(struct bench_compare_hooks *h)
{
        struct bench_policy *bp = h->userdata;

        if (!bp)
                return;
        attrs_clear(bp);
        ios_policy_free(bp->p);
        free(bp);
        h->userdata = NULL;
        h->tune = NULL;
}
