/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the command line of --compare variants and --observe: a
 * variant's spelling checked against the library's tunables table (names,
 * types, ranges, duplicates) with one message each; --observe only with
 * --compare, and only with objectives the disk's counters can measure;
 * await objectives only with --observe; every error a usage error on one
 * line.  And the verdict: margin, noise and significance on given values.
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
#include "../../src/bench/compare.h"

static int parse_v(struct bench_opts *o, struct bench_error *e, va_list ap)
{
        char *argv[32];
        int argc = 0, r;
        FILE *out = fopen("/dev/null", "we");

        argv[argc++] = (char *)"iosched-bench";
        for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
                argv[argc++] = a;
        argv[argc] = NULL;
        bench_opts_init(o);
        memset(e, 0, sizeof(*e));
        r = bench_opts_parse(argc, argv, o, out, e);
        fclose(out);
        return r;
}

static void expect_ok(struct bench_opts *o, ...)
{
        struct bench_error e;
        va_list ap;
        int r;

        va_start(ap, o);
        r = parse_v(o, &e, ap);
        va_end(ap);
        if (r != 0)
                fail_msg("got %d '%s'", r, e.msg);
}

static void expect_error(const char *want, ...)
{
        struct bench_opts o;
        struct bench_error e;
        va_list ap;
        int r;

        va_start(ap, want);
        r = parse_v(&o, &e, ap);
        va_end(ap);
        if (r >= 0 || !strstr(e.msg, want))
                fail_msg("got %d '%s', want '%s'", r, e.msg, want);
        assert_int_equal(e.cls, BENCH_ERR_USAGE);
        assert_null(strchr(e.msg, '\n'));
        bench_opts_done(&o);
}

static void test_variant_spelling(void **state)
{
        char msg[400];

        (void)state;
        assert_int_equal(bench_variant_check("mq-deadline", msg, sizeof(msg)), 0);
        assert_int_equal(bench_variant_check("mq-deadline:read_expire=300:fifo_batch=1", msg, sizeof(msg)), 0);
        assert_int_equal(bench_variant_check("kyber:read_lat_nsec=500000", msg, sizeof(msg)), 0);
        assert_int_equal(bench_variant_check("bfq:low_latency=0:read_ahead_kb=1024:nr_requests=64", msg, sizeof(msg)), 0);
        /* out-of-tree schedulers are the disk's business, their tunables are not the table's */
        assert_int_equal(bench_variant_check("someout-of-tree", msg, sizeof(msg)), 0);

        assert_int_equal(bench_variant_check("", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("Kyber", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "'Kyber' is not SCHED[:TUNABLE=VALUE...]"));
        assert_int_equal(bench_variant_check(":read_expire=1", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:read_expire", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "'read_expire' is not TUNABLE=VALUE"));
        assert_int_equal(bench_variant_check("mq-deadline:read_expire=", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:=5", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:read_expir=5", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "unknown tunable 'read_expir'"));
        assert_int_equal(bench_variant_check("mq-deadline:Read_expire=5", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:scheduler=none", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:../../x=1", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:fifo_batch=-1", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "out of range"));
        assert_int_equal(bench_variant_check("mq-deadline:async_depth=0", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("mq-deadline:fifo_batch=0x10", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "wants an integer"));
        assert_int_equal(bench_variant_check("mq-deadline:front_merges=2", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("none:nr_requests=0", msg, sizeof(msg)), -EINVAL);
        assert_int_equal(bench_variant_check("none:read_ahead_kb=1:read_ahead_kb=2", msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "read_ahead_kb given twice"));
}

static void test_observe_args(void **state)
{
        struct bench_opts o;

        (void)state;
        expect_ok(&o, "--filename=/dev/x", "--observe", "--compare=mq-deadline,mq-deadline:fifo_batch=1",
                  "--objective=await", "--runtime=5s", "--loops=4", NULL);
        assert_true(o.observe);
        assert_true(o.compare);
        assert_int_equal(o.objective, BENCH_OBJ_AWAIT);
        assert_int_equal(o.loops, 4);
        assert_int_equal(o.ramp_ns, 1000000000ull);     /* settle 1s after each switch */
        assert_string_equal(o.compare_scheds[1], "mq-deadline:fifo_batch=1");
        bench_opts_done(&o);
        expect_ok(&o, "--filename=/dev/x", "--compare", "--observe", "--objective=read-await", NULL);
        assert_int_equal(o.objective, BENCH_OBJ_READ_AWAIT);
        assert_null(o.compare_scheds);
        bench_opts_done(&o);

        expect_error("--observe needs --compare", "--filename=/dev/x", "--observe", NULL);
        expect_error("--objective=p99 is not in the disk's counters", "--filename=/dev/x", "--observe", "--compare",
                     "--objective=p99", NULL);
        expect_error("--objective=read-p99 is not in the disk's counters", "--filename=/dev/x", "--observe",
                     "--compare", "--objective=read-p99", NULL);
        expect_error("--objective=reader:... names a job, and --observe runs none", "--filename=/dev/x", "--observe",
                     "--compare", "--objective=reader:iops", NULL);
        expect_error("--objective=await needs --observe", "--filename=/dev/x", "--compare", "--objective=await", NULL);
        expect_error("--objective=read-await needs --observe", "--filename=/dev/x", "--objective=read-await", NULL);
        expect_error("invalid --objective 'wait'", "--filename=/dev/x", "--observe", "--compare", "--objective=wait", NULL);
        expect_error("--observe needs --filename", "--ioengine=null", "--observe", "--compare", NULL);
        expect_error("option --observe=1", "--filename=/dev/x", "--observe=1", "--compare", NULL);
        expect_error("invalid --compare 'none,mq-deadline:fifo_batch=x': queue/iosched/fifo_batch= wants an integer",
                     "--filename=/dev/x", "--observe", "--compare=none,mq-deadline:fifo_batch=x", NULL);
        expect_error("invalid --compare 'bfq:slice_idle'", "--filename=/dev/x", "--compare=bfq:slice_idle", NULL);
}

static void test_verdict(void **state)
{
        double a[] = { 10, 11, 12 }, b[] = { 5, 6, 7 }, c[] = { 9, 13, 20 };
        double *vals[] = { a, b, c };
        unsigned counts[] = { 3, 3, 3 };
        struct bench_verdict v;
        double med, mn, mx, sp;

        (void)state;
        bench_spread(c, 3, &med, &mn, &mx, &sp);
        assert_true(med == 13 && mn == 9 && mx == 20);
        assert_true(sp > 84.6 && sp < 84.7);
        /* higher is better: c's median 13 beats a's 11 by 18.2%, but a's and c's values overlap */
        bench_verdict_decide(vals, counts, 3, false, &v);
        assert_int_equal(v.best, 2);
        assert_int_equal(v.second, 0);
        assert_true(v.margin > 18.1 && v.margin < 18.2);
        assert_false(v.significant);
        /* lower is better: b wins over a, every value below every value: p = 1/20 */
        bench_verdict_decide(vals, counts, 2, true, &v);
        assert_int_equal(v.best, 1);
        assert_int_equal(v.second, 0);
        assert_true(v.p > 0.049 && v.p < 0.051);
        assert_true(v.margin > 45.4 && v.margin < 45.5);     /* (11 - 6) / 11: "45% lower" */
        assert_true(v.significant);
        /* one value each: no test */
        counts[0] = counts[1] = 1;
        bench_verdict_decide(vals, counts, 2, false, &v);
        assert_int_equal(v.best, 0);
        assert_false(v.significant);
        counts[0] = counts[1] = 0;
        bench_verdict_decide(vals, counts, 2, false, &v);
        assert_int_equal(v.best, -1);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_variant_spelling),
                cmocka_unit_test(test_observe_args),
                cmocka_unit_test(test_verdict),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
