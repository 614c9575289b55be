/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * place.c: where each job of a round runs, as fio's run_threads() starts
 * them: at its startdelay= after the round's start (fio counts it from the
 * run's genesis), and not before every job ahead of it has ended when it
 * has a stonewall, nor before the job its wait_for= names has; then its
 * ramp_time=, then its measured time.  The one rule of both the words
 * before a run (upfront.c: lengths foreseen) and a run's measured time
 * (sample.c: lengths measured, by either runner).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "macro.h"

void bench_jobs_place(struct bench_window *w, unsigned n)
{
        uint64_t ahead = 0;

        for (unsigned i = 0; i < n; i++) {
                const struct bench_opts *o = w[i].job;
                uint64_t start = o ? o->startdelay_ns : 0;

                if (o && i > 0 && o->stonewall)
                        start = ahead > start ? ahead : start;
                for (unsigned k = 0; o && o->wait_for && k < i; k++)
                        if (w[k].job && w[k].job->name && streq(w[k].job->name, o->wait_for)) {
                                start = w[k].to > start ? w[k].to : start;
                                break;
                        }
                w[i].start = start;
                w[i].from = start + (o ? o->ramp_ns : 0);
                w[i].to = w[i].from + w[i].len;
                ahead = w[i].to > ahead ? w[i].to : ahead;
        }
}

static int by_from(const void *a, const void *b)
{
        const struct bench_window *x = a, *y = b;

        return x->from < y->from ? -1 : x->from > y->from;
}

static int by_start(const void *a, const void *b)
{
        const struct bench_window *x = a, *y = b;

        return x->start < y->start ? -1 : x->start > y->start;
}

uint64_t bench_windows_cover(struct bench_window *w, unsigned n, bool ramps)
{
        uint64_t sum = 0;

        qsort(w, n, sizeof(*w), ramps ? by_start : by_from);
        for (unsigned i = 0, k; i < n; i = k) {
                uint64_t from = ramps ? w[i].start : w[i].from, to = w[i].to;

                for (k = i + 1; k < n && (ramps ? w[k].start : w[k].from) <= to; k++)
                        to = w[k].to > to ? w[k].to : to;
                sum += to - from;
        }
        return sum;
}
