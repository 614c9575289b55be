/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * worker.c: the job threads of one run (--numjobs per job, each with its
 * own engine instance, slots and buffers): their setup, startdelay and
 * stonewall's wait for the threads of the jobs before; the I/O loop they
 * run is ioloop.c's.  run.c starts the threads through the gate here,
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

struct worker_arg {
        struct bench_workers *w;
        struct bench_thread *t;
};

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
        return bench_nap(w, t->o->startdelay_ns);
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
        struct bench_gen g;
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
        bench_gen_init(&g, o, t->file->region_start, t->file->region_len,
                       o->randrepeat ?
                               0x9E3779B97F4A7C15ull * (t->job_thread + 1) + t->job * 0x5851F42D4C957F2Dull :
                               bench_clock_gettime_ns() ^ ((uint64_t)t->id << 48));
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
                bench_io_loop(w, t, &g, freel, staged, cq);
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

/* the largest I/O of job jo: each of its slots' buffers holds one */
static uint32_t max_bs(const struct bench_opts *jo)
{
        return jo->bs[0] > jo->bs[1] ? jo->bs[0] : jo->bs[1];
}

uint64_t bench_workers_memory(const struct bench_opts *o)
{
        uint64_t all = 0;

        for (unsigned j = 0; j < o->njobs; j++) {
                const struct bench_opts *jo = &o->jobs[j];
                uint64_t job;

                if (__builtin_mul_overflow((uint64_t)jo->numjobs * jo->iodepth, (uint64_t)max_bs(jo), &job) ||
                    __builtin_add_overflow(all, job, &all))
                        return UINT64_MAX;
        }
        return all;
}

int bench_workers_setup(struct bench_workers *w, const struct bench_opts *o, const struct bench_target *tg)
{
        unsigned phase = 0, i = 0;

        *w = (struct bench_workers){ .o = o, .n = o->nthreads };
        pthread_mutex_init(&w->lock, NULL);
        pthread_cond_init(&w->cond, NULL);
        w->th = calloc(w->n, sizeof(*w->th));
        w->tid = calloc(w->n, sizeof(*w->tid));
        w->args = calloc(w->n, sizeof(struct worker_arg));
        if (!w->th || !w->tid || !w->args || tg->n_files < w->n)
                return -ENOMEM;
        for (unsigned j = 0; j < o->njobs; j++) {
                const struct bench_opts *jo = &o->jobs[j];
                uint32_t maxbs = max_bs(jo);

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
                wa[w->started] = (struct worker_arg){ .w = w, .t = &w->th[w->started] };
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
