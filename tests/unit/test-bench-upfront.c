/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: what --compare says before its first switch (upfront.c), on
 * a captured loop device's tree with a partition, a dm holder, a mountinfo
 * and a swaps file added: the disk and why that one (the device the job
 * names; a relative --filename: the disk of the current directory), for
 * how long (rounds x variants x a round: a time, or "until each job has
 * done its size"), and what the disk holds, every file read inside the
 * tree's root: the filesystem mounted from its partition (by device number,
 * another disk's mount not counted), the dm device over it; and on the
 * bare tree, that it holds nothing.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"
#include "../../src/bench/compare.h"
#include "../../src/bench/jobs.h"
#include "helpers.h"

#define DDIR "/sys/devices/virtual/block/loop0"

static int parse(struct bench_opts *o, const char *a1, const char *a2, const char *a3, const char *a4)
{
        char *argv[] = { (char *)"iosched-bench", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
        int argc = 1;
        struct bench_error e = { 0 };
        FILE *out = fopen("/dev/null", "we");
        int r;

        while (argv[argc])
                argc++;
        bench_opts_init(o);
        r = bench_opts_parse(argc, argv, o, out, &e);
        fclose(out);
        return r;
}

/* The up-front lines for o on the tree dir's loop0, into a string the caller frees. */
static char *upfront(const char *dir, const struct bench_opts *o, const char *path, bool is_bdev)
{
        struct ios_ctx *root = NULL;
        struct ios_device *d = NULL;
        char *text = NULL;
        size_t len = 0;
        FILE *f;

        assert_int_equal(ios_ctx_new(dir, &root), 0);
        assert_int_equal(ios_device_new(root, "loop0", &d), 0);
        f = open_memstream(&text, &len);
        assert_non_null(f);
        bench_upfront_print(f, o, d, path, is_bdev, 0, 2, NULL);
        fclose(f);
        ios_device_free(d);
        ios_ctx_free(root);
        return text;
}

static char *tree_with(const char *what)
{
        char *dir = t_fixture_copy("loop");
        char p[4200];

        assert_non_null(dir);
        if (!what)
                return dir;
        snprintf(p, sizeof(p), "%s" DDIR "/loop0p1/partition", dir);
        assert_int_equal(t_write_file(p, "1\n"), 0);
        snprintf(p, sizeof(p), "%s" DDIR "/loop0p1/dev", dir);
        assert_int_equal(t_write_file(p, "259:5\n"), 0);
        snprintf(p, sizeof(p), "%s" DDIR "/loop0p1/holders/.keep", dir);
        assert_int_equal(t_write_file(p, ""), 0);
        snprintf(p, sizeof(p), "%s" DDIR "/holders/dm-3/.keep", dir);
        assert_int_equal(t_write_file(p, ""), 0);
        snprintf(p, sizeof(p), "%s/sys/class/block/dm-3/dm/name", dir);
        assert_int_equal(t_write_file(p, "vg-data\n"), 0);
        /* mounts of the partition (escaped space in the path) and of another disk */
        snprintf(p, sizeof(p), "%s/proc/self/mountinfo", dir);
        assert_int_equal(t_write_file(p, "22 1 253:0 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
                                         "40 22 259:5 / /srv/my\\040data rw shared:9 - xfs /dev/loop0p1 rw\n"), 0);
        snprintf(p, sizeof(p), "%s/proc/swaps", dir);
        assert_int_equal(t_write_file(p, "Filename\tType\tSize\tUsed\tPriority\n/nonexistent\tfile\t1\t0\t-2\n"), 0);
        return dir;
}

/* the run's measured time of n jobs (sample.c) */
static uint64_t span(const struct bench_result *jobs, unsigned n)
{
        struct bench_result run = { 0 };

        bench_result_spans(&run, jobs, NULL, n);
        return run.runtime_ns;
}

static void test_holdings(void **state)
{
        struct bench_opts o;
        char *dir = tree_with("parts"), *text;

        (void)state;
        assert_int_equal(parse(&o, "--filename=/dev/loop0", "--compare", "--runtime=2", NULL), 0);
        text = upfront(dir, &o, "/dev/loop0", true);
        assert_non_null(strstr(text, "iosched-bench: --compare will switch the I/O scheduler of loop0 "
                                     "(the device the job names, /dev/loop0), restored at the end\n"));
        assert_non_null(strstr(text, "iosched-bench: for 3 rounds x 2 variants, each round 2.0s (+1.0s ramp): "
                                     "about 18s in all\n"));
        assert_non_null(strstr(text, "iosched-bench: loop0 holds: xfs mounted on /srv/my data (loop0p1), "
                                     "dm-3 (vg-data) over loop0\n"));
        assert_null(strstr(text, "ext4"));
        free(text);
        bench_opts_done(&o);
        t_rmtree(dir);
}

static void test_nothing_held_and_size(void **state)
{
        struct bench_opts o;
        char *dir = tree_with(NULL), *text, cwd[4096];

        (void)state;
        assert_int_equal(parse(&o, "--filename=test", "--compare", "--rw=write", "--size=4m"), 0);
        text = upfront(dir, &o, "test", false);
        assert_non_null(getcwd(cwd, sizeof(cwd)));
        {
                char want[4400];

                snprintf(want, sizeof(want), "of loop0 (the disk holding the current directory %s: the job names "
                         "the relative path 'test')", cwd);
                assert_non_null(strstr(text, want));
        }
        assert_non_null(strstr(text, "each round until each job has done its size (4MiB per thread)\n"));
        /* no mountinfo or swaps in the tree: said, not guessed */
        assert_non_null(strstr(text, "loop0 holds: (cannot read mountinfo or swaps)"));
        free(text);
        bench_opts_done(&o);
        t_rmtree(dir);
}

static void test_round_words(void **state)
{
        struct bench_opts o;
        char b[160];

        (void)state;
        assert_int_equal(parse(&o, "--filename=/dev/null", "--rw=read", "--size=1m", "--runtime=3"), 0);
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 3.0);
        assert_string_equal(b, "up to 3.0s or 1MiB per thread, whichever comes first");
        bench_opts_done(&o);
        assert_int_equal(parse(&o, "--filename=/dev/null", "--rw=read", "--number_ios=256", "--bs=4k"), 0);
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 0);
        assert_string_equal(b, "until each job has done its size (1MiB per thread)");
        /* a job's loops=: its amount as many times (number_ios= counts per pass, as fio's) */
        {
                struct bench_opts *j = o.njobs ? &o.jobs[0] : &o;
                struct bench_error e = {};

                assert_int_equal(bench_jobopt_set(j, "loops", "3", "job:4", &e), 0);
                assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 0);
                assert_string_equal(b, "until each job has done its size (3MiB per thread)");
                assert_int_equal(bench_job_amount(j, 0), 3 << 20);
                assert_int_equal(bench_jobopt_set(j, "loops", "-1", "job:4", &e), -EINVAL);
                assert_non_null(strstr(e.msg, "job:4"));
        }
        bench_opts_done(&o);
        /* no size: the region ends a job that is not time_based, as fio's */
        assert_int_equal(parse(&o, "--filename=/dev/null", "--rw=randread", "--runtime=6", NULL), 0);
        assert_true(bench_round_words(&o, 64 << 20, b, sizeof(b)) == 6.0);
        assert_string_equal(b, "up to 6.0s or 64MiB per thread, whichever comes first");
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 6.0);
        assert_string_equal(b, "6.0s (+0.0s ramp)");
        bench_opts_done(&o);
        /* jobs a stonewall puts after the others: their times add up, in the words and in the run's
         * measured time (its IOPS are its I/Os over that) */
        assert_int_equal(parse(&o, "--filename=/dev/null", "--time_based", "--name=a", "--name=b"), 0);
        assert_int_equal(o.njobs, 2);
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 10.0);
        o.jobs[1].stonewall = true;
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 20.0);
        assert_string_equal(b, "20.0s (+0.0s ramp)");
        /* b waits for a (fio's wait_for=): one after the other too (before: 10.0s) */
        o.jobs[1].stonewall = false;
        o.jobs[1].wait_for = (char *)"a";
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 20.0);
        assert_string_equal(b, "20.0s (+0.0s ramp)");
        o.jobs[1].wait_for = NULL;
        /* b starts 15s into the round: 20s measured, 5s with no job running (before: "25.0s") */
        o.jobs[1].startdelay_ns = 15000000000ull;
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 25.0);
        assert_string_equal(b, "20.0s (+0.0s ramp, +5.0s start delay)");
        /* with a stonewall, fio counts startdelay= from the run's start, not the group's: b starts at
         * 10s, when a ends (before: 25.0s) */
        o.jobs[1].startdelay_ns = 5000000000ull;
        o.jobs[1].stonewall = true;
        assert_true(bench_round_words(&o, 0, b, sizeof(b)) == 20.0);
        assert_string_equal(b, "20.0s (+0.0s ramp)");
        o.jobs[1].startdelay_ns = 0;
        {
                struct bench_result r[2] = { { .runtime_ns = 3, .job = &o.jobs[0] },
                                             { .runtime_ns = 5, .job = &o.jobs[1] } };

                assert_int_equal(span(r, 2), 8);
                o.jobs[1].stonewall = false;
                assert_int_equal(span(r, 2), 5);
                /* b waits for a (fio's wait_for=): one after the other too */
                o.jobs[1].wait_for = (char *)"a";
                assert_int_equal(span(r, 2), 8);
                o.jobs[1].wait_for = NULL;
                /* b starts 10 after the run: the windows [0,3] and [10,15], 8 in all */
                o.jobs[1].startdelay_ns = 10;
                assert_int_equal(span(r, 2), 8);
                o.jobs[1].startdelay_ns = 0;
        }
        bench_opts_done(&o);
        /* time_based: its runtime, whatever its amount (fio goes on past number_ios= and io_size=) */
        assert_int_equal(parse(&o, "--filename=/dev/null", "--runtime=2", "--time_based", "--number_ios=256"),
                         0);
        assert_true(bench_round_words(&o, 64 << 20, b, sizeof(b)) == 2.0);
        assert_string_equal(b, "2.0s (+0.0s ramp)");
        assert_int_equal(bench_job_amount(o.njobs ? &o.jobs[0] : &o, 64 << 20), 0);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, "--filename=/dev/null", "--rw=randread", "--runtime=6", "--time_based"),
                         0);
        assert_true(bench_round_words(&o, 64 << 20, b, sizeof(b)) == 6.0);
        assert_string_equal(b, "6.0s (+0.0s ramp)");
        bench_opts_done(&o);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_holdings),
                cmocka_unit_test(test_nothing_held_and_size),
                cmocka_unit_test(test_round_words),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
