/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hist.h: fio's latency histogram and running statistics (hist.c), and the
 * rank statistics over them.  Included by bench.h (struct bench_result
 * holds these); split from it to keep that header to its size.
 */
#ifndef IOS_BENCH_HIST_H
#define IOS_BENCH_HIST_H

#include <stdint.h>

/*
 * fio's layout (stat.h): values below 2^(BITS+1) ns get one bucket each;
 * above, each power of two is split into 2^BITS buckets, so a bucket's
 * midpoint is within 1/2^(BITS+1) (0.78 %) of any value in it.
 */
#define BENCH_HIST_BITS 6
#define BENCH_HIST_VAL (1u << BENCH_HIST_BITS)
#define BENCH_HIST_GROUPS 29
#define BENCH_HIST_NR (BENCH_HIST_GROUPS * BENCH_HIST_VAL)

static inline unsigned bench_hist_index(uint64_t ns)
{
        unsigned msb, err_bits, idx;

        if (ns < 2 * BENCH_HIST_VAL)
                return (unsigned)ns;
        msb = 63u - (unsigned)__builtin_clzll(ns);
        err_bits = msb - BENCH_HIST_BITS;
        idx = ((err_bits + 1) << BENCH_HIST_BITS) +
              (unsigned)((ns >> err_bits) & (BENCH_HIST_VAL - 1));
        return idx < BENCH_HIST_NR - 1 ? idx : BENCH_HIST_NR - 1;
}
/* The value a bucket reports: its midpoint (fio's plat_idx_to_val). */
uint64_t bench_hist_value(unsigned idx);
/* Lowest value that falls in bucket idx, and the bucket's width. */
uint64_t bench_hist_low(unsigned idx);
uint64_t bench_hist_width(unsigned idx);

/* min/max/mean/stddev without storing samples: exact integer sums. */
struct bench_lat {
        uint64_t n, min, max, sum;
        unsigned __int128 sumsq;
};

static inline void bench_lat_add(struct bench_lat *l, uint64_t v)
{
        l->n++;
        l->sum += v;
        l->sumsq += (unsigned __int128)v * v;
        if (l->n == 1 || v < l->min)    /* the first: whatever the bounds were (reset or zeroed) */
                l->min = v;
        if (l->n == 1 || v > l->max)
                l->max = v;
}
void bench_lat_reset(struct bench_lat *l);
void bench_lat_merge(struct bench_lat *to, const struct bench_lat *from);
double bench_lat_mean(const struct bench_lat *l);
double bench_lat_stddev(const struct bench_lat *l);    /* sample stddev, as fio */

/*
 * fio's calc_clat_percentiles(): for each p (ascending or not), the
 * midpoint of the first bucket whose running count reaches p/100 * total.
 * Writes n values (0 for an empty histogram) and returns the total count.
 */
uint64_t bench_hist_percentiles(const uint64_t *hist, const double *p, unsigned n,
                                uint64_t *ret_vals);
void bench_hist_merge(uint64_t *to, const uint64_t *from);

/* One-sided exact Mann-Whitney p-value that a's values are larger than b's. */
double bench_mann_whitney_p(const double *a, unsigned na, const double *b, unsigned nb);
double bench_median(double *v, unsigned n);     /* sorts v */

#endif
