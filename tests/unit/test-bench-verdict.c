/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: verdicts that mean what they say (verdict.c, jobs.c).  A win
 * reads "31% lower reader p99" when lower is better ((b - a) / b) and "1.4x
 * the IOPS" when higher is better (a / b), never "2382.0% better"; the
 * pairwise rule (bench_verdict_pair(), what --compare -J's vs_best gives)
 * is the verdict's own; one value per variant has no noise figure and says
 * so; a throughput objective on a job capped by rate_iops=, rate= (in every
 * direction it does) or thinktime= becomes p99 with a note; and fio's end
 * conditions: size=, io_size=, number_ios= end a job that is not
 * time_based, runtime= only when given.
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

static void test_labels(void **state)
{
        char b[128];

        (void)state;
        bench_win_label(b, sizeof(b), 69, 100, true, "reader:p99");
        assert_string_equal(b, "31% lower reader p99");
        bench_win_label(b, sizeof(b), 140, 100, false, "iops");
        assert_string_equal(b, "1.4x the IOPS");
        bench_win_label(b, sizeof(b), 103, 100, false, "bw");
        assert_string_equal(b, "1.03x the bandwidth");
        bench_win_label(b, sizeof(b), 2500, 100, false, "writer:iops");
        assert_string_equal(b, "25x the writer IOPS");
        /* the report of the issue: 4.0us against 99.3us was "2382.0% better reader:p99" */
        bench_win_label(b, sizeof(b), 4000, 99280, true, "reader:p99");
        assert_string_equal(b, "96% lower reader p99");
        bench_win_label(b, sizeof(b), 995, 1000, true, "p99");
        assert_string_equal(b, "0.5% lower p99");
        bench_win_label(b, sizeof(b), 500, 500, false, "iops");
        assert_string_equal(b, "the same IOPS");
}

static void test_pair_is_the_verdict(void **state)
{
        double a[] = { 60, 62, 61 }, b[] = { 100, 98, 101 }, c[] = { 90, 130, 70 };
        double *vals[] = { a, b, c };
        unsigned counts[] = { 3, 3, 3 };
        struct bench_verdict v;
        struct bench_pair w;

        (void)state;
        bench_verdict_decide(vals, counts, 3, true, &v);
        assert_int_equal(v.best, 0);
        assert_int_equal(v.second, 2);
        assert_true(v.noise_known);
        /* the verdict's margin is the pair's: (90 - 61) / 90 */
        bench_verdict_pair(a, 3, c, 3, true, v.noise, "p99", &w);
        assert_true(w.margin > 32.2 && w.margin < 32.3);
        assert_true(v.margin == w.margin && v.p == w.p && v.significant == w.significant);
        assert_true(w.ratio > 0.677 && w.ratio < 0.678);
        assert_string_equal(w.label, "32% lower p99");
        /* best against the third: every value below, p = 1/20, margin 39% > half the noise */
        bench_verdict_pair(a, 3, b, 3, true, v.noise, "p99", &w);
        assert_true(w.p > 0.049 && w.p < 0.051);
        assert_true(w.significant);
        assert_string_equal(w.label, "39% lower p99");
        /* higher is better: the ratio reads as such */
        bench_verdict_pair(b, 3, a, 3, false, 0, "iops", &w);
        assert_string_equal(w.label, "1.6x the IOPS");
        assert_true(w.margin > 63.9 && w.margin < 64.0);
        /* nothing to compare */
        bench_verdict_pair(a, 0, b, 3, false, 0, "iops", &w);
        assert_false(w.significant);
        assert_true(w.p == 1.0);
}

static void test_one_round(void **state)
{
        double a[] = { 69 }, b[] = { 100 };
        double *vals[] = { a, b };
        unsigned counts[] = { 1, 1 };
        struct bench_verdict v;
        char *text = NULL;
        size_t len = 0;
        FILE *f;

        (void)state;
        bench_verdict_decide(vals, counts, 2, true, &v);
        assert_int_equal(v.best, 0);
        assert_false(v.noise_known);
        assert_false(v.significant);
        f = open_memstream(&text, &len);
        assert_non_null(f);
        bench_verdict_print(f, &v, "bfq", "none", true, 69, 100, "reader:p99", "round", NULL);
        fclose(f);
        assert_non_null(strstr(text, "best: bfq, 31% lower reader p99 than none; one round: no noise figure;"));
        assert_null(strstr(text, "noise 0.0%"));
        assert_null(strstr(text, "better"));
        free(text);
        /* two rounds: the noise is a figure */
        text = NULL;
        counts[0] = counts[1] = 1;
        {
                double c[] = { 69, 71 }, d[] = { 100, 110 };
                double *v2[] = { c, d };
                unsigned n2[] = { 2, 2 };

                bench_verdict_decide(v2, n2, 2, false, &v);
                assert_true(v.noise_known);
                f = open_memstream(&text, &len);
                bench_verdict_print(f, &v, "none", "bfq", false, 105, 70, "iops", "round", NULL);
                fclose(f);
                assert_non_null(strstr(text, "best: none, 1.5x the IOPS of bfq; round-to-round noise "));
                free(text);
        }
}

static int parse(struct bench_opts *o, struct bench_error *e, ...)
{
        char *argv[32];
        int argc = 0, r;
        FILE *out = fopen("/dev/null", "we");
        va_list ap;

        argv[argc++] = (char *)"iosched-bench";
        va_start(ap, e);
        for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
                argv[argc++] = a;
        va_end(ap);
        argv[argc] = NULL;
        bench_opts_init(o);
        memset(e, 0, sizeof(*e));
        r = bench_opts_parse(argc, argv, o, out, e);
        fclose(out);
        return r;
}

/* the words the next note must hold beside "replaced by p99", if any */
static const char *want_note;

/* Parse, then the objective after bench_objective_uncap(): its label, and whether a note came. */
static void expect_objective(const char *label, bool note, ...)
{
        struct bench_opts o;
        struct bench_error e;
        char n[400] = "";
        char *argv[16];
        unsigned k = 0;
        va_list ap;
        int r;

        va_start(ap, note);
        for (char *a; (a = va_arg(ap, char *)) && k < 15;)
                argv[k++] = a;
        va_end(ap);
        for (; k < 16; k++)
                argv[k] = NULL;
        r = parse(&o, &e, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8], NULL);
        if (r != 0)
                fail_msg("parse: %d '%s'", r, e.msg);
        r = bench_objective_uncap(&o, n, sizeof(n));
        if (strcmp(o.objective_label, label) != 0 || (r > 0) != note)
                fail_msg("objective %s (note %d: '%s'), wanted %s (note %d)", o.objective_label, r, n, label, note);
        if (note && (!strstr(n, "replaced by p99") || (want_note && !strstr(n, want_note))))
                fail_msg("note '%s' (wanted '%s')", n, want_note ? want_note : "replaced by p99");
        want_note = NULL;
        bench_opts_done(&o);
}

static void test_capped_objective(void **state)
{
        (void)state;
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randread", "--rate_iops=500", NULL);
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randread", "--objective=bw",
                         "--rate=10m", NULL);
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randread", "--thinktime=1ms", NULL);
        /* a cap on writes only does not cap a reading job */
        expect_objective("iops", false, "--filename=/dev/null", "--compare", "--rw=randread", "--rate_iops=,500", NULL);
        /* a mixed job capped in one direction only still varies in the other */
        expect_objective("iops", false, "--filename=/dev/null", "--compare", "--rw=randrw", "--rate_iops=500,", NULL);
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randrw", "--rate=1m,2m", NULL);
        /* a latency objective is what it is */
        expect_objective("p99", false, "--filename=/dev/null", "--compare", "--rw=randread", "--objective=p99",
                         "--rate_iops=500", NULL);
        /* the objective's job alone counts */
        expect_objective("b:p99", true, "--filename=/dev/null", "--compare", "--objective=b:iops", "--name=a",
                         "--rw=randread", "--name=b", "--rw=randread", "--rate_iops=100", NULL);
        expect_objective("iops", false, "--filename=/dev/null", "--compare", "--name=a", "--rw=randread",
                         "--name=b", "--rw=randread", "--rate_iops=100", NULL);
        /* one value for a mix's both directions said for both (before: "(reads)"); a direction
         * rwmixread= leaves no share is none the job does (before: not capped, a "best" by the cap) */
        want_note = "rate_iops=500 (reads and writes) in job";
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randrw", "--rate_iops=500",
                         NULL);
        want_note = "rate_iops=500 (reads) in job";
        expect_objective("p99", true, "--filename=/dev/null", "--compare", "--rw=randrw", "--rwmixread=100",
                         "--rate_iops=500,", NULL);
        expect_objective("iops", false, "--filename=/dev/null", "--compare", "--rw=randrw", "--rwmixread=99",
                         "--rate_iops=500,", NULL);
}

/* The first job's end: its amount (0: none) and runtime. */
static void expect_end(uint64_t amount, uint64_t runtime_ns, ...)
{
        struct bench_opts o;
        struct bench_error e;
        char *argv[10] = { NULL };
        unsigned k = 0;
        va_list ap;
        int r;

        va_start(ap, runtime_ns);
        for (char *a; (a = va_arg(ap, char *)) && k < 9;)
                argv[k++] = a;
        va_end(ap);
        r = parse(&o, &e, argv[0], argv[1], argv[2], argv[3], argv[4], argv[5], argv[6], argv[7], argv[8], NULL);
        if (r != 0)
                fail_msg("parse: %d '%s'", r, e.msg);
        if ((o.jobs[0].io_size.set ? o.jobs[0].io_size.bytes : 0) != amount || o.jobs[0].runtime_ns != runtime_ns)
                fail_msg("%s %s: amount %llu runtime %llu, wanted %llu %llu", argv[1], argv[2] ? argv[2] : "",
                         (unsigned long long)o.jobs[0].io_size.bytes, (unsigned long long)o.jobs[0].runtime_ns,
                         (unsigned long long)amount, (unsigned long long)runtime_ns);
        if (runtime_ns == 0 && o.jobs[0].ramp_set == false && o.compare && o.jobs[0].ramp_ns != 0)
                fail_msg("a round that ends by its size has no default ramp");
        bench_opts_done(&o);
}

static void test_end_conditions(void **state)
{
        (void)state;
        /* size= ends a job that is not time_based: fio's rule, --compare's rounds alike */
        expect_end(4 << 20, 0, "--filename=/dev/null", "--rw=write", "--size=4m", NULL);
        expect_end(4 << 20, 0, "--filename=/dev/null", "--compare", "--rw=write", "--size=4m", NULL);
        /* with runtime= too: whichever comes first */
        expect_end(4 << 20, 2000000000ull, "--filename=/dev/null", "--rw=write", "--size=4m", "--runtime=2", NULL);
        /* time_based: runtime= (the default 10 s), whatever the size */
        expect_end(0, 10000000000ull, "--filename=/dev/null", "--rw=write", "--size=4m", "--time_based", NULL);
        /* io_size= (io_limit=) over size= */
        expect_end(1 << 20, 0, "--filename=/dev/null", "--rw=read", "--size=4m", "--io_limit=1m", NULL);
        /* number_ios= at a block size: the smaller end */
        expect_end(40960, 0, "--filename=/dev/null", "--rw=randread", "--bs=4k", "--number_ios=10", NULL);
        expect_end(40960, 0, "--filename=/dev/null", "--rw=randread", "--bs=4k", "--number_ios=10", "--size=4m", NULL);
        /* no amount: the default runtime */
        expect_end(0, 10000000000ull, "--filename=/dev/null", "--rw=randread", NULL);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_labels),
                cmocka_unit_test(test_pair_is_the_verdict),
                cmocka_unit_test(test_one_round),
                cmocka_unit_test(test_capped_objective),
                cmocka_unit_test(test_end_conditions),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
