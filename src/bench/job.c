/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * job.c: one measured run.  It owns the worker threads (one per --numjobs,
 * each with its own engine instance, slots and buffers), the I/O loop they
 * run, and the main thread's part: start them together, sample progress and
 * per-interval IOPS, read machine-wide CPU from /proc/stat and the disk's
 * stat over the measured window, stop them on time or on a signal, and merge
 * their statistics.  The loop follows fio's timing points (start when an I/O
 * is prepared, issue when the submit call returns, one completion time per
 * reap batch) but batches: every free slot is refilled and submitted in one
 * call, and every ready completion is taken in one reap.  Nothing is
 * allocated, locked or shared in the loop; progress counters are published
 * with one relaxed store per reap batch.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "macro.h"

volatile int bench_stop_signal;

const struct bench_engine_ops *bench_engine_find(const char *name)
{
        static const struct bench_engine_ops * const engines[] = {
                &bench_engine_io_uring, &bench_engine_libaio, &bench_engine_psync, &bench_engine_null,
        };

        for (size_t i = 0; name && i < ELEMENTSOF(engines); i++)
                if (streq(name, engines[i]->name))
                        return engines[i];
        return NULL;
}

struct run_ctx {
        const struct bench_opts *o;
        struct bench_target *tg;
        struct bench_thread *th;
        unsigned n;
        /* start gate: workers set up, main checks them, then all start */
        pthread_mutex_t lock;
        pthread_cond_t cond;
        unsigned nready;
        bool go;
        volatile int abort;             /* set by main: stop now */
        uint64_t ramp_ticks, run_ticks; /* run_ticks 0: no time limit */
};

struct worker_arg {
        struct run_ctx *c;
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

static void io_loop(struct run_ctx *c, struct bench_thread *t, struct bench_io **freel,
                    struct bench_io **staged, struct bench_cqe *cq)
{
        const struct bench_opts *o = c->o;
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
        ramp_end = now + c->ramp_ticks;
        end = c->run_ticks ? ramp_end + c->run_ticks : UINT64_MAX;
        if (c->ramp_ticks == 0) {
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
                if ((bench_stop_signal || c->abort) && !no_submit) {
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
        struct run_ctx *c = wa->c;
        struct bench_thread *t = wa->t;
        struct bench_io **freel = calloc(t->depth, sizeof(*freel));
        struct bench_io **staged = calloc(t->depth, sizeof(*staged));
        struct bench_cqe *cq = calloc(t->depth, sizeof(*cq));
        int r;

        r = !freel || !staged || !cq ? -ENOMEM : 0;
        if (r == 0 && c->o->ncpus) {
                /* before init, so the ring or context is set up on the CPU it will be used on */
                cpu_set_t set;

                bench_job_cpus(c->o, t->id, &set);
                r = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
        }
        if (r == 0)
                r = c->o->engine->init(t);
        if (r < 0)
                t->error = r;
        pthread_mutex_lock(&c->lock);
        c->nready++;
        pthread_cond_broadcast(&c->cond);
        while (!c->go)
                pthread_cond_wait(&c->cond, &c->lock);
        pthread_mutex_unlock(&c->lock);
        if (!c->abort && !t->error)
                io_loop(c, t, freel, staged, cq);
        c->o->engine->cleanup(t);
        free(freel);
        free(staged);
        free(cq);
        __atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
        return NULL;
}

/* ------------------------------------------------------------------ */
/* main thread: machine CPU, disk stat, samples, progress              */
/* ------------------------------------------------------------------ */

struct cpu_snap {
        uint64_t busy, total, steal;
};

static int read_proc_stat(struct cpu_snap *s)
{
        unsigned long long v[10] = { 0 };
        char line[512];
        FILE *f = fopen("/proc/stat", "re");
        int n;

        if (!f)
                return -errno;
        if (!fgets(line, sizeof(line), f)) {
                fclose(f);
                return -EIO;
        }
        fclose(f);
        n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
        if (n < 8)
                return -EIO;
        /* user nice system idle iowait irq softirq steal (guest is in user) */
        s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
        s->steal = v[7];
        s->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
        return 0;
}

static bool read_disk_stat(struct ios_device *d, uint64_t out[11])
{
        _cleanup_free_ char *s = NULL;
        unsigned long long v[11];

        if (!d || ios_sysfs_read_string(d->fd, "stat", &s) < 0)
                return false;
        if (sscanf(s, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 11)
                return false;
        for (int i = 0; i < 11; i++)
                out[i] = v[i];
        return true;
}

static void sum_pub(const struct run_ctx *c, uint64_t ios[BENCH_NDIR], uint64_t bytes[BENCH_NDIR])
{
        for (int d = 0; d < BENCH_NDIR; d++) {
                ios[d] = bytes[d] = 0;
                for (unsigned i = 0; i < c->n; i++) {
                        ios[d] += __atomic_load_n(&c->th[i].pub_ios[d], __ATOMIC_RELAXED);
                        bytes[d] += __atomic_load_n(&c->th[i].pub_bytes[d], __ATOMIC_RELAXED);
                }
        }
}

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

static void progress(FILE *f, const char *tag, double t, double total, bool ramp,
                     const double rate[BENCH_NDIR], const double bw[BENCH_NDIR])
{
        char a[32], b[32], x[32], y[32];

        fprintf(f, "\r\033[K%s%s[%s %.0f/%.0fs] r: %s IOPS %s/s  w: %s IOPS %s/s",
                tag ? tag : "", tag ? " " : "", ramp ? "ramp" : "run", t, total,
                bench_fmt_num(a, sizeof(a), rate[0]), bench_fmt_bytes(b, sizeof(b), bw[0]),
                bench_fmt_num(x, sizeof(x), rate[1]), bench_fmt_bytes(y, sizeof(y), bw[1]));
        fflush(f);
}

static int push_sample(struct bench_result *res, unsigned *cap, const double iops[BENCH_NDIR],
                       const double kib[BENCH_NDIR])
{
        if (res->n_samples == *cap) {
                unsigned nc = *cap ? *cap * 2 : 64;
                for (int d = 0; d < BENCH_NDIR; d++) {
                        double *a = realloc(res->iops_samples[d], nc * sizeof(double));
                        if (!a)
                                return -ENOMEM;
                        res->iops_samples[d] = a;
                        a = realloc(res->bw_samples[d], nc * sizeof(double));
                        if (!a)
                                return -ENOMEM;
                        res->bw_samples[d] = a;
                }
                *cap = nc;
        }
        for (int d = 0; d < BENCH_NDIR; d++) {
                res->iops_samples[d][res->n_samples] = iops[d];
                res->bw_samples[d][res->n_samples] = kib[d];
        }
        res->n_samples++;
        return 0;
}

void bench_result_done(struct bench_result *res)
{
        for (int d = 0; d < BENCH_NDIR; d++) {
                free(res->iops_samples[d]);
                free(res->bw_samples[d]);
                res->iops_samples[d] = res->bw_samples[d] = NULL;
        }
        res->n_samples = 0;
}

static void merge(struct run_ctx *c, struct bench_result *res)
{
        for (int d = 0; d < BENCH_NDIR; d++)
                bench_dir_stats_reset(&res->d[d]);
        for (unsigned i = 0; i < c->n; i++) {
                struct bench_thread *t = &c->th[i];
                uint64_t w = t->win_end > t->win_start ? bench_ticks_to_ns(t->win_end - t->win_start) : 0;

                for (int d = 0; d < BENCH_NDIR; d++)
                        bench_dir_stats_merge(&res->d[d], &t->st[d]);
                /* fio's group reporting: runtime is the longest job's */
                if (w > res->runtime_ns)
                        res->runtime_ns = w;
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

static int setup_threads(struct run_ctx *c, struct bench_target *tg)
{
        const struct bench_opts *o = c->o;
        uint32_t maxbs = o->bs[0] > o->bs[1] ? o->bs[0] : o->bs[1];

        c->th = calloc(c->n, sizeof(*c->th));
        if (!c->th)
                return -ENOMEM;
        for (unsigned i = 0; i < c->n; i++) {
                struct bench_thread *t = &c->th[i];
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

static void free_threads(struct run_ctx *c)
{
        for (unsigned i = 0; c->th && i < c->n; i++) {
                if (c->th[i].buf)
                        munmap(c->th[i].buf, c->th[i].buf_len);
                free(c->th[i].ios);
        }
        free(c->th);
        c->th = NULL;
}

static void gate_open(struct run_ctx *c)
{
        pthread_mutex_lock(&c->lock);
        c->go = true;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
}

static void take_cpu(struct cpu_snap *s, bool *have, struct ios_device *disk, uint64_t stat[11],
                     bool *have_stat)
{
        *have = read_proc_stat(s) == 0;
        *have_stat = read_disk_stat(disk, stat);
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
        return a < b ? a : b;
}

int bench_run(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
              const char *progress_tag, struct bench_result *res, struct bench_error *e)
{
        struct run_ctx c = { .o = o, .tg = tg, .n = o->numjobs };
        struct worker_arg *wa = NULL;
        pthread_t *tid = NULL;
        sigset_t block, old;
        unsigned started = 0, cap = 0;
        struct cpu_snap cpu0 = { 0 }, cpu1 = { 0 };
        bool have_cpu0 = false, have_cpu1 = false, have_st0 = false, have_st1 = false, eta;
        uint64_t t0, ramp_end, end, next_sample, last_sample, next_eta, eta_t;
        uint64_t last_ios[BENCH_NDIR], last_bytes[BENCH_NDIR], eta_ios[BENCH_NDIR], eta_bytes[BENCH_NDIR];
        int r = 0;

        memset(res, 0, sizeof(*res));
        res->depth = o->iodepth;
        res->ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
        c.ramp_ticks = bench_ns_to_ticks(o->ramp_ns);
        c.run_ticks = o->runtime_ns ? bench_ns_to_ticks(o->runtime_ns) : 0;
        eta = o->eta == BENCH_ETA_ALWAYS ||
              (o->eta == BENCH_ETA_AUTO && isatty(STDERR_FILENO) && o->runtime_ns + o->ramp_ns > 1000000000ull);
        pthread_mutex_init(&c.lock, NULL);
        pthread_cond_init(&c.cond, NULL);

        r = setup_threads(&c, tg);
        tid = calloc(c.n, sizeof(*tid));
        wa = calloc(c.n, sizeof(*wa));
        if (r < 0 || !tid || !wa) {
                bench_error_set(e, BENCH_EXIT_FAILED, ENOMEM, "cannot allocate I/O buffers and threads");
                r = -ENOMEM;
                goto out;
        }

        /* workers must not take the signals: the main thread restores state */
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        sigaddset(&block, SIGQUIT);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        for (; started < c.n; started++) {
                wa[started] = (struct worker_arg) { .c = &c, .t = &c.th[started] };
                if (pthread_create(&tid[started], NULL, worker, &wa[started]) != 0)
                        break;
        }
        pthread_sigmask(SIG_SETMASK, &old, NULL);

        pthread_mutex_lock(&c.lock);
        while (c.nready < started)
                pthread_cond_wait(&c.cond, &c.lock);
        pthread_mutex_unlock(&c.lock);
        if (started < c.n) {
                c.abort = 1;
                r = bench_error_set(e, BENCH_EXIT_FAILED, EAGAIN, "cannot start %u threads", c.n);
        }
        for (unsigned i = 0; i < started && r == 0; i++)
                if (c.th[i].error) {
                        c.abort = 1;
                        r = bench_error_set(e, BENCH_EXIT_FAILED, -c.th[i].error, "%s: cannot set up %s: %s",
                                            tg->path ? tg->path : "null", o->engine->name,
                                            strerror(-c.th[i].error));
                }
        t0 = bench_clock_gettime_ns();
        ramp_end = t0 + o->ramp_ns;
        end = o->runtime_ns ? ramp_end + o->runtime_ns : UINT64_MAX;
        last_sample = ramp_end;
        next_sample = ramp_end + 500000000ull;
        next_eta = t0 + 1000000000ull;
        eta_t = t0;
        memset(last_ios, 0, sizeof(last_ios));
        memset(last_bytes, 0, sizeof(last_bytes));
        memset(eta_ios, 0, sizeof(eta_ios));
        memset(eta_bytes, 0, sizeof(eta_bytes));
        if (o->ramp_ns == 0)
                take_cpu(&cpu0, &have_cpu0, disk, res->disk_stat_before, &have_st0);
        gate_open(&c);

        for (unsigned i = 0; i < started; i++)
                while (!__atomic_load_n(&c.th[i].done, __ATOMIC_ACQUIRE)) {
                        uint64_t now = bench_clock_gettime_ns(), wake = UINT64_MAX;

                        if (bench_stop_signal) {
                                c.abort = 1;
                                res->interrupted = true;
                        }
                        if (!have_cpu0 && now >= ramp_end) {
                                take_cpu(&cpu0, &have_cpu0, disk, res->disk_stat_before, &have_st0);
                                sum_pub(&c, last_ios, last_bytes);
                                last_sample = now;
                        }
                        if (!have_cpu1 && now >= end)
                                take_cpu(&cpu1, &have_cpu1, disk, res->disk_stat_after, &have_st1);
                        if (now >= next_sample && next_sample <= end && have_cpu0) {
                                uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
                                double iops[BENCH_NDIR], kib[BENCH_NDIR], dt = (double)(now - last_sample) / 1e9;

                                sum_pub(&c, ios, bytes);
                                for (int d = 0; d < BENCH_NDIR; d++) {
                                        iops[d] = (double)(ios[d] - last_ios[d]) / dt;
                                        kib[d] = (double)(bytes[d] - last_bytes[d]) / 1024.0 / dt;
                                        last_ios[d] = ios[d];
                                        last_bytes[d] = bytes[d];
                                }
                                if (push_sample(res, &cap, iops, kib) < 0)
                                        c.abort = 1;
                                last_sample = now;
                                next_sample += 500000000ull;
                        }
                        if (eta && now >= next_eta) {
                                uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
                                double rate[BENCH_NDIR], bw[BENCH_NDIR], dt = (double)(now - eta_t) / 1e9;

                                sum_pub(&c, ios, bytes);
                                for (int d = 0; d < BENCH_NDIR; d++) {
                                        rate[d] = (double)(ios[d] - eta_ios[d]) / dt;
                                        bw[d] = (double)(bytes[d] - eta_bytes[d]) / dt;
                                        eta_ios[d] = ios[d];
                                        eta_bytes[d] = bytes[d];
                                }
                                eta_t = now;
                                progress(stderr, progress_tag, (double)(now - t0) / 1e9,
                                         (double)(o->ramp_ns + o->runtime_ns) / 1e9, now < ramp_end, rate, bw);
                                next_eta = now + 1000000000ull;
                        }
                        if (!have_cpu0)
                                wake = min_u64(wake, ramp_end);
                        if (!have_cpu1)
                                wake = min_u64(wake, end);
                        if (next_sample <= end)
                                wake = min_u64(wake, next_sample);
                        if (eta)
                                wake = min_u64(wake, next_eta);
                        /* past the end the workers only drain: look again soon */
                        wake = min_u64(wake, now + (now >= end || c.abort ? 2000000ull : 100000000ull));
                        sleep_until(wake);
                }
        if (!have_cpu1)
                take_cpu(&cpu1, &have_cpu1, disk, res->disk_stat_after, &have_st1);
        res->have_disk_stat = have_st0 && have_st1;
        if (eta) {
                fputs("\r\033[K", stderr);
                fflush(stderr);
        }
        for (unsigned i = 0; i < started; i++)
                pthread_join(tid[i], NULL);
        res->elapsed_ns = bench_clock_gettime_ns() - t0;
        if (bench_stop_signal)
                res->interrupted = true;
        merge(&c, res);
        if (have_cpu0 && have_cpu1 && cpu1.total > cpu0.total) {
                double tot = (double)(cpu1.total - cpu0.total);

                res->machine_busy_pct = (double)(cpu1.busy - cpu0.busy) / tot * 100.0 * res->ncpu;
                res->machine_steal_pct = (double)(cpu1.steal - cpu0.steal) / tot * 100.0 * res->ncpu;
        }
        for (unsigned i = 0; i < started && r == 0; i++) {
                struct bench_thread *t = &c.th[i];

                if (t->error && t->error_is_io)
                        r = bench_error_set(e, BENCH_EXIT_FAILED, -t->error, "%s: %s at offset %" PRIu64 ": %s",
                                            tg->path, t->error_dir == BENCH_READ ? "read" : "write",
                                            t->error_offset, strerror(-t->error));
                else if (t->error)
                        r = bench_error_set(e, BENCH_EXIT_FAILED, -t->error, "%s: %s engine failed: %s",
                                            tg->path ? tg->path : "null", o->engine->name, strerror(-t->error));
        }
out:
        pthread_mutex_destroy(&c.lock);
        pthread_cond_destroy(&c.cond);
        free(tid);
        free(wa);
        free_threads(&c);
        return r;
}
