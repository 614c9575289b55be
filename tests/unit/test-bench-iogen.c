/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the offsets and lengths iosched-bench's job threads draw
 * (iogen.h, iogen.c): random_generator=lfsr touches every block exactly once
 * per pass for any number of blocks; random_distribution= zipf, pareto and
 * normal give the skew their parameters say (the share of the hottest
 * blocks against the formula), scattered over the region, never outside
 * it; bssplit= sizes come in their percents; offsets stay aligned inside
 * the region.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/bench/native/iogen.h"
#include "../../src/bench/jobs.h"

static void opts(struct bench_opts *o, enum bench_rw rw)
{
        bench_opts_init(o);
        o->rw = rw;
}

static void test_lfsr_every_block_once(void **state)
{
        static const uint64_t sizes[] = { 1, 2, 3, 7, 8, 9, 1000, 4096, 65537, 262144, 1000003 };
        struct bench_opts o;
        struct bench_gen g;

        (void)state;
        opts(&o, BENCH_RW_RANDREAD);
        o.rng = BENCH_RNG_LFSR;
        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                uint64_t n = sizes[i], region = n * 4096;
                uint8_t *seen = calloc(n, 1);
                uint64_t first = 0;

                assert_non_null(seen);
                bench_gen_init(&g, &o, 1 << 20, region, 42 + i);
                assert_int_equal(g.nblocks[BENCH_READ], n);
                /* two passes: each block once in each, and the second repeats the first's order */
                for (int pass = 0; pass < 2; pass++) {
                        for (uint64_t k = 0; k < n; k++) {
                                uint64_t off = bench_gen_offset(&g, BENCH_READ, 4096), b;

                                assert_true(off >= 1 << 20 && off + 4096 <= (1 << 20) + region);
                                assert_int_equal(off % 4096, 0);
                                b = (off - (1 << 20)) / 4096;
                                if (k == 0 && pass == 0)
                                        first = b;
                                if (k == 0 && pass == 1)
                                        assert_int_equal(b, first);
                                if (seen[b] != pass)
                                        fail_msg("n=%llu: block %llu seen %u times in pass %d", (unsigned long long)n,
                                                 (unsigned long long)b, seen[b], pass);
                                seen[b]++;
                        }
                }
                free(seen);
        }
}

static void test_lfsr_scrambles(void **state)
{
        struct bench_opts o;
        struct bench_gen g;
        uint64_t prev = 0, ascending = 0, n = 100000;

        (void)state;
        opts(&o, BENCH_RW_RANDREAD);
        o.rng = BENCH_RNG_LFSR;
        bench_gen_init(&g, &o, 0, n * 4096, 7);
        for (uint64_t k = 0; k < n; k++) {
                uint64_t off = bench_gen_offset(&g, BENCH_READ, 4096);

                ascending += off == prev + 4096;
                prev = off;
        }
        /* not a sequential walk in disguise */
        assert_true(ascending < n / 100);
}

static int cmp_desc(const void *a, const void *b)
{
        uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

        return x < y ? 1 : x > y ? -1 : 0;
}

/* Draw draws offsets; the share of them that went to the hottest top_frac of the blocks. */
static double hot_share(struct bench_opts *o, uint64_t n, uint64_t draws, double top_frac, uint64_t *ret_hits0)
{
        uint32_t *hits = calloc(n, sizeof(*hits));
        struct bench_gen g;
        uint64_t top = 0, k = (uint64_t)((double)n * top_frac);

        assert_non_null(hits);
        bench_gen_init(&g, o, 0, n * 4096, 1234);
        for (uint64_t i = 0; i < draws; i++) {
                uint64_t off = bench_gen_offset(&g, BENCH_READ, 4096);

                assert_true(off + 4096 <= n * 4096);
                hits[off / 4096]++;
        }
        if (ret_hits0)
                *ret_hits0 = hits[0];
        qsort(hits, n, sizeof(*hits), cmp_desc);
        for (uint64_t i = 0; i < k; i++)
                top += hits[i];
        free(hits);
        return (double)top / (double)draws;
}

static void test_zipf_skew(void **state)
{
        const uint64_t n = 262144;      /* 1 GiB of 4k blocks, as fio-genzipf's example */
        struct bench_opts o;
        double want_top1 = 0, sum = 0, got;

        (void)state;
        opts(&o, BENCH_RW_RANDREAD);
        o.dist = BENCH_DIST_ZIPF;
        o.dist_param = 1.2;
        /* the formula: share of ranks 1..n/100 in 1/k^1.2 */
        for (uint64_t k = 1; k <= n; k++) {
                double w = pow((double)k, -1.2);

                sum += w;
                if (k <= n / 100)
                        want_top1 += w;
        }
        want_top1 /= sum;
        got = hot_share(&o, n, 2000000, 0.01, NULL);
        print_message("zipf:1.2 over %llu blocks: top 1%% of blocks get %.3f of the I/O (formula %.3f)\n",
                      (unsigned long long)n, got, want_top1);
        assert_true(fabs(got - want_top1) < 0.03);
        assert_true(got > 0.7);         /* heavily skewed */
        /* the flatter theta=0.8 is less skewed */
        o.dist_param = 0.8;
        assert_true(hot_share(&o, n, 1000000, 0.01, NULL) < got - 0.2);
}

static void test_pareto_normal(void **state)
{
        const uint64_t n = 100000;
        struct bench_opts o;
        double got;

        (void)state;
        opts(&o, BENCH_RW_RANDREAD);
        /* pareto: rank = (n-1) u^p with p = log h / log(1-h); the top 10% of ranks are those with
         * u^p below 0.1 (h < 0.5) */
        o.dist = BENCH_DIST_PARETO;
        o.dist_param = 0.2;
        {
                double p = log(0.2) / log(0.8), want = pow(0.1, 1.0 / p);

                got = hot_share(&o, n, 1000000, 0.10, NULL);
                print_message("pareto:0.2: top 10%% of blocks get %.3f (formula %.3f)\n", got, want);
                assert_true(fabs(got - want) < 0.02);
        }
        /* h = 0.5: p = 1, uniform: the top 10% get what they get under random (Poisson noise alone) */
        o.dist_param = 0.5;
        got = hot_share(&o, n, 1000000, 0.10, NULL);
        o.dist = BENCH_DIST_RANDOM;
        assert_true(fabs(got - hot_share(&o, n, 1000000, 0.10, NULL)) < 0.01);
        assert_true(got < 0.17);
        /* normal:10: sigma 10% of the region; the central +-1 sigma (20% of the blocks) gets 68% */
        o.dist = BENCH_DIST_NORMAL;
        o.dist_param = 10;
        got = hot_share(&o, n, 1000000, 0.20, NULL);
        print_message("normal:10: top 20%% of blocks get %.3f (formula 0.683)\n", got);
        assert_true(fabs(got - 0.683) < 0.03);
}

static void test_bssplit_shares(void **state)
{
        struct bench_opts o;
        struct bench_gen g;
        uint64_t count[3] = { 0 }, draws = 300000;
        const uint64_t region = 1 << 30;

        (void)state;
        opts(&o, BENCH_RW_RANDRW);
        assert_int_equal(bench_parse_bssplit("4k/70:16k/20:64k/10,8k/100", &o), 0);
        bench_gen_init(&g, &o, 4096, region, 99);
        assert_int_equal(g.align[BENCH_READ], 4096);
        for (uint64_t i = 0; i < draws; i++) {
                uint32_t len = bench_gen_len(&g, BENCH_READ);
                uint64_t off = bench_gen_offset(&g, BENCH_READ, len);

                assert_true(off >= 4096 && off + len <= 4096 + region);
                assert_int_equal((off - 4096) % 4096, 0);
                count[len == 4096 ? 0 : len == 16384 ? 1 : 2]++;
                assert_true(len == 4096 || len == 16384 || len == 65536);
        }
        assert_true(fabs((double)count[0] / draws - 0.70) < 0.01);
        assert_true(fabs((double)count[1] / draws - 0.20) < 0.01);
        assert_true(fabs((double)count[2] / draws - 0.10) < 0.01);
        for (int i = 0; i < 1000; i++)
                assert_int_equal(bench_gen_len(&g, BENCH_WRITE), 8192);
        /* sequential with mixed sizes: contiguous, wrapping before the end */
        o.rw = BENCH_RW_READ;
        bench_gen_init(&g, &o, 0, 1 << 20, 1);
        {
                uint64_t expect = 0;

                for (int i = 0; i < 10000; i++) {
                        uint32_t len = bench_gen_len(&g, BENCH_READ);
                        uint64_t off = bench_gen_offset(&g, BENCH_READ, len);

                        if (expect + len > 1 << 20)
                                expect = 0;
                        assert_int_equal(off, expect);
                        expect = off + len;
                }
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_lfsr_every_block_once),
                cmocka_unit_test(test_lfsr_scrambles),
                cmocka_unit_test(test_zipf_skew),
                cmocka_unit_test(test_pareto_normal),
                cmocka_unit_test(test_bssplit_shares),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
