/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate.c: `iosched-apply validate DEVICE`: measure the scheduler the
 * policy wants against the one the disk has, on the disk itself, with
 * iosched-bench --compare (which restores everything it changed).  The
 * benchmark is a separate program so that iosched-apply, which udev runs
 * once per disk, never loads liburing or libaio.  Unless the arguments
 * after "--" give a job, the comparison is a bare --compare, so
 * iosched-bench runs a workload that separates schedulers: a 4k random
 * reader at depth 1 under a deep sequential reader (its mixed-read preset;
 * mixed-latency, under a writer, with --allow-write), judged on the
 * reader's p99.  Too few --loops for the verdict's test is a warning
 * before the run.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

/* iosched-bench next to our own executable, else from PATH. */
static char *bench_path(void)
{
        char self[PATH_MAX], *slash, *p = NULL;
        ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

        if (n > 0) {
                self[n] = '\0';
                slash = strrchr(self, '/');
                if (slash && asprintf(&p, "%.*s/iosched-bench", (int)(slash - self), self) > 0 &&
                    access(p, X_OK) == 0)
                        return p;
                free(p);
        }
        return strdup("iosched-bench");
}

int apply_validate(const char *prog, const struct ios_policy *p, struct ios_device *d,
                 const char *config, char **bench_args, int nbench_args)
{
        _cleanup_free_ char *want = NULL, *compare = NULL, *filename = NULL, *policy = NULL, *bench = NULL;
        struct ios_plan pl = {};
        char **argv;
        int e, k = 0;

        e = ios_plan_build(p, d, &pl);
        if (e < 0) {
                fprintf(stderr, "%s: %s: cannot read current settings: %s\n", prog, d->name, strerror(-e));
                return e;
        }
        for (size_t i = 0; i < pl.n; i++)
                if (streq(pl.c[i].key, "scheduler") &&
                    (pl.c[i].state == IOS_CHANGE_OK || pl.c[i].state == IOS_CHANGE_DRIFT))
                        want = strdup(pl.c[i].wanted);
        ios_plan_done(&pl);
        if (!d->sched_current) {
                fprintf(stderr, "%s: %s: no scheduler to choose (bio-based queue): nothing to validate\n",
                        prog, d->name);
                return -EINVAL;
        }
        if (!want) {
                fprintf(stderr, "%s: %s: the policy sets no scheduler the kernel offers here; comparing all offered\n",
                        prog, d->name);
                compare = strdup("--compare");
        } else if (streq(want, d->sched_current)) {
                fprintf(stderr, "%s: %s: the policy's scheduler %s is active; comparing it with every scheduler offered\n",
                        prog, d->name, want);
                compare = strdup("--compare");
        } else {
                fprintf(stderr, "%s: %s: current scheduler %s against the policy's %s\n", prog, d->name,
                        d->sched_current, want);
                if (asprintf(&compare, "--compare=%s,%s", d->sched_current, want) < 0)
                        compare = NULL;
        }
        if (!compare || asprintf(&filename, "--filename=/dev/%s", d->name) < 0)
                return -ENOMEM;
        if (nbench_args == 0)
                fprintf(stderr, "%s: %s: workload: a 4k random reader at depth 1 under a deep sequential reader, "
                        "judged on the reader's p99 (iosched-bench's mixed-read preset)\n", prog, d->name);
        /* each scheduler runs with the policy's tunables for it */
        if (asprintf(&policy, "--policy=%s", config ? config : "") < 0)
                return -ENOMEM;
        bench = bench_path();
        argv = calloc((size_t)nbench_args + 6, sizeof(char *));
        if (!bench || !argv)
                return -ENOMEM;
        argv[k++] = bench;
        argv[k++] = filename;
        argv[k++] = compare;
        argv[k++] = config ? policy : (char *)"--policy";
        for (int i = 0; i < nbench_args; i++)
                argv[k++] = bench_args[i];
        argv[k] = NULL;
        fflush(stdout);
        execvp(bench, argv);
        e = -errno;
        fprintf(stderr, "%s: cannot run %s: %s\n", prog, bench, strerror(-e));
        free(argv);
        return e;
}
