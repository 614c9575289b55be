/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * verdict.c: which variant wins, by how much, and whether that is more than
 * noise, for --compare and --observe alike.  Per variant, the median of its
 * values (one per loop or round) and their spread, (max - min) / median;
 * the noise is the median spread over the variants with two values or more.
 * The best variant is the one with the best median; the margin is its
 * advantage over the runner-up in percent; the win is called significant
 * when the exact one-sided Mann-Whitney test (hist.c) on the two variants'
 * values gives p <= 0.05 (with 3 values each: every value of the winner
 * beat every value of the runner-up) and the margin is larger than half
 * the noise.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"

void bench_spread(const double *v, unsigned n, double *ret_med, double *ret_min, double *ret_max,
                  double *ret_spread)
{
        double *c = n ? malloc(n * sizeof(*c)) : NULL;
        double med = 0, mn = 0, mx = 0;

        if (c) {
                memcpy(c, v, n * sizeof(*c));
                med = bench_median(c, n);       /* sorts c */
                mn = c[0];
                mx = c[n - 1];
                free(c);
        }
        if (ret_med)
                *ret_med = med;
        if (ret_min)
                *ret_min = mn;
        if (ret_max)
                *ret_max = mx;
        if (ret_spread)
                *ret_spread = med > 0 ? (mx - mn) / med * 100 : 0;
}

void bench_verdict_decide(double * const *values, const unsigned *counts, unsigned n, bool lower_is_better,
                          struct bench_verdict *v)
{
        double spreads[256], med[256], a[64], b[64];
        unsigned ns = 0, na, nb;

        *v = (struct bench_verdict){ .best = -1, .second = -1, .p = 1.0 };
        for (unsigned i = 0; i < n && i < ELEMENTSOF(med); i++) {
                double sp;

                if (counts[i] == 0)
                        continue;
                bench_spread(values[i], counts[i], &med[i], NULL, NULL, &sp);
                if (counts[i] > 1 && ns < ELEMENTSOF(spreads))
                        spreads[ns++] = sp;
                if (v->best < 0 || (lower_is_better ? med[i] < med[v->best] : med[i] > med[v->best])) {
                        v->second = v->best;
                        v->best = (int)i;
                } else if (v->second < 0 || (lower_is_better ? med[i] < med[v->second] : med[i] > med[v->second]))
                        v->second = (int)i;
        }
        v->noise = bench_median(spreads, ns);
        if (v->best < 0 || v->second < 0)
                return;
        {
                double x = med[v->best], y = med[v->second];
                v->margin = lower_is_better ? (x > 0 ? (y / x - 1) * 100 : 0) : (y > 0 ? (x / y - 1) * 100 : 0);
        }
        /* "better" as a larger number for the test */
        na = counts[v->best] < ELEMENTSOF(a) ? counts[v->best] : ELEMENTSOF(a);
        nb = counts[v->second] < ELEMENTSOF(b) ? counts[v->second] : ELEMENTSOF(b);
        for (unsigned k = 0; k < na; k++)
                a[k] = lower_is_better ? -values[v->best][k] : values[v->best][k];
        for (unsigned k = 0; k < nb; k++)
                b[k] = lower_is_better ? -values[v->second][k] : values[v->second][k];
        v->p = bench_mann_whitney_p(a, na, b, nb);
        v->significant = na > 1 && nb > 1 && v->p <= 0.05 && v->margin > v->noise / 2;
}
