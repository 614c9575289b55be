/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * opts.c: the life of struct bench_opts: fio's defaults (bench_opts_init),
 * a job's copy of the global options (bench_opts_copy_job), and their
 * release (bench_opts_done, bench_opts_done_job).  Filled by the command
 * line (options.c), job options (jobopts.c) and job files (jobfile.c).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"
#include "strv.h"

void bench_opts_init(struct bench_opts *o)
{
        static const double defp[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95,
                                       99, 99.5, 99.9, 99.95, 99.99 };  /* fio's list */

        memset(o, 0, sizeof(*o));
        o->engine = bench_engine_find("io_uring");
        o->rw = BENCH_RW_READ;
        o->rwmixread = 50;
        o->bs[BENCH_READ] = o->bs[BENCH_WRITE] = 4096;
        o->iodepth = 1;
        o->numjobs = 1;
        o->batch_complete_min = 1;
        o->runtime_ns = 10ull * 1000000000ull;
        o->direct = true;
        o->fixedbufs = o->registerfiles = true;
        o->randrepeat = true;
        o->invalidate = true;
        o->thinktime_blocks = 1;
        o->prioclass = o->prio = -1;
        o->loops = 0;                   /* 0: 1, or 3 with --compare */
        o->objective = BENCH_OBJ_IOPS;
        o->objective_jobidx = -1;
        memcpy(o->percentiles, defp, sizeof(defp));
        o->n_percentiles = ELEMENTSOF(defp);
}

void bench_opts_done(struct bench_opts *o)
{
        for (unsigned i = 0; o->jobs && i < o->njobs; i++)
                bench_opts_done_job(&o->jobs[i]);
        free(o->jobs);
        o->jobs = NULL;
        o->njobs = 0;
        o->capjobs = 0;
        bench_opts_done_job(o);
        ios_strv_free(o->compare_scheds);
        ios_strv_free(o->jobfiles);
        ios_strv_free(o->unsupported);
        ios_strv_free(o->ignored);
        ios_strv_free(o->fio_args);
        ios_strv_free(o->fio_settings);
        ios_strv_free(o->jobtexts);
        o->unsupported = o->ignored = o->fio_args = o->fio_settings = o->jobtexts = NULL;
        o->jobtexts_len = 0;
        free(o->target_device);
        o->target_device = NULL;
        free(o->policy_file);
        free(o->output);
        free(o->workload);
        free(o->objective_job);
        o->policy_file = o->output = o->workload = o->objective_job = NULL;
        o->compare_scheds = o->jobfiles = NULL;
}

int bench_opts_copy_job(struct bench_opts *dst, const struct bench_opts *src)
{
        *dst = *src;
        dst->filename = dst->name = dst->directory = NULL;
        dst->output = dst->workload = dst->objective_job = dst->policy_file = NULL;
        dst->jobfiles = dst->compare_scheds = NULL;
        dst->jobs = NULL;
        dst->njobs = 0;
        dst->capjobs = 0;
        dst->unsupported = dst->ignored = NULL;
        if ((src->filename && !(dst->filename = strdup(src->filename))) ||
            (src->directory && !(dst->directory = strdup(src->directory))))
                return -ENOMEM;
        return 0;
}

void bench_opts_done_job(struct bench_opts *o)
{
        free(o->filename);
        free(o->name);
        free(o->directory);
        o->filename = o->name = o->directory = NULL;
}
