/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ioloop.c: the I/O loop a job thread runs (worker.c starts the threads),
 * with the job's pacing: rate/rate_iops and thinktime.  The loop follows
 * fio's timing points (start when an I/O is prepared, issue when the
 * submit call returns, one completion time per reap batch) but batches:
 * every free slot is refilled and submitted in one call, and every ready
 * completion is taken in one reap.  Nothing is allocated, locked or shared
 * in the loop; progress counters are published with one relaxed store per
 * reap batch.  The measured window opens after the ramp and closes at the
 * end of the runtime, on an error or on a stop.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "compare.h"
#include "iogen.h"
#include "worker.h"
#include "macro.h"

static void rusage_thread(uint64_t *usr, uint64_t *sys, uint64_t *ctx, uint64_t *minf, uint64_t *majf)
{
        struct rusage ru;

        if (getrusage(RUSAGE_THREAD, &ru) < 0) {
                *usr = *sys = *ctx = *minf = *majf = 0;
                return;
        }
        *usr = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000ull;
        *sys = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000ull;
        *ctx = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
        *minf = (uint64_t)ru.ru_minflt;
        *majf = (uint64_t)ru.ru_majflt;
}

static inline void account(struct bench_thread *t, const struct bench_io *io, uint64_t now, int res)
{
        struct bench_dir_stats *s = &t->st[io->dir];
        uint64_t slat = bench_ticks_to_ns(io->issue - io->start);
        uint64_t clat = bench_ticks_to_ns(now - io->issue);

        s->ios++;
        s->bytes += (uint64_t)res;
        bench_lat_add(&s->slat, slat);
        bench_lat_add(&s->clat, clat);
        bench_lat_add(&s->lat, slat + clat);
        s->clat_hist[bench_hist_index(clat)]++;
}

static void first_window(struct bench_first_window *f)
{
        int none = 0;

        if (!f->take)
                return;
        if (__atomic_compare_exchange_n(&f->state, &none, 1, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
                f->take(f->arg);
                __atomic_store_n(&f->state, 2, __ATOMIC_RELEASE);
                return;
        }
        while (__atomic_load_n(&f->state, __ATOMIC_ACQUIRE) != 2)
                sched_yield();
}

static void window_open(struct bench_thread *t, uint64_t now, uint64_t ru0[5])
{
        first_window(t->first);
        __atomic_store_n(&t->state, BENCH_TH_MEASURING, __ATOMIC_RELEASE);
        for (int d = 0; d < BENCH_NDIR; d++)
                bench_dir_stats_reset(&t->st[d]);
        memset(t->submit_calls, 0, sizeof(t->submit_calls));
        memset(t->reap_calls, 0, sizeof(t->reap_calls));
        t->win_start = now;
        rusage_thread(&ru0[0], &ru0[1], &ru0[2], &ru0[3], &ru0[4]);
}

static void window_close(struct bench_thread *t, uint64_t now, const uint64_t ru0[5])
{
        uint64_t ru1[5];

        t->win_end = now;
        __atomic_store_n(&t->state, BENCH_TH_CLOSED, __ATOMIC_RELEASE);
        rusage_thread(&ru1[0], &ru1[1], &ru1[2], &ru1[3], &ru1[4]);
        t->usr_ns = ru1[0] - ru0[0];
        t->sys_ns = ru1[1] - ru0[1];
        t->ctx = ru1[2] - ru0[2];
        t->minf = ru1[3] - ru0[3];
        t->majf = ru1[4] - ru0[4];
}

/* Sleep up to ns, in slices that notice a stop; false if the run is being stopped. */
bool bench_nap(struct bench_workers *w, uint64_t ns)
{
        while (ns && !bench_stop_signal && !w->abort) {
                uint64_t step = ns < 50000000ull ? ns : 50000000ull;
                struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)step };

                nanosleep(&ts, NULL);
                ns -= step;
        }
        return !bench_stop_signal && !w->abort;
}

/*
 * One thread's I/O loop: the job's batching and pacing (set once), the
 * slots (free, staged for the next submit call, in flight) and where the
 * measured window is.  It lives in bench_io_loop()'s frame and the steps
 * below are always inlined into it, so the compiler keeps it in registers
 * as it did the loop's locals when the loop was one function; fill() and
 * complete(), run once per I/O, work on local copies of the slot counts.
 * After a change, count the instructions per I/O (callgrind,
 * --ioengine=null) before and after.
 */
struct loop {
        struct bench_workers *w;
        struct bench_thread *t;
        const struct bench_opts *o;
        const struct bench_engine_ops *ops;
        struct bench_gen *g;
        struct bench_io **freel, **staged;
        struct bench_cqe *cq;
        uint64_t *ru0;                          /* RUSAGE_THREAD when the window opened */
        uint64_t interval[BENCH_NDIR];          /* per direction: rate's least gap (ticks), */
        uint64_t next_ok[BENCH_NDIR];           /* and the next tick it allows an I/O */
        bool mixed[BENCH_NDIR];                 /* a mixed job's share of the direction is not 0 */
        uint64_t tot_ios[BENCH_NDIR], tot_bytes[BENCH_NDIR];    /* since the start, for the progress line */
        bool sync;
        unsigned batch, cmin, cmax, think_every;
        uint64_t poll_ticks, run_ticks, ramp_end, end, limit, issued, now, fill;
        unsigned nfree, nstaged, inflight, since_think;
        bool measuring, closed, no_submit, thinking;
        int pending_dir;                        /* drawn but held back by the rate */
};

#define LOOP_STEP static inline __attribute__((always_inline))

/* Every slot free, the rates' intervals, the window's ends; the window opens now without a ramp. */
LOOP_STEP void loop_start(struct loop *L)
{
        const struct bench_opts *o = L->o;
        const uint64_t ramp_ticks = bench_ns_to_ticks(o->ramp_ns);
        struct bench_thread *t = L->t;

        for (unsigned i = 0; i < t->depth; i++)
                L->freel[i] = &t->ios[i];

        L->now = bench_tick();
        /* rate and rate_iops: the least time between two I/Os of a direction */
        for (int d = 0; d < BENCH_NDIR; d++) {
                uint64_t ns = 0;

                if (o->rate_iops[d])
                        ns = 1000000000ull / o->rate_iops[d];
                if (o->rate_bps[d] && (uint64_t)((double)o->bs[d] * 1e9 / (double)o->rate_bps[d]) > ns)
                        ns = (uint64_t)((double)o->bs[d] * 1e9 / (double)o->rate_bps[d]);
                L->interval[d] = ns ? bench_ns_to_ticks(ns) : 0;
                L->next_ok[d] = L->now;
                L->mixed[d] = bench_rw_reads(o->rw) && bench_rw_writes(o->rw) &&
                              (d == BENCH_READ ? o->rwmixread > 0 : o->rwmixread < 100);
        }
        L->ramp_end = L->now + ramp_ticks;
        L->end = L->run_ticks ? L->ramp_end + L->run_ticks : UINT64_MAX;
        __atomic_store_n(&t->state, BENCH_TH_RAMP, __ATOMIC_RELEASE);
        if (ramp_ticks == 0) {
                window_open(t, L->now, L->ru0);
                L->measuring = true;
        }
}

/* Prepare and queue I/Os into the free slots, up to a submit batch, as the rate and thinktime allow. */
LOOP_STEP void fill(struct loop *L)
{
        struct bench_gen *g = L->g;
        struct bench_io **freel = L->freel, **staged = L->staged;
        const bool refill = L->o->refill_buffers;
        unsigned nfree = L->nfree, nstaged = L->nstaged;
        int pending_dir = L->pending_dir;

        while (nfree && nstaged < L->batch && !L->thinking) {
                struct bench_io *io;
                unsigned dir = pending_dir >= 0 ? (unsigned)pending_dir : bench_gen_dir(g);
                int n;

                if (L->interval[dir]) {
                        uint64_t t_now = bench_tick();
                        unsigned odir = dir ^ 1;

                        /*
                         * Ahead of its rate: a mixed job goes the other way
                         * where that one is not ahead of its own, else waits
                         * for the earlier of the two (fio's rate_ddir()).
                         */
                        if ((int64_t)(t_now - L->next_ok[dir]) < 0 && L->mixed[odir] &&
                            (!L->interval[odir] || (int64_t)(t_now - L->next_ok[odir]) >= 0)) {
                                dir = odir;
                        } else if ((int64_t)(t_now - L->next_ok[dir]) < 0) {
                                bool other_first = (int64_t)(L->next_ok[odir] - L->next_ok[dir]) < 0;

                                pending_dir = L->mixed[odir] && other_first ? (int)odir : (int)dir;
                                break;
                        }
                }
                if (L->interval[dir]) {
                        /*
                         * Keep the schedule from the start, as fio does: a
                         * thread that fell behind (it was reaping) catches up,
                         * at most a queue's depth at a time.
                         */
                        L->next_ok[dir] += L->interval[dir];
                }
                pending_dir = -1;
                io = freel[--nfree];
                io->dir = (uint8_t)dir;
                io->len = bench_gen_len(g, dir);
                io->offset = bench_gen_offset(g, dir, io->len);
                if (refill && dir == BENCH_WRITE)
                        /* fio's refill_buffers: new random data in every write */
                        for (uint64_t *p = io->buf, *pe = (uint64_t *)((char *)io->buf + io->len); p < pe; p++)
                                *p = xorshift_next(&L->fill);
                io->start = bench_tick();
                n = L->ops->queue(L->t, io);
                if (n < 0) {
                        freel[nfree++] = io;
                        L->t->error = n;
                        L->no_submit = true;
                        break;
                }
                staged[nstaged++] = io;
                L->issued += io->len;
                if (L->issued >= L->limit) {
                        L->no_submit = true;
                        break;
                }
                if (L->think_every && ++L->since_think >= L->think_every) {
                        L->since_think = 0;
                        L->thinking = true;     /* after these complete */
                }
        }
        L->nfree = nfree;
        L->nstaged = nstaged;
        L->pending_dir = pending_dir;
}

/* One submit call for the staged I/Os; true: fill the queue to its depth before waiting. */
LOOP_STEP bool submit(struct loop *L)
{
        struct bench_thread *t = L->t;
        int n;

        if (L->sync)
                L->staged[0]->issue = bench_tick();
        n = L->ops->submit(t);
        if (n < 0) {
                /* the staged I/Os never reached the kernel */
                t->error = n;
                L->no_submit = true;
                L->nstaged = 0;
                return false;
        }
        if (!L->sync) {
                L->now = bench_tick();
                for (int i = 0; i < n; i++)
                        L->staged[i]->issue = L->now;
        }
        t->submit_calls[bench_depth_bucket((unsigned)n)]++;
        if ((unsigned)n < L->nstaged)
                memmove(L->staged, L->staged + n, (L->nstaged - (unsigned)n) * sizeof(*L->staged));
        L->nstaged -= (unsigned)n;
        L->inflight += (unsigned)n;
        return n > 0 && L->nfree && !L->no_submit && !L->thinking && L->pending_dir < 0;
}

/* Nothing in flight or staged: the end, or thinktime, or a wait for the rate; false: the loop ends. */
LOOP_STEP bool idle(struct loop *L)
{
        uint64_t wait = 0, now;
        bool measuring = L->measuring;

        if (L->no_submit || L->closed)
                return false;
        /* idle: thinktime once everything completed, or until the rate allows the next */
        now = L->now = bench_tick();
        if (L->thinking)
                wait = L->o->thinktime_ns;
        else if (L->pending_dir >= 0 && (int64_t)(L->next_ok[L->pending_dir] - now) > 0)
                wait = bench_ticks_to_ns(L->next_ok[L->pending_dir] - now);
        if (measuring && L->run_ticks && wait && now + bench_ns_to_ticks(wait) > L->end)
                wait = (int64_t)(L->end - now) > 0 ? bench_ticks_to_ns(L->end - now) : 0;
        L->thinking = false;
        if (!bench_nap(L->w, wait) || (measuring && now + bench_ns_to_ticks(wait) >= L->end)) {
                if (measuring && !L->closed) {
                        window_close(L->t, bench_tick(), L->ru0);
                        L->closed = true;
                }
                return false;
        }
        if (!measuring && bench_tick() >= L->ramp_end) {
                window_open(L->t, bench_tick(), L->ru0);
                L->measuring = true;
        }
        return true;
}

/* Take what completed (after polling for --poll_wait first): how many, or < 0 when the engine failed. */
LOOP_STEP int reap(struct loop *L)
{
        int n = 0;

        if (L->poll_ticks && L->cmin && !L->no_submit) {
                /* --poll_wait: look without sleeping for a while first */
                uint64_t until = bench_tick() + L->poll_ticks;

                do
                        n = L->ops->reap(L->t, 0, L->cmax, L->cq);
                while (n == 0 && (int64_t)(bench_tick() - until) < 0);
        }
        if (n == 0)
                n = L->ops->reap(L->t, L->no_submit ? 1 : L->cmin, L->cmax, L->cq);
        L->now = bench_tick();
        return n;
}

/* n completions: counted (in the window: measured), their slots free, the progress counters published. */
LOOP_STEP void complete(struct loop *L, int n)
{
        struct bench_thread *t = L->t;
        const struct bench_cqe *cq = L->cq;
        const bool counting = L->measuring && !L->closed;
        const uint64_t now = L->now;
        struct bench_io **freel = L->freel;
        unsigned nfree = L->nfree;

        t->reap_calls[bench_depth_bucket((unsigned)n)]++;
        for (int i = 0; i < n; i++) {
                struct bench_io *io = cq[i].io;
                int res = cq[i].res;

                if (res < 0) {
                        if (!t->error) {
                                t->error = res;
                                t->error_is_io = true;
                                t->error_offset = io->offset;
                                t->error_dir = io->dir;
                        }
                        L->no_submit = true;
                } else {
                        if (counting) {
                                if ((uint32_t)res != io->len)
                                        t->st[io->dir].short_ios++;
                                account(t, io, now, res);
                        }
                        L->tot_ios[io->dir]++;
                        L->tot_bytes[io->dir] += (uint64_t)res;
                }
                freel[nfree++] = io;
        }
        L->nfree = nfree;
        L->inflight -= (unsigned)n;
        for (int d = 0; d < BENCH_NDIR; d++) {
                __atomic_store_n(&t->pub_ios[d], L->tot_ios[d], __ATOMIC_RELAXED);
                __atomic_store_n(&t->pub_bytes[d], L->tot_bytes[d], __ATOMIC_RELAXED);
        }
}

/* After a reap: the window opens after the ramp, closes at its end, on an error or a stop. */
LOOP_STEP void window_step(struct loop *L)
{
        struct bench_thread *t = L->t;

        if (!L->measuring) {
                if (L->now >= L->ramp_end && !t->error) {
                        window_open(t, L->now, L->ru0);
                        L->measuring = true;
                }
        } else if (!L->closed && (L->now >= L->end || t->error ||
                                  (L->no_submit && L->inflight == 0 && L->nstaged == 0))) {
                window_close(t, L->now, L->ru0);
                L->closed = true;
                L->no_submit = true;
        }
        if ((bench_stop_signal || L->w->abort) && !L->no_submit) {
                if (L->measuring && !L->closed) {
                        window_close(t, L->now, L->ru0);
                        L->closed = true;
                }
                L->no_submit = true;
        }
}

void bench_io_loop(struct bench_workers *w, struct bench_thread *t, const struct bench_gen *gp,
                   struct bench_io **freel, struct bench_io **staged, struct bench_cqe *cq)
{
        const struct bench_opts *o = t->o;
        uint64_t ru0[5] = { 0 };
        struct bench_gen g = *gp;
        const uint64_t amount = bench_job_amount(o, t->file ? t->file->region_len : 0);
        struct loop L = {
                .w = w, .t = t, .o = o, .ops = o->engine, .g = &g, .freel = freel, .staged = staged, .cq = cq,
                .ru0 = ru0,
                .sync = o->engine->flags & BENCH_ENGINE_SYNC,
                .batch = o->batch_submit, .cmin = o->batch_complete_min, .cmax = o->batch_complete_max,
                .think_every = o->thinktime_ns ? o->thinktime_blocks : 0,
                .poll_ticks = bench_ns_to_ticks(o->poll_wait_ns),
                .run_ticks = o->runtime_ns ? bench_ns_to_ticks(o->runtime_ns) : 0,
                .limit = amount ? amount : UINT64_MAX,  /* fio's end rule (jobs.c) */
                .fill = 0x6A09E667F3BCC909ull ^ t->id,
                .nfree = t->depth, .pending_dir = -1,
        };
        int n;

        loop_start(&L);
        for (;;) {
                if (!L.no_submit)
                        fill(&L);
                if (L.nstaged && !L.closed && submit(&L))
                        continue;
                if (L.inflight == 0 && L.nstaged == 0) {
                        if (!idle(&L))
                                break;
                        continue;
                }
                if (L.inflight == 0)
                        continue;
                n = reap(&L);
                if (n < 0) {
                        /* the ring or context failed: in-flight I/O cannot be reaped */
                        if (!t->error)
                                t->error = n;
                        break;
                }
                complete(&L, n);
                window_step(&L);
        }
        if (L.measuring && !L.closed)
                window_close(t, bench_tick(), ru0);
}
