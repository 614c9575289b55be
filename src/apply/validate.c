/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate.c: `iosched-apply validate DEVICE`: measure the scheduler the
 * policy wants against the one the disk has, on the disk itself, with
 * iosched-bench --compare (which restores everything it changed), and say
 * the verdict about the policy's choice.  The benchmark is a separate
 * program so that iosched-apply, which udev runs once per disk, never
 * loads liburing or libaio; it runs as a child (validate-run.c) with
 * --target-device, so that a job naming any other file or device is
 * refused before anything starts, and -J, whose verdict validate-verdict.c
 * reads.  The policy reaches it through --policy (validate-policy.c).
 * Unless the arguments after "--" give a job, the comparison is a bare
 * --compare, so iosched-bench runs a workload that separates schedulers: a
 * 4k random reader at depth 1 under a deep sequential reader (its
 * mixed-read preset; mixed-latency, under a writer, with --allow-write),
 * judged on the reader's p99.  exit_of_bench() is the one place that turns
 * what the bench did into validate's exit status.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "cli.h"
#include "validate.h"
#include "strv.h"

/* IOSCHED_BENCH, else iosched-bench next to our own executable, else from PATH. */
static char *bench_path(void)
{
        char self[PATH_MAX], *slash, *p = NULL;
        const char *env = getenv("IOSCHED_BENCH");
        ssize_t n;

        if (env && *env)
                return strdup(env);
        n = readlink("/proc/self/exe", self, sizeof(self) - 1);
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

/* The bench's options that validate gives itself: the user's would change what it reads. */
static const char *owned_option(char **args, int n)
{
        static const char * const owned[] = { "filename", "target-device", "compare", "policy", "json", "J",
                                              "output", "output-format", "observe", "help", "h", "version", "V" };

        for (int i = 0; i < n && !streq(args[i], "--"); i++) {
                const char *a = args[i], *name = a + strspn(a, "-");
                size_t len = strcspn(name, "=");

                if (a[0] != '-' || name == a)
                        continue;
                for (size_t k = 0; k < ELEMENTSOF(owned); k++)
                        if (strlen(owned[k]) == len && !strncmp(name, owned[k], len))
                                return a;
        }
        return NULL;
}

static int err(struct validate *s, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err(struct validate *s, int code, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        code = apply_verr(s->o->out, code, s->dev, fmt, ap);
        va_end(ap);
        return code;
}

/* The policy's scheduler and what to compare it with, said up front. */
static int plan(struct validate *s)
{
        struct ios_device *d = s->o->dev;
        struct ios_plan pl = {};
        int e;

        e = ios_plan_build(s->o->policy, d, &pl);
        if (e < 0)
                return err(s, APPLY_EXIT_ERROR, "cannot read current settings: %s", ios_strerror(-e));
        for (size_t i = 0; i < pl.n && !s->want; i++)
                if (streq(pl.c[i].key, "scheduler") &&
                    (pl.c[i].state == IOS_CHANGE_OK || pl.c[i].state == IOS_CHANGE_DRIFT)) {
                        s->want = strdup(pl.c[i].wanted);
                        s->rule = pl.c[i].source ? strdup(pl.c[i].source) : NULL;
                }
        ios_plan_done(&pl);
        if (!d->sched_current)
                return err(s, APPLY_EXIT_ERROR, "no scheduler to choose (bio-based queue): nothing to validate");
        if (!s->want) {
                fprintf(stderr, "%s: %s: the policy sets no scheduler the kernel offers here; comparing the "
                        "current %s with all offered\n", s->o->out->prog, s->dev, d->sched_current);
                s->compare = strdup("--compare");
        } else if (streq(s->want, d->sched_current)) {
                fprintf(stderr, "%s: %s: the policy's scheduler %s is active; comparing it with every scheduler "
                        "offered\n", s->o->out->prog, s->dev, s->want);
                s->compare = strdup("--compare");
        } else {
                fprintf(stderr, "%s: %s: current scheduler %s against the policy's %s\n", s->o->out->prog, s->dev,
                        d->sched_current, s->want);
                if (asprintf(&s->compare, "--compare=%s,%s", d->sched_current, s->want) < 0)
                        s->compare = NULL;
        }
        if (!s->compare || asprintf(&s->filename, "--filename=/dev/%s", s->dev) < 0 ||
            asprintf(&s->target, "--target-device=/dev/%s", s->dev) < 0)
                return err(s, APPLY_EXIT_ERROR, "out of memory");
        if (s->o->nbench_args == 0)
                fprintf(stderr, "%s: %s: workload: a 4k random reader at depth 1 under a deep sequential reader, "
                        "judged on the reader's p99 (iosched-bench's mixed-read preset)\n", s->o->out->prog, s->dev);
        return 0;
}

/* The bench's last line on stderr without its "iosched-bench: ", or that it gave none. */
static const char *bench_reason(const char *last)
{
        const char *why = startswith(last, "iosched-bench: ");

        return why && *why ? why : "it gave no reason";
}

/* iosched-bench's exit status (iosched-bench(8), EXIT STATUS) as validate's; -1: read its verdict. */
static int exit_of_bench(struct validate *s)
{
        const struct apply_bench_run *r = &s->run;
        const char *last = r->last_err;

        switch (r->status) {
        case 0:
                return -1;
        case 3:         /* refused for safety: a write without --allow-write, a mounted or held device */
                return err(s, APPLY_EXIT_REFUSED, "no verdict: iosched-bench refused the run: %s",
                           bench_reason(last));
        case 2:
                if (strstr(last, "unknown option") && strstr(last, "--target-device"))
                        return err(s, APPLY_EXIT_ERROR, "no verdict: this iosched-bench has no --target-device "
                                   "(older than iosched-apply)");
                /* --target-device: a job names another file or device than this disk */
                if (strstr(last, "target-device") || strstr(last, "target device"))
                        return err(s, APPLY_EXIT_REFUSED, "no verdict: the job names another target than /dev/%s; "
                                   "nothing was switched", s->dev);
                /* exit 2 is a bad option or value, in a job file too, or a job the bench does not run */
                return err(s, APPLY_EXIT_ERROR, "no verdict: iosched-bench ran no comparison (exit 2): %s",
                           bench_reason(last));
        case 1:
                return err(s, APPLY_EXIT_ERROR, "no verdict: the run failed (iosched-bench exit 1): %s",
                           bench_reason(last));
        case 127:
                return err(s, APPLY_EXIT_ERROR, "no verdict: iosched-bench could not be run");
        default:
                if (r->status > 128)
                        return err(s, APPLY_EXIT_ERROR, "no verdict: iosched-bench was killed by signal %d",
                                   r->status - 128);
                return err(s, APPLY_EXIT_ERROR, "no verdict: iosched-bench exit %d", r->status);
        }
}

static int run_bench(struct validate *s)
{
        const struct apply_validate_opts *o = s->o;
        _cleanup_free_ char *bench = bench_path(), *msg = NULL;
        _cleanup_free_ char **argv = NULL;
        int e, k = 0, rc;

        e = apply_validate_policy_arg(o, &s->policy, &s->tmpdir, &msg);
        if (e < 0)
                return err(s, APPLY_EXIT_ERROR, "%s", msg ? msg : ios_strerror(-e));
        argv = calloc((size_t)o->nbench_args + 9, sizeof(char *));
        if (!bench || !argv)
                return err(s, APPLY_EXIT_ERROR, "out of memory");
        argv[k++] = bench;
        argv[k++] = s->filename;
        argv[k++] = s->target;
        argv[k++] = s->compare;
        argv[k++] = s->policy;
        argv[k++] = (char *)"-J";
        if (isatty(STDERR_FILENO))      /* its stderr is a pipe to us: the progress line as on a terminal */
                argv[k++] = (char *)"--eta=always";
        for (int i = 0; i < o->nbench_args; i++)
                argv[k++] = o->bench_args[i];
        argv[k] = NULL;
        e = apply_bench_run(argv, &s->run);
        s->ran = e == 0 || s->run.status >= 0;
        if (e < 0 && s->run.status < 0)
                return err(s, APPLY_EXIT_ERROR, "cannot run %s: %s", bench, ios_strerror(-e));
        rc = exit_of_bench(s);
        if (rc >= 0)
                return rc;
        if (e < 0)
                return err(s, APPLY_EXIT_ERROR, "no verdict: cannot read iosched-bench's report: %s",
                           ios_strerror(-e));
        s->sched = s->want ? s->want : o->dev->sched_current;
        e = apply_verdict_read(s->run.out ? s->run.out : "", s->run.outlen, s->sched, &s->ev, &msg);
        if (e < 0)
                return err(s, APPLY_EXIT_ERROR, "no verdict: %s", msg ? msg : ios_strerror(-e));
        s->have_ev = true;
        return s->ev.verdict == IOS_EVIDENCE_BEATEN ? APPLY_EXIT_BEATEN : 0;
}

static void print_json(struct validate *s, int rc)
{
        const struct ios_device *d = s->o->dev;
        FILE *f = stdout;

        apply_json_header(s->o->out, f, "validate");
        fputs(",\n \"device\": ", f);
        ios_json_string(f, s->dev);
        fputs(", \"current_scheduler\": ", f);
        ios_json_string(f, d->sched_current);
        fputs(", \"policy_scheduler\": ", f);
        ios_json_string(f, s->want);
        fputs(", \"compared\": ", f);
        if (s->want && d->sched_current && !streq(s->want, d->sched_current))
                apply_json_strv(f, (char *[]){ d->sched_current, s->want, NULL });
        else
                apply_json_strv(f, d->sched_avail);
        if (s->ran)
                fprintf(f, ", \"bench_exit\": %d", s->run.status);
        else
                fputs(", \"bench_exit\": null", f);
        fputs(", \"rule\": ", f);
        ios_json_string(f, s->rule);
        apply_verdict_json(f, s->have_ev ? &s->ev : NULL);
        fputs(",\n \"record\": ", f);
        ios_json_string(f, s->record);
        fputs(", \"adopted\": ", f);
        ios_json_string(f, s->adopted);
        fprintf(f, ",\n \"exit\": %d, \"errors\": ", rc);
        apply_errors_json(s->o->out, f);
        fputs("}\n", f);
}

int apply_validate(const struct apply_validate_opts *o)
{
        struct validate s = { .o = o, .dev = o->dev->name };
        const char *bad = owned_option(o->bench_args, o->nbench_args);
        int rc;

        if (bad)
                rc = err(&s, APPLY_EXIT_ERROR, "validate gives iosched-bench %s itself: not after \"--\"", bad);
        else
                rc = plan(&s);
        if (rc == 0)
                rc = run_bench(&s);
        if (s.have_ev)
                apply_validate_record(&s);
        if (!o->json && s.have_ev) {
                apply_verdict_table(stdout, s.sched, &s.ev);
                apply_verdict_line(stdout, s.dev, s.want ? "the policy's" : "the current (the policy sets none)",
                                   s.sched, &s.ev);
        }
        if (o->adopt && s.have_ev) {
                int a = apply_validate_adopt(&s);

                rc = a > rc ? a : rc;
        }
        if (o->json)
                print_json(&s, rc);
        apply_validate_policy_remove(s.tmpdir);
        apply_validate_state_done(&s);
        return rc;
}
