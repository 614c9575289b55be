/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: iosched-bench's statistics against hand-computed values:
 * fio's log-linear bucket index and midpoint for known latencies, the stated
 * error bound (every value within 1/128 of its bucket's midpoint) over a
 * sweep, fio's nearest-rank percentile rule, exact mean/stddev and their
 * merge, the median, and the exact Mann-Whitney p-values used by --compare.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"

static void test_index_known(void **state)
{
        (void)state;
        /* below 2^7 every value has its own bucket and is exact */
        assert_int_equal(bench_hist_index(0), 0);
        assert_int_equal(bench_hist_index(1), 1);
        assert_int_equal(bench_hist_index(127), 127);
        assert_int_equal(bench_hist_value(127), 127);
        /* 128..255: 64 buckets of width 2, value = low + 1 */
        assert_int_equal(bench_hist_index(128), 128);
        assert_int_equal(bench_hist_index(129), 128);
        assert_int_equal(bench_hist_value(128), 129);
        assert_int_equal(bench_hist_index(130), 129);
        assert_int_equal(bench_hist_value(129), 131);
        assert_int_equal(bench_hist_index(255), 191);
        assert_int_equal(bench_hist_value(191), 255);
        /* 256..511: width 4 */
        assert_int_equal(bench_hist_index(256), 192);
        assert_int_equal(bench_hist_value(192), 258);
        /* 1000 ns: msb 9, 3 error bits, group base 256, offset (1000>>3)&63 = 61 */
        assert_int_equal(bench_hist_index(1000), 317);
        assert_int_equal(bench_hist_low(317), 1000);
        assert_int_equal(bench_hist_width(317), 8);
        assert_int_equal(bench_hist_value(317), 1004);
        /* 1 ms: msb 19, 13 error bits, base 14*64 = 896, offset 122&63 = 58 */
        assert_int_equal(bench_hist_index(1000000), 954);
        assert_int_equal(bench_hist_low(954), 999424);
        assert_int_equal(bench_hist_width(954), 8192);
        assert_int_equal(bench_hist_value(954), 1003520);
        /* beyond 2^34 ns (~17 s) everything lands in the last bucket */
        assert_int_equal(bench_hist_index(1ull << 40), BENCH_HIST_NR - 1);
        assert_int_equal(bench_hist_index(UINT64_MAX), BENCH_HIST_NR - 1);
        assert_int_equal(BENCH_HIST_NR, 1856);
}

/* fio's plat_idx_to_val(), written as fio writes it (stat.c) */
static unsigned long long fio_idx_to_val(unsigned idx)
{
        unsigned error_bits;
        unsigned long long k, base;

        if (idx < (BENCH_HIST_VAL << 1))
                return idx;
        error_bits = (idx >> BENCH_HIST_BITS) - 1;
        base = 1ull << (error_bits + BENCH_HIST_BITS);
        k = idx % BENCH_HIST_VAL;
        return base + ((k + 0.5) * (1ull << error_bits));
}

static void test_bound_sweep(void **state)
{
        unsigned prev = 0;
        uint64_t seed = 42;

        (void)state;
        for (unsigned i = 0; i < BENCH_HIST_NR; i++)
                assert_int_equal(bench_hist_value(i), fio_idx_to_val(i));
        /* every value up to 2^34 sits in its bucket, within 1/128 of the midpoint */
        for (uint64_t v = 0; v < (1ull << 34); v = v < 4096 ? v + 1 : v + v / 97 + 1) {
                unsigned idx = bench_hist_index(v);
                uint64_t mid = bench_hist_value(idx);
                double err = v ? fabs((double)mid - (double)v) / (double)v : 0;

                assert_true(idx >= prev);               /* monotonic */
                prev = idx;
                assert_true(bench_hist_low(idx) <= v);
                assert_true(v < bench_hist_low(idx) + bench_hist_width(idx));
                assert_true(err <= 1.0 / 128 + 1e-12);
        }
        for (int i = 0; i < 100000; i++) {
                uint64_t v;

                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                v = seed >> 30;                         /* < 2^34 */
                if (v >= 128)
                        assert_true(fabs((double)bench_hist_value(bench_hist_index(v)) - (double)v) / (double)v
                                    <= 1.0 / 128);
        }
}

static void test_percentiles(void **state)
{
        static uint64_t h[BENCH_HIST_NR];
        const double p[] = { 1, 50, 90, 99, 99.9, 99.99 };
        uint64_t v[6];

        (void)state;
        /* empty: zeros */
        memset(h, 0, sizeof(h));
        assert_int_equal(bench_hist_percentiles(h, p, 6, v), 0);
        for (int i = 0; i < 6; i++)
                assert_int_equal(v[i], 0);

        /* 1..100 ns, exact buckets: p-th value is the ceil(p)-th sample */
        for (uint64_t x = 1; x <= 100; x++)
                h[bench_hist_index(x)]++;
        assert_int_equal(bench_hist_percentiles(h, p, 6, v), 100);
        assert_int_equal(v[0], 1);
        assert_int_equal(v[1], 50);
        assert_int_equal(v[2], 90);
        assert_int_equal(v[3], 99);
        assert_int_equal(v[4], 100);
        assert_int_equal(v[5], 100);

        /* 990 x 100 ns + 10 x 1 ms: p99 is the 990th (100), p99.9 the 999th (1 ms bucket) */
        memset(h, 0, sizeof(h));
        h[bench_hist_index(100)] = 990;
        h[bench_hist_index(1000000)] = 10;
        assert_int_equal(bench_hist_percentiles(h, p, 6, v), 1000);
        assert_int_equal(v[1], 100);
        assert_int_equal(v[3], 100);
        assert_int_equal(v[4], 1003520);
        assert_int_equal(v[5], 1003520);

        /* 3 x 200 ns + 1 x 300 ns: buckets 164 (value 201) and 203 (value 302) */
        memset(h, 0, sizeof(h));
        h[bench_hist_index(200)] = 3;
        h[bench_hist_index(300)] = 1;
        assert_int_equal(bench_hist_index(200), 164);
        assert_int_equal(bench_hist_index(300), 203);
        {
                const double q[] = { 100, 50, 75, 76 };         /* unsorted on purpose */
                uint64_t w[4];

                bench_hist_percentiles(h, q, 4, w);
                assert_int_equal(w[0], 302);
                assert_int_equal(w[1], 201);    /* needs 2 of 4 */
                assert_int_equal(w[2], 201);    /* needs 3 of 4 */
                assert_int_equal(w[3], 302);    /* needs 3.04 of 4 */
        }
}

static void test_lat_stats(void **state)
{
        struct bench_lat a, b, all;

        (void)state;
        bench_lat_reset(&a);
        bench_lat_reset(&b);
        bench_lat_reset(&all);
        for (uint64_t x = 1; x <= 10; x++) {
                bench_lat_add(x <= 4 ? &a : &b, x);
                bench_lat_add(&all, x);
        }
        assert_int_equal(all.n, 10);
        assert_int_equal(all.min, 1);
        assert_int_equal(all.max, 10);
        assert_true(fabs(bench_lat_mean(&all) - 5.5) < 1e-12);
        /* sample variance of 1..10 = 55/6 */
        assert_true(fabs(bench_lat_stddev(&all) - sqrt(55.0 / 6.0)) < 1e-9);
        bench_lat_merge(&a, &b);
        assert_int_equal(a.n, all.n);
        assert_int_equal(a.min, 1);
        assert_int_equal(a.max, 10);
        assert_true(fabs(bench_lat_stddev(&a) - bench_lat_stddev(&all)) < 1e-12);
        /* large values stay exact: sumsq does not overflow */
        bench_lat_reset(&a);
        bench_lat_add(&a, 4000000000ull);
        bench_lat_add(&a, 4000000002ull);
        assert_true(fabs(bench_lat_stddev(&a) - sqrt(2.0)) < 1e-6);
        /* one sample: stddev 0, as fio */
        bench_lat_reset(&a);
        bench_lat_add(&a, 7);
        assert_true(bench_lat_stddev(&a) == 0);
        /* an empty one zeroed (calloc'd), not reset, takes its bounds from what it is given */
        memset(&all, 0, sizeof(all));
        bench_lat_merge(&all, &a);
        assert_int_equal(all.min, 7);
        assert_int_equal(all.max, 7);
        memset(&all, 0, sizeof(all));
        bench_lat_add(&all, 9);
        bench_lat_add(&all, 8);
        assert_int_equal(all.min, 8);
        assert_int_equal(all.max, 9);
}

static void test_dir_stats_merge(void **state)
{
        static struct bench_dir_stats x, y;

        (void)state;
        bench_dir_stats_reset(&x);
        bench_dir_stats_reset(&y);
        x.ios = 2;
        x.clat_hist[5] = 2;
        bench_lat_add(&x.clat, 5);
        bench_lat_add(&x.clat, 5);
        y.ios = 1;
        y.clat_hist[7] = 1;
        bench_lat_add(&y.clat, 7);
        bench_dir_stats_merge(&x, &y);
        assert_int_equal(x.ios, 3);
        assert_int_equal(x.clat_hist[5], 2);
        assert_int_equal(x.clat_hist[7], 1);
        assert_int_equal(x.clat.max, 7);
}

static void test_median(void **state)
{
        double a[] = { 5, 1, 3 }, b[] = { 4, 1, 3, 2 };

        (void)state;
        assert_true(bench_median(a, 3) == 3);
        assert_true(bench_median(b, 4) == 2.5);
        assert_true(bench_median(NULL, 0) == 0);
}

static void test_mann_whitney(void **state)
{
        double hi[] = { 4, 5, 6 }, lo[] = { 1, 2, 3 }, odd[] = { 1, 3, 5 }, even[] = { 2, 4, 6 };
        double two_hi[] = { 10, 11 }, two_lo[] = { 1, 2 };

        (void)state;
        /* complete separation, 3 vs 3: 1 ordering of C(6,3) = 20 */
        assert_true(fabs(bench_mann_whitney_p(hi, 3, lo, 3) - 1.0 / 20) < 1e-12);
        assert_true(fabs(bench_mann_whitney_p(lo, 3, hi, 3) - 1.0) < 1e-12);
        /* U = 3 (3>2, 5>2, 5>4); P(U >= 3) = 16/20 from the U distribution 1 1 2 3 3 3 3 2 1 1 */
        assert_true(fabs(bench_mann_whitney_p(odd, 3, even, 3) - 16.0 / 20) < 1e-12);
        /* 2 vs 2: the best possible p is 1/6 */
        assert_true(fabs(bench_mann_whitney_p(two_hi, 2, two_lo, 2) - 1.0 / 6) < 1e-12);
        /* no data: no evidence */
        assert_true(bench_mann_whitney_p(hi, 0, lo, 3) == 1.0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_index_known),
                cmocka_unit_test(test_bound_sweep),
                cmocka_unit_test(test_percentiles),
                cmocka_unit_test(test_lat_stats),
                cmocka_unit_test(test_dir_stats_merge),
                cmocka_unit_test(test_median),
                cmocka_unit_test(test_mann_whitney),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
