/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * joblist.c: the run's list of jobs, below everything that fills it (the
 * command line in options.c, job files in jobfile.c, the presets and the
 * finish in jobs.c): a job added as a copy of the options before it, and an
 * fio option recorded as ignored or as one the native engine lacks.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

int bench_jobs_add(struct bench_opts *g, const struct bench_opts *base, const char *name,
                   struct bench_opts **ret)
{
        struct bench_opts *jobs, *j;
        int r;

        if (!name || !*name)
                return bench_error_set(NULL, BENCH_ERR_USAGE, EINVAL, "empty job name");
        if (g->njobs >= BENCH_JOBS_MAX)
                return -E2BIG;
        /* the room is kept (capjobs): the list doubles, and adding n jobs copies O(n) of them */
        jobs = ios_grow(g->jobs, &g->capjobs, (size_t)g->njobs + 1, sizeof(*jobs));
        if (!jobs)
                return -ENOMEM;
        g->jobs = jobs;
        j = &jobs[g->njobs];
        r = bench_opts_copy_job(j, base);
        if (r == 0 && !(j->name = strdup(name)))
                r = -ENOMEM;
        g->njobs++;             /* even on failure: bench_opts_done() frees what was copied */
        if (r < 0)
                return r;
        *ret = j;
        return 0;
}

int bench_jobs_record(struct bench_opts *g, int r, const char *where, const char *name, const char *value)
{
        char ***list;

        if (r != 1 && r != -EOPNOTSUPP)
                return r;
        list = r == 1 ? &g->ignored : &g->unsupported;
        if (where)
                r = value ? ios_strv_pushf(list, "%s: %s=%s", where, name, value) :
                            ios_strv_pushf(list, "%s: %s", where, name);
        else
                r = value && *value ? ios_strv_pushf(list, "--%s=%s", name, value) :
                                      ios_strv_pushf(list, "--%s", name);
        return r < 0 ? r : 0;
}
