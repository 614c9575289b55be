/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iogen.h: where and which way a job thread's next I/O goes, for worker.c's
 * loop: the direction (fixed, or drawn per --rwmixread) and the offset
 * (sequential per direction, or uniform over the region's blocks).  The
 * random numbers come from xorshift64* (ours, a handful of cycles) or, with
 * random_generator=, fio's Tausworthe generators (L'Ecuyer's taus88 and
 * taus258).
 */
#ifndef IOS_BENCH_IOGEN_H
#define IOS_BENCH_IOGEN_H

#include "bench.h"

struct gen {
        uint64_t rng;                   /* xorshift64* state */
        uint64_t s[5];                  /* Tausworthe state */
        enum bench_rng kind;
        uint64_t start, end;            /* region */
        uint64_t pos[BENCH_NDIR];       /* sequential position per direction */
        uint64_t nblocks[BENCH_NDIR];
        uint32_t bs[BENCH_NDIR];
        bool random;
        int fixed_dir;                  /* -1: mixed */
        uint32_t mix;                   /* reads per 2^32 */
};

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
static inline uint64_t gen_rand(struct gen *g)
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
                break;
        }
        return xorshift_next(&g->rng);
}

/* Seed from one 64-bit value; each Tausworthe word above its minimum, as the algorithm needs. */
static inline void gen_seed(struct gen *g, uint64_t seed)
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

static inline unsigned gen_dir(struct gen *g)
{
        if (g->fixed_dir >= 0)
                return (unsigned)g->fixed_dir;
        return (uint32_t)(gen_rand(g) >> 32) < g->mix ? BENCH_READ : BENCH_WRITE;
}

static inline uint64_t gen_offset(struct gen *g, unsigned dir)
{
        uint64_t off;

        if (g->random) {
                /* Lemire's multiply-shift: uniform without a division */
                uint64_t b = (uint64_t)(((unsigned __int128)gen_rand(g) * g->nblocks[dir]) >> 64);
                return g->start + b * g->bs[dir];
        }
        off = g->pos[dir];
        g->pos[dir] = off + 2ull * g->bs[dir] > g->end ? g->start : off + g->bs[dir];
        return off;
}

#endif
