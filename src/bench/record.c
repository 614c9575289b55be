/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * record.c: `--compare --record[=ROOT]`: the comparison kept as evidence,
 * as `iosched-apply validate` keeps its own (the library's evidence*.c):
 * the report's workload, objective, rounds and variants, the rule of the
 * policy (--policy=FILE's, else the system's, read under ROOT) that
 * chooses the disk's scheduler and the verdict about that scheduler, the
 * kernel release, the date and this version, added to the document of the
 * disk's identity in ROOT/var/lib/iosched/evidence (ROOT: / by default).
 * What it did is one line on stderr; a record that cannot be written is a
 * warning, the comparison's exit status stands.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "bench.h"
#include "compare.h"

int bench_record_option(struct bench_opts *o, const char *arg)
{
        o->record = true;
        o->record_root = arg && *arg ? arg : NULL;
        return 0;
}

int bench_record_check(const struct bench_opts *o, struct bench_error *e)
{
        if (o->record && !o->compare)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--record keeps a --compare's verdict: "
                                       "give --compare");
        return 0;
}

/* The policy's scheduler for disk and the rule (file:line) that chose it; both NULL when it sets none. */
static void policy_rule(const struct bench_opts *o, struct ios_device *disk, char **ret_sched,
                        char **ret_rule)
{
        struct ios_policy *p = NULL;
        struct ios_error pe = {};
        struct ios_plan pl = {};

        *ret_sched = *ret_rule = NULL;
        if (ios_policy_load(o->record_root, o->policy_file, 0, &p, &pe) < 0 || pe.file[0])
                goto out;
        if (ios_plan_build(p, disk, &pl) < 0)
                goto out;
        for (size_t i = 0; i < pl.n && !*ret_sched; i++)
                if (streq(pl.c[i].key, "scheduler") && pl.c[i].state != IOS_CHANGE_SKIPPED &&
                    pl.c[i].wanted) {
                        *ret_sched = strdup(pl.c[i].wanted);
                        *ret_rule = pl.c[i].source ? strdup(pl.c[i].source) : NULL;
                }
out:
        ios_plan_done(&pl);
        ios_policy_free(p);
}

void bench_record(const struct bench_opts *o, struct ios_device *disk, const char *json, size_t len)
{
        struct ios_evidence_id id = {};
        struct ios_evidence ev = {};
        _cleanup_free_ char *msg = NULL, *path = NULL;
        int e;

        e = ios_evidence_id_of(disk, &id);
        if (e >= 0)
                e = ios_evidence_from_compare(json ? json : "", len, &ev, &msg);
        if (e >= 0) {
                ev.time = (long long)time(NULL);
                ev.tool = strdup("iosched-bench --compare --record");
                ev.version = strdup(IOS_VERSION);
                ev.kernel = ios_ctx_kernel_release(disk->ctx);
                ev.device = strdup(disk->name);
                policy_rule(o, disk, &ev.policy_scheduler, &ev.rule);
                if (ev.policy_scheduler)
                        (void)ios_evidence_judge(&ev, ev.policy_scheduler, NULL);
                e = ios_evidence_record(o->record_root, &id, &ev, 0, &path);
        }
        if (e < 0)
                fprintf(stderr, "iosched-bench: warning: the comparison is not recorded%s%s: %s\n",
                        path ? " in " : "", path ? path : "",
                        msg ? msg : ios_evidence_record_strerror(e));
        else
                fprintf(stderr, "iosched-bench: recorded in %s\n", path);
        ios_evidence_done(&ev);
        ios_evidence_id_done(&id);
}
