/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iogen.h: where and which way a job thread's next I/O goes, for worker.c's
 * loop: the direction (fixed, or drawn per --rwmixread) and the offset
 * (sequential per direction, or random over the region's blocks: uniform,
 * or fio's random_distribution= zipf/pareto/normal) and the length
 * (bs, or drawn from bssplit=).  The random numbers come from xorshift64*
 * (ours, a handful of cycles) or, with random_generator=, fio's Tausworthe
 * generators (L'Ecuyer's taus88 and taus258); random_generator=lfsr walks
 * every block exactly once per pass, as fio's does (iogen.c).
 */
#ifndef IOS_BENCH_IOGEN_H
#define IOS_BENCH_IOGEN_H

#include "bench.h"

struct bench_gen {
        uint64_t rng;                   /* xorshift64* state */
        uint64_t s[5];                  /* Tausworthe state */
        enum bench_rng kind;
        uint64_t start, end;            /* region */
        uint64_t pos[BENCH_NDIR];       /* sequential position per direction */
        uint64_t nblocks[BENCH_NDIR];   /* random offsets: region / align */
        uint32_t bs[BENCH_NDIR];        /* the I/O size without bssplit */
        uint32_t align[BENCH_NDIR];     /* random offsets are multiples of it (bssplit: the smallest) */
        bool random;
        int fixed_dir;                  /* -1: mixed */
        uint32_t mix;                   /* reads per 2^32 */
        /* bssplit: sizes and cumulative shares per 2^32 */
        unsigned nsplit[BENCH_NDIR];
        uint32_t split_bs[BENCH_NDIR][BENCH_MAX_BSSPLIT];
        uint64_t split_cum[BENCH_NDIR][BENCH_MAX_BSSPLIT];
        /* lfsr, and the scatter of the distributions: a bijection of [0, 2^bits) */
        unsigned bits[BENCH_NDIR];
        uint64_t mask[BENCH_NDIR], ctr[BENCH_NDIR], key;
        /* random_distribution */
        enum bench_dist dist;
        double theta, zetan[BENCH_NDIR], zeta2, alpha, eta[BENCH_NDIR], pareto_pow, sigma_frac;
};

/* iogen.c: set g up for thread t's job and region (zipf's sum over the
 * blocks included, so this runs before the measured window). */
struct bench_thread;
void bench_gen_init(struct bench_gen *g, const struct bench_opts *o, uint64_t region_start,
                    uint64_t region_len, uint64_t seed);
/* iogen.c: block index in [0, n) of direction dir under a skewed distribution */
uint64_t bench_gen_dist_block(struct bench_gen *g, unsigned dir);
/* iogen.c: the next block of the lfsr pass of direction dir */
uint64_t bench_gen_perm_next(struct bench_gen *g, unsigned dir);

static inline uint64_t xorshift_next(uint64_t *s)
{
        uint64_t x = *s;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *s = x;
        return x * 0x2545F4914F6CDD1Dull;
}

/* 64 random bits (taus88 gives 32: two draws) */
static inline uint64_t bench_gen_rand(struct bench_gen *g)
{
        uint64_t *s = g->s, b;

        switch (g->kind) {
        case BENCH_RNG_TAUS258:
                b = ((s[0] << 1) ^ s[0]) >> 53;
                s[0] = ((s[0] & 18446744073709551614ull) << 10) ^ b;
                b = ((s[1] << 24) ^ s[1]) >> 50;
                s[1] = ((s[1] & 18446744073709551104ull) << 5) ^ b;
                b = ((s[2] << 3) ^ s[2]) >> 23;
                s[2] = ((s[2] & 18446744073709547520ull) << 29) ^ b;
                b = ((s[3] << 5) ^ s[3]) >> 24;
                s[3] = ((s[3] & 18446744073709420544ull) << 23) ^ b;
                b = ((s[4] << 3) ^ s[4]) >> 33;
                s[4] = ((s[4] & 18446744073701163008ull) << 8) ^ b;
                return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
        case BENCH_RNG_TAUS88: {
                uint64_t r = 0;

                for (int i = 0; i < 2; i++) {
                        uint32_t s1 = (uint32_t)s[0], s2 = (uint32_t)s[1], s3 = (uint32_t)s[2];

                        s1 = ((s1 & 4294967294u) << 12) ^ (((s1 << 13) ^ s1) >> 19);
                        s2 = ((s2 & 4294967288u) << 4) ^ (((s2 << 2) ^ s2) >> 25);
                        s3 = ((s3 & 4294967280u) << 17) ^ (((s3 << 3) ^ s3) >> 11);
                        s[0] = s1;
                        s[1] = s2;
                        s[2] = s3;
                        r = (r << 32) | (uint32_t)(s1 ^ s2 ^ s3);
                }
                return r;
        }
        case BENCH_RNG_XORSHIFT:
        case BENCH_RNG_LFSR:            /* its draws other than the offset: ours */
                break;
        }
        return xorshift_next(&g->rng);
}

/* Seed from one 64-bit value; each Tausworthe word above its minimum, as the algorithm needs. */
static inline void bench_gen_seed(struct bench_gen *g, uint64_t seed)
{
        static const uint64_t min[5] = { 2, 512, 4096, 131072, 8388608 };

        g->rng = seed ? seed : 1;
        for (int i = 0; i < 5; i++) {
                uint64_t v = xorshift_next(&g->rng);

                if (g->kind == BENCH_RNG_TAUS88)
                        v &= 0xffffffffull;
                g->s[i] = v < min[i] ? v + min[i] : v;
        }
}

static inline unsigned bench_gen_dir(struct bench_gen *g)
{
        if (g->fixed_dir >= 0)
                return (unsigned)g->fixed_dir;
        return (uint32_t)(bench_gen_rand(g) >> 32) < g->mix ? BENCH_READ : BENCH_WRITE;
}

/* The length of the next I/O of direction dir: bs, or drawn from bssplit. */
static inline uint32_t bench_gen_len(struct bench_gen *g, unsigned dir)
{
        uint64_t r;

        if (!g->nsplit[dir])
                return g->bs[dir];
        r = bench_gen_rand(g) >> 32;
        for (unsigned i = 0; i + 1 < g->nsplit[dir]; i++)
                if (r < g->split_cum[dir][i])
                        return g->split_bs[dir][i];
        return g->split_bs[dir][g->nsplit[dir] - 1];
}

static inline uint64_t bench_gen_offset(struct bench_gen *g, unsigned dir, uint32_t len)
{
        uint64_t off, b;

        if (g->random) {
                if (g->kind == BENCH_RNG_LFSR)
                        b = bench_gen_perm_next(g, dir);
                else if (g->dist != BENCH_DIST_RANDOM)
                        b = bench_gen_dist_block(g, dir);
                else    /* Lemire's multiply-shift: uniform without a division */
                        b = (uint64_t)(((unsigned __int128)bench_gen_rand(g) * g->nblocks[dir]) >> 64);
                off = g->start + b * g->align[dir];
                if (off + len > g->end)         /* a larger bssplit size at the end */
                        off = g->start + (g->end - len - g->start) / g->align[dir] * g->align[dir];
                return off;
        }
        if (g->pos[dir] + len > g->end)
                g->pos[dir] = g->start;
        off = g->pos[dir];
        g->pos[dir] = off + len;
        return off;
}

#endif
