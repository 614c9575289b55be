/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * progress.c: the progress line (--eta).  A run (run.c) prints nothing: it
 * hands its figures to a struct bench_progress_ops once a second and once
 * more when it is over; main.c and compare.c pass this printer, which
 * rewrites one line on standard error and clears it at the end.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <unistd.h>

#include "bench.h"

bool bench_eta_wanted(const struct bench_opts *o, FILE *f)
{
        return o->eta == BENCH_ETA_ALWAYS ||
               (o->eta == BENCH_ETA_AUTO && isatty(fileno(f)) && o->runtime_ns + o->ramp_ns > 1000000000ull);
}

void bench_eta_update(void *userdata, const struct bench_progress *p)
{
        const struct bench_eta_line *line = userdata;
        const char *tag = line->tag && *line->tag ? line->tag : NULL;
        char a[32], b[32], x[32], y[32];

        if (p->done)
                fputs("\r\033[K", line->f);
        else
                fprintf(line->f, "\r\033[K%s%s[%s %.0f/%.0fs] r: %s IOPS %s/s  w: %s IOPS %s/s",
                        tag ? tag : "", tag ? " " : "", p->ramp ? "ramp" : "run", p->elapsed_s, p->total_s,
                        bench_fmt_num(a, sizeof(a), p->iops[BENCH_READ]),
                        bench_fmt_bytes(b, sizeof(b), p->bw[BENCH_READ]),
                        bench_fmt_num(x, sizeof(x), p->iops[BENCH_WRITE]),
                        bench_fmt_bytes(y, sizeof(y), p->bw[BENCH_WRITE]));
        fflush(line->f);
}
