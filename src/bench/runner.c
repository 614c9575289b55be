/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runner.c: the two runners behind runner.h.  Ours opens the targets with
 * the safety rules (jobtarget.c) and runs the jobs' threads (run.c); fio's
 * reads the jobs as fio does, checks what they touch and builds the fence
 * (fio.c's bench_fio_prepare), then runs fio once a run.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>

#include "jobs.h"
#include "runner.h"

static int native_prepare(struct bench_runner *r, const struct bench_opts *o, struct ios_ctx *root,
                          struct bench_target *tg, struct bench_error *e)
{
        uint64_t need = bench_workers_memory(o), max = bench_memory_max();
        char b1[32], b2[32];

        (void)r;
        if (need > max)
                return bench_error_set(e, BENCH_ERR_REFUSED, ENOMEM,
                                       "the jobs' I/O buffers would take %s (numjobs x iodepth x the "
                                       "largest block size), more than half of this machine's memory (%s)",
                                       bench_fmt_bytes(b1, sizeof(b1), (double)need),
                                       bench_fmt_bytes(b2, sizeof(b2), (double)max));
        return bench_target_open(o, root, tg, e);
}

static int native_run(struct bench_runner *r, const struct bench_opts *o, struct bench_target *tg,
                      struct ios_device *disk, const struct bench_progress_ops *progress,
                      struct bench_result *res, struct bench_error *e)
{
        (void)r;
        return bench_run(o, tg, disk, progress, res, e);
}

static const struct bench_opts *native_shown(const struct bench_runner *r, const struct bench_opts *o)
{
        (void)r;
        return o;
}

static void native_finish(struct bench_runner *r)
{
        (void)r;
}

static int fio_prepare(struct bench_runner *r, const struct bench_opts *o, struct ios_ctx *root,
                       struct bench_target *tg, struct bench_error *e)
{
        int rc = bench_fio_prepare(o, root, &r->fio, tg, e);

        if (rc < 0)
                return rc;
        if (o->unsupported && o->unsupported[0]) {
                /* auto: say why fio runs the job (jobs.h) */
                struct bench_error why = { 0 };

                bench_jobs_unsupported_error(o, &why);
                fprintf(stderr, "iosched-bench: note: %s; fio runs the job\n", why.msg);
        }
        r->name = r->fio.version;
        return 0;
}

static int fio_run(struct bench_runner *r, const struct bench_opts *o, struct bench_target *tg,
                   struct ios_device *disk, const struct bench_progress_ops *progress,
                   struct bench_result *res, struct bench_error *e)
{
        (void)tg;
        (void)progress;         /* fio says its own */
        return bench_fio_run(&r->fio, o, disk, res, e);
}

static const struct bench_opts *fio_shown(const struct bench_runner *r, const struct bench_opts *o)
{
        (void)o;
        /* fio's runs are reported as fio named its jobs (fioresult.c) */
        return r->fio.have_view ? &r->fio.view : NULL;
}

static void fio_finish(struct bench_runner *r)
{
        bench_fio_done(&r->fio);
}

void bench_runner_init(struct bench_runner *r, bool fio)
{
        if (fio)
                *r = (struct bench_runner){ .name = "fio", .prepare = fio_prepare, .run = fio_run,
                                            .shown = fio_shown, .finish = fio_finish,
                                            .fio = { .fence.rs = -1 } };
        else
                *r = (struct bench_runner){ .name = "native", .prepare = native_prepare, .run = native_run,
                                            .shown = native_shown, .finish = native_finish,
                                            .own_regions = true, .fio = { .fence.rs = -1 } };
}
