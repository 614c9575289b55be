/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobopts-dist.c: the values of fio's bssplit= and random_distribution=,
 * parsed into a job's options (fio's syntax; the generators are iogen.h's).
 *
 * bssplit=SIZE/PCT[:SIZE/PCT...][,SIZE/PCT...]: the block sizes of the
 * I/Os and how often each is used; a second list after a comma is for
 * writes (one list: both).  A size without a percent shares what the others
 * leave of 100 evenly, as fio does; the percents may not pass 100, and when
 * they add up to less they are taken relative to their sum.
 *
 * random_distribution=random | zipf:THETA | pareto:H | normal:DEV: which
 * blocks random I/O picks.  zipf: block of rank k with weight 1/k^THETA
 * (THETA > 0, not 1); pareto: fio's power law with H in (0,1) (0.9 the
 * flattest, 0.1 the most skewed ... fio's own reading of h); normal: a
 * Gaussian with standard deviation DEV percent (0-100) of the region.  As in
 * fio the hot blocks are scattered over the region by a hash, not bunched at
 * its start.  fio's zoned/zoned_abs, and a ":CENTER" after the parameter,
 * are fio's alone (-EOPNOTSUPP).
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"

static int parse_list(const char *s, struct bench_bssplit *out, unsigned *ret_n, uint32_t *ret_max)
{
        _cleanup_free_ char *copy = strdup(s);
        unsigned n = 0, missing = 0, sum = 0;
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        *ret_max = 0;
        for (char *t = strtok_r(copy, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
                char *slash = strchr(t, '/');
                uint64_t bs;
                unsigned pct = 0;

                if (n == BENCH_MAX_BSSPLIT)
                        return -EINVAL;
                if (slash)
                        *slash++ = '\0';
                if (bench_parse_size(t, &bs) < 0 || bs < 512 || bs > 64ull << 20 || bs % 512)
                        return -EINVAL;
                if (slash && *slash) {
                        if (bench_parse_uint(slash, 0, 100, &pct) < 0)
                                return -EINVAL;
                        sum += pct;
                } else {
                        pct = UINT32_MAX;       /* its share of the rest, below */
                        missing++;
                }
                out[n].bs = (uint32_t)bs;
                out[n].perc = pct;
                if (bs > *ret_max)
                        *ret_max = (uint32_t)bs;
                n++;
        }
        if (n == 0 || sum > 100)
                return -EINVAL;
        for (unsigned i = 0; i < n; i++)
                if (out[i].perc == UINT32_MAX)
                        out[i].perc = (100 - sum) / missing;
        sum = 0;
        for (unsigned i = 0; i < n; i++)
                sum += out[i].perc;
        if (sum == 0)
                return -EINVAL;
        *ret_n = n;
        return 0;
}

int bench_parse_bssplit(const char *s, struct bench_opts *o)
{
        _cleanup_free_ char *copy = strdup(s);
        struct bench_bssplit split[BENCH_NDIR][BENCH_MAX_BSSPLIT];
        unsigned n[BENCH_NDIR];
        uint32_t max[BENCH_NDIR];
        char *comma;
        int r;

        if (!copy)
                return -ENOMEM;
        comma = strchr(copy, ',');
        if (comma) {
                *comma++ = '\0';
                if (strchr(comma, ','))
                        return -EOPNOTSUPP;     /* a third list: trims */
        }
        r = parse_list(copy, split[BENCH_READ], &n[BENCH_READ], &max[BENCH_READ]);
        if (r == 0)
                r = comma && *comma ? parse_list(comma, split[BENCH_WRITE], &n[BENCH_WRITE], &max[BENCH_WRITE]) : 0;
        if (r < 0)
                return r;
        if (!comma || !*comma) {
                memcpy(split[BENCH_WRITE], split[BENCH_READ], sizeof(split[0]));
                n[BENCH_WRITE] = n[BENCH_READ];
                max[BENCH_WRITE] = max[BENCH_READ];
        }
        for (int d = 0; d < BENCH_NDIR; d++) {
                memcpy(o->bssplit[d], split[d], sizeof(split[d]));
                o->n_bssplit[d] = n[d];
                o->bs[d] = max[d];      /* the slots' buffers hold the largest */
        }
        return 0;
}

int bench_parse_distribution(const char *s, struct bench_opts *o)
{
        const char *colon = strchr(s, ':');
        char kind[16], *end;
        double p;

        if (streq(s, "random")) {
                o->dist = BENCH_DIST_RANDOM;
                return 0;
        }
        snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(s, ":"), s);
        if (streq(kind, "zoned") || streq(kind, "zoned_abs"))
                return -EOPNOTSUPP;
        if (!colon)
                return -EINVAL;
        p = strtod(colon + 1, &end);
        if (end == colon + 1)
                return -EINVAL;
        if (*end == ':')
                return -EOPNOTSUPP;     /* fio's center offset */
        if (*end)
                return -EINVAL;
        if (streq(kind, "zipf") && p > 0 && p != 1.0 && p < 100)
                o->dist = BENCH_DIST_ZIPF;
        else if (streq(kind, "pareto") && p > 0 && p < 1)
                o->dist = BENCH_DIST_PARETO;
        else if ((streq(kind, "normal") || streq(kind, "gauss")) && p >= 0 && p <= 100)
                o->dist = BENCH_DIST_NORMAL;
        else
                return -EINVAL;
        o->dist_param = p;
        return 0;
}
