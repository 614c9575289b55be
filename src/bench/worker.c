/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * worker.c: the job threads of one run (--numjobs per job, each with its
 * own engine instance, slots and buffers) and the I/O loop they run, with
 * the job's pacing: rate/rate_iops, thinktime, startdelay, and stonewall's
 * wait for the threads of the jobs before.  The
 * loop follows fio's timing points (start when an I/O is prepared, issue
 * when the submit call returns, one completion time per reap batch) but
 * batches: every free slot is refilled and submitted in one call, and every
 * ready completion is taken in one reap.  Nothing is allocated, locked or
 * shared in the loop; progress counters are published with one relaxed
 * store per reap batch.  run.c starts the threads through the gate here,
 * watches them and merges what they measured.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "iogen.h"
#include "worker.h"
#include "macro.h"

volatile int bench_stop_signal;

struct worker_arg {
        struct bench_workers *w;
        struct bench_thread *t;
};

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
static bool nap(struct bench_workers *w, uint64_t ns)
{
        while (ns && !bench_stop_signal && !w->abort) {
                uint64_t step = ns < 50000000ull ? ns : 50000000ull;
                struct timespec ts = { .tv_sec = 0, .tv_nsec = (long)step };

                nanosleep(&ts, NULL);
                ns -= step;
        }
        return !bench_stop_signal && !w->abort;
}

static void io_loop(struct bench_workers *w, struct bench_thread *t, const struct gen *gp, struct bench_io **freel,
                    struct bench_io **staged, struct bench_cqe *cq)
{
        const struct bench_opts *o = t->o;
        const struct bench_engine_ops *ops = o->engine;
        const bool sync = ops->flags & BENCH_ENGINE_SYNC;
        const unsigned depth = t->depth, batch = o->batch_submit;
        const unsigned cmin = o->batch_complete_min, cmax = o->batch_complete_max;
        const uint64_t poll_ticks = bench_ns_to_ticks(o->poll_wait_ns);
        const uint64_t ramp_ticks = bench_ns_to_ticks(o->ramp_ns);
        const uint64_t run_ticks = o->runtime_ns ? bench_ns_to_ticks(o->runtime_ns) : 0;
        const unsigned think_every = o->thinktime_ns ? o->thinktime_blocks : 0;
        uint64_t limit = o->io_size.set ? o->io_size.bytes : UINT64_MAX, issued = 0;
        uint64_t tot_ios[BENCH_NDIR] = { 0 }, tot_bytes[BENCH_NDIR] = { 0 };
        uint64_t ru0[5] = { 0 }, now, ramp_end, end;
        uint64_t interval[BENCH_NDIR] = { 0 }, next_ok[BENCH_NDIR];
        unsigned nfree = depth, nstaged = 0, inflight = 0, since_think = 0;
        bool measuring = false, closed = false, no_submit = false, thinking = false;
        int pending_dir = -1;           /* drawn but held back by the rate */
        struct gen g = *gp;
        uint64_t fill = 0x6A09E667F3BCC909ull ^ t->id;
        int n;

        for (unsigned i = 0; i < depth; i++)
                freel[i] = &t->ios[i];

        now = bench_tick();
        /* rate and rate_iops: the least time between two I/Os of a direction */
        for (int d = 0; d < BENCH_NDIR; d++) {
                uint64_t ns = 0;

                if (o->rate_iops[d])
                        ns = 1000000000ull / o->rate_iops[d];
                if (o->rate_bps[d] && (uint64_t)((double)o->bs[d] * 1e9 / (double)o->rate_bps[d]) > ns)
                        ns = (uint64_t)((double)o->bs[d] * 1e9 / (double)o->rate_bps[d]);
                interval[d] = ns ? bench_ns_to_ticks(ns) : 0;
                next_ok[d] = now;
        }
        ramp_end = now + ramp_ticks;
        end = run_ticks ? ramp_end + run_ticks : UINT64_MAX;
        __atomic_store_n(&t->state, BENCH_TH_RAMP, __ATOMIC_RELEASE);
        if (ramp_ticks == 0) {
                window_open(t, now, ru0);
                measuring = true;
        }

        for (;;) {
                if (!no_submit) {
                        while (nfree && nstaged < batch && !thinking) {
                                struct bench_io *io;
                                unsigned dir = pending_dir >= 0 ? (unsigned)pending_dir : gen_dir(&g);

                                if (interval[dir]) {
                                        uint64_t t_now = bench_tick();

                                        if ((int64_t)(t_now - next_ok[dir]) < 0) {
                                                pending_dir = (int)dir;
                                                break;
                                        }
                                        /*
                                         * Keep the schedule from the start, as fio does: a
                                         * thread that fell behind (it was reaping) catches up,
                                         * at most a queue's depth at a time.
                                         */
                                        next_ok[dir] += interval[dir];
                                }
                                pending_dir = -1;
                                io = freel[--nfree];
                                io->dir = (uint8_t)dir;
                                io->len = gen_len(&g, dir);
                                io->offset = gen_offset(&g, dir, io->len);
                                if (o->refill_buffers && dir == BENCH_WRITE)
                                        /* fio's refill_buffers: new random data in every write */
                                        for (uint64_t *p = io->buf, *pe = (uint64_t *)((char *)io->buf + io->len); p < pe; p++)
                                                *p = xorshift_next(&fill);
                                io->start = bench_tick();
                                n = ops->queue(t, io);
                                if (n < 0) {
                                        freel[nfree++] = io;
                                        t->error = n;
                                        no_submit = true;
                                        break;
                                }
                                staged[nstaged++] = io;
                                issued += io->len;
                                if (issued >= limit) {
                                        no_submit = true;
                                        break;
                                }
                                if (think_every && ++since_think >= think_every) {
                                        since_think = 0;
                                        thinking = true;        /* after these complete */
                                }
                        }
                }
                if (nstaged && !closed) {
                        if (sync)
                                staged[0]->issue = bench_tick();
                        n = ops->submit(t);
                        if (n < 0) {
                                /* the staged I/Os never reached the kernel */
                                t->error = n;
                                no_submit = true;
                                nstaged = 0;
                        } else {
                                if (!sync) {
                                        now = bench_tick();
                                        for (int i = 0; i < n; i++)
                                                staged[i]->issue = now;
                                }
                                t->submit_calls[bench_depth_bucket((unsigned)n)]++;
                                if ((unsigned)n < nstaged)
                                        memmove(staged, staged + n, (nstaged - (unsigned)n) * sizeof(*staged));
                                nstaged -= (unsigned)n;
                                inflight += (unsigned)n;
                                /* fill the queue to its depth before waiting */
                                if (n > 0 && nfree && !no_submit && !thinking && pending_dir < 0)
                                        continue;
                        }
                }
                if (inflight == 0 && nstaged == 0) {
                        uint64_t wait = 0;

                        if (no_submit || closed)
                                break;
                        /* idle: thinktime once everything completed, or until the rate allows the next */
                        now = bench_tick();
                        if (thinking)
                                wait = o->thinktime_ns;
                        else if (pending_dir >= 0 && (int64_t)(next_ok[pending_dir] - now) > 0)
                                wait = bench_ticks_to_ns(next_ok[pending_dir] - now);
                        if (measuring && run_ticks && wait && now + bench_ns_to_ticks(wait) > end)
                                wait = (int64_t)(end - now) > 0 ? bench_ticks_to_ns(end - now) : 0;
                        thinking = false;
                        if (!nap(w, wait) || (measuring && now + bench_ns_to_ticks(wait) >= end)) {
                                if (measuring && !closed) {
                                        window_close(t, bench_tick(), ru0);
                                        closed = true;
                                }
                                break;
                        }
                        if (!measuring && bench_tick() >= ramp_end) {
                                window_open(t, bench_tick(), ru0);
                                measuring = true;
                        }
                        continue;
                }
                if (inflight == 0)
                        continue;

                n = 0;
                if (poll_ticks && cmin && !no_submit) {
                        /* --poll_wait: look without sleeping for a while first */
                        uint64_t until = bench_tick() + poll_ticks;

                        do
                                n = ops->reap(t, 0, cmax, cq);
                        while (n == 0 && (int64_t)(bench_tick() - until) < 0);
                }
                if (n == 0)
                        n = ops->reap(t, no_submit ? 1 : cmin, cmax, cq);
                now = bench_tick();
                if (n < 0) {
                        /* the ring or context failed: in-flight I/O cannot be reaped */
                        if (!t->error)
                                t->error = n;
                        break;
                }
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
                                no_submit = true;
                        } else {
                                if (measuring && !closed) {
                                        if ((uint32_t)res != io->len)
                                                t->st[io->dir].short_ios++;
                                        account(t, io, now, res);
                                }
                                tot_ios[io->dir]++;
                                tot_bytes[io->dir] += (uint64_t)res;
                        }
                        freel[nfree++] = io;
                }
                inflight -= (unsigned)n;
                for (int d = 0; d < BENCH_NDIR; d++) {
                        __atomic_store_n(&t->pub_ios[d], tot_ios[d], __ATOMIC_RELAXED);
                        __atomic_store_n(&t->pub_bytes[d], tot_bytes[d], __ATOMIC_RELAXED);
                }

                if (!measuring) {
                        if (now >= ramp_end && !t->error) {
                                window_open(t, now, ru0);
                                measuring = true;
                        }
                } else if (!closed && (now >= end || t->error || (no_submit && inflight == 0 && nstaged == 0))) {
                        window_close(t, now, ru0);
                        closed = true;
                        no_submit = true;
                }
                if ((bench_stop_signal || w->abort) && !no_submit) {
                        if (measuring && !closed) {
                                window_close(t, now, ru0);
                                closed = true;
                        }
                        no_submit = true;
                }
        }
        if (measuring && !closed)
                window_close(t, bench_tick(), ru0);
}

/* ioprio_set(2) of the calling thread: the I/O it submits carries this priority */
static int set_ioprio(const struct bench_opts *o)
{
        if (o->prioclass < 0)
                return 0;
        /* IOPRIO_WHO_PROCESS with who 0: the calling thread; class << 13 | level */
        if (syscall(SYS_ioprio_set, 1, 0, (o->prioclass << 13) | o->prio) < 0)
                return -errno;
        return 0;
}

/* Wait until the threads of the jobs before a stonewall are done, then the job's startdelay. */
static bool wait_turn(struct bench_workers *w, const struct bench_thread *t)
{
        pthread_mutex_lock(&w->lock);
        while (w->phase < t->phase && !w->abort && !bench_stop_signal)
                pthread_cond_wait(&w->cond, &w->lock);
        pthread_mutex_unlock(&w->lock);
        return nap(w, t->o->startdelay_ns);
}

static void *worker(void *arg)
{
        struct worker_arg *wa = arg;
        struct bench_workers *w = wa->w;
        struct bench_thread *t = wa->t;
        const struct bench_opts *o = t->o;
        struct bench_io **freel = calloc(t->depth, sizeof(*freel));
        struct bench_io **staged = calloc(t->depth, sizeof(*staged));
        struct bench_cqe *cq = calloc(t->depth, sizeof(*cq));
        struct gen g;
        int r;

        r = !freel || !staged || !cq ? -ENOMEM : 0;
        if (r == 0 && o->ncpus) {
                /* before init, so the ring or context is set up on the CPU it will be used on */
                cpu_set_t set;

                bench_job_cpus(o, t->id, &set);
                r = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        if (r == 0)
                r = o->engine->init(t);
        /* fio's invalidate (on by default): buffered I/O starts from an empty page cache */
        if (r == 0 && o->invalidate && !o->direct && t->fd >= 0)
                (void)posix_fadvise(t->fd, (off_t)t->file->region_start, (off_t)t->file->region_len,
                                    POSIX_FADV_DONTNEED);
        /* the offsets' generator (zipf sums over the blocks): before the gate, outside the window */
        gen_init(&g, o, t->file->region_start, t->file->region_len,
                 o->randrepeat ? 0x9E3779B97F4A7C15ull * (t->job_thread + 1) + t->job * 0x5851F42D4C957F2Dull
                               : bench_clock_gettime_ns() ^ ((uint64_t)t->id << 48));
        if (r == 0 && (r = set_ioprio(o)) < 0)
                t->setup_step = "set the I/O priority (ioprio_set)";
        if (r < 0)
                t->error = r;
        pthread_mutex_lock(&w->lock);
        w->nready++;
        pthread_cond_broadcast(&w->cond);
        while (!w->go)
                pthread_cond_wait(&w->cond, &w->lock);
        pthread_mutex_unlock(&w->lock);
        if (!w->abort && !t->error && wait_turn(w, t))
                io_loop(w, t, &g, freel, staged, cq);
        o->engine->cleanup(t);
        /* fio's end_fsync: after the measured window, what the job wrote reaches the disk */
        if (o->end_fsync && bench_rw_writes(o->rw) && t->fd >= 0 && !t->error && fsync(t->fd) < 0)
                t->error = -errno;
        free(freel);
        free(staged);
        free(cq);
        __atomic_store_n(&t->state, BENCH_TH_CLOSED, __ATOMIC_RELEASE);
        __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
        return NULL;
}

int bench_workers_setup(struct bench_workers *w, const struct bench_opts *o, const struct bench_target *tg)
{
        unsigned phase = 0, i = 0;

        *w = (struct bench_workers) { .o = o, .n = o->nthreads };
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->cond, NULL);
        w->th = calloc(w->n, sizeof(*w->th));
        w->tid = calloc(w->n, sizeof(*w->tid));
        w->args = calloc(w->n, sizeof(struct worker_arg));
        if (!w->th || !w->tid || !w->args || tg->n_files < w->n)
                return -ENOMEM;
        for (unsigned j = 0; j < o->njobs; j++) {
                const struct bench_opts *jo = &o->jobs[j];
                uint32_t maxbs = jo->bs[0] > jo->bs[1] ? jo->bs[0] : jo->bs[1];

                if (j > 0 && jo->stonewall)
                        phase++;
                for (unsigned k = 0; k < jo->numjobs; k++, i++) {
                        struct bench_thread *t = &w->th[i];
                        uint64_t seed = 0x1234567ull + i;

                        t->id = i;
                        t->first = &w->first;
                        t->job = j;
                        t->job_thread = k;
                        t->phase = phase;
                        t->o = jo;
                        t->file = &tg->files[i];
                        t->fd = tg->files[i].fd;
                        t->depth = jo->iodepth;
                        t->buf_len = (size_t)t->depth * maxbs;
                        t->buf = mmap(NULL, t->buf_len, PROT_READ | PROT_WRITE,
                                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
                        if (t->buf == MAP_FAILED) {
                                t->buf = NULL;
                                return -ENOMEM;
                        }
                        /* written data is random, so no layer below can compress or dedup it */
                        for (uint64_t *p = t->buf, *e = (uint64_t *)((char *)t->buf + t->buf_len); p < e; p++)
                                *p = xorshift_next(&seed);
                        t->ios = calloc(t->depth, sizeof(*t->ios));
                        if (!t->ios)
                                return -ENOMEM;
                        for (unsigned q = 0; q < t->depth; q++) {
                                t->ios[q].index = (uint16_t)q;
                                t->ios[q].buf = (char *)t->buf + (size_t)q * maxbs;
                        }
                }
        }
        return 0;
}

void bench_workers_start(struct bench_workers *w)
{
        struct worker_arg *wa = w->args;
        sigset_t block, old;

        /* workers must not take the signals: the main thread restores state */
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        sigaddset(&block, SIGQUIT);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        for (; w->started < w->n; w->started++) {
                wa[w->started] = (struct worker_arg) { .w = w, .t = &w->th[w->started] };
                if (pthread_create(&w->tid[w->started], NULL, worker, &wa[w->started]) != 0)
                        break;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);

        pthread_mutex_lock(&w->lock);
        while (w->nready < w->started)
                pthread_cond_wait(&w->cond, &w->lock);
        pthread_mutex_unlock(&w->lock);
}

void bench_workers_go(struct bench_workers *w)
{
        pthread_mutex_lock(&w->lock);
        w->go = true;
        pthread_cond_broadcast(&w->cond);
        pthread_mutex_unlock(&w->lock);
}

void bench_workers_join(struct bench_workers *w)
{
        for (unsigned i = 0; i < w->started; i++)
                pthread_join(w->tid[i], NULL);
}

void bench_workers_next_phase(struct bench_workers *w)
{
        pthread_mutex_lock(&w->lock);
        w->phase++;
        pthread_cond_broadcast(&w->cond);
        pthread_mutex_unlock(&w->lock);
}

void bench_workers_counts(const struct bench_workers *w, int j, uint64_t ios[BENCH_NDIR], uint64_t bytes[BENCH_NDIR])
{
        for (int d = 0; d < BENCH_NDIR; d++) {
                ios[d] = bytes[d] = 0;
                for (unsigned i = 0; i < w->n; i++) {
                        if (j >= 0 && w->th[i].job != (unsigned)j)
                                continue;
                        ios[d] += __atomic_load_n(&w->th[i].pub_ios[d], __ATOMIC_RELAXED);
                        bytes[d] += __atomic_load_n(&w->th[i].pub_bytes[d], __ATOMIC_RELAXED);
                }
        }
}

void bench_workers_free(struct bench_workers *w)
{
        for (unsigned i = 0; w->th && i < w->n; i++) {
                if (w->th[i].buf)
                        munmap(w->th[i].buf, w->th[i].buf_len);
                free(w->th[i].ios);
        }
        free(w->th);
        free(w->tid);
        free(w->args);
        w->th = NULL;
        w->tid = NULL;
        w->args = NULL;
        pthread_mutex_destroy(&w->lock);
        pthread_cond_destroy(&w->cond);
}
