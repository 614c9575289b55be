/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * hist.c: the statistics of a run.  Latency percentiles come from fio's
 * log-linear histogram with fio's bucket layout and fio's percentile rule
 * (first bucket whose running count reaches p% of the total, reported as its
 * midpoint), so the two tools can only disagree through what they measured,
 * not through the estimator; the bucket index itself is an inline clz in
 * bench.h because it runs once per I/O.  min/max/mean/stddev are exact
 * integer sums.  The median and an exact Mann-Whitney test, used to decide
 * whether a scheduler's win is larger than the run-to-run noise, live here
 * too because they are the same kind of pure arithmetic.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

uint64_t bench_hist_low(unsigned idx)
{
        unsigned err_bits;

        if (idx >= BENCH_HIST_NR)
                idx = BENCH_HIST_NR - 1;
        if (idx < 2 * BENCH_HIST_VAL)
                return idx;
        err_bits = (idx >> BENCH_HIST_BITS) - 1;
        return (1ull << (err_bits + BENCH_HIST_BITS)) +
               ((uint64_t)(idx % BENCH_HIST_VAL) << err_bits);
}

uint64_t bench_hist_width(unsigned idx)
{
        if (idx >= BENCH_HIST_NR)
                idx = BENCH_HIST_NR - 1;
        if (idx < 2 * BENCH_HIST_VAL)
                return 1;
        return 1ull << ((idx >> BENCH_HIST_BITS) - 1);
}

uint64_t bench_hist_value(unsigned idx)
{
        uint64_t w = bench_hist_width(idx);

        /* fio: base + (k + 0.5) * width, truncated; exact for width >= 2 */
        return w == 1 ? bench_hist_low(idx) : bench_hist_low(idx) + w / 2;
}

void bench_hist_merge(uint64_t *to, const uint64_t *from)
{
        for (unsigned i = 0; i < BENCH_HIST_NR; i++)
                to[i] += from[i];
}

uint64_t bench_hist_percentiles(const uint64_t *hist, const double *p, unsigned n,
                                uint64_t *ret_vals)
{
        unsigned order[BENCH_MAX_PERCENTILES];
        uint64_t total = 0, sum = 0;
        unsigned j = 0;

        if (n > BENCH_MAX_PERCENTILES)
                n = BENCH_MAX_PERCENTILES;
        for (unsigned i = 0; i < BENCH_HIST_NR; i++)
                total += hist[i];
        for (unsigned i = 0; i < n; i++) {
                ret_vals[i] = 0;
                order[i] = i;
        }
        if (total == 0 || n == 0)
                return total;
        /* fio sorts the list first; keep the caller's order for the output */
        for (unsigned i = 1; i < n; i++)
                for (unsigned k = i; k > 0 && p[order[k - 1]] > p[order[k]]; k--) {
                        unsigned x = order[k];
                        order[k] = order[k - 1];
                        order[k - 1] = x;
                }
        for (unsigned i = 0; i < BENCH_HIST_NR && j < n; i++) {
                sum += hist[i];
                while (j < n && (long double)sum >= (long double)p[order[j]] / 100.0L * total) {
                        ret_vals[order[j]] = bench_hist_value(i);
                        j++;
                }
        }
        return total;
}

void bench_lat_reset(struct bench_lat *l)
{
        memset(l, 0, sizeof(*l));
        l->min = UINT64_MAX;
}

void bench_lat_merge(struct bench_lat *to, const struct bench_lat *from)
{
        if (from->n == 0)
                return;
        if (to->n == 0) {
                /* an empty one's bounds are none, reset or zeroed */
                *to = *from;
                return;
        }
        to->n += from->n;
        to->sum += from->sum;
        to->sumsq += from->sumsq;
        if (from->min < to->min)
                to->min = from->min;
        if (from->max > to->max)
                to->max = from->max;
}

double bench_lat_mean(const struct bench_lat *l)
{
        return l->n ? (double)l->sum / (double)l->n : 0.0;
}

double bench_lat_stddev(const struct bench_lat *l)
{
        uint64_t q, r;
        unsigned __int128 dev;

        if (l->n < 2)
                return 0.0;
        /*
         * sumsq - sum^2/n, exact in integers: with sum = q*n + r (0 <= r < n)
         * it is sumsq - q^2*n - 2*q*r - r^2/n, and every term up to the last
         * fits (q^2*n <= sumsq).  No long double: valgrind computes that in
         * 64 bits, and the old formula lost the variance of large values there.
         */
        q = l->sum / l->n;
        r = l->sum % l->n;
        dev = l->sumsq - (unsigned __int128)q * q * l->n - (unsigned __int128)2 * q * r;
        {
                double v = ((double)dev - (double)r * (double)r / (double)l->n) / (double)(l->n - 1);
                return v > 0 ? sqrt(v) : 0.0;
        }
}

void bench_dir_stats_reset(struct bench_dir_stats *s)
{
        memset(s, 0, sizeof(*s));
        bench_lat_reset(&s->slat);
        bench_lat_reset(&s->clat);
        bench_lat_reset(&s->lat);
}

void bench_dir_stats_merge(struct bench_dir_stats *to, const struct bench_dir_stats *from)
{
        to->ios += from->ios;
        to->bytes += from->bytes;
        to->short_ios += from->short_ios;
        /* fio's group: the longest (sum_group_stats()); a run's jobs are placed (bench_result_spans()) */
        to->runtime_ns = from->runtime_ns > to->runtime_ns ? from->runtime_ns : to->runtime_ns;
        bench_lat_merge(&to->slat, &from->slat);
        bench_lat_merge(&to->clat, &from->clat);
        bench_lat_merge(&to->lat, &from->lat);
        bench_hist_merge(to->clat_hist, from->clat_hist);
}

static int cmp_double(const void *a, const void *b)
{
        double x = *(const double *)a, y = *(const double *)b;

        return x < y ? -1 : x > y;
}

double bench_median(double *v, unsigned n)
{
        if (n == 0)
                return 0.0;
        qsort(v, n, sizeof(*v), cmp_double);
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/*
 * P(U >= u) under H0 for the Mann-Whitney U statistic "pairs where a > b",
 * by counting the orderings of na a's and nb b's with each U (the classic
 * recursion f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u)).  Ties count one half and
 * the observed U is rounded down, which can only make p larger.
 */
double bench_mann_whitney_p(const double *a, unsigned na, const double *b, unsigned nb)
{
        unsigned umax = na * nb, u = 0;
        double twice = 0, total = 0, tail = 0;
        double *f, *g;

        if (na == 0 || nb == 0 || na > 64 || nb > 64)
                return 1.0;
        for (unsigned i = 0; i < na; i++)
                for (unsigned j = 0; j < nb; j++)
                        twice += a[i] > b[j] ? 2 : a[i] == b[j] ? 1 : 0;
        u = (unsigned)(twice / 2);

        /* f[m][n][u] rolled over m: g holds row m-1, f row m; index (n, u) */
#define AT(arr, n_, u_) (arr)[(size_t)(n_) * (umax + 1) + (u_)]
        f = calloc((size_t)(nb + 1) * (umax + 1), sizeof(double));
        g = calloc((size_t)(nb + 1) * (umax + 1), sizeof(double));
        if (!f || !g) {
                free(f);
                free(g);
                return 1.0;
        }
        for (unsigned n = 0; n <= nb; n++)
                AT(g, n, 0) = 1;                /* m = 0: one ordering, U = 0 */
        for (unsigned m = 1; m <= na; m++) {
                for (unsigned n = 0; n <= nb; n++)
                        for (unsigned x = 0; x <= umax; x++) {
                                double v = 0;
                                /* the largest element is an a: it beats all n b's */
                                if (x >= n)
                                        v += AT(g, n, x - n);
                                /* or it is a b: U unchanged */
                                if (n > 0)
                                        v += AT(f, n - 1, x);
                                AT(f, n, x) = v;
                        }
                double *t = g;
                g = f;
                f = t;
        }
        for (unsigned x = 0; x <= umax; x++) {
                total += AT(g, nb, x);
                if (x >= u)
                        tail += AT(g, nb, x);
        }
#undef AT
        free(f);
        free(g);
        return total > 0 ? tail / total : 1.0;
}
