/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.c: --policy for --compare (and `iosched-apply validate`): with
 * each scheduler switch, the policy's tunables for that disk go through the
 * same plan (apply.c): its queue/ settings, and the queue/iosched/ ones the
 * scheduler has.  So each candidate runs as the policy would run it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "bench.h"
#include "compare.h"

struct bench_policy {
        struct ios_policy *p;
        struct ios_wanted w;            /* of the last call */
};

/* The policy's settings for d; the plan writes them in order and skips
 * the iosched/ tunables the scheduler being measured does not have. */
static int tune(void *userdata, const struct ios_device *d, const struct ios_wanted **ret)
{
        struct bench_policy *bp = userdata;
        int e;

        ios_wanted_done(&bp->w);
        e = ios_policy_resolve(bp->p, d, &bp->w);
        if (e < 0)
                return e;
        *ret = &bp->w;
        return 0;
}

int bench_policy_hooks(const char *file, struct ios_ctx *root, struct bench_compare_hooks *h,
                       struct bench_error *err)
{
        struct bench_policy *bp = calloc(1, sizeof(*bp));
        struct ios_error pe = {};
        int e;

        if (!bp)
                return -ENOMEM;
        e = ios_policy_load(NULL, file && *file ? file : NULL, 0, &bp->p, &pe);
        if (e < 0) {
                free(bp);
                return bench_error_set(err, BENCH_ERR_USAGE, -e, "cannot load policy: %s", ios_strerror(e));
        }
        /* a measurement with part of the policy skipped would measure something else */
        if (pe.file[0]) {
                char where[300];

                ios_policy_free(bp->p);
                free(bp);
                return bench_error_set(err, BENCH_ERR_USAGE, -pe.code, "%s: %s",
                                       ios_error_where(&pe, where, sizeof(where)), pe.msg);
        }
        /* the disk is looked up after this, with what the rules match on (Size=, Removable=) */
        ios_ctx_set_probe(root, ios_ctx_get_probe(root) | ios_policy_probe_flags(bp->p));
        h->tune = tune;
        h->userdata = bp;
        return 0;
}

void bench_policy_hooks_done(struct bench_compare_hooks *h)
{
        struct bench_policy *bp = h->userdata;

        if (!bp)
                return;
        ios_wanted_done(&bp->w);
        ios_policy_free(bp->p);
        free(bp);
        h->userdata = NULL;
        h->tune = NULL;
}
