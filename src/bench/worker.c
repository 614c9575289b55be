/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * worker.c: the job threads of one run (one per --numjobs, each with its
 * own engine instance, slots and buffers) and the I/O loop they run.  The
 * loop follows fio's timing points (start when an I/O is prepared, issue
 * when the submit call returns, one completion time per reap batch) but
 * batches: every free slot is refilled and submitted in one call, and every
 * ready completion is taken in one reap.  Nothing is allocated, locked or
 * shared in the loop; progress counters are published with one relaxed
 * store per reap batch.  run.c starts the threads through the gate here,
 * watches them and merges what they measured.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "worker.h"
#include "macro.h"

volatile int bench_stop_signal;

struct worker_arg {
        struct bench_workers *w;
        struct bench_thread *t;
};

/* xorshift64*: a handful of cycles, plenty for picking blocks */
static inline uint64_t rng_next(uint64_t *s)
{
        uint64_t x = *s;

        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *s = x;
        return x * 0x2545F4914F6CDD1Dull;
}

struct gen {
        uint64_t rng;
        uint64_t start, end;            /* region */
        uint64_t pos[BENCH_NDIR];       /* sequential position per direction */
        uint64_t nblocks[BENCH_NDIR];
        uint32_t bs[BENCH_NDIR];
        bool random;
        int fixed_dir;                  /* -1: mixed */
        uint32_t mix;                   /* reads per 2^32 */
};

static inline unsigned gen_dir(struct gen *g)
{
        if (g->fixed_dir >= 0)
                return (unsigned)g->fixed_dir;
        return (uint32_t)(rng_next(&g->rng) >> 32) < g->mix ? BENCH_READ : BENCH_WRITE;
}

static inline uint64_t gen_offset(struct gen *g, unsigned dir)
{
        uint64_t off;

        if (g->random) {
                /* Lemire's multiply-shift: uniform without a division */
                uint64_t b = (uint64_t)(((unsigned __int128)rng_next(&g->rng) * g->nblocks[dir]) >> 64);
                return g->start + b * g->bs[dir];
        }
        off = g->pos[dir];
        g->pos[dir] = off + 2ull * g->bs[dir] > g->end ? g->start : off + g->bs[dir];
        return off;
}

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

static void window_open(struct bench_thread *t, uint64_t now, uint64_t ru0[5])
{
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
        rusage_thread(&ru1[0], &ru1[1], &ru1[2], &ru1[3], &ru1[4]);
        t->usr_ns = ru1[0] - ru0[0];
        t->sys_ns = ru1[1] - ru0[1];
        t->ctx = ru1[2] - ru0[2];
        t->minf = ru1[3] - ru0[3];
        t->majf = ru1[4] - ru0[4];
}

static void io_loop(struct bench_workers *w, struct bench_thread *t, struct bench_io **freel,
                    struct bench_io **staged, struct bench_cqe *cq)
{
        const struct bench_opts *o = w->o;
        const struct bench_engine_ops *ops = o->engine;
        const bool sync = ops->flags & BENCH_ENGINE_SYNC;
        const unsigned depth = t->depth, batch = o->batch_submit;
        const unsigned cmin = o->batch_complete_min, cmax = o->batch_complete_max;
        const uint64_t poll_ticks = bench_ns_to_ticks(o->poll_wait_ns);
        uint64_t limit = o->io_size.set ? o->io_size.bytes : UINT64_MAX, issued = 0;
        uint64_t tot_ios[BENCH_NDIR] = { 0 }, tot_bytes[BENCH_NDIR] = { 0 };
        uint64_t ru0[5] = { 0 }, now, ramp_end, end;
        unsigned nfree = depth, nstaged = 0, inflight = 0;
        bool measuring = false, closed = false, no_submit = false;
        struct gen g = { 0 };
        int n;

        g.start = t->tg->region_start;
        g.end = t->tg->region_start + t->tg->region_len;
        g.random = bench_rw_random(o->rw);
        g.fixed_dir = !bench_rw_writes(o->rw) ? BENCH_READ : !bench_rw_reads(o->rw) ? BENCH_WRITE : -1;
        g.mix = (uint32_t)(((uint64_t)o->rwmixread << 32) / 100);
        if (o->rwmixread >= 100)
                g.fixed_dir = BENCH_READ;
        for (int d = 0; d < BENCH_NDIR; d++) {
                g.bs[d] = o->bs[d];
                g.pos[d] = g.start;
                g.nblocks[d] = t->tg->region_len / o->bs[d];
        }
        g.rng = o->randrepeat ? 0x9E3779B97F4A7C15ull * (t->id + 1) : bench_clock_gettime_ns() ^ ((uint64_t)t->id << 48);
        if (!g.rng)
                g.rng = 1;
        for (unsigned i = 0; i < depth; i++)
                freel[i] = &t->ios[i];

        now = bench_tick();
        ramp_end = now + w->ramp_ticks;
        end = w->run_ticks ? ramp_end + w->run_ticks : UINT64_MAX;
        if (w->ramp_ticks == 0) {
                window_open(t, now, ru0);
                measuring = true;
        }

        for (;;) {
                if (!no_submit) {
                        while (nfree && nstaged < batch) {
                                struct bench_io *io = freel[--nfree];
                                unsigned dir = gen_dir(&g);

                                io->dir = (uint8_t)dir;
                                io->len = g.bs[dir];
                                io->offset = gen_offset(&g, dir);
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
                                if (n > 0 && nfree && !no_submit)
                                        continue;
                        }
                }
                if (inflight == 0) {
                        if (no_submit || closed)
                                break;
                        continue;
                }

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

static void *worker(void *arg)
{
        struct worker_arg *wa = arg;
        struct bench_workers *w = wa->w;
        struct bench_thread *t = wa->t;
        struct bench_io **freel = calloc(t->depth, sizeof(*freel));
        struct bench_io **staged = calloc(t->depth, sizeof(*staged));
        struct bench_cqe *cq = calloc(t->depth, sizeof(*cq));
        int r;

        r = !freel || !staged || !cq ? -ENOMEM : 0;
        if (r == 0 && w->o->ncpus) {
                /* before init, so the ring or context is set up on the CPU it will be used on */
                cpu_set_t set;

                bench_job_cpus(w->o, t->id, &set);
                r = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        if (r == 0)
                r = w->o->engine->init(t);
        if (r < 0)
                t->error = r;
        pthread_mutex_lock(&w->lock);
        w->nready++;
        pthread_cond_broadcast(&w->cond);
        while (!w->go)
                pthread_cond_wait(&w->cond, &w->lock);
        pthread_mutex_unlock(&w->lock);
        if (!w->abort && !t->error)
                io_loop(w, t, freel, staged, cq);
        w->o->engine->cleanup(t);
        free(freel);
        free(staged);
        free(cq);
        __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
        return NULL;
}

int bench_workers_setup(struct bench_workers *w, const struct bench_opts *o, const struct bench_target *tg)
{
        uint32_t maxbs = o->bs[0] > o->bs[1] ? o->bs[0] : o->bs[1];

        *w = (struct bench_workers) { .o = o, .n = o->numjobs };
        w->ramp_ticks = bench_ns_to_ticks(o->ramp_ns);
        w->run_ticks = o->runtime_ns ? bench_ns_to_ticks(o->runtime_ns) : 0;
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->cond, NULL);
        w->th = calloc(w->n, sizeof(*w->th));
        w->tid = calloc(w->n, sizeof(*w->tid));
        w->args = calloc(w->n, sizeof(struct worker_arg));
        if (!w->th || !w->tid || !w->args)
                return -ENOMEM;
        for (unsigned i = 0; i < w->n; i++) {
                struct bench_thread *t = &w->th[i];
                uint64_t seed = 0x1234567ull + i;

                t->id = i;
                t->o = o;
                t->tg = tg;
                t->fd = tg->fd;
                t->depth = o->iodepth;
                t->buf_len = (size_t)t->depth * maxbs;
                t->buf = mmap(NULL, t->buf_len, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
                if (t->buf == MAP_FAILED) {
                        t->buf = NULL;
                        return -ENOMEM;
                }
                /* written data is random, so no layer below can compress or dedup it */
                for (uint64_t *p = t->buf, *e = (uint64_t *)((char *)t->buf + t->buf_len); p < e; p++)
                        *p = rng_next(&seed);
                t->ios = calloc(t->depth, sizeof(*t->ios));
                if (!t->ios)
                        return -ENOMEM;
                for (unsigned k = 0; k < t->depth; k++) {
                        t->ios[k].index = (uint16_t)k;
                        t->ios[k].buf = (char *)t->buf + (size_t)k * maxbs;
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

void bench_workers_counts(const struct bench_workers *w, uint64_t ios[BENCH_NDIR], uint64_t bytes[BENCH_NDIR])
{
        for (int d = 0; d < BENCH_NDIR; d++) {
                ios[d] = bytes[d] = 0;
                for (unsigned i = 0; i < w->n; i++) {
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
