/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * main.c: iosched-bench's entry point.  Parses the options, installs the
 * signal handlers (they only set a flag: the workers stop at their next
 * reap and the main path restores what it changed), opens the target,
 * finds the disk behind it through the library, runs either the jobs
 * (--loops times) or the scheduler comparison, and prints the report (to
 * --output=FILE if given).  The
 * code that fails says what kind of failure it is (enum bench_error_class);
 * exit_status() below is the one place that turns that into the exit
 * status documented in iosched-bench(8).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "compare.h"
#include "runner.h"
#include "jobs.h"
#include "macro.h"

/* iosched-bench(8), EXIT STATUS */
enum {
        EXIT_OK = 0,
        EXIT_FAILED = 1,                /* the run failed: I/O, setup, scheduler, interrupted */
        EXIT_USAGE = 2,
        EXIT_REFUSED = 3,               /* refused for safety */
};

static int exit_status(enum bench_error_class cls)
{
        switch (cls) {
        case BENCH_ERR_USAGE:
                return EXIT_USAGE;
        case BENCH_ERR_REFUSED:
                return EXIT_REFUSED;
        case BENCH_ERR_NONE:            /* a bare errno: a step that failed without saying more */
        case BENCH_ERR_SYSTEM:
        case BENCH_ERR_IO:
        case BENCH_ERR_SCHED:
        case BENCH_ERR_INTERRUPTED:
                break;
        }
        return EXIT_FAILED;
}

static void on_signal(int sig)
{
        bench_stop_signal = sig;
}

static void install_signals(void)
{
        struct sigaction sa;

        memset(&sa, 0, sizeof(sa));
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        /* no SA_RESTART: the main thread's sleep returns at once */
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        sigaction(SIGHUP, &sa, NULL);
        sigaction(SIGQUIT, &sa, NULL);
        signal(SIGPIPE, SIG_IGN);
}

/* The disk whose scheduler serves the target; NULL when there is none. */
static struct ios_device *find_disk(struct ios_ctx *root, const struct bench_target *tg)
{
        struct ios_device *d = NULL;
        char name[32];

        if (!tg->path || (!tg->is_bdev && tg->major == 0))
                return NULL;    /* null engine, tmpfs, overlay ... */
        snprintf(name, sizeof(name), "%u:%u", tg->major, tg->minor);
        return ios_device_new(root, name, &d) == 0 ? d : NULL;
}

static int run_single(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
                      struct bench_runner *runner, FILE *out, struct bench_error *e)
{
        struct bench_eta_line line = { .f = stderr };
        const struct bench_progress_ops eta = { .update = bench_eta_update, .userdata = &line };
        double iops[1000];
        unsigned n = 0;
        bool first = true;
        int r = 0;

        if (o->json && o->loops > 1) {
                bench_report_json_begin(out, o);
                fprintf(out, "  \"jobs\" : [\n");
        }
        for (unsigned l = 0; l < o->loops && r == 0 && !bench_stop_signal; l++) {
                struct bench_result res;
                char suffix[32], tag[64];

                snprintf(tag, sizeof(tag), "loop %u/%u", l + 1, o->loops);
                line.tag = o->loops > 1 ? tag : NULL;
                const struct bench_opts *ro;

                r = runner->run(runner, o, tg, disk, bench_eta_wanted(o, line.f) ? &eta : NULL, &res, e);
                ro = runner->shown(runner, o);
                if ((r == 0 || res.runtime_ns) && ro) {
                        if (o->json && o->loops > 1) {
                                snprintf(suffix, sizeof(suffix), ".%u", l + 1);
                                bench_report_json_units(out, ro, &res, suffix, &first);
                        } else if (o->json)
                                bench_report_json(out, ro, tg, disk, &res);
                        else {
                                if (o->loops > 1)
                                        fprintf(out, "loop %u/%u: ", l + 1, o->loops);
                                bench_report_text(out, ro, tg, disk, &res);
                        }
                        if (n < ELEMENTSOF(iops))
                                iops[n++] = bench_result_iops(&res, -1);
                }
                bench_result_done(&res);
        }
        if (o->json && o->loops > 1) {
                fprintf(out, "\n  ],\n");
                bench_report_json_disk_util(out, NULL, NULL);
                fprintf(out, "}\n");
        } else if (o->loops > 1 && n > 1) {
                double mn = iops[0], mx = iops[0], med;
                char a[32], b[32], c[32];

                for (unsigned i = 0; i < n; i++) {
                        mn = iops[i] < mn ? iops[i] : mn;
                        mx = iops[i] > mx ? iops[i] : mx;
                }
                med = bench_median(iops, n);
                fprintf(out, "IOPS over %u loops: median %s [%s - %s], spread %.1f%%\n", n,
                        bench_fmt_num(a, sizeof(a), med), bench_fmt_num(b, sizeof(b), mn),
                        bench_fmt_num(c, sizeof(c), mx), med > 0 ? (mx - mn) / med * 100 : 0);
        }
        if (r == 0 && bench_stop_signal)
                r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d", bench_stop_signal);
        return r;
}

/* What bench_jobs_finish() settles for our engine, for a run that goes to fio instead. */
static int fio_defaults(struct bench_opts *o)
{
        if (o->loops == 0)
                o->loops = o->compare ? 3 : 1;
        /* the settle after each switch fio is given (fioread.c), for the line before the first */
        for (unsigned i = 0; o->compare && i <= o->njobs; i++) {
                struct bench_opts *j = i < o->njobs ? &o->jobs[i] : o;

                if (bench_job_settles(j, true))
                        j->ramp_ns = BENCH_SWITCH_SETTLE_NS;
        }
        if (o->objective_job)
                snprintf(o->objective_label, sizeof(o->objective_label), "%s:%s", o->objective_job,
                         bench_objective_to_string(o->objective));
        else
                snprintf(o->objective_label, sizeof(o->objective_label), "%s", bench_objective_to_string(o->objective));
        return 0;
}

/* The program from its options to its exit status; app_free() frees it all. */
struct app {
        struct bench_opts o;
        struct bench_error e;
        struct bench_target tg;
        struct ios_ctx *root;
        struct ios_device *disk;
        struct bench_compare_hooks hooks;
        struct bench_runner runner;     /* ours or fio (runner.h) */
        bool use_fio;
        FILE *out;                      /* the report: stdout or --output=FILE */
};

/* The options, and who runs the jobs: 1 after --help or --version, else 0 or the error. */
static int parse(struct app *a, int argc, char **argv)
{
        struct bench_opts *o = &a->o;
        int r = bench_opts_parse(argc, argv, o, stdout, &a->e);

        if (r > 0)
                return r;
        /* --backend: fio runs what the native engine lacks (auto), or everything (fio) */
        if (!o->observe && ((r == -EOPNOTSUPP && o->backend != BENCH_BACKEND_NATIVE) ||
                            (r == 0 && o->backend == BENCH_BACKEND_FIO))) {
                a->use_fio = true;
                a->e = (struct bench_error){ 0 };
                r = fio_defaults(o);
        }
        if (r < 0)
                return r;
        if (!a->use_fio && o->ignored && o->ignored[0]) {
                /* fio's reporting/timing options (jobs.h): one line, then on */
                fprintf(stderr, "iosched-bench: note: ignored, they change only fio's own reporting or timing:");
                for (char **i = o->ignored; *i; i++)
                        fprintf(stderr, "%s %s", i == o->ignored ? "" : ",", *i);
                fputc('\n', stderr);
        }
        return 0;
}

/* The signals, /sys and the clock. */
static int start(struct app *a)
{
        int r;

        install_signals();
        atexit(bench_target_atexit);

        r = ios_ctx_new(NULL, &a->root);
        if (r < 0)
                return bench_error_set(&a->e, BENCH_ERR_SYSTEM, -r, "cannot open /sys: %s", ios_strerror(r));
        r = bench_clock_init(a->o.clocksource, a->root);
        if (r < 0)
                return bench_error_set(&a->e, BENCH_ERR_USAGE, -r, "--clocksource=cpu: no usable TSC on this machine");
        return 0;
}

/* --observe: the target only names the disk; never opened, no I/O */
static int observe(struct app *a)
{
        int r;

        if (a->o.policy && (r = bench_policy_hooks(a->o.policy_file, a->root, &a->hooks, &a->e)) < 0)
                return r;
        return bench_observe(&a->o, a->root, &a->hooks, stdout, &a->e);
}

/* The target (fio's, checked here before fio starts: fio.c; or ours), the policy hooks, the disk. */
static int open_target(struct app *a)
{
        struct bench_opts *o = &a->o;
        int r;

        bench_runner_init(&a->runner, a->use_fio);
        r = a->runner.prepare(&a->runner, o, a->root, &a->tg, &a->e);
        if (r < 0)
                return r;
        bench_backend_name = a->runner.name;
        if (o->compare && o->policy) {
                r = bench_policy_hooks(o->policy_file, a->root, &a->hooks, &a->e);
                if (r < 0)
                        return r;
        }
        a->disk = find_disk(a->root, &a->tg);
        return 0;
}

static int run(struct app *a)
{
        struct bench_opts *o = &a->o;
        int r = start(a);

        if (r >= 0)
                r = bench_record_check(o, &a->e);
        if (r < 0)
                return r;
        if (o->observe)
                return observe(a);
        r = open_target(a);
        if (r < 0)
                return r;
        if (o->output) {
                /* --output=FILE: the report there, as fio; errors still on stderr */
                a->out = fopen(o->output, "we");
                if (!a->out) {
                        a->out = stdout;
                        return bench_error_set(&a->e, BENCH_ERR_SYSTEM, errno, "cannot write %s: %s", o->output,
                                               ios_strerror(errno));
                }
        }
        if (o->compare)
                return bench_compare(o, &a->tg, a->disk, &a->hooks, &a->runner, a->out, &a->e);
        return run_single(o, &a->tg, a->disk, &a->runner, a->out, &a->e);
}

/* The exit status for r, the report's file closed and stdout flushed; the one message printed. */
static int exit_code(struct app *a, int r)
{
        struct bench_error *e = &a->e;
        int code = EXIT_OK;

        if (r < 0) {
                if (!e->msg[0])
                        bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s", ios_strerror(r));
                code = exit_status(e->cls);
        }
        if (a->out != stdout && fclose(a->out) != 0 && code == EXIT_OK) {
                bench_error_set(e, BENCH_ERR_SYSTEM, EIO, "error writing %s", a->o.output);
                code = exit_status(BENCH_ERR_SYSTEM);
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
                if (!e->msg[0])
                        bench_error_set(e, BENCH_ERR_SYSTEM, EIO, "error writing output");
                if (code == EXIT_OK)
                        code = exit_status(BENCH_ERR_SYSTEM);
        }
        if (e->msg[0] && code != EXIT_OK)
                fprintf(stderr, "iosched-bench: %s\n", e->msg);
        return code;
}

static void app_free(struct app *a)
{
        bench_policy_hooks_done(&a->hooks);
        if (a->runner.finish)
                a->runner.finish(&a->runner);
        bench_target_close(&a->tg);
        ios_device_free(a->disk);
        ios_ctx_free(a->root);
        bench_opts_done(&a->o);
}

int main(int argc, char **argv)
{
        struct app a = { .tg = { .fd = -1 }, .out = stdout };
        int r, code;

        bench_opts_init(&a.o);
        r = parse(&a, argc, argv);
        if (r > 0) {
                bench_opts_done(&a.o);
                return EXIT_OK;
        }
        if (r == 0)
                r = run(&a);
        code = exit_code(&a, r);
        app_free(&a);
        return code;
}
