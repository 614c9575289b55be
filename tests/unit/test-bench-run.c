/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the main thread's side of a measured run: the rates since a
 * mark that both the per-interval samples and the progress figures use
 * (one computation: I/Os and bytes per second, the mark moving on), the
 * samples' storage growing past its first allocation, and a run of the null
 * engine handing its progress to the caller's callback (once a second, then
 * once "done") while writing nothing itself, on stdout or stderr.
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

struct seen {
        unsigned updates, done, after_done;
        double total_s, last_elapsed, read_iops;
        bool ramp_seen;
};

static void count_progress(void *userdata, const struct bench_progress *p)
{
        struct seen *s = userdata;

        if (s->done)
                s->after_done++;
        if (p->done) {
                s->done++;
                return;
        }
        s->updates++;
        s->total_s = p->total_s;
        s->last_elapsed = p->elapsed_s;
        s->ramp_seen |= p->ramp;
        if (p->iops[BENCH_READ] > s->read_iops)
                s->read_iops = p->iops[BENCH_READ];
        assert_true(p->bw[BENCH_READ] == p->iops[BENCH_READ] * 4096);     /* --bs=4k */
        assert_true(p->iops[BENCH_WRITE] == 0);     /* --rw=read */
}

/* Everything the process writes on fd (1 or 2) while f runs, in buf. */
static size_t captured(int fd, char *buf, size_t len, int (*f)(void *), void *arg, int *ret)
{
        char path[] = "/tmp/test-bench-run-XXXXXX";
        int tmp = mkstemp(path), saved = dup(fd);
        ssize_t n;

        assert_true(tmp >= 0 && saved >= 0);
        unlink(path);
        fflush(NULL);
        assert_int_equal(dup2(tmp, fd), fd);
        *ret = f(arg);
        fflush(NULL);
        assert_int_equal(dup2(saved, fd), fd);
        close(saved);
        n = pread(tmp, buf, len - 1, 0);
        close(tmp);
        assert_true(n >= 0);
        buf[n] = '\0';
        return (size_t)n;
}

struct null_run {
        struct bench_opts o;
        struct bench_target tg;
        struct bench_result res;
        struct bench_error e;
        const struct bench_progress_ops *progress;
};

static int do_run(void *arg)
{
        struct null_run *nr = arg;

        return bench_run(&nr->o, &nr->tg, NULL, nr->progress, &nr->res, &nr->e);
}

static void null_run_init(struct null_run *nr, const char *runtime)
{
        char rt[64];
        char *argv[] = { (char *)"iosched-bench", (char *)"--ioengine=null", rt, (char *)"--eta=always", NULL };
        FILE *out = fopen("/dev/null", "we");

        snprintf(rt, sizeof(rt), "--runtime=%s", runtime);
        memset(nr, 0, sizeof(*nr));
        bench_opts_init(&nr->o);
        assert_int_equal(bench_opts_parse(4, argv, &nr->o, out, &nr->e), 0);
        fclose(out);
        assert_int_equal(bench_clock_init(BENCH_CLOCK_GETTIME, NULL), 0);
        /* the null engine's target: a region in thin air, opened as a run opens it */
        assert_int_equal(bench_target_open(&nr->o, NULL, &nr->tg, &nr->e), 0);
        assert_int_equal(nr->tg.region_len, 1ull << 30);
}

static void null_run_done(struct null_run *nr)
{
        bench_result_done(&nr->res);
        bench_target_close(&nr->tg);
        bench_opts_done(&nr->o);
}

static void test_progress_callback(void **state)
{
        struct seen seen = { 0 };
        const struct bench_progress_ops ops = { .update = count_progress, .userdata = &seen };
        struct null_run nr;
        char out[4096], err[4096];
        int r;

        (void)state;
        null_run_init(&nr, "2200ms");
        nr.progress = &ops;
        /* --eta=always, and still not a byte from the run itself */
        assert_int_equal(captured(STDERR_FILENO, err, sizeof(err), do_run, &nr, &r), 0);
        assert_int_equal(r, 0);
        assert_true(nr.res.d[BENCH_READ].ios > 0);
        assert_true(seen.updates >= 1 && seen.updates <= 3);  /* at 1 s and 2 s */
        assert_int_equal(seen.done, 1);
        assert_int_equal(seen.after_done, 0);
        assert_true(seen.total_s == 2.2);
        assert_true(seen.last_elapsed >= 1.0 && seen.last_elapsed < 2.2);
        assert_false(seen.ramp_seen);
        assert_true(seen.read_iops > 0);
        null_run_done(&nr);

        /* no callback: a run of its own, nothing printed either */
        null_run_init(&nr, "1100ms");
        nr.progress = NULL;
        assert_int_equal(captured(STDERR_FILENO, err, sizeof(err), do_run, &nr, &r), 0);
        assert_int_equal(r, 0);
        null_run_done(&nr);
        null_run_init(&nr, "100ms");
        assert_int_equal(captured(STDOUT_FILENO, out, sizeof(out), do_run, &nr, &r), 0);
        assert_int_equal(r, 0);
        null_run_done(&nr);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_rate),
                cmocka_unit_test(test_samples),
                cmocka_unit_test(test_progress_callback),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
