/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run.c: one measured run, the main thread's part.  Start the job threads
 * (worker.c) together, sample per-interval IOPS and the progress figures
 * from the counters they publish, read machine-wide CPU and the disk's stat
 * over the measured window (sample.c), stop them on time or on a signal,
 * and merge their statistics into one result, as fio's group reporting
 * does.  It prints nothing: the progress figures go to the caller's
 * struct bench_progress_ops.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "worker.h"
#include "macro.h"

static void sleep_until(uint64_t when_ns)
{
        uint64_t now = bench_clock_gettime_ns();
        struct timespec ts;

        if (when_ns <= now)
                return;
        when_ns -= now;
        if (when_ns > 100000000ull)
                when_ns = 100000000ull; /* wake up for signals and finished threads */
        ts.tv_sec = (time_t)(when_ns / 1000000000ull);
        ts.tv_nsec = (long)(when_ns % 1000000000ull);
        nanosleep(&ts, NULL);           /* EINTR from our signal handler is fine */
}

static void merge(const struct bench_workers *w, struct bench_result *res)
{
        for (int d = 0; d < BENCH_NDIR; d++)
                bench_dir_stats_reset(&res->d[d]);
        for (unsigned i = 0; i < w->n; i++) {
                struct bench_thread *t = &w->th[i];
                uint64_t win = t->win_end > t->win_start ? bench_ticks_to_ns(t->win_end - t->win_start) : 0;

                for (int d = 0; d < BENCH_NDIR; d++)
                        bench_dir_stats_merge(&res->d[d], &t->st[d]);
                /* fio's group reporting: runtime is the longest job's */
                if (win > res->runtime_ns)
                        res->runtime_ns = win;
                res->usr_ns += t->usr_ns;
                res->sys_ns += t->sys_ns;
                res->ctx += t->ctx;
                res->minf += t->minf;
                res->majf += t->majf;
                for (int b = 0; b < BENCH_DEPTH_BUCKETS; b++) {
                        res->submit_calls[b] += t->submit_calls[b];
                        res->reap_calls[b] += t->reap_calls[b];
                }
                if (t->error && !res->error)
                        res->error = t->error;
                if (!res->engine_note[0])
                        memcpy(res->engine_note, t->engine_note, sizeof(res->engine_note));
        }
}

static void take_cpu(struct bench_cpu_snap *s, bool *have, struct ios_device *disk, uint64_t stat[11],
                     bool *have_stat)
{
        *have = bench_cpu_snap_read(s) == 0;
        *have_stat = bench_disk_stat_read(disk, stat);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
        return a < b ? a : b;
}

int bench_run(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
              const struct bench_progress_ops *progress, struct bench_result *res, struct bench_error *e)
{
        struct bench_workers w;
        unsigned cap = 0;
        struct bench_cpu_snap cpu0 = { 0 }, cpu1 = { 0 };
        bool have_cpu0 = false, have_cpu1 = false, have_st0 = false, have_st1 = false;
        uint64_t t0, ramp_end, end, next_sample, next_progress;
        const double total_s = (double)(o->ramp_ns + o->runtime_ns) / 1e9;
        uint64_t zero[BENCH_NDIR] = { 0 };
        struct bench_rate sample_rate, progress_rate;
        int r = 0;

        memset(res, 0, sizeof(*res));
        res->depth = o->iodepth;
        res->ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);

        r = bench_workers_setup(&w, o, tg);
        if (r < 0) {
                bench_error_set(e, BENCH_ERR_SYSTEM, ENOMEM, "cannot allocate I/O buffers and threads");
                r = -ENOMEM;
                goto out;
        }
        bench_workers_start(&w);
        if (w.started < w.n) {
                w.abort = 1;
                r = bench_error_set(e, BENCH_ERR_SYSTEM, EAGAIN, "cannot start %u threads", w.n);
        }
        for (unsigned i = 0; i < w.started && r == 0; i++)
                if (w.th[i].error) {
                        w.abort = 1;
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, -w.th[i].error, "%s: cannot set up %s: %s",
                                            tg->path ? tg->path : "null", o->engine->name,
                                            strerror(-w.th[i].error));
                }
        t0 = bench_clock_gettime_ns();
        ramp_end = t0 + o->ramp_ns;
        end = o->runtime_ns ? ramp_end + o->runtime_ns : UINT64_MAX;
        next_sample = ramp_end + 500000000ull;
        next_progress = t0 + 1000000000ull;
        bench_rate_mark(&sample_rate, ramp_end, zero, zero);
        bench_rate_mark(&progress_rate, t0, zero, zero);
        if (o->ramp_ns == 0)
                take_cpu(&cpu0, &have_cpu0, disk, res->disk_stat_before, &have_st0);
        bench_workers_go(&w);

        for (unsigned i = 0; i < w.started; i++)
                while (!__atomic_load_n(&w.th[i].done, __ATOMIC_ACQUIRE)) {
                        uint64_t now = bench_clock_gettime_ns(), wake = UINT64_MAX;
                        uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
                        double iops[BENCH_NDIR], bps[BENCH_NDIR], kib[BENCH_NDIR];

                        if (bench_stop_signal) {
                                w.abort = 1;
                                res->interrupted = true;
                        }
                        if (!have_cpu0 && now >= ramp_end) {
                                take_cpu(&cpu0, &have_cpu0, disk, res->disk_stat_before, &have_st0);
                                bench_workers_counts(&w, ios, bytes);
                                bench_rate_mark(&sample_rate, now, ios, bytes);
                        }
                        if (!have_cpu1 && now >= end)
                                take_cpu(&cpu1, &have_cpu1, disk, res->disk_stat_after, &have_st1);
                        if (now >= next_sample && next_sample <= end && have_cpu0) {
                                bench_workers_counts(&w, ios, bytes);
                                bench_rate_take(&sample_rate, now, ios, bytes, iops, bps);
                                for (int d = 0; d < BENCH_NDIR; d++)
                                        kib[d] = bps[d] / 1024.0;
                                if (bench_result_add_sample(res, &cap, iops, kib) < 0)
                                        w.abort = 1;
                                next_sample += 500000000ull;
                        }
                        if (progress && now >= next_progress) {
                                struct bench_progress p = {
                                        .elapsed_s = (double)(now - t0) / 1e9, .total_s = total_s,
                                        .ramp = now < ramp_end,
                                };

                                bench_workers_counts(&w, ios, bytes);
                                bench_rate_take(&progress_rate, now, ios, bytes, p.iops, p.bw);
                                progress->update(progress->userdata, &p);
                                next_progress = now + 1000000000ull;
                        }
                        if (!have_cpu0)
                                wake = min_u64(wake, ramp_end);
                        if (!have_cpu1)
                                wake = min_u64(wake, end);
                        if (next_sample <= end)
                                wake = min_u64(wake, next_sample);
                        if (progress)
                                wake = min_u64(wake, next_progress);
                        /* past the end the workers only drain: look again soon */
                        wake = min_u64(wake, now + (now >= end || w.abort ? 2000000ull : 100000000ull));
                        sleep_until(wake);
                }
        if (!have_cpu1)
                take_cpu(&cpu1, &have_cpu1, disk, res->disk_stat_after, &have_st1);
        res->have_disk_stat = have_st0 && have_st1;
        if (progress) {
                struct bench_progress p = {
                        .elapsed_s = (double)(bench_clock_gettime_ns() - t0) / 1e9, .total_s = total_s,
                        .done = true,
                };

                progress->update(progress->userdata, &p);
        }
        bench_workers_join(&w);
        res->elapsed_ns = bench_clock_gettime_ns() - t0;
        if (bench_stop_signal)
                res->interrupted = true;
        merge(&w, res);
        if (have_cpu0 && have_cpu1)
                bench_result_machine_cpu(res, &cpu0, &cpu1);
        for (unsigned i = 0; i < w.started && r == 0; i++) {
                struct bench_thread *t = &w.th[i];

                if (t->error && t->error_is_io)
                        r = bench_error_set(e, BENCH_ERR_IO, -t->error, "%s: %s at offset %" PRIu64 ": %s",
                                            tg->path, t->error_dir == BENCH_READ ? "read" : "write",
                                            t->error_offset, strerror(-t->error));
                else if (t->error)
                        r = bench_error_set(e, BENCH_ERR_IO, -t->error, "%s: %s engine failed: %s",
                                            tg->path ? tg->path : "null", o->engine->name, strerror(-t->error));
        }
out:
        bench_workers_free(&w);
        return r;
}
