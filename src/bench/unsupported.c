/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * unsupported.c: the options a job uses that the native engine does not
 * implement.  Parsing (options.c, jobfile.c) goes on past each one and
 * records it here, so that one message lists them all, with FILE:LINE for
 * a job file's; with --backend=auto the job then runs under fio (fio.c).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "macro.h"

int bench_jobs_unsupported(struct bench_opts *g, const char *where, const char *name)
{
        if (where)
                return ios_strv_pushf(&g->unsupported, "%s: %s", where, name);
        return ios_strv_pushf(&g->unsupported, "--%s", name);
}

int bench_jobs_unsupported_error(const struct bench_opts *g, struct bench_error *e)
{
        _cleanup_free_ char *list = ios_strv_join(g->unsupported, ", ");

        *e = (struct bench_error){ 0 };
        return bench_error_set(e, BENCH_ERR_USAGE, EOPNOTSUPP,
                               "the native engine does not implement %s (--backend=fio runs the job under fio)",
                               list ? list : "some options");
}
