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
#include "fio.h"
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
                      struct bench_fio *fio, FILE *out, struct bench_error *e)
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

                if (fio)
                        r = bench_fio_run(fio, o, disk, &res, e);
                else
                        r = bench_run(o, tg, disk, bench_eta_wanted(o, line.f) ? &eta : NULL, &res, e);
                /* fio's runs are reported as fio named its jobs (fioresult.c) */
                ro = fio && fio->have_view ? &fio->view : o;
                if ((r == 0 || res.runtime_ns) && (!fio || fio->have_view)) {
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
        if (o->objective_job)
                snprintf(o->objective_label, sizeof(o->objective_label), "%s:%s", o->objective_job,
                         bench_objective_to_string(o->objective));
        else
                snprintf(o->objective_label, sizeof(o->objective_label), "%s", bench_objective_to_string(o->objective));
        return 0;
}

int main(int argc, char **argv)
{
        struct bench_opts o;
        struct bench_error e = { 0 };
        struct bench_target tg = { .fd = -1 };
        struct ios_ctx *root = NULL;
        struct ios_device *disk = NULL;
        struct bench_compare_hooks hooks = {};
        struct bench_fio fio = {};
        bool use_fio = false;
        FILE *out = stdout;
        int r, code = EXIT_OK;

        bench_opts_init(&o);
        r = bench_opts_parse(argc, argv, &o, stdout, &e);
        if (r > 0) {
                bench_opts_done(&o);
                return EXIT_OK;
        }
        /* --backend: fio runs what the native engine lacks (auto), or everything (fio) */
        if (!o.observe && ((r == -EOPNOTSUPP && o.backend != BENCH_BACKEND_NATIVE) ||
                           (r == 0 && o.backend == BENCH_BACKEND_FIO))) {
                use_fio = true;
                e = (struct bench_error){ 0 };
                r = fio_defaults(&o);
        }
        if (r < 0)
                goto fail;
        if (!use_fio && o.ignored && o.ignored[0]) {
                /* fio's reporting/timing options (jobs.h): one line, then on */
                fprintf(stderr, "iosched-bench: note: ignored, they change only fio's own reporting or timing:");
                for (char **i = o.ignored; *i; i++)
                        fprintf(stderr, "%s %s", i == o.ignored ? "" : ",", *i);
                fputc('\n', stderr);
        }
        install_signals();
        atexit(bench_target_atexit);

        r = ios_ctx_new(NULL, &root);
        if (r < 0) {
                bench_error_set(&e, BENCH_ERR_SYSTEM, -r, "cannot open /sys: %s", strerror(-r));
                goto fail;
        }
        r = bench_clock_init(o.clocksource, root);
        if (r < 0) {
                bench_error_set(&e, BENCH_ERR_USAGE, -r, "--clocksource=cpu: no usable TSC on this machine");
                goto fail;
        }
        if (o.observe) {
                /* the target only names the disk: never opened, no I/O */
                if (o.policy && (r = bench_policy_hooks(o.policy_file, root, &hooks, &e)) < 0)
                        goto fail;
                r = bench_observe(&o, root, &hooks, stdout, &e);
                if (r < 0)
                        goto fail;
                goto out;
        }
        if (use_fio) {
                /* fio's targets, checked here before fio starts (fio.c) */
                r = bench_fio_prepare(&o, root, &fio, &tg, &e);
                if (r < 0)
                        goto fail;
                if (o.unsupported && o.unsupported[0]) {
                        /* auto: say why fio runs the job (jobs.h) */
                        struct bench_error why = { 0 };

                        bench_jobs_unsupported_error(&o, &why);
                        fprintf(stderr, "iosched-bench: note: %s; fio runs the job\n", why.msg);
                }
                bench_backend_name = fio.version;
        } else
                r = bench_target_open(&o, root, &tg, &e);
        if (r < 0)
                goto fail;
        if (o.compare && o.policy) {
                r = bench_policy_hooks(o.policy_file, root, &hooks, &e);
                if (r < 0)
                        goto fail;
        }
        disk = find_disk(root, &tg);
        if (o.output) {
                /* --output=FILE: the report there, as fio; errors still on stderr */
                out = fopen(o.output, "we");
                if (!out) {
                        r = bench_error_set(&e, BENCH_ERR_SYSTEM, errno, "cannot write %s: %s", o.output, strerror(errno));
                        out = stdout;
                        goto fail;
                }
        }
        if (o.compare)
                r = bench_compare(&o, &tg, disk, &hooks, use_fio ? &fio : NULL, out, &e);
        else
                r = run_single(&o, &tg, disk, use_fio ? &fio : NULL, out, &e);
        if (r < 0)
                goto fail;
        goto out;
fail:
        if (!e.msg[0])
                bench_error_set(&e, BENCH_ERR_SYSTEM, -r, "%s", strerror(-r));
        code = exit_status(e.cls);
out:
        if (out != stdout && fclose(out) != 0 && code == EXIT_OK) {
                bench_error_set(&e, BENCH_ERR_SYSTEM, EIO, "error writing %s", o.output);
                code = exit_status(BENCH_ERR_SYSTEM);
        }
        if (fflush(stdout) != 0 || ferror(stdout)) {
                if (!e.msg[0])
                        bench_error_set(&e, BENCH_ERR_SYSTEM, EIO, "error writing output");
                if (code == EXIT_OK)
                        code = exit_status(BENCH_ERR_SYSTEM);
        }
        if (e.msg[0] && code != EXIT_OK)
                fprintf(stderr, "iosched-bench: %s\n", e.msg);
        bench_policy_hooks_done(&hooks);
        bench_fio_done(&fio);
        bench_target_close(&tg);
        ios_device_free(disk);
        ios_ctx_free(root);
        bench_opts_done(&o);
        return code;
}
