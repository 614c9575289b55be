/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * verdict.c: which variant wins, by how much, and whether that is more than
 * noise, for --compare and --observe alike.  Per variant, the median of its
 * values (one per loop or round) and their spread, (max - min) / median;
 * the noise is the median spread over the variants with two values or more
 * (none: there is no noise figure).  The best variant is the one with the
 * best median.  How a variant A beat a variant B (bench_verdict_pair(), the
 * one rule: the verdict's best against its runner-up, and --compare's
 * "vs_best" of every variant): the margin, in percent of B's median, is
 * (B - A) / B when lower is better ("31% lower p99") and A / B - 1 when
 * higher is better, read as the ratio A / B ("1.4x the IOPS"); the win is
 * significant when both have two values or more, the exact one-sided
 * Mann-Whitney test (hist.c) on their values gives p <= 0.05 (with 3 values
 * each: every value of A beat every value of B) and the margin is larger
 * than half the noise.
 */
#define _GNU_SOURCE
#include <stdio.h>
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

/* "reader:p99" -> "reader p99", "iops" -> "IOPS", "bw" -> "bandwidth" */
static void metric_words(const char *metric, char *buf, size_t len)
{
        const char *colon = metric ? strrchr(metric, ':') : NULL;
        const char *m = colon ? colon + 1 : metric ? metric : "";
        char job[64] = "";

        if (colon)
                snprintf(job, sizeof(job), "%.*s ", (int)(colon - metric) < 62 ? (int)(colon - metric) : 62, metric);
        if (streq(m, "iops"))
                m = "IOPS";
        else if (streq(m, "bw"))
                m = "bandwidth";
        snprintf(buf, len, "%s%s", job, m);
}

void bench_win_label(char *buf, size_t len, double a, double b, bool lower_is_better, const char *metric)
{
        char words[96];

        metric_words(metric, words, sizeof(words));
        if (a == b || (lower_is_better ? b <= 0 : b <= 0 || a <= 0)) {
                snprintf(buf, len, "the same %s", words);
                return;
        }
        if (lower_is_better) {
                double pct = (b - a) / b * 100;

                /* a worse "winner" (a > b) cannot be: the best is never above */
                snprintf(buf, len, pct >= 9.95 || pct <= -9.95 ? "%.0f%% %s %s" : "%.1f%% %s %s",
                         pct < 0 ? -pct : pct, pct < 0 ? "higher" : "lower", words);
        } else {
                double ratio = a / b;

                snprintf(buf, len, ratio < 1.095 ? "%.2fx the %s" : ratio < 9.95 ? "%.1fx the %s" : "%.0fx the %s",
                         ratio, words);
        }
}

void bench_verdict_pair(const double *va, unsigned na, const double *vb, unsigned nb, bool lower_is_better,
                        double noise, const char *metric, struct bench_pair *w)
{
        double a[64], b[64], ma = 0, mb = 0;

        *w = (struct bench_pair){ .p = 1.0 };
        if (na == 0 || nb == 0)
                return;
        bench_spread(va, na, &ma, NULL, NULL, NULL);
        bench_spread(vb, nb, &mb, NULL, NULL, NULL);
        w->ratio = mb > 0 ? ma / mb : 0;
        if (lower_is_better)
                w->margin = mb > 0 ? (mb - ma) / mb * 100 : 0;
        else
                w->margin = mb > 0 ? (ma / mb - 1) * 100 : 0;
        /* "better" as a larger number for the test */
        na = na < ELEMENTSOF(a) ? na : ELEMENTSOF(a);
        nb = nb < ELEMENTSOF(b) ? nb : ELEMENTSOF(b);
        for (unsigned k = 0; k < na; k++)
                a[k] = lower_is_better ? -va[k] : va[k];
        for (unsigned k = 0; k < nb; k++)
                b[k] = lower_is_better ? -vb[k] : vb[k];
        w->p = bench_mann_whitney_p(a, na, b, nb);
        w->significant = na > 1 && nb > 1 && w->p <= 0.05 && w->margin > noise / 2;
        bench_win_label(w->label, sizeof(w->label), ma, mb, lower_is_better, metric);
}

void bench_verdict_decide(double * const *values, const unsigned *counts, unsigned n, bool lower_is_better,
                          struct bench_verdict *v)
{
        double spreads[256], med[256];
        unsigned ns = 0;
        struct bench_pair w;

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
        v->noise_known = ns > 0;
        v->noise = bench_median(spreads, ns);
        if (v->best < 0 || v->second < 0)
                return;
        bench_verdict_pair(values[v->best], counts[v->best], values[v->second], counts[v->second], lower_is_better,
                           v->noise, NULL, &w);
        v->margin = w.margin;
        v->ratio = w.ratio;
        v->p = w.p;
        v->significant = w.significant;
}

const char *bench_verdict_why(const struct bench_verdict *v)
{
        if (v->significant)
                return "the win exceeds the noise";
        if (!v->noise_known)
                return "a single value cannot tell a win from noise (use --loops)";
        return "within the noise, not a significant win (more --loops or a longer --runtime may tell)";
}

void bench_verdict_print(FILE *f, const struct bench_verdict *v, const char *best, const char *second,
                         bool lower_is_better, double best_med, double second_med, const char *metric,
                         const char *round, const char *judged)
{
        char label[128];

        bench_win_label(label, sizeof(label), best_med, second_med, lower_is_better, metric);
        /* "31% lower p99 than B", "1.4x the IOPS of B", "the same IOPS as B" */
        fprintf(f, "  best: %s, %s %s %s; ", best, label,
                best_med == second_med ? "as" : lower_is_better ? "than" : "of", second);
        if (v->noise_known)
                fprintf(f, "%s-to-%s noise %.1f%%; ", round, round, v->noise);
        else
                fprintf(f, "one %s: no noise figure; ", round);
        fprintf(f, "Mann-Whitney p=%.3f: %s\n", v->p, judged ? judged : bench_verdict_why(v));
}
