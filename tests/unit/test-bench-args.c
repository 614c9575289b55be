/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: iosched-bench's command line: fio-style sizes (4k, 1m, 1.5g,
 * 0x1000, 50%), times (10, 500ms, 1m), booleans and counts, the human
 * forms they are printed in (12.3k, 4KiB, 55.0us), a full fio-like job line
 * in both --opt=value and --opt value forms, the defaults that depend on
 * other options, every usage error with its one message and its class
 * (a CPU list that cannot be checked is a system failure, not a usage
 * error), the I/O buffers' memory the jobs take, and the mountinfo matcher the write-safety check relies on.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"
#include "../../src/bench/jobs.h"
#include "strv.h"

/*
 * sched_getaffinity() for the CPU-list code under test: the kernel's answer
 * (as glibc gives it), or a failure when a test asks for one.
 */
static int affinity_fails;

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
        long n;

        if (affinity_fails) {
                errno = affinity_fails;
                return -1;
        }
        n = syscall(SYS_sched_getaffinity, pid, size, set);
        if (n < 0)
                return -1;
        if ((size_t)n < size)
                memset((char *)set + n, 0, size - (size_t)n);
        return 0;
}

static void test_sizes(void **state)
{
        uint64_t v;
        struct bench_size s;

        (void)state;
        assert_int_equal(bench_parse_size("512", &v), 0);
        assert_int_equal(v, 512);
        assert_int_equal(bench_parse_size("4k", &v), 0);
        assert_int_equal(v, 4096);
        assert_int_equal(bench_parse_size("4K", &v), 0);
        assert_int_equal(v, 4096);
        assert_int_equal(bench_parse_size("4kb", &v), 0);
        assert_int_equal(v, 4096);
        /* fio's default kb_base=1024 inverts the prefixes: KiB is 1000, kb 1024; kb_base=1000 turns them
         * round; "most" is the larger reading, whichever kb_base fio reads it with */
        static const struct { const char *s; unsigned base; uint64_t v; } kb[] = {
                { "4KiB", 1024, 4000 }, { "1mib", 1024, 1000000 }, { "4k", 1000, 4000 },
                { "4KiB", 1000, 4096 }, { "2gb", 1000, 2000000000 },
                { "1m", 0, 1048576 },   { "1MiB", 0, 1048576 },   { "4096", 0, 4096 },
        };
        for (size_t i = 0; i < sizeof(kb) / sizeof(kb[0]); i++) {
                assert_int_equal(kb[i].base ? bench_parse_size_base(kb[i].s, kb[i].base, &v)
                                            : bench_parse_size_most(kb[i].s, &v), 0);
                assert_int_equal(v, kb[i].v);
        }
        assert_int_equal(bench_parse_size("4KiB", &v), 0);
        assert_int_equal(v, 4000);
        assert_int_equal(bench_parse_size_base("4k", 999, &v), -EINVAL);
        assert_int_equal(bench_parse_size_most("4q", &v), -EINVAL);
        assert_int_equal(bench_parse_size("1m", &v), 0);
        assert_int_equal(v, 1048576);
        assert_int_equal(bench_parse_size("1g", &v), 0);
        assert_int_equal(v, 1073741824);
        assert_int_equal(bench_parse_size("1.5g", &v), 0);
        assert_int_equal(v, 1610612736);
        assert_int_equal(bench_parse_size("2t", &v), 0);
        assert_int_equal(v, 2ull << 40);
        assert_int_equal(bench_parse_size("0x1000", &v), 0);
        assert_int_equal(v, 4096);
        assert_int_equal(bench_parse_size("64b", &v), 0);
        assert_int_equal(v, 64);

        assert_true(bench_parse_size("", &v) < 0);
        assert_true(bench_parse_size("k", &v) < 0);
        assert_true(bench_parse_size("4q", &v) < 0);
        assert_true(bench_parse_size("-1", &v) < 0);
        assert_true(bench_parse_size("4 k", &v) < 0);
        assert_true(bench_parse_size("0x", &v) < 0);
        assert_true(bench_parse_size("99999999999999999999", &v) < 0);
        assert_true(bench_parse_size("20000p", &v) < 0);       /* > 2^64 */
        assert_true(bench_parse_size(NULL, &v) < 0);

        assert_int_equal(bench_parse_size_pct("50%", &s), 0);
        assert_true(s.set && s.pct == 50);
        assert_int_equal(bench_parse_size_pct("12.5%", &s), 0);
        assert_true(s.pct == 12.5);
        assert_int_equal(bench_parse_size_pct("1m", &s), 0);
        assert_true(s.set && s.pct == 0 && s.bytes == 1048576);
        assert_int_equal(bench_parse_size_pct("0%", &s), 0);   /* an offset of 0%; a size of 0 is refused */
        assert_true(s.set && s.pct == 0 && s.bytes == 0);
        assert_true(bench_parse_size_pct("101%", &s) < 0);
        assert_true(bench_parse_size_pct("%", &s) < 0);
        assert_true(bench_parse_size_pct("x%", &s) < 0);
}

static void test_times(void **state)
{
        uint64_t v;

        (void)state;
        assert_int_equal(bench_parse_time("10", &v), 0);       /* fio: seconds */
        assert_int_equal(v, 10000000000ull);
        assert_int_equal(bench_parse_time("10s", &v), 0);
        assert_int_equal(v, 10000000000ull);
        assert_int_equal(bench_parse_time("500ms", &v), 0);
        assert_int_equal(v, 500000000ull);
        assert_int_equal(bench_parse_time("250us", &v), 0);
        assert_int_equal(v, 250000ull);
        assert_int_equal(bench_parse_time("1m", &v), 0);
        assert_int_equal(v, 60000000000ull);
        assert_int_equal(bench_parse_time("2h", &v), 0);
        assert_int_equal(v, 7200000000000ull);
        assert_int_equal(bench_parse_time("1.5s", &v), 0);
        assert_int_equal(v, 1500000000ull);
        assert_int_equal(bench_parse_time("100msec", &v), 0);
        assert_int_equal(v, 100000000ull);
        assert_true(bench_parse_time("10x", &v) < 0);
        assert_true(bench_parse_time("s", &v) < 0);
        assert_true(bench_parse_time("-1s", &v) < 0);
        assert_true(bench_parse_time("", &v) < 0);
}

static void test_bools(void **state)
{
        bool b;

        (void)state;
        assert_int_equal(bench_parse_bool("1", &b), 0);
        assert_true(b);
        assert_int_equal(bench_parse_bool("off", &b), 0);
        assert_false(b);
        assert_int_equal(bench_parse_bool("true", &b), 0);
        assert_true(b);
        assert_true(bench_parse_bool("2", &b) < 0);
}

static void test_counts(void **state)
{
        unsigned v = 7;

        (void)state;
        assert_int_equal(bench_parse_uint("0", 0, 100, &v), 0);
        assert_int_equal(v, 0);
        assert_int_equal(bench_parse_uint("4096", 1, 4096, &v), 0);
        assert_int_equal(v, 4096);
        assert_true(bench_parse_uint("4097", 1, 4096, &v) < 0);
        assert_true(bench_parse_uint("0", 1, 4096, &v) < 0);
        assert_true(bench_parse_uint("12k", 1, 1u << 20, &v) < 0);     /* a count has no unit */
        assert_true(bench_parse_uint("-1", 0, 10, &v) < 0);
        assert_true(bench_parse_uint("", 0, 10, &v) < 0);
        assert_true(bench_parse_uint(NULL, 0, 10, &v) < 0);
        assert_int_equal(v, 4096);      /* untouched on error */
}

/* The short human forms of the reports and the progress line. */
static void test_formats(void **state)
{
        char b[32];

        (void)state;
        assert_string_equal(bench_fmt_num(b, sizeof(b), 9999), "9999");
        assert_string_equal(bench_fmt_num(b, sizeof(b), 12345), "12.3k");
        assert_string_equal(bench_fmt_num(b, sizeof(b), 2.5e6), "2.50M");
        assert_string_equal(bench_fmt_bytes(b, sizeof(b), 4096), "4KiB");
        assert_string_equal(bench_fmt_bytes(b, sizeof(b), 1536), "1536B");
        assert_string_equal(bench_fmt_bytes(b, sizeof(b), 1e9), "954MiB");
        assert_string_equal(bench_fmt_ns(b, sizeof(b), 999), "999ns");
        assert_string_equal(bench_fmt_ns(b, sizeof(b), 55000), "55.0us");
        assert_string_equal(bench_fmt_ns(b, sizeof(b), 1.61e6), "1.61ms");
}

/* Parse a NULL-terminated list; returns the parse result, fills o and e. */
static int parse(struct bench_opts *o, struct bench_error *e, ...)
{
        char *argv[64];
        int argc = 0, r;
        va_list ap;
        FILE *out = fopen("/dev/null", "we");

        argv[argc++] = (char *)"iosched-bench";
        va_start(ap, e);
        for (char *a; (a = va_arg(ap, char *)) && argc < 63;)
                argv[argc++] = a;
        va_end(ap);
        argv[argc] = NULL;
        bench_opts_init(o);
        memset(e, 0, sizeof(*e));
        r = bench_opts_parse(argc, argv, o, out, e);
        fclose(out);
        return r;
}

static void test_full_line(void **state)
{
        struct bench_opts o;
        struct bench_error e;

        (void)state;
        assert_int_equal(parse(&o, &e, "--filename=/dev/loop7", "--ioengine", "libaio", "--rw=randrw",
                               "--rwmixread", "70", "--bs=4k,64k", "--iodepth=32", "--numjobs", "2",
                               "--runtime=5s", "--ramp_time", "500ms", "--size=1g", "--offset", "1m",
                               "--direct", "0", "--time_based", "--norandommap", "--randrepeat=0",
                               "--group_reporting", "--name=job", "--output-format=json",
                               "--iodepth_batch_submit=4", "--iodepth_batch_complete_max", "16",
                               "--fixedbufs=0", "--percentile_list=50:99.5", NULL), 0);
        assert_string_equal(o.filename, "/dev/loop7");
        assert_ptr_equal(o.engine, &bench_engine_libaio);
        assert_int_equal(o.rw, BENCH_RW_RANDRW);
        assert_int_equal(o.rwmixread, 70);
        assert_int_equal(o.bs[BENCH_READ], 4096);
        assert_int_equal(o.bs[BENCH_WRITE], 65536);
        assert_int_equal(o.iodepth, 32);
        assert_int_equal(o.numjobs, 2);
        assert_int_equal(o.runtime_ns, 5000000000ull);
        assert_int_equal(o.ramp_ns, 500000000ull);
        assert_int_equal(o.size.bytes, 1ull << 30);
        assert_int_equal(o.offset.bytes, 1ull << 20);
        assert_false(o.direct);
        assert_false(o.randrepeat);
        assert_string_equal(o.name, "job");
        assert_true(o.json);
        assert_int_equal(o.batch_submit, 4);
        assert_int_equal(o.batch_complete_min, 1);
        assert_int_equal(o.batch_complete_max, 16);
        assert_false(o.fixedbufs);
        assert_true(o.registerfiles);
        assert_int_equal(o.n_percentiles, 2);
        assert_true(o.percentiles[1] == 99.5);
        assert_int_equal(o.loops, 1);
        bench_opts_done(&o);

        /* defaults */
        assert_int_equal(parse(&o, &e, "--filename", "/dev/loop7", NULL), 0);
        assert_ptr_equal(o.engine, &bench_engine_io_uring);
        assert_int_equal(o.rw, BENCH_RW_READ);
        assert_int_equal(o.bs[0], 4096);
        assert_int_equal(o.iodepth, 1);
        assert_int_equal(o.batch_submit, 1);
        assert_int_equal(o.batch_complete_max, 1);
        assert_true(o.direct);
        assert_int_equal(o.runtime_ns, 10000000000ull);
        assert_int_equal(o.ramp_ns, 0);
        assert_int_equal(o.n_percentiles, 17);          /* fio's default list */
        assert_string_equal(o.name, "iosched-bench");
        bench_opts_done(&o);

        /* depth 128: submit batches of 16 (depth/8), reap up to the depth */
        assert_int_equal(parse(&o, &e, "--filename=x", "--iodepth=128", "--direct", NULL), 0);
        assert_int_equal(o.batch_submit, 16);
        assert_int_equal(o.batch_complete_max, 128);
        assert_true(o.direct);
        bench_opts_done(&o);

        assert_int_equal(parse(&o, &e, "--filename=x", "--iodepth=32", NULL), 0);
        assert_int_equal(o.batch_submit, 4);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=x", "--iodepth=1024", NULL), 0);
        assert_int_equal(o.batch_submit, 16);
        bench_opts_done(&o);

        /* psync is synchronous: depth 1 whatever was asked */
        assert_int_equal(parse(&o, &e, "--filename=x", "--ioengine=psync", "--iodepth=64", NULL), 0);
        assert_int_equal(o.iodepth, 1);
        bench_opts_done(&o);

        /* --compare: 3 loops and 1 s ramp unless given; a list; --rw=rw is readwrite */
        assert_int_equal(parse(&o, &e, "--filename=x", "--compare", "kyber,bfq", "--rw=rw", NULL), 0);
        assert_true(o.compare);
        assert_int_equal(o.loops, 3);
        assert_int_equal(o.ramp_ns, 1000000000ull);
        assert_int_equal(o.rw, BENCH_RW_READWRITE);
        assert_string_equal(o.compare_scheds[0], "kyber");
        assert_string_equal(o.compare_scheds[1], "bfq");
        assert_null(o.compare_scheds[2]);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=x", "--compare", "--loops=5", "--ramp_time=0",
                               "--objective=read-p99", NULL), 0);
        assert_null(o.compare_scheds);
        assert_int_equal(o.loops, 5);
        assert_int_equal(o.ramp_ns, 0);
        assert_int_equal(o.objective, BENCH_OBJ_READ_P99);
        bench_opts_done(&o);

        /* --io_size without --runtime: stop on the amount only */
        assert_int_equal(parse(&o, &e, "--filename=x", "--io_size=10m", NULL), 0);
        assert_int_equal(o.runtime_ns, 0);
        assert_int_equal(o.io_size.bytes, 10ull << 20);
        bench_opts_done(&o);

        /* the null engine needs no file */
        assert_int_equal(parse(&o, &e, "--ioengine=null", "--size=50%", NULL), 0);
        assert_true(o.size.pct == 50);
        bench_opts_done(&o);

        /* --help and --version: 1, nothing to run */
        assert_int_equal(parse(&o, &e, "--help", NULL), 1);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--version", NULL), 1);
        bench_opts_done(&o);
}

static void expect_error(const char *want, ...)
{
        struct bench_opts o;
        struct bench_error e;
        char *argv[32];
        int argc = 0, r;
        va_list ap;
        FILE *out = fopen("/dev/null", "we");

        argv[argc++] = (char *)"iosched-bench";
        va_start(ap, want);
        for (char *a; (a = va_arg(ap, char *)) && argc < 31;)
                argv[argc++] = a;
        va_end(ap);
        argv[argc] = NULL;
        bench_opts_init(&o);
        memset(&e, 0, sizeof(e));
        r = bench_opts_parse(argc, argv, &o, out, &e);
        fclose(out);
        if (r >= 0 || !strstr(e.msg, want))
                fail_msg("args ending '%s': got %d '%s', want '%s'", argv[argc - 1], r, e.msg, want);
        assert_int_equal(e.cls, BENCH_ERR_USAGE);
        assert_null(strchr(e.msg, '\n'));
        bench_opts_done(&o);
}

static void test_errors(void **state)
{
        (void)state;
        expect_error("invalid --rw 'sideways'", "--filename=x", "--rw=sideways", NULL);
        expect_error("invalid --bs 'huge'", "--filename=x", "--bs=huge", NULL);
        /* sizes fio takes and the native engine does not (512 to 64m, by 512) */
        expect_error("the native engine does not implement: --bs=1000", "--filename=x", "--bs=1000", NULL);
        expect_error("the native engine does not implement: --bs=128m", "--filename=x", "--bs=128m", NULL);
        expect_error("invalid --size '0%'", "--filename=x", "--size=0%", NULL);
        expect_error("invalid --bs '4k,'", "--filename=x", "--bs=4k,", NULL);
        expect_error("missing --filename", "--rw=read", NULL);
        expect_error("invalid --ioengine ''", "--filename=x", "--ioengine=", NULL);
        expect_error("the native engine does not implement: --ioengine=spdy", "--filename=x", "--ioengine=spdy", NULL);
        expect_error("the native engine does not implement: --ioengine=spdk", "--filename=x", "--ioengine=spdk", NULL);
        expect_error("invalid --iodepth '0'", "--filename=x", "--iodepth=0", NULL);
        expect_error("invalid --iodepth '5000'", "--filename=x", "--iodepth=5000", NULL);
        expect_error("invalid --numjobs 'two'", "--filename=x", "--numjobs=two", NULL);
        expect_error("invalid --rwmixread '101'", "--filename=x", "--rwmixread=101", NULL);
        expect_error("invalid --runtime '10x'", "--filename=x", "--runtime=10x", NULL);
        expect_error("invalid --runtime '0'", "--filename=x", "--runtime=0", NULL);
        expect_error("invalid --ramp_time", "--filename=x", "--ramp_time=soon", NULL);
        expect_error("invalid --size '0'", "--filename=x", "--size=0", NULL);
        expect_error("invalid --offset '-4k'", "--filename=x", "--offset=-4k", NULL);
        expect_error("invalid --direct 'maybe'", "--filename=x", "--direct=maybe", NULL);
        expect_error("invalid --objective 'fast'", "--filename=x", "--objective=fast", NULL);
        expect_error("invalid --output-format 'xml'", "--filename=x", "--output-format=xml", NULL);
        expect_error("invalid --loops '0'", "--filename=x", "--loops=0", NULL);
        expect_error("invalid --eta 'sometimes'", "--filename=x", "--eta=sometimes", NULL);
        expect_error("invalid --percentile_list", "--filename=x", "--percentile_list=50:101", NULL);
        expect_error("invalid --compare", "--filename=x", "--compare=bad/name", NULL);
        expect_error("invalid --compare 'kyber,BFQ'", "--filename=x", "--compare=kyber,BFQ", NULL);
        expect_error("invalid --compare", "--filename=x", "--compare=a-name-too-long-16", NULL);
        expect_error("unknown option --frobnicate", "--filename=x", "--frobnicate", NULL);
        expect_error("unknown option --observe=1", "--filename=x", "--observe=1", NULL);
        expect_error("unknown option -z", "--filename=x", "-z", NULL);
        expect_error("option --bs needs a value", "--filename=x", "--bs", NULL);
        /* a word that is no option is a job file */
        expect_error("extra: cannot read the job file: No such file or directory", "--filename=x", "extra", NULL);
        /* fio options we do not have are named, all at once, never ignored */
        expect_error("the native engine does not implement: --verify=md5", "--filename=x", "--verify=md5", NULL);
        expect_error("the native engine does not implement: --fsync=1, --flow=2", "--filename=x", "-fsync=1",
                     "--flow", "2", NULL);
        /* every new option's bad value */
        expect_error("invalid --rate 'fast'", "--filename=x", "--rate=fast", NULL);
        expect_error("does not implement: --rate=1m,2m,3m", "--filename=x", "--rate=1m,2m,3m", NULL);   /* trims */
        expect_error("invalid --rate ','", "--filename=x", "--rate=,", NULL);
        expect_error("invalid --rate_iops '1.5'", "--filename=x", "--rate_iops=1.5", NULL);
        expect_error("invalid --rate_iops '-1'", "--filename=x", "--rate_iops=-1", NULL);
        expect_error("invalid --thinktime 'soon'", "--filename=x", "--thinktime=soon", NULL);
        expect_error("invalid --thinktime_blocks '0'", "--filename=x", "--thinktime_blocks=0", NULL);
        expect_error("invalid --startdelay '1-3'", "--filename=x", "--startdelay=1-3", NULL);
        expect_error("invalid --new_group 'maybe'", "--filename=x", "--new_group=maybe", NULL);
        expect_error("invalid --stonewall '2'", "--filename=x", "--stonewall=2", NULL);
        expect_error("invalid --prio '8'", "--filename=x", "--prio=8", NULL);
        expect_error("invalid --ioprio 'high'", "--filename=x", "--ioprio=high", NULL);
        expect_error("invalid --prioclass '0'", "--filename=x", "--prioclass=0", NULL);
        expect_error("invalid --prioclass '4'", "--filename=x", "--prioclass=4", NULL);
        expect_error("invalid --buffered 'yes please'", "--filename=x", "--buffered=yes please", NULL);
        expect_error("invalid --random_generator 'mt' (expected tausworthe, tausworthe64 or lfsr)",
                     "--filename=x", "--random_generator=mt", NULL);
        expect_error("invalid --blocksize 'big'", "--filename=x", "--blocksize=big", NULL);
        expect_error("does not implement: --directory=a:b", "--directory=a:b", NULL);
        expect_error("does not implement: --filename=a:b", "--filename=a:b", NULL);
        expect_error("--directory needs --size", "--directory=/tmp", NULL);
        expect_error("invalid --output ''", "--filename=x", "--output=", NULL);
        expect_error("invalid --workload 'dbms'", "--filename=x", "--workload=dbms", NULL);
        expect_error("--workload=mixed-latency writes: add --allow-write", "--filename=x", "--workload=mixed-latency", NULL);
        expect_error("invalid --name ''", "--filename=x", "--name=", NULL);
        expect_error("job 'b': missing --filename", "--name=a", "--filename=x", "--name=b", NULL);
        /* --objective=JOB:METRIC names a job that exists, once, and can measure it */
        expect_error("--objective=c:p99: no job named 'c' (jobs: a, b)", "--filename=x", "--objective=c:p99",
                     "--name=a", "--name=b", NULL);
        expect_error("--objective=a:p99: more than one job is named 'a'", "--filename=x", "--objective=a:p99",
                     "--name=a", "--name=a", NULL);
        expect_error("--objective=w:read-p99 needs a job that reads", "--filename=x", "--objective=w:read-p99",
                     "--name=r", "--name=w", "--rw=write", NULL);
        /* a mix of no reads reads nothing (before: every round run, then "no percentile to compare") */
        expect_error("--objective=read-p99 needs a workload that reads", "--filename=x", "--rw=randrw",
                     "--rwmixread=0", "--objective=read-p99", NULL);
        expect_error("--objective=read-p99 needs a workload that reads", "--filename=x", "--rw=randrw",
                     "--rwmixwrite=100", "--objective=read-p99", NULL);
        expect_error("invalid --objective ':p99'", "--filename=x", "--objective=:p99", NULL);
        expect_error("invalid --objective 'reader:p42'", "--filename=x", "--objective=reader:p42", NULL);
        expect_error("--compare needs a real engine", "--ioengine=null", "--compare", NULL);
        expect_error("invalid --cpus_allowed '0-'", "--filename=x", "--cpus_allowed=0-", NULL);
        expect_error("invalid --cpus_allowed '3-1'", "--filename=x", "--cpus_allowed=3-1", NULL);
        expect_error("invalid --cpus_allowed '0,,1'", "--filename=x", "--cpus_allowed=0,,1", NULL);
        expect_error("invalid --cpus_allowed '99999'", "--filename=x", "--cpus_allowed=99999", NULL);
        expect_error("invalid --cpus_allowed_policy 'half'", "--filename=x", "--cpus_allowed_policy=half", NULL);
        expect_error("larger than the maximum", "--filename=x", "--iodepth=4",
                     "--iodepth_batch_complete_min=8", NULL);
}

/* fio's rule: --name starts a job, options before the first are every job's defaults. */
/* Options the native engine lacks: all listed, -EOPNOTSUPP, the rest parsed, the job kept for fio */
static void test_unsupported(void **state)
{
        struct bench_opts o;
        struct bench_error e;
        const char * const want[] = { "--filename=/dev/x", "--name=a", "--rw", "randread", "--gtod_reduce",
                                      "--verify", "crc32c", "--eta-newline=1", "--bssplit=4k/50:64k/50",
                                      "--flow", "1", "--bs=huge", "--readonly", NULL };

        (void)state;
        assert_int_equal(parse(&o, &e, "--filename=/dev/x", "--compare=bfq", "--name=a", "--rw", "randread",
                               "--gtod_reduce", "--verify", "crc32c", "--eta-newline=1", "--loops=5",
                               "--bssplit=4k/50:64k/50", "--flow", "1", "--bs=huge", "--backend=fio", "--readonly",
                               "--allow-write", NULL), -EOPNOTSUPP);
        assert_int_equal(e.cls, BENCH_ERR_USAGE);
        /* native lacks verify and flow; with --backend=fio a bad value is fio's to judge (listed too);
         * the reporting options and bssplit are native's (jobs.h) */
        assert_non_null(strstr(e.msg, "does not implement: --verify=crc32c, --flow=1, --bs=huge"));
        assert_int_equal(ios_strv_length(o.unsupported), 3);
        assert_int_equal(ios_strv_length(o.ignored), 2);
        /* the program's options after them were read all the same */
        assert_true(o.compare && o.allow_write && o.readonly);
        assert_int_equal(o.loops, 5);
        assert_int_equal(o.backend, BENCH_BACKEND_FIO);
        /* fio gets the job as written, without our options */
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
                if (!want[i]) {
                        assert_null(o.fio_args[i]);
                        break;
                }
                assert_non_null(o.fio_args[i]);
                assert_string_equal(o.fio_args[i], want[i]);
        }
        bench_opts_done(&o);
        expect_error("invalid --backend 'spdk'", "--filename=x", "--backend=spdk", NULL);
        /* kb_base: 1024 is ours; 1000, and a KiB size that is not ours then (4000 bytes), fio's */
        assert_int_equal(parse(&o, &e, "--filename=/dev/x", "--kb_base=1024", "--bs=4k", NULL), 0);
        assert_int_equal(o.jobs[0].bs[0], 4096);
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=/dev/x", "--kb_base=1000", "--bs=4KiB", NULL),
                         -EOPNOTSUPP);
        assert_non_null(strstr(e.msg, "does not implement: --kb_base=1000, --bs=4KiB"));
        bench_opts_done(&o);
        expect_error("invalid --kb_base '1'", "--filename=x", "--kb_base=1", NULL);
        /* a bare --compare gets a workload that separates schedulers; one with a shape keeps it */
        assert_int_equal(parse(&o, &e, "--filename=x", "--compare", NULL), 0);
        assert_string_equal(o.workload, "mixed-read");
        assert_int_equal(o.njobs, 2);
        assert_string_equal(o.objective_label, "reader:p99");
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=x", "--compare", "--allow-write", NULL), 0);
        assert_string_equal(o.workload, "mixed-latency");
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=x", "--compare", "--rw=randread", NULL), 0);
        assert_null(o.workload);
        assert_int_equal(o.njobs, 1);
        bench_opts_done(&o);
}

static void test_jobs(void **state)
{
        struct bench_opts o;
        struct bench_error e;

        (void)state;
        assert_int_equal(parse(&o, &e, "--filename=/dev/loop7", "--runtime=5s", "--bs=8k", "--objective=reader:p99",
                               "--name=reader", "--rw=randread", "--prio=2",
                               "--name", "writer", "--rw=write", "--bs=128k", "--iodepth=32", "--rate=10m,",
                               "--rate_iops=,500", "--thinktime=200", "--thinktime_blocks=4", "--startdelay=1",
                               "--stonewall", "--group_reporting", "--prioclass", "3", "--compare", NULL), 0);
        assert_int_equal(o.njobs, 2);
        assert_int_equal(o.nthreads, 2);
        assert_string_equal(o.jobs[0].name, "reader");
        assert_string_equal(o.jobs[0].filename, "/dev/loop7");
        assert_int_equal(o.jobs[0].rw, BENCH_RW_RANDREAD);
        assert_int_equal(o.jobs[0].bs[0], 8192);                /* the global default */
        assert_int_equal(o.jobs[0].runtime_ns, 5000000000ull);
        assert_int_equal(o.jobs[0].prioclass, 2);               /* ionice's best-effort */
        assert_int_equal(o.jobs[0].prio, 2);
        assert_int_equal(o.jobs[0].groupid, 0);
        assert_int_equal(o.jobs[0].ramp_ns, 1000000000ull);     /* --compare, given after the jobs */
        assert_string_equal(o.jobs[1].name, "writer");
        assert_int_equal(o.jobs[1].rw, BENCH_RW_WRITE);
        assert_int_equal(o.jobs[1].bs[BENCH_WRITE], 131072);
        assert_int_equal(o.jobs[1].iodepth, 32);
        assert_int_equal(o.jobs[1].rate_bps[BENCH_READ], 10ull << 20);
        assert_int_equal(o.jobs[1].rate_bps[BENCH_WRITE], 0);
        assert_int_equal(o.jobs[1].rate_iops[BENCH_READ], 0);
        assert_int_equal(o.jobs[1].rate_iops[BENCH_WRITE], 500);
        assert_int_equal(o.jobs[1].thinktime_ns, 200000ull);   /* fio: a bare thinktime is in us */
        assert_int_equal(o.jobs[1].thinktime_blocks, 4);
        assert_int_equal(o.jobs[1].startdelay_ns, 1000000000ull);      /* ... a bare startdelay in s */
        assert_true(o.jobs[1].stonewall && o.jobs[1].group_reporting);
        assert_int_equal(o.jobs[1].groupid, 1);                 /* a stonewall starts a group */
        assert_int_equal(o.jobs[1].first_thread, 1);
        assert_int_equal(o.jobs[1].prioclass, 3);
        assert_int_equal(o.jobs[1].prio, 0);
        assert_int_equal(o.objective, BENCH_OBJ_P99);
        assert_int_equal(o.objective_jobidx, 0);
        assert_string_equal(o.objective_label, "reader:p99");
        assert_string_equal(o.name, "reader");                  /* the global view is job 0's */
        /* the I/O buffers: each thread iodepth x its largest block size */
        assert_int_equal(bench_workers_memory(&o), 8192 + 32 * 131072);
        bench_opts_done(&o);

        /* single dash as fio takes it, numjobs, aliases and harmless options */
        assert_int_equal(parse(&o, &e, "-filename=/dev/loop7", "-rw=randwrite", "-bs=4k", "-numjobs=3",
                               "-blocksize=16k", "-buffered=1", "-random_generator=tausworthe64", "-thread",
                               "-group_reporting", "-name=w", "-name=x", "-new_group", "-readwrite=randread",
                               "-io_limit=1m", "-rate_iops=100", NULL), 0);
        assert_int_equal(o.njobs, 2);
        assert_int_equal(o.nthreads, 6);
        assert_int_equal(o.jobs[0].bs[0], 16384);
        assert_false(o.jobs[0].direct);
        assert_int_equal(o.jobs[0].rng, BENCH_RNG_TAUS258);
        assert_true(o.jobs[0].group_reporting);
        assert_int_equal(o.jobs[1].groupid, 1);                 /* new_group */
        assert_int_equal(o.jobs[1].rw, BENCH_RW_RANDREAD);
        assert_int_equal(o.jobs[1].io_size.bytes, 1ull << 20);
        assert_int_equal(o.jobs[1].runtime_ns, 0);              /* io_size without runtime */
        assert_int_equal(o.jobs[1].rate_iops[BENCH_READ], 100);
        assert_int_equal(o.jobs[1].rate_iops[BENCH_WRITE], 100);
        assert_int_equal(bench_workers_memory(&o), 6 * 16384);
        bench_opts_done(&o);
        /* 256 threads of 4096 x 64 MiB: 64 TiB, more than half of any machine here */
        assert_int_equal(parse(&o, &e, "--filename=/dev/loop7", "--bs=64m", "--iodepth=4096", "--numjobs=256",
                               NULL), 0);
        assert_int_equal(bench_workers_memory(&o), 256ull * 4096 * (64ull << 20));
        assert_true(bench_workers_memory(&o) > bench_memory_max());
        bench_opts_done(&o);

        /* one job of the global options when none is named */
        assert_int_equal(parse(&o, &e, "--filename=x", "--output=/tmp/out", "--workload=seq-stream", NULL), 0);
        assert_int_equal(o.njobs, 1);
        assert_string_equal(o.jobs[0].name, "stream");
        assert_int_equal(o.jobs[0].bs[0], 1 << 20);
        assert_string_equal(o.output, "/tmp/out");
        bench_opts_done(&o);
        assert_int_equal(parse(&o, &e, "--filename=x", "--allow-write", "--workload=mixed-latency", NULL), 0);
        assert_int_equal(o.njobs, 2);
        assert_int_equal(o.jobs[1].iodepth, 32);
        bench_opts_done(&o);
}

/* fio's job file format: [global], sections, comments, ${VAR}, errors at file:line */
static void test_jobfile(void **state)
{
        struct bench_opts o;
        struct bench_error e;
        const char *text =
                "; a comment\n"
                "# another\n"
                "[global]\n"
                "ioengine=libaio\n"
                "  bs = 8k  \n"
                "\n"
                "[reader]\n"
                "rw=randread\n"
                "[writer]\n"
                "rw=write\n"
                "filename=${IOSCHED_TEST_DEV}\n"
                "stonewall\n";

        (void)state;
        setenv("IOSCHED_TEST_DEV", "/dev/loop9", 1);
        bench_opts_init(&o);
        o.filename = strdup("/dev/loop7");
        memset(&e, 0, sizeof(e));
        assert_int_equal(bench_jobfile_parse_text(&o, text, "t.fio", &e), 0);
        assert_int_equal(o.njobs, 2);
        assert_string_equal(o.jobs[0].name, "reader");
        assert_ptr_equal(o.jobs[0].engine, &bench_engine_libaio);
        assert_int_equal(o.jobs[0].bs[0], 8192);
        assert_string_equal(o.jobs[0].filename, "/dev/loop7");
        assert_string_equal(o.jobs[1].filename, "/dev/loop9");
        assert_true(o.jobs[1].stonewall);
        bench_opts_done(&o);

        static const struct { const char *text, *want; } bad[] = {
                { "[a]\nfrobnicate=1\n", "t.fio:2: unknown option 'frobnicate'" },
                /* a real error wins over what native lacks */
                { "[a]\nverify=md5\nbs=huge\n", "t.fio:3: invalid bs 'huge'" },
                { "[a]\nbs=huge\n", "t.fio:2: invalid bs 'huge'" },
                { "rw=read\n[a]\n", "t.fio:1: option 'rw' outside a section" },
                { "[a\n", "t.fio:1: invalid section '[a'" },
                { "[ ]\n", "t.fio:1: a section needs a name" },
                { "[global]\nrw=read\n", "t.fio: no job section" },
                { "[a]\nfilename=${IOSCHED_TEST_UNSET}\n", "t.fio:2: option 'filename': environment variable IOSCHED_TEST_UNSET is not set" },
                { "[a]\nrate_iops=x\n", "t.fio:2: invalid rate_iops 'x'" },
                { "[a]\nthinktime\n", "t.fio:2: option thinktime needs a value" },
        };
        unsetenv("IOSCHED_TEST_UNSET");
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_true(bench_jobfile_parse_text(&o, bad[i].text, "t.fio", &e) < 0);
                if (!strstr(e.msg, bad[i].want))
                        fail_msg("job file %zu: got '%s', want '%s'", i, e.msg, bad[i].want);
                assert_int_equal(e.cls, BENCH_ERR_USAGE);
                bench_opts_done(&o);
        }
        /* a line longer than fio reads as one, or a setting fio would not take once its ${VAR}s are
         * expanded: refused (each job kept a copy of such a value, memory without bound) */
        {
                char big[5001], text[10100];

                memset(big, 'x', sizeof(big) - 1);
                big[sizeof(big) - 1] = '\0';
                setenv("IOSCHED_TEST_BIG", big, 1);
                snprintf(text, sizeof(text), "[a]\nfilename=/%s%s\n", big, big);
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_true(bench_jobfile_parse_text(&o, text, "t.fio", &e) < 0);
                assert_string_equal(e.msg, "t.fio:2: a line of 10010 bytes: fio reads at most 8191 as one");
                bench_opts_done(&o);
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_true(bench_jobfile_parse_text(&o, "[a]\nfilename=/${IOSCHED_TEST_BIG}/"
                                                     "${IOSCHED_TEST_BIG}\n", "t.fio", &e) < 0);
                assert_string_equal(e.msg, "t.fio:2: option 'filename': longer than fio takes with its "
                                           "${VARIABLE}s (8191 bytes)");
                bench_opts_done(&o);
                /* one within the bound, and a ${ that no } closes, which stays as written */
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_int_equal(bench_jobfile_parse_text(&o, "[a]\nfilename=/${IOSCHED_TEST_BIG}/${a${b\n",
                                                          "t.fio", &e), 0);
                assert_int_equal(strlen(o.jobs[0].filename), 5008);
                assert_string_equal(o.jobs[0].filename + 5002, "${a${b");
                bench_opts_done(&o);
                unsetenv("IOSCHED_TEST_BIG");
        }
        /* the job files of a run take 16 MiB together, however often one is named (each is kept) */
        {
                char path[] = "/tmp/test-bench-args-XXXXXX";
                int fd = mkstemp(path);
                FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

                assert_non_null(f);
                fputs("[a]\nfilename=/x\n", f);
                for (unsigned i = 0; i < 9 * 1024 * 16; i++)
                        fprintf(f, "# %060u\n", i);   /* 64 bytes a line: 9 MiB */
                assert_int_equal(fclose(f), 0);
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_int_equal(bench_jobfile_parse(&o, path, &e), 0);
                assert_true(bench_jobfile_parse(&o, path, &e) < 0);
                assert_non_null(strstr(e.msg, ": the job files together are longer than 16 MiB"));
                assert_int_equal(e.cls, BENCH_ERR_USAGE);
                assert_int_equal(ios_strv_length(o.jobtexts), 1);
                bench_opts_done(&o);
                unlink(path);
        }
        /* every preset parses, and iosched-bench(8) shows its text verbatim */
        {
                char path[4096];
                const char *top = getenv("IOS_TOP");
                FILE *f;
                static char man[200000];
                size_t n;

                snprintf(path, sizeof(path), "%s/man/iosched-bench.8", top ? top : ".");
                f = fopen(path, "re");
                assert_non_null(f);
                n = fread(man, 1, sizeof(man) - 1, f);
                fclose(f);
                man[n] = '\0';
                for (unsigned i = 0; bench_workload_name(i); i++) {
                        char item[64];

                        snprintf(item, sizeof(item), ".It Cm %s\n", bench_workload_name(i));
                        assert_non_null(strstr(man, item));
                        if (!strstr(strstr(man, item), bench_workload_text(bench_workload_name(i))))
                                fail_msg("the text of --workload=%s is not in iosched-bench(8) as it is", bench_workload_name(i));
                }
        }
        for (unsigned i = 0; bench_workload_name(i); i++) {
                bench_opts_init(&o);
                memset(&e, 0, sizeof(e));
                assert_int_equal(bench_jobfile_parse_text(&o, bench_workload_text(bench_workload_name(i)), "preset", &e), 0);
                assert_true(o.njobs >= 1);
                bench_opts_done(&o);
        }
}

/* CPU lists: parsed against the CPUs this process may use, printed back as fio does. */
static void test_cpus(void **state)
{
        cpu_set_t avail, set, job;
        struct bench_opts o;
        struct bench_error e;
        unsigned n, first = CPU_SETSIZE, last = 0, navail;
        char buf[64], list[64];

        (void)state;
        assert_int_equal(sched_getaffinity(0, sizeof(avail), &avail), 0);
        navail = (unsigned)CPU_COUNT(&avail);
        for (unsigned c = 0; c < CPU_SETSIZE; c++)
                if (CPU_ISSET(c, &avail)) {
                        first = c < first ? c : first;
                        last = c;
                }
        memset(&e, 0, sizeof(e));

        snprintf(list, sizeof(list), "%u", first);
        assert_int_equal(bench_parse_cpu_list(list, &set, &n, &e), 0);
        assert_int_equal(n, 1);
        assert_true(CPU_ISSET(first, &set));
        assert_string_equal(bench_fmt_cpus(buf, sizeof(buf), &set), list);

        /* a repeated CPU counts once; a range and a list mean the same */
        snprintf(list, sizeof(list), "%u,%u,%u", first, first, last);
        assert_int_equal(bench_parse_cpu_list(list, &set, &n, &e), 0);
        assert_int_equal(n, first == last ? 1 : 2);

        /* a CPU that is not ours is refused with its number */
        memset(&e, 0, sizeof(e));
        snprintf(list, sizeof(list), "%u", last + 1);
        if (last + 1 < CPU_SETSIZE) {
                assert_true(bench_parse_cpu_list(list, &set, &n, &e) < 0);
                snprintf(buf, sizeof(buf), "CPU %u is offline", last + 1);
                assert_non_null(strstr(e.msg, buf));
                assert_int_equal(e.cls, BENCH_ERR_USAGE);
        }

        /* the formatter, on sets made by hand: ranges collapse, gaps split */
        CPU_ZERO(&set);
        CPU_SET(0, &set);
        CPU_SET(1, &set);
        CPU_SET(2, &set);
        CPU_SET(5, &set);
        CPU_SET(7, &set);
        CPU_SET(8, &set);
        assert_string_equal(bench_fmt_cpus(buf, sizeof(buf), &set), "0-2,5,7-8");
        CPU_ZERO(&set);
        assert_string_equal(bench_fmt_cpus(buf, sizeof(buf), &set), "");
        CPU_SET(CPU_SETSIZE - 1, &set);
        snprintf(list, sizeof(list), "%d", CPU_SETSIZE - 1);
        assert_string_equal(bench_fmt_cpus(buf, sizeof(buf), &set), list);
        assert_string_equal(bench_fmt_cpus(buf, 3, &set), "");  /* does not fit: nothing, not a torn number */

        /* split hands the CPUs out in order and wraps; shared gives every job all */
        bench_opts_init(&o);
        CPU_ZERO(&o.cpus);
        CPU_SET(2, &o.cpus);
        CPU_SET(4, &o.cpus);
        CPU_SET(9, &o.cpus);
        o.ncpus = 3;
        o.cpus_split = true;
        for (unsigned j = 0; j < 7; j++) {
                static const unsigned want[] = { 2, 4, 9 };

                bench_job_cpus(&o, j, &job);
                assert_int_equal(CPU_COUNT(&job), 1);
                assert_true(CPU_ISSET(want[j % 3], &job));
        }
        o.cpus_split = false;
        bench_job_cpus(&o, 5, &job);
        assert_true(CPU_EQUAL(&job, &o.cpus));
        bench_opts_done(&o);

        /* split with no list spreads over every CPU we may use */
        {
                char *argv[] = { (char *)"iosched-bench", (char *)"--filename=x",
                                 (char *)"--cpus_allowed_policy=split", NULL };
                FILE *out = fopen("/dev/null", "we");

                bench_opts_init(&o);
                assert_int_equal(bench_opts_parse(3, argv, &o, out, &e), 0);
                fclose(out);
                assert_int_equal(o.ncpus, navail);
                assert_true(CPU_EQUAL(&o.cpus, &avail));
                bench_opts_done(&o);
        }
}

/* A CPU list that cannot be checked because the affinity cannot be read is
 * a failure of the system, not of the command line (exit 1, not 2). */
static void test_cpus_unreadable(void **state)
{
        char *argv[] = { (char *)"iosched-bench", (char *)"--filename=x", (char *)"--cpus_allowed_policy=split", NULL };
        struct bench_opts o;
        struct bench_error e;
        cpu_set_t set;
        unsigned n;
        FILE *out = fopen("/dev/null", "we");

        (void)state;
        affinity_fails = EPERM;
        memset(&e, 0, sizeof(e));
        assert_int_equal(bench_parse_cpu_list("0", &set, &n, &e), -EPERM);
        assert_int_equal(e.cls, BENCH_ERR_SYSTEM);
        assert_non_null(strstr(e.msg, "cannot read this process's CPU affinity"));

        /* the same through the parser: split over every usable CPU */
        memset(&e, 0, sizeof(e));
        bench_opts_init(&o);
        assert_true(bench_opts_parse(3, argv, &o, out, &e) < 0);
        assert_int_equal(e.cls, BENCH_ERR_SYSTEM);
        bench_opts_done(&o);
        affinity_fails = 0;
        fclose(out);
}

static void test_mountinfo(void **state)
{
        const char *mi =
                "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
                "30 22 0:25 / /dev/shm rw shared:4 - tmpfs tmpfs rw\n"
                "99 22 7:3 / /mnt/test\\040dir rw,relatime shared:50 - ext4 /dev/loop3 rw\n"
                "100 22 259:2 / /srv rw - xfs /dev/nvme0n1p2 rw";
        const unsigned ma7[] = { 7, 7 }, loop3[] = { 3 }, loop45[] = { 4, 5 };
        /* a whole loop disk 7:6 whose partition is 259:2 (extended numbers) */
        const unsigned disk_ma[] = { 7, 259, 259 }, disk_mi[] = { 6, 1, 2 };
        const unsigned ma254[] = { 254 };
        char *mnt = NULL;

        (void)state;
        assert_int_equal(bench_mountinfo_find(mi, ma7, loop3, 1, &mnt), 1);
        assert_string_equal(mnt, "/mnt/test dir");
        free(mnt);
        assert_int_equal(bench_mountinfo_find(mi, ma7, loop45, 2, NULL), 0);
        assert_int_equal(bench_mountinfo_find(mi, disk_ma, disk_mi, 3, NULL), 1);
        assert_int_equal(bench_mountinfo_find(mi, disk_ma, disk_mi, 2, NULL), 0);
        assert_int_equal(bench_mountinfo_find(mi, ma254, loop3, 1, NULL), 0);
        assert_int_equal(bench_mountinfo_find("", ma7, loop3, 1, NULL), 0);
}

/* bench_mounts_of (libmount): every mount of the devices, with optional
 * fields, escapes and filesystem types */
static void test_mounts_of(void **state)
{
        const char *mi =
                "22 1 254:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
                "99 22 7:3 / /mnt/a\\012b rw shared:50 master:2 propagate_from:3 - btrfs /dev/loop3 rw\n"
                "100 99 7:3 /sub /mnt/bind rw - btrfs /dev/loop3 rw\n"
                "101 22 7:4 / /mnt/other rw - xfs /dev/loop4 rw\n";
        const dev_t devs[] = { makedev(7, 3) };
        struct bench_mount *m = NULL;
        size_t n = 0;

        (void)state;
        assert_int_equal(bench_mounts_of(mi, devs, 1, &m, &n), 0);
        assert_int_equal(n, 2);
        assert_string_equal(m[0].target, "/mnt/a\nb");
        assert_string_equal(m[0].fstype, "btrfs");
        assert_string_equal(m[1].target, "/mnt/bind");
        assert_true(m[1].dev == makedev(7, 3));
        bench_mounts_free(m, n);
        assert_int_equal(bench_mounts_of("", devs, 1, &m, &n), 0);
        assert_int_equal(n, 0);
        assert_null(m);
}

static void test_names(void **state)
{
        (void)state;
        assert_int_equal(bench_rw_from_string("randwrite"), BENCH_RW_RANDWRITE);
        assert_int_equal(bench_rw_from_string("readwrite"), BENCH_RW_READWRITE);
        assert_true(bench_rw_from_string("trim") < 0);
        assert_string_equal(bench_rw_to_string(BENCH_RW_RANDRW), "randrw");
        assert_true(bench_rw_random(BENCH_RW_RANDREAD));
        assert_false(bench_rw_random(BENCH_RW_READWRITE));
        assert_true(bench_rw_writes(BENCH_RW_RANDRW));
        assert_false(bench_rw_writes(BENCH_RW_RANDREAD));
        assert_ptr_equal(bench_engine_find("io_uring"), &bench_engine_io_uring);
        assert_ptr_equal(bench_engine_find("null"), &bench_engine_null);
        assert_ptr_equal(bench_engine_find("sync"), &bench_engine_sync);
        assert_ptr_equal(bench_engine_find("pvsync"), &bench_engine_pvsync);
        assert_null(bench_engine_find("posixaio"));
        assert_string_equal(bench_objective_to_string(BENCH_OBJ_READ_P99), "read-p99");
        for (int i = 0; i < _BENCH_OBJ_MAX; i++)
                assert_int_equal(bench_objective_from_string(bench_objective_to_string((enum bench_objective)i)), i);
        assert_true(bench_objective_from_string("p50") < 0);
        assert_true(bench_objective_from_string(NULL) < 0);
        /* fio's iodepth_submit buckets: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 */
        assert_int_equal(bench_depth_bucket(0), 0);
        assert_int_equal(bench_depth_bucket(1), 1);
        assert_int_equal(bench_depth_bucket(4), 1);
        assert_int_equal(bench_depth_bucket(5), 2);
        assert_int_equal(bench_depth_bucket(8), 2);
        assert_int_equal(bench_depth_bucket(9), 3);
        assert_int_equal(bench_depth_bucket(32), 4);
        assert_int_equal(bench_depth_bucket(33), 5);
        assert_int_equal(bench_depth_bucket(64), 5);
        assert_int_equal(bench_depth_bucket(65), 6);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_sizes),
                cmocka_unit_test(test_times),
                cmocka_unit_test(test_bools),
                cmocka_unit_test(test_counts),
                cmocka_unit_test(test_formats),
                cmocka_unit_test(test_full_line),
                cmocka_unit_test(test_errors),
                cmocka_unit_test(test_unsupported),
                cmocka_unit_test(test_jobs),
                cmocka_unit_test(test_jobfile),
                cmocka_unit_test(test_cpus),
                cmocka_unit_test(test_cpus_unreadable),
                cmocka_unit_test(test_mountinfo),
                cmocka_unit_test(test_mounts_of),
                cmocka_unit_test(test_names),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
