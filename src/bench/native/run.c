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

#include "compare.h"
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

/* One thread's measurements into a result (a job's, or the run's). */
static void add_thread(struct bench_result *res, const struct bench_thread *t)
{
        uint64_t win = t->win_end > t->win_start ? bench_ticks_to_ns(t->win_end - t->win_start) : 0;

        for (int d = 0; d < BENCH_NDIR; d++) {
                bench_dir_stats_merge(&res->d[d], &t->st[d]);
                if (t->st[d].ios && win > res->d[d].runtime_ns)
                        res->d[d].runtime_ns = win;     /* a thread's directions run side by side */
        }
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

static void merge(const struct bench_workers *w, struct bench_result *res)
{
        for (int d = 0; d < BENCH_NDIR; d++)
                bench_dir_stats_reset(&res->d[d]);
        for (unsigned i = 0; i < w->n; i++) {
                const struct bench_thread *t = &w->th[i];
                struct bench_result *jr = &res->jobs[t->job];

                if (i >= w->started)
                        continue;
                add_thread(res, t);
                add_thread(jr, t);
        }
        for (unsigned j = 0; j < res->njobs; j++) {
                struct bench_result *jr = &res->jobs[j];

                jr->elapsed_ns = res->elapsed_ns;
                jr->interrupted = res->interrupted;
                jr->machine_busy_pct = res->machine_busy_pct;
                jr->machine_steal_pct = res->machine_steal_pct;
                jr->ncpu = res->ncpu;
                jr->have_disk_stat = res->have_disk_stat;
                memcpy(jr->disk_stat_before, res->disk_stat_before, sizeof(jr->disk_stat_before));
                memcpy(jr->disk_stat_after, res->disk_stat_after, sizeof(jr->disk_stat_after));
        }
}

static void take_cpu(struct bench_cpu_snap *s, bool *have, struct ios_device *disk, uint64_t stat[11],
                     bool *have_stat)
{
        *have = bench_cpu_snap_read(s) == 0;
        *have_stat = bench_disk_stat_read(disk, stat);
}

/* The counters before the first measured I/O, read by the thread about to issue it (worker.c). */
struct first_take {
        struct bench_cpu_snap *cpu;
        bool *have_cpu, *have_stat;
        struct ios_device *disk;
        uint64_t *stat;
};

static void take_first(void *arg)
{
        struct first_take *f = arg;

        take_cpu(f->cpu, f->have_cpu, f->disk, f->stat, f->have_stat);
}

/* Per job: the sampling mark, and whether the job's threads are all in their window. */
struct job_sampler {
        struct bench_rate mark;
        unsigned cap;
        bool marked;
};

/* Every 500 ms: a sample for each job whose threads all measured since the last mark. */
static void sample_jobs(struct bench_workers *w, struct bench_result *res, struct job_sampler *js, uint64_t now)
{
        for (unsigned j = 0; j < res->njobs; j++) {
                uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
                double iops[BENCH_NDIR], bps[BENCH_NDIR], kib[BENCH_NDIR];
                bool all = true;

                for (unsigned i = 0; i < w->n; i++)
                        if (w->th[i].job == j &&
                            __atomic_load_n(&w->th[i].state, __ATOMIC_ACQUIRE) != BENCH_TH_MEASURING)
                                all = false;
                if (!all) {
                        js[j].marked = false;
                        continue;
                }
                bench_workers_counts(w, (int)j, ios, bytes);
                if (!js[j].marked) {
                        bench_rate_mark(&js[j].mark, now, ios, bytes);
                        js[j].marked = true;
                        continue;
                }
                bench_rate_take(&js[j].mark, now, ios, bytes, iops, bps);
                for (int d = 0; d < BENCH_NDIR; d++)
                        kib[d] = bps[d] / 1024.0;
                if (bench_result_add_sample(&res->jobs[j], &js[j].cap, iops, kib) < 0)
                        w->abort = 1;
        }
}

/* The run's length if nothing stops it early: stonewalled phases one after another. */
static double planned_s(const struct bench_opts *o)
{
        double total = 0, phase = 0;

        for (unsigned j = 0; j < o->njobs; j++) {
                const struct bench_opts *jo = &o->jobs[j];
                double t = (double)(jo->startdelay_ns + jo->ramp_ns + jo->runtime_ns) / 1e9;

                if (j > 0 && jo->stonewall) {
                        total += phase;
                        phase = 0;
                }
                phase = t > phase ? t : phase;
        }
        return total + phase;
}

static void stop_all(struct bench_workers *w, struct bench_result *res)
{
        if (!w->abort) {
                w->abort = 1;
                res->interrupted = true;
                bench_workers_next_phase(w);    /* wake the threads still waiting for their turn */
        }
}

/* The main thread during a run: what it samples, and the machine's and the disk's counters around the window. */
struct watch {
        struct bench_workers *w;
        struct bench_result *res;
        struct ios_device *disk;
        const struct bench_progress_ops *progress;
        struct job_sampler *js;
        struct bench_cpu_snap cpu0, cpu1;
        bool have_cpu0, have_cpu1, have_st0, have_st1;
        uint64_t t0, next_sample, next_progress;
        double total_s;
        struct bench_rate progress_rate;
};

/* res for o's jobs on tg: nothing measured yet, every job's shape and region */
static int result_init(const struct bench_opts *o, const struct bench_target *tg, struct bench_result *res)
{
        memset(res, 0, sizeof(*res));
        res->depth = o->iodepth;
        res->ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
        res->jobs = calloc(o->njobs, sizeof(*res->jobs));
        if (!res->jobs)
                return -ENOMEM;
        res->njobs = o->njobs;
        for (unsigned j = 0, th = 0; j < o->njobs; th += o->jobs[j].numjobs, j++) {
                struct bench_result *jr = &res->jobs[j];

                jr->job = &o->jobs[j];
                jr->depth = o->jobs[j].iodepth;
                jr->ncpu = res->ncpu;
                jr->path = tg->files[th].tg->path;
                jr->region_start = tg->files[th].region_start;
                jr->region_len = tg->files[th].region_len;
        }
        return 0;
}

/* After the start: every thread started and set up its engine, or the error (the threads are told to stop). */
static int check_started(struct bench_workers *w, struct bench_error *e)
{
        int r = 0;

        if (w->started < w->n) {
                w->abort = 1;
                r = bench_error_set(e, BENCH_ERR_SYSTEM, EAGAIN, "cannot start %u threads", w->n);
        }
        for (unsigned i = 0; i < w->started && r == 0; i++)
                if (w->th[i].error) {
                        const struct bench_thread *t = &w->th[i];

                        w->abort = 1;
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, -t->error, "%s: job '%s': cannot %s: %s",
                                            t->file->tg->path ? t->file->tg->path : "null", t->o->name,
                                            t->setup_step ? t->setup_step : "set up the engine",
                                            ios_strerror(t->error));
                }
        return r;
}

static void report_progress(struct watch *W, uint64_t now, unsigned measuring)
{
        uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
        struct bench_progress p = {
                .elapsed_s = (double)(now - W->t0) / 1e9, .total_s = W->total_s,
                .ramp = measuring == 0,
        };

        bench_workers_counts(W->w, -1, ios, bytes);
        bench_rate_take(&W->progress_rate, now, ios, bytes, p.iops, p.bw);
        W->progress->update(W->progress->userdata, &p);
        W->next_progress = now + 1000000000ull;
}

/* One look at the threads (every 100 ms at most): false once they have all exited. */
static bool watch_once(struct watch *W)
{
        struct bench_workers *w = W->w;
        uint64_t now = bench_clock_gettime_ns();
        unsigned exited = 0, closed = 0, measuring = 0, phase_left = 0;

        for (unsigned i = 0; i < w->started; i++) {
                const struct bench_thread *t = &w->th[i];
                int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);

                if (__atomic_load_n(&t->done, __ATOMIC_ACQUIRE))
                        exited++;
                else if (t->phase <= w->phase)
                        phase_left++;
                closed += st == BENCH_TH_CLOSED;
                measuring += st == BENCH_TH_MEASURING;
        }
        if (bench_stop_signal)
                stop_all(w, W->res);
        /* the machine and the disk from the first measured I/O (read by
         * the thread that issues it, worker.c) to the last */
        if (!W->have_cpu1 && closed == w->started) {
                if (__atomic_load_n(&w->first.state, __ATOMIC_ACQUIRE) != 2)
                        take_cpu(&W->cpu0, &W->have_cpu0, W->disk, W->res->disk_stat_before, &W->have_st0);
                take_cpu(&W->cpu1, &W->have_cpu1, W->disk, W->res->disk_stat_after, &W->have_st1);
        }
        if (exited == w->started)
                return false;
        if (phase_left == 0 && !w->abort)
                bench_workers_next_phase(w);    /* stonewall: the jobs before have finished */
        if (now >= W->next_sample) {
                sample_jobs(w, W->res, W->js, now);
                W->next_sample += 500000000ull;
        }
        if (W->progress && now >= W->next_progress)
                report_progress(W, now, measuring);
        sleep_until(now + (closed == w->started || w->abort ? 2000000ull :
                           W->next_sample < now + 100000000ull ? W->next_sample - now : 100000000ull));
        return true;
}

/* The threads' first error after the run: an I/O's, or an engine's. */
static int run_error(const struct bench_workers *w, struct bench_error *e)
{
        int r = 0;

        for (unsigned i = 0; i < w->started && r == 0; i++) {
                const struct bench_thread *t = &w->th[i];

                if (t->error && t->error_is_io)
                        r = bench_error_set(e, BENCH_ERR_IO, -t->error, "%s: %s at offset %" PRIu64 ": %s",
                                            t->file->tg->path, t->error_dir == BENCH_READ ? "read" : "write",
                                            t->error_offset, ios_strerror(t->error));
                else if (t->error)
                        r = bench_error_set(e, BENCH_ERR_IO, -t->error, "%s: %s engine failed: %s",
                                            t->file->tg->path ? t->file->tg->path : "null", t->o->engine->name,
                                            ios_strerror(t->error));
        }
        /* a job that ended by its size inside its ramp measured nothing */
        for (unsigned j = 0; r == 0 && !bench_stop_signal && j < (w->o->njobs ? w->o->njobs : 1); j++) {
                uint64_t ios = 0, measured = 0;

                for (unsigned i = 0; i < w->started; i++)
                        for (int d = 0; d < BENCH_NDIR; d++)
                                if (w->th[i].job == j) {
                                        ios += w->th[i].pub_ios[d];
                                        measured += w->th[i].st[d].ios;
                                }
                r = bench_ramp_took_all(w->o->njobs ? &w->o->jobs[j] : w->o, ios, measured, e);
        }
        return r;
}

/* After the threads exited: the last progress line, the join, and every thread's figures into res. */
static void finish(struct watch *W)
{
        struct bench_result *res = W->res;

        res->have_disk_stat = W->have_st0 && W->have_st1;
        if (W->progress) {
                struct bench_progress p = {
                        .elapsed_s = (double)(bench_clock_gettime_ns() - W->t0) / 1e9, .total_s = W->total_s,
                        .done = true,
                };

                W->progress->update(W->progress->userdata, &p);
        }
        bench_workers_join(W->w);
        res->elapsed_ns = bench_clock_gettime_ns() - W->t0;
        if (bench_stop_signal)
                res->interrupted = true;
        if (W->have_cpu0 && W->have_cpu1)
                bench_result_machine_cpu(res, &W->cpu0, &W->cpu1);
        merge(W->w, res);
        if (res->njobs)
                bench_result_spans(res, res->jobs, NULL, res->njobs);
        /* the run's samples: the sum over the jobs */
        for (unsigned j = 0; j < res->njobs; j++)
                if (bench_result_merge_samples(res, &res->jobs[j]) < 0)
                        break;
}

int bench_run(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
              const struct bench_progress_ops *progress, struct bench_result *res, struct bench_error *e)
{
        struct bench_workers w;
        struct watch W = { .w = &w, .res = res, .disk = disk, .progress = progress, .total_s = planned_s(o) };
        uint64_t zero[BENCH_NDIR] = { 0 };
        struct first_take first = {
                .cpu = &W.cpu0, .have_cpu = &W.have_cpu0, .have_stat = &W.have_st0, .disk = disk,
                .stat = res->disk_stat_before,
        };
        int r;

        r = result_init(o, tg, res);
        W.js = calloc(o->njobs, sizeof(*W.js));
        if (r < 0 || !W.js) {
                free(W.js);
                return bench_error_set(e, BENCH_ERR_SYSTEM, ENOMEM, "out of memory");
        }
        r = bench_workers_setup(&w, o, tg);
        if (r < 0) {
                bench_error_set(e, BENCH_ERR_SYSTEM, ENOMEM, "cannot allocate I/O buffers and threads");
                r = -ENOMEM;
                goto out;
        }
        w.first.take = take_first;
        w.first.arg = &first;
        bench_workers_start(&w);
        r = check_started(&w, e);
        W.t0 = bench_clock_gettime_ns();
        W.next_sample = W.t0 + 500000000ull;
        W.next_progress = W.t0 + 1000000000ull;
        bench_rate_mark(&W.progress_rate, W.t0, zero, zero);
        bench_workers_go(&w);
        while (watch_once(&W))
                ;
        finish(&W);
        if (r == 0)
                r = run_error(&w, e);
out:
        free(W.js);
        bench_workers_free(&w);
        return r;
}
