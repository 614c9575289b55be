/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runner.h: what runs a run's jobs, one interface over the two backends:
 * our own engines (run.c) and fio (fio.c).  The comparison, a plain run
 * and their reports call only this, so neither knows which one ran.
 */
#pragma once

#include "bench.h"
#include "fio/fio.h"

struct bench_runner {
        const char *name;               /* "native", or fio's version once prepared */
        /* the targets opened and checked before anything runs (tg: the first job's) */
        int (*prepare)(struct bench_runner *r, const struct bench_opts *o, struct ios_ctx *root,
                       struct bench_target *tg, struct bench_error *e);
        /* one run of o's jobs into res; progress may be NULL (and fio's runs show none) */
        int (*run)(struct bench_runner *r, const struct bench_opts *o, struct bench_target *tg,
                   struct ios_device *disk, const struct bench_progress_ops *progress,
                   struct bench_result *res, struct bench_error *e);
        /* the jobs as the reports show them: o, or as fio read and named them; NULL before a run */
        const struct bench_opts *(*shown)(const struct bench_runner *r, const struct bench_opts *o);
        void (*finish)(struct bench_runner *r);
        bool own_regions;               /* the reports may show tg's regions (fio's are fio's) */
        struct bench_fio fio;           /* the fio runner's state */
};

/* runner.c: r runs the jobs on our engines (fio false) or through fio */
void bench_runner_init(struct bench_runner *r, bool fio);
