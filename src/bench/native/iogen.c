/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iogen.c: the set-up and the slow paths of iogen.h's offset generator.
 *
 * random_generator=lfsr: fio's promise is that a pass over the region
 * touches every block exactly once, in a scrambled order.  Here that is a
 * counter over [0, 2^bits) (2^bits the smallest power of two >= the
 * blocks) put through a keyed bijection of [0, 2^bits) (odd multiplies and
 * right xor-shifts, each one-to-one modulo 2^bits), skipping the values past
 * the last block: every block once per 2^bits steps, at most two draws per
 * block.  Not fio's shift register, the same guarantee.
 *
 * random_distribution=: the block of rank k is drawn with fio's formulas
 * (zipf: Gray et al.'s approximation of weight 1/k^theta over n blocks;
 * pareto: rank = (n-1) * u^(log h / log(1-h)); normal: a Gaussian around the
 * middle with sigma dev % of the region), and the rank is then put through
 * the same bijection, so the hot blocks are scattered over the region as in
 * fio, but without fio's hash collisions: the k hottest ranks are k blocks.
 */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

#include "iogen.h"

static unsigned bits_for(uint64_t n)
{
        unsigned b = 1;

        while (b < 64 && (1ull << b) < n)
                b++;
        return b;
}

/* one-to-one on [0, 2^bits) for any key */
static inline uint64_t scramble(uint64_t x, uint64_t key, unsigned bits, uint64_t mask)
{
        x = (x ^ key) & mask;
        x = (x * 0x9E3779B97F4A7C15ull) & mask;
        x ^= x >> (bits / 2 + 1);
        x = (x * 0xBF58476D1CE4E5B9ull) & mask;
        x ^= x >> (bits / 3 + 1);
        x = (x * 0x94D049BB133111EBull) & mask;
        x ^= x >> (bits / 2 + 1);
        return x;
}

/* rank in [0, n) to a block in [0, n): cycle-walk the bijection */
static uint64_t scatter(const struct bench_gen *g, unsigned dir, uint64_t rank)
{
        uint64_t x = rank;

        do
                x = scramble(x, g->key, g->bits[dir], g->mask[dir]);
        while (x >= g->nblocks[dir]);
        return x;
}

uint64_t bench_gen_perm_next(struct bench_gen *g, unsigned dir)
{
        uint64_t x;

        do {
                x = scramble(g->ctr[dir], g->key, g->bits[dir], g->mask[dir]);
                g->ctr[dir] = (g->ctr[dir] + 1) & g->mask[dir];
        } while (x >= g->nblocks[dir]);
        return x;
}

static inline double uniform01(struct bench_gen *g)
{
        return (double)(bench_gen_rand(g) >> 11) * 0x1.0p-53;
}

uint64_t bench_gen_dist_block(struct bench_gen *g, unsigned dir)
{
        uint64_t n = g->nblocks[dir], rank = 0;
        double u = uniform01(g);

        switch (g->dist) {
        case BENCH_DIST_ZIPF: {
                double uz = u * g->zetan[dir];

                if (uz < 1.0)
                        rank = 0;
                else if (uz < 1.0 + pow(0.5, g->theta))
                        rank = 1;
                else
                        rank = (uint64_t)((double)n * pow(g->eta[dir] * u - g->eta[dir] + 1.0, g->alpha));
                break;
        }
        case BENCH_DIST_PARETO:
                rank = (uint64_t)((double)(n - 1) * pow(u, g->pareto_pow));
                break;
        case BENCH_DIST_NORMAL:
                /* Box-Muller; draws outside the region are drawn again (rarely more than once) */
                for (int tries = 0; tries < 16; tries++) {
                        double z = sqrt(-2.0 * log(1.0 - u)) * cos(2.0 * M_PI * uniform01(g));
                        double v = (double)n / 2.0 + z * g->sigma_frac * (double)n;

                        if (v >= 0 && v < (double)n) {
                                rank = (uint64_t)v;
                                break;
                        }
                        rank = n / 2;
                        u = uniform01(g);
                }
                break;
        case BENCH_DIST_RANDOM:
                return (uint64_t)(((unsigned __int128)bench_gen_rand(g) * n) >> 64);
        }
        if (rank >= n)
                rank = n - 1;
        return scatter(g, dir, rank);
}

/* sum of 1/i^theta for i = 1..n: exact up to 10M terms, then the integral
 * with the Euler-Maclaurin end corrections (error far below 1e-9 relative) */
static double zeta_n(uint64_t n, double theta)
{
        const uint64_t exact = 10000000;
        uint64_t m = n < exact ? n : exact;
        double s = 0;

        for (uint64_t i = m; i >= 1; i--)       /* small terms first */
                s += pow((double)i, -theta);
        if (n > m) {
                double a = (double)m, b = (double)n;

                s += (pow(b, 1 - theta) - pow(a, 1 - theta)) / (1 - theta);
                s += (pow(b, -theta) - pow(a, -theta)) / 2;
        }
        return s;
}

void bench_gen_init(struct bench_gen *g, const struct bench_opts *o, uint64_t region_start,
                    uint64_t region_len, uint64_t seed)
{
        memset(g, 0, sizeof(*g));
        g->start = region_start;
        g->end = region_start + region_len;
        g->random = bench_rw_random(o->rw);
        g->fixed_dir = !bench_rw_writes(o->rw) ? BENCH_READ : !bench_rw_reads(o->rw) ? BENCH_WRITE : -1;
        g->mix = (uint32_t)(((uint64_t)o->rwmixread << 32) / 100);
        if (o->rwmixread >= 100)
                g->fixed_dir = BENCH_READ;
        g->kind = o->rng;
        g->dist = o->dist;
        bench_gen_seed(g, seed);
        g->key = xorshift_next(&g->rng);
        for (int d = 0; d < BENCH_NDIR; d++) {
                uint64_t total = 0, cum = 0;

                g->bs[d] = o->bs[d];
                g->align[d] = o->bs[d];
                g->nsplit[d] = o->n_bssplit[d];
                for (unsigned i = 0; i < g->nsplit[d]; i++) {
                        g->split_bs[d][i] = o->bssplit[d][i].bs;
                        total += o->bssplit[d][i].perc;
                        if (o->bssplit[d][i].bs < g->align[d])
                                g->align[d] = o->bssplit[d][i].bs;
                }
                for (unsigned i = 0; i < g->nsplit[d]; i++) {
                        cum += o->bssplit[d][i].perc;
                        g->split_cum[d][i] = total ? (cum << 32) / total : 0;
                }
                g->pos[d] = g->start;
                g->nblocks[d] = region_len / g->align[d];
                if (g->nblocks[d] == 0)
                        g->nblocks[d] = 1;
                g->bits[d] = bits_for(g->nblocks[d]);
                g->mask[d] = g->bits[d] >= 64 ? UINT64_MAX : (1ull << g->bits[d]) - 1;
        }
        switch (g->dist) {
        case BENCH_DIST_ZIPF:
                g->theta = o->dist_param;
                g->zeta2 = 1.0 + pow(0.5, g->theta);
                g->alpha = 1.0 / (1.0 - g->theta);
                for (int d = 0; d < BENCH_NDIR; d++) {
                        double n = (double)g->nblocks[d];

                        g->zetan[d] = zeta_n(g->nblocks[d], g->theta);
                        g->eta[d] = g->nblocks[d] > 2 ?
                                    (1.0 - pow(2.0 / n, 1.0 - g->theta)) / (1.0 - g->zeta2 / g->zetan[d]) : 1.0;
                }
                break;
        case BENCH_DIST_PARETO:
                g->pareto_pow = log(o->dist_param) / log(1.0 - o->dist_param);
                break;
        case BENCH_DIST_NORMAL:
                g->sigma_frac = o->dist_param / 100.0;
                break;
        case BENCH_DIST_RANDOM:
                break;
        }
}
