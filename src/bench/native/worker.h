/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * worker.h: inside a measured run.  What an engine works with (an I/O slot,
 * a completion, the state of the job thread it runs in) and the job threads
 * that worker.c runs (their loop: ioloop.c) and run.c drives.  Included by
 * worker.c, ioloop.c, run.c and the engines (engine-*.c); everything else
 * sees a run through bench.h.
 */
#ifndef IOS_BENCH_WORKER_H
#define IOS_BENCH_WORKER_H

#include <pthread.h>

#include "bench.h"

/* One I/O slot: preallocated, reused, never freed in the run. */
struct bench_io {
        uint64_t offset;
        uint64_t start;                 /* tick: prepared (fio's start_time) */
        uint64_t issue;                 /* tick: submit call returned (issue_time) */
        void *buf;
        uint32_t len;
        uint16_t index;                 /* slot number: buffer/iocb index */
        uint8_t dir;                    /* enum bench_dir */
        int res;                        /* result, for synchronous engines */
};

struct bench_cqe {
        struct bench_io *io;
        int res;                        /* bytes done or -errno */
};

/*
 * The run's first measured I/O: run.c reads the machine's and the disk's
 * counters (take) in the thread that opens the first window, before its
 * first I/O; a thread opening its window meanwhile waits for the reading.
 */
struct bench_first_window {
        void (*take)(void *arg);
        void *arg;
        int state;                      /* 0 not yet, 1 being read, 2 read */
};

struct bench_thread {
        /* set up by worker.c before init() */
        struct bench_first_window *first;       /* the run's, shared */
        unsigned id;                    /* in the run */
        unsigned job, job_thread;       /* its job (index in the global options' jobs[]) and number in it */
        unsigned phase;                 /* stonewalls before its job: it waits for the threads before */
        const struct bench_opts *o;     /* its job's options */
        const struct bench_file *file;
        int fd;                         /* target fd, maybe shared with other threads; -1 for null */
        unsigned depth;
        struct bench_io *ios;           /* depth slots */
        void *buf;                      /* depth * max(bs) bytes, page aligned */
        size_t buf_len;
        void *priv;                     /* the engine's */
        char engine_note[128];          /* what init() set up, for the report */

        /* the run, private to the thread */
        struct bench_dir_stats st[BENCH_NDIR];
        uint64_t submit_calls[BENCH_DEPTH_BUCKETS], reap_calls[BENCH_DEPTH_BUCKETS];
        uint64_t win_start, win_end;    /* ticks of the measured window */
        uint64_t usr_ns, sys_ns, ctx, minf, majf;       /* RUSAGE_THREAD in the window */
        int error;                      /* first error, -errno */
        bool error_is_io;               /* from a completion: offset and dir are set */
        uint64_t error_offset;
        uint8_t error_dir;

        const char *setup_step;         /* what failed before the loop: NULL (the engine) or a step */

        /* published for the progress line, written once per reap batch */
        uint64_t pub_ios[BENCH_NDIR] __attribute__((aligned(64)));
        uint64_t pub_bytes[BENCH_NDIR];
        int state;                      /* enum bench_thread_state */
        int done;
};
enum bench_thread_state { BENCH_TH_WAITING, BENCH_TH_RAMP, BENCH_TH_MEASURING, BENCH_TH_CLOSED };

/* The job threads of one run (worker.c), driven by run.c. */
struct bench_workers {
        const struct bench_opts *o;     /* the global options, with jobs[] */
        struct bench_thread *th;        /* n of them */
        unsigned n, started;
        volatile int abort;             /* set by the main thread: stop now */
        unsigned phase;                 /* threads of this phase and before may run (stonewall) */
        /* worker.c's: the threads and the start gate */
        pthread_t *tid;
        void *args;
        pthread_mutex_t lock;
        pthread_cond_t cond;
        unsigned nready;
        bool go;
        struct bench_first_window first;        /* run.c sets take and arg before the start */
};
/* Slots and buffers of every job's threads (o->nthreads) on tg's files; nothing started.  Free w even on failure. */
int bench_workers_setup(struct bench_workers *w, const struct bench_opts *o, const struct bench_target *tg);
/* Start the threads (they do not take signals) and wait until each has set
 * up its engine (t->error set if it could not); w->started of them run. */
void bench_workers_start(struct bench_workers *w);
/* Open the gate: every started thread begins its loop now. */
void bench_workers_go(struct bench_workers *w);
void bench_workers_join(struct bench_workers *w);
/* Let the threads of the next phase start (the main thread, when the ones before are done). */
void bench_workers_next_phase(struct bench_workers *w);
void bench_workers_free(struct bench_workers *w);
/* The I/Os and bytes the threads (of job j; -1: all) published so far, summed. */
void bench_workers_counts(const struct bench_workers *w, int j, uint64_t ios[BENCH_NDIR], uint64_t bytes[BENCH_NDIR]);

/* ioloop.c: thread t's I/O loop, from its ramp to its window's end, on depth slots (freel,
 * staged and cq have room for t->depth each) with the offsets of a copy of g. */
struct bench_gen;
void bench_io_loop(struct bench_workers *w, struct bench_thread *t, const struct bench_gen *g,
                   struct bench_io **freel, struct bench_io **staged, struct bench_cqe *cq);
/* Sleep up to ns, in slices that notice a stop; false if the run is being stopped. */
bool bench_nap(struct bench_workers *w, uint64_t ns);

#endif
