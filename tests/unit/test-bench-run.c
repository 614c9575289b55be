/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the main thread's side of a measured run: the rates since a
 * mark that both the per-interval samples and the progress figures use
 * (one computation: I/Os and bytes per second, the mark moving on), and
 * the samples' storage growing past its first allocation.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"

static void test_rate(void **state)
{
        const uint64_t zero[BENCH_NDIR] = { 0 };
        uint64_t ios[BENCH_NDIR] = { 1000, 500 }, bytes[BENCH_NDIR] = { 4096000, 2048000 };
        double iops[BENCH_NDIR], bps[BENCH_NDIR];
        struct bench_rate m;

        (void)state;
        bench_rate_mark(&m, 1000000000ull, zero, zero);
        bench_rate_take(&m, 1500000000ull, ios, bytes, iops, bps);      /* half a second */
        assert_true(iops[BENCH_READ] == 2000 && iops[BENCH_WRITE] == 1000);
        assert_true(bps[BENCH_READ] == 8192000 && bps[BENCH_WRITE] == 4096000);
        /* the mark moved to 1.5 s and these counts */
        assert_int_equal(m.t_ns, 1500000000ull);
        assert_int_equal(m.ios[BENCH_READ], 1000);
        ios[BENCH_READ] = 1100;
        bytes[BENCH_READ] = 4505600;
        bench_rate_take(&m, 2000000000ull, ios, bytes, iops, bps);
        assert_true(iops[BENCH_READ] == 200 && iops[BENCH_WRITE] == 0);
        assert_true(bps[BENCH_READ] == 819200 && bps[BENCH_WRITE] == 0);
        /* a KiB/s sample is the same rate divided by 1024, exactly */
        assert_true(bps[BENCH_READ] / 1024.0 == (double)(4505600 - 4096000) / 1024.0 / 0.5);
}

static void test_samples(void **state)
{
        struct bench_result res;
        unsigned cap = 0;

        (void)state;
        memset(&res, 0, sizeof(res));
        for (unsigned i = 0; i < 200; i++) {
                const double iops[BENCH_NDIR] = { i, 2.0 * i }, kib[BENCH_NDIR] = { 4.0 * i, 8.0 * i };

                assert_int_equal(bench_result_add_sample(&res, &cap, iops, kib), 0);
        }
        assert_int_equal(res.n_samples, 200);
        assert_true(cap >= 200);
        assert_true(res.iops_samples[BENCH_READ][199] == 199 && res.iops_samples[BENCH_WRITE][199] == 398);
        assert_true(res.bw_samples[BENCH_READ][0] == 0 && res.bw_samples[BENCH_WRITE][100] == 800);
        bench_result_done(&res);
        assert_int_equal(res.n_samples, 0);
        assert_null(res.iops_samples[BENCH_READ]);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_rate),
                cmocka_unit_test(test_samples),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
