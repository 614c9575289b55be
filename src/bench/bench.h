/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * bench.h: the internal interfaces of iosched-bench.  The error a step
 * reports (error.c), the workload's names (names.c), numbers with units
 * (units.c), CPU lists (cpus.c), the options and their fio-style parsing
 * (options.c; a job's options in jobopts.c, the jobs in jobs.c, fio job
 * files in jobfile.c, the --workload presets in workloads.c: jobs.h), the
 * clock (clock.c), latency statistics and fio's log-linear histogram
 * (hist.c), the engines (engine.c, one engine-*.c each), the target and
 * its safety checks (target.c; the jobs' targets in jobtarget.c), the job
 * threads and their I/O loop (worker.c, ioloop.c), what the main thread samples (sample.c), one measured
 * run (run.c), output (report.c), the scheduler comparison (compare.c,
 * policy.c) and the save / switch / restore of a disk's scheduler state
 * (sched-state.c), which `iosched-apply validate` reuses through
 * iosched-bench --compare.  Like the library, the benchmark core returns 0
 * or a negative errno and does not print; where the user needs detail, a
 * struct bench_error carries one message and the class of the failure.  A
 * run's progress goes to the caller's struct bench_progress_ops.  Output is
 * written only by main.c, report.c (results), progress.c (the progress
 * line), compare.c and observe.c (the comparison's table and the atexit restore note),
 * and by bench_opts_parse() for --help and --version, to the stream given.
 */
#ifndef IOS_BENCH_H
#define IOS_BENCH_H

#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "iosched.h"

/* ------------------------------------------------------------------ */
/* error.c: the error a failed step reports                            */
/* ------------------------------------------------------------------ */

/*
 * What kind of failure an error is.  The code that fails says which; main.c
 * alone turns the class into the exit status iosched-bench(8) documents.
 */
enum bench_error_class {
        BENCH_ERR_NONE = 0,
        BENCH_ERR_USAGE,                /* the command line asks for what cannot be: a bad option or
                                         * value, a region outside the target, a scheduler the disk
                                         * cannot run, a policy that does not load */
        BENCH_ERR_REFUSED,              /* refused as unsafe: a write that could destroy data */
        BENCH_ERR_SYSTEM,               /* a setup step failed: open, read, allocate, start threads */
        BENCH_ERR_IO,                   /* an I/O of the run, or its engine, failed */
        BENCH_ERR_SCHED,                /* a scheduler could not be switched to, or not restored */
        BENCH_ERR_INTERRUPTED,          /* a signal stopped the run */
};

struct bench_error {
        enum bench_error_class cls;
        char msg[512];                  /* without the "iosched-bench: " prefix */
};
/* Sets e (if e has no message yet) and returns -err (err > 0). */
int bench_error_set(struct bench_error *e, enum bench_error_class cls, int err, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ */
/* names.c: the workload and the objectives                            */
/* ------------------------------------------------------------------ */

enum bench_dir { BENCH_READ, BENCH_WRITE, BENCH_NDIR };

enum bench_rw {
        BENCH_RW_READ, BENCH_RW_WRITE, BENCH_RW_RANDREAD, BENCH_RW_RANDWRITE,
        BENCH_RW_READWRITE, BENCH_RW_RANDRW, _BENCH_RW_MAX,
};
const char *bench_rw_to_string(enum bench_rw rw);
int bench_rw_from_string(const char *s);        /* enum or -EINVAL; fio spellings */
static inline bool bench_rw_random(enum bench_rw rw)
{
        return rw == BENCH_RW_RANDREAD || rw == BENCH_RW_RANDWRITE || rw == BENCH_RW_RANDRW;
}
static inline bool bench_rw_reads(enum bench_rw rw)
{
        return rw != BENCH_RW_WRITE && rw != BENCH_RW_RANDWRITE;
}
static inline bool bench_rw_writes(enum bench_rw rw)
{
        return rw != BENCH_RW_READ && rw != BENCH_RW_RANDREAD;
}

enum bench_objective {
        BENCH_OBJ_IOPS, BENCH_OBJ_BW, BENCH_OBJ_P99, BENCH_OBJ_READ_P99,
        BENCH_OBJ_AWAIT, BENCH_OBJ_READ_AWAIT,  /* --observe: the disk's average wait */
        _BENCH_OBJ_MAX,
};
const char *bench_objective_to_string(enum bench_objective o);
int bench_objective_from_string(const char *s);        /* enum or -EINVAL */
bool bench_objective_lower_is_better(
        enum bench_objective o); /* the latencies: p99, read-p99, await, read-await */

/* ------------------------------------------------------------------ */
/* units.c: sizes, times, booleans and counts, parsed and formatted    */
/* ------------------------------------------------------------------ */

/* A size that may be given as a percentage of the target ("50%"). */
struct bench_size {
        uint64_t bytes;
        double pct;                     /* > 0: a percentage, bytes unused */
        bool set;
};

/*
 * Parse a size the way fio does: a decimal or 0x number with an optional
 * k/m/g/t/p suffix, case-insensitive.  With fio's default kb_base=1024, k
 * and kb are 1024 and KiB is 1000 (fio inverts them); kb_base=1000 (the
 * only other value fio takes) turns them round.  "%"-suffixed values are
 * accepted only by bench_parse_size_pct().  bench_parse_size() reads with
 * kb_base=1024; bench_parse_size_most() the larger of the two readings, for
 * a check that must not fall short where the job's kb_base is not known.
 */
int bench_parse_size_base(const char *s, unsigned kb_base, uint64_t *ret);
int bench_parse_size(const char *s, uint64_t *ret);
int bench_parse_size_most(const char *s, uint64_t *ret);
int bench_parse_size_pct(const char *s, struct bench_size *ret);
/* A time: a number with us/ms/s/m/h/d suffix (default seconds), in ns. */
int bench_parse_time(const char *s, uint64_t *ret_ns);
/* A boolean fio-style: 1/0, true/false, yes/no, on/off. */
int bench_parse_bool(const char *s, bool *ret);
/* A decimal count in [lo, hi]. */
int bench_parse_uint(const char *s, unsigned lo, unsigned hi, unsigned *ret);
/* A decimal count, any size. */
int bench_parse_count64(const char *s, uint64_t *ret);
/* A time whose bare number is in unit_ns (fio: seconds for most, us for thinktime), in ns. */
int bench_parse_time_unit(const char *s, uint64_t unit_ns, uint64_t *ret_ns);
/* fio's "r,w" pairs of one(): "x" both, "x,y", ",y" writes only, "x," reads only
 * (-EOPNOTSUPP: a third, trim, value). */
int bench_parse_pair(const char *s, int (*one)(const char *, uint64_t *), uint64_t ret[BENCH_NDIR]);
/* "P:P:...": up to max percentiles in (0,100] into ret[], *ret_n of them. */
int bench_parse_percentiles(const char *s, double *ret, unsigned max, unsigned *ret_n);
/* "1.2k", "977MiB/s", "55.0us": human units into buf. */
const char *bench_fmt_num(char *buf, size_t len, double v);
const char *bench_fmt_bytes(char *buf, size_t len, double v);
const char *bench_fmt_ns(char *buf, size_t len, double ns);

/* ------------------------------------------------------------------ */
/* options.c: the command line                                         */
/* ------------------------------------------------------------------ */

enum bench_eta { BENCH_ETA_AUTO, BENCH_ETA_ALWAYS, BENCH_ETA_NEVER };
/* random_generator=: ours (xorshift64*, the default), or fio's tausworthe / tausworthe64 */
enum bench_rng { BENCH_RNG_XORSHIFT, BENCH_RNG_TAUS88, BENCH_RNG_TAUS258, BENCH_RNG_LFSR };
/* random_distribution=: uniform, or fio's zipf:theta, pareto:h, normal:dev% */
enum bench_dist { BENCH_DIST_RANDOM, BENCH_DIST_ZIPF, BENCH_DIST_PARETO, BENCH_DIST_NORMAL };
enum bench_clocksource { BENCH_CLOCK_AUTO, BENCH_CLOCK_CPU, BENCH_CLOCK_GETTIME };
/* --backend=: who runs the workload (fio.c) */
enum bench_backend { BENCH_BACKEND_AUTO, BENCH_BACKEND_NATIVE, BENCH_BACKEND_FIO };

#define BENCH_MAX_PERCENTILES 20
#define BENCH_MAX_BSSPLIT 16

struct bench_engine_ops;

struct bench_opts {
        char *filename;
        char *name;                     /* job name, "iosched-bench" */
        const struct bench_engine_ops *engine;
        enum bench_rw rw;
        unsigned rwmixread;             /* percent of reads in mixed workloads */
        uint32_t bs[BENCH_NDIR];
        unsigned iodepth, numjobs;
        unsigned batch_submit;          /* IOs per submit call at most (0: iodepth) */
        unsigned batch_complete_min;    /* completions to wait for (fio's default 1) */
        unsigned batch_complete_max;    /* completions to take per reap (0: iodepth) */
        uint64_t runtime_ns, ramp_ns;
        bool runtime_set, ramp_set;
        uint64_t poll_wait_ns;          /* poll this long before sleeping for a completion */
        cpu_set_t cpus;                 /* --cpus_allowed */
        unsigned ncpus;                 /* CPUs in it; 0: not pinned */
        bool cpus_split;                /* --cpus_allowed_policy=split: one CPU per job */
        struct bench_size size, offset, io_size;
        bool direct;
        bool allow_write;
        bool fixedbufs, registerfiles;  /* io_uring; on by default */
        bool randrepeat;                /* fixed random seed (fio default: on) */
        enum bench_eta eta;
        enum bench_clocksource clocksource;
        bool json;
        unsigned loops;
        bool compare;
        bool policy;                    /* --policy: each scheduler with the policy's tunables */
        char *policy_file;              /* --policy=FILE: built-in policy plus FILE only */
        bool record;                    /* --record: keep the --compare's verdict as evidence (record.c) */
        const char *record_root;        /* --record=ROOT (in argv); NULL: / */
        char **compare_scheds;          /* NULL with compare: all offered */
        enum bench_objective objective;
        bool observe;                   /* --observe: alternate the variants under the disk's own load */
        double percentiles[BENCH_MAX_PERCENTILES];
        unsigned n_percentiles;

        /* jobopts.c: more of a job's options (fio's names) */
        char *directory;                /* directory=: files named name.N.0 in it */
        uint64_t rate_iops[BENCH_NDIR]; /* rate_iops=r,w: I/Os per second, 0: no limit */
        uint64_t rate_bps[BENCH_NDIR];  /* rate=r,w: bytes per second, 0: no limit */
        uint64_t thinktime_ns;          /* thinktime=: idle after thinktime_blocks I/Os */
        char cap_form[64];              /* a cap fio ran with in a form the above cannot hold ("rate_iops=2k",
                                         * fio's multiplier): a cap all the same (fioresult.c, jobs.c) */
        unsigned thinktime_blocks;
        uint64_t startdelay_ns;         /* startdelay=: start this much later */
        char *wait_for;                 /* fio's wait_for=: start once that job has ended (fio's report) */
        bool new_group, stonewall, group_reporting;
        int prioclass, prio;            /* ioprio_set() of each thread; -1: not set */
        enum bench_rng rng;             /* random_generator= */
        struct bench_bssplit { uint32_t bs, perc; } bssplit[BENCH_NDIR][BENCH_MAX_BSSPLIT];
        unsigned n_bssplit[BENCH_NDIR]; /* bssplit=: 0, or sizes and percents (bs[] is the largest) */
        enum bench_dist dist;           /* random_distribution= */
        double dist_param;              /* zipf theta, pareto h, normal dev % */
        struct bench_size filesize;     /* filesize=: the files we create (default: size) */
        bool end_fsync;                 /* end_fsync=: fsync(2) a file written, after the window */
        bool invalidate;                /* invalidate=: drop the target's page cache first (default 1) */
        bool refill_buffers;            /* refill_buffers: new random data in every write */
        bool time_based;                /* time_based: run for runtime= whatever the size (else fio's end
                                         * conditions: size=, io_size=, number_ios= end the job, jobs.c) */
        uint64_t number_ios;            /* number_ios=: end after this many I/Os (0: no such end) */
        unsigned passes;                /* a job's loops=: it does its amount this many times (0: once) */
        unsigned groupid;               /* jobs.c: fio's group number */
        unsigned first_thread;          /* jobs.c: index of the job's first thread in the run */

        /* the program's, kept in the global options only (options.c) */
        char *output;                   /* --output=FILE */
        char *workload;                 /* --workload=NAME (workloads.c) */
        char **jobfiles;                /* job files on the command line */
        char *objective_job;            /* --objective=JOB:METRIC: the job */
        int objective_jobidx;           /* its index in jobs[], -1: the whole run */
        char objective_label[80];       /* "p99" or "reader:p99", for the reports */
        struct bench_opts *jobs;        /* jobs.c: every job, resolved; njobs >= 1 */
        char **unsupported;             /* jobs.h: fio options the native engine lacks, "FILE:LINE: OPT[=V]" */
        char **ignored;                 /* jobs.h: fio's reporting/timing options accepted, same form */
        bool readonly;                  /* --readonly: refuse any job that writes */
        unsigned njobs, nthreads;       /* jobs, and threads of all jobs */
        size_t capjobs;                 /* room in jobs (ios_grow) */
        enum bench_backend backend;     /* --backend= */
        char **fio_args;                /* options.c: the job's arguments as written (job options, --name,
                                         * fio's options native lacks, --readonly, job files), in order, for fio (fio.c) */
        char **fio_settings;            /* options.c: the command line's job settings as understood, in order:
                                         * "key=value", "key" (a boolean alone), "name=J" starts a job (fioread.c) */
        char **jobtexts;                /* jobfile.c: each of jobfiles' text as read, once, in its order */
        size_t jobtexts_len;            /* their bytes together, at most BENCH_JOBFILE_MAX */
        bool allow_exec;                /* --allow-exec: fio may run programs (exec_*, trigger*, ioengine=exec, ...) */
        bool allow_net;                 /* --allow-net: fio may open sockets (nbd, net, http, rdma engines) */
        bool unconfined;                /* --unconfined: no Landlock, yet fio runs job files, fio's options */
        char *target_device;            /* --target-device=DEV: every job's every target must be DEV */
};

/* The largest job file read (jobfile.c, fioengines.c): what is longer (/dev/zero) is no job file;
 * and the most the job files of a run take together (each named once or again). */
#define BENCH_JOBFILE_MAX (16U << 20)
/* The longest line fio reads of a job file (fgets() into OPT_LEN_MAX, 8,192 bytes: a longer one is
 * several lines to fio), and the longest setting it takes, ${VAR}s expanded (options.c
 * fio_option_dup_subs()) */
#define BENCH_FIO_LINE_MAX 8191U
/* The most jobs of one run: fio's own limit (FIO_MAX_JOBS), clones counted there */
#define BENCH_JOBS_MAX 4096

void bench_opts_init(struct bench_opts *o);
void bench_opts_done(struct bench_opts *o);

/*
 * bench_opts_parse - parse argv into o.  Returns 0 to run, 1 when --help or
 * --version was printed to out (exit 0), or a negative errno with e set
 * (BENCH_ERR_USAGE, or BENCH_ERR_SYSTEM when the CPUs cannot be read).
 * -EOPNOTSUPP (BENCH_ERR_USAGE): the job uses options the native engine does
 * not implement, every one listed in o->unsupported (and in e); the
 * program's own options are parsed all the same, for the fio backend.
 */
int bench_opts_parse(int argc, char **argv, struct bench_opts *o, FILE *out,
                     struct bench_error *e);
/* usage.c: the --help text */
void bench_usage(FILE *f);

/* trial.c: a bare --compare (no job, no shape of one) gets a workload that separates schedulers */
int bench_compare_default_workload(struct bench_opts *o);

/* jobs.c: the result --objective=JOB:METRIC measures: that job's, or the whole run's */
struct bench_result;
const struct bench_result *bench_objective_result(const struct bench_opts *g, const struct bench_result *r);

/* ------------------------------------------------------------------ */
/* cpus.c: --cpus_allowed                                              */
/* ------------------------------------------------------------------ */

/* The CPUs this process may run on: what --cpus_allowed may name. */
int bench_usable_cpus(cpu_set_t *ret, struct bench_error *e);
/* fio's CPU list syntax, "0-3,6": into ret, counted in *n; checked against the CPUs we may use. */
int bench_parse_cpu_list(const char *s, cpu_set_t *ret, unsigned *n, struct bench_error *e);
/* The CPUs job thread i runs on (all of --cpus_allowed, or its i-th with split). */
void bench_job_cpus(const struct bench_opts *o, unsigned job, cpu_set_t *ret);
/* A CPU set as fio writes cpus_allowed: "0-3,6". */
const char *bench_fmt_cpus(char *buf, size_t len, const cpu_set_t *set);

/* ------------------------------------------------------------------ */
/* clock.c: a cheap monotonic tick and its conversion to ns            */
/* ------------------------------------------------------------------ */

extern uint64_t bench_clock_mult;       /* ns per tick, times 2^32 */
extern bool bench_clock_use_tsc;

/* Pick the clock; r (the running system's root) is where the kernel's own
 * clocksource is read.  -ENOTSUP when cs is BENCH_CLOCK_CPU and no TSC. */
int bench_clock_init(enum bench_clocksource cs, struct ios_ctx *r);
const char *bench_clock_name(void);
uint64_t bench_clock_gettime_ns(void);  /* CLOCK_MONOTONIC */

static inline uint64_t bench_tick(void)
{
#if defined(__x86_64__) || defined(__i386__)
        if (bench_clock_use_tsc)
                return __builtin_ia32_rdtsc();
#endif
        return bench_clock_gettime_ns();
}

/* Ticks to ns; a negative difference (TSC skew between CPUs) reads as 0. */
static inline uint64_t bench_ticks_to_ns(uint64_t d)
{
        if ((int64_t)d <= 0)
                return 0;
        return (uint64_t)(((unsigned __int128)d * bench_clock_mult) >> 32);
}
uint64_t bench_ns_to_ticks(uint64_t ns);

/* hist.c: fio's latency histogram and running statistics */
#include "hist.h"

/* ------------------------------------------------------------------ */
/* engine.c: the engines by name (each one engine-*.c, see worker.h)  */
/* ------------------------------------------------------------------ */

struct bench_thread;                    /* worker.h */
struct bench_io;
struct bench_cqe;

enum {
        BENCH_ENGINE_SYNC = 1 << 0,     /* one I/O per submit; issue stamped before it */
        BENCH_ENGINE_NOFILE = 1 << 1,   /* does no I/O on the target (null) */
};

/*
 * An engine, fio-shaped but small.  queue() stages one I/O (no syscall);
 * submit() hands every staged I/O to the kernel and returns how many of the
 * oldest staged ones it took (0 on -EAGAIN/-EBUSY: the caller reaps and
 * retries) or a negative errno; reap() waits for at least min completions
 * and returns up to max of them.  init() runs in the worker thread, so a
 * ring set up there may be SINGLE_ISSUER.
 */
struct bench_engine_ops {
        const char *name;
        unsigned flags;
        int (*init)(struct bench_thread *t);
        int (*queue)(struct bench_thread *t, struct bench_io *io);
        int (*submit)(struct bench_thread *t);
        int (*reap)(struct bench_thread *t, unsigned min, unsigned max, struct bench_cqe *out);
        void (*cleanup)(struct bench_thread *t);
};

extern const struct bench_engine_ops bench_engine_io_uring;
extern const struct bench_engine_ops bench_engine_libaio;
extern const struct bench_engine_ops bench_engine_psync;
extern const struct bench_engine_ops bench_engine_null;
extern const struct bench_engine_ops bench_engine_sync;     /* engine-psync.c: lseek + read/write */
extern const struct bench_engine_ops bench_engine_pvsync;   /* engine-psync.c: preadv/pwritev */
/* engine.c: by its --ioengine name, or NULL */
const struct bench_engine_ops *bench_engine_find(const char *name);

/* Per direction, per thread and per run. */
struct bench_dir_stats {
        uint64_t ios, bytes, short_ios;
        uint64_t runtime_ns;            /* the time of this direction's I/O (fio's read.runtime); 0: the
                                         * result's runtime_ns (bench_result_dir_ns()) */
        struct bench_lat slat, clat, lat;
        uint64_t clat_hist[BENCH_HIST_NR];
};
void bench_dir_stats_reset(struct bench_dir_stats *s);
void bench_dir_stats_merge(struct bench_dir_stats *to, const struct bench_dir_stats *from);

/* fio's iodepth_submit / iodepth_complete buckets: 0, 1-4, 5-8, ... 33-64, >64 */
#define BENCH_DEPTH_BUCKETS 7
static inline unsigned bench_depth_bucket(unsigned n)
{
        if (n == 0)
                return 0;
        if (n <= 4)
                return 1;
        if (n > 64)
                return 6;
        return 32u - (unsigned)__builtin_clz(n - 1) - 1u;  /* 5-8:2 9-16:3 17-32:4 33-64:5 */
}

/* ------------------------------------------------------------------ */
/* target.c                                                            */
/* ------------------------------------------------------------------ */

struct bench_target {
        char *path;                     /* as opened */
        char *created;                  /* a file we created; removed at the end */
        bool is_bdev;
        unsigned major, minor;          /* bdev: its own numbers; file: its fs's */
        uint64_t dev_size;              /* bytes */
        unsigned lbs;                   /* logical block size for O_DIRECT */
        uint64_t region_start, region_len;
        int fd;
        bool writes, direct;            /* how fd was opened */
        /* on the first target only (jobtarget.c): the run's other targets, each thread's file */
        struct bench_target *others;
        unsigned n_others;
        struct bench_file *files;       /* g->nthreads of them, in job order */
        unsigned n_files;
};

/*
 * jobtarget.c: open the targets of every job of o (the global options):
 * one per distinct file (creating and laying out a file where needed, one
 * per thread under directory=), with the safety rules for writes, and
 * resolve each job's --offset/--size into its region.  t is the first job's
 * target and owns the others.  Errors set e: BENCH_ERR_USAGE, _REFUSED or
 * _SYSTEM.
 */
int bench_target_open(const struct bench_opts *o, struct ios_ctx *r,
                      struct bench_target *t, struct bench_error *e);
/* target.c, for jobtarget.c: open path for o (writes: any job on it writes;
 * create_size: the bytes to lay out if it must be created), no region. */
int bench_target_open_path(const struct bench_opts *o, const char *path, bool writes, uint64_t create_size,
                           struct ios_ctx *r, struct bench_target *t, struct bench_error *e);
/* Close t alone and remove the file if we created it. */
void bench_target_close_one(struct bench_target *t);

/* storage.c: the kernel-interface filesystem path is on ("sysfs"), or NULL (storage, or unknown) */
const char *bench_storage_kernel_fs(const char *path);
/* storage.c: the same of the file open at fd (O_PATH will do) */
const char *bench_storage_kernel_fs_fd(int fd);
/* storage.c: 1 if character device rdev is storage by its class (written to cls), 0 if not, or -errno */
int bench_storage_chardev(struct ios_ctx *root, dev_t rdev, char *cls, size_t len);
/* The region o asks for in t. */
int bench_target_region(const struct bench_opts *o, const struct bench_target *t, uint64_t *ret_start,
                        uint64_t *ret_len, struct bench_error *e);
/* What one job thread does its I/O on (jobtarget.c). */
struct bench_file {
        struct bench_target *tg;        /* the target (shared by the jobs that name the same file) */
        int fd;                         /* tg->fd, or the job's own open for another O_DIRECT; -1: null */
        bool own_fd;
        uint64_t region_start, region_len;
};

/* The largest region of a thread of the run on t (its files', else its own; else the largest target's size,
 * fio's default region), in bytes; 0 when none is known. */
uint64_t bench_target_max_region(const struct bench_target *t);
/* Close and remove what we created; safe to call twice. */
void bench_target_close(struct bench_target *t);
/* Remove any file we created, for atexit(). */
void bench_target_atexit(void);

/* mounts.c: the mounts of a set of devices in a mountinfo text (libmount) */
struct bench_mount {
        dev_t dev;
        char *target, *fstype;
};
/* Each mount of one of the n devs, in the table's order; free *ret with bench_mounts_free(). */
int bench_mounts_of(const char *mountinfo, const dev_t *devs, size_t n, struct bench_mount **ret,
                    size_t *ret_n);
void bench_mounts_free(struct bench_mount *m, size_t n);
/* The mount points of filesystems of the NULL-ended types in this process's mount table, in its order
 * (*ret NULL: none). */
int bench_mounts_typed(const char * const *types, char ***ret);
/* The first cgroup v2 mount point of this process's mount table (malloc'd); -ENOENT: none. */
int bench_mounts_cgroup2(char **ret);
/* 1 if any of the n devices majors[i]:minors[i] is mounted (the first mount point in *ret_mnt), 0 if none. */
int bench_mountinfo_find(const char *mountinfo, const unsigned *majors, const unsigned *minors,
                         size_t n, char **ret_mnt);

/* ------------------------------------------------------------------ */
/* run.c: one measured run; sample.c: what is sampled meanwhile        */
/* ------------------------------------------------------------------ */

struct bench_result {
        struct bench_dir_stats d[BENCH_NDIR];
        uint64_t runtime_ns;            /* measured window (longest thread) */
        uint64_t elapsed_ns;            /* wall time including ramp */
        uint64_t usr_ns, sys_ns, ctx, minf, majf;
        double machine_busy_pct;        /* 0..100*ncpu, from /proc/stat */
        double machine_steal_pct;
        unsigned ncpu;
        uint64_t submit_calls[BENCH_DEPTH_BUCKETS], reap_calls[BENCH_DEPTH_BUCKETS];
        /* per 500 ms samples of the whole run, per direction */
        double *iops_samples[BENCH_NDIR], *bw_samples[BENCH_NDIR];   /* KiB/s */
        unsigned n_samples;
        bool interrupted;
        int error;
        char engine_note[128];
        unsigned depth;                 /* effective iodepth */
        uint64_t disk_stat_before[11], disk_stat_after[11];
        bool have_disk_stat;
        /* per job (run.c), each a result of its own threads; none inside those */
        struct bench_result *jobs;
        unsigned njobs;
        unsigned merged;                /* results merged into this one (bench_result_merge) */
        const struct bench_opts *job;   /* in a job's result: its options */
        const char *path;               /* in a job's result: its first thread's target */
        uint64_t region_start, region_len;
};
/* Merge a job's result into a group's or the run's (run.c). */
int bench_result_merge(struct bench_result *to, const struct bench_result *from);
/* place.c: a job in a round: its options and measured time (given), where it starts, ends its ramp and
 * ends (placed), in ns from the round's start */
struct bench_window {
        const struct bench_opts *job;   /* NULL: starts at once, no ramp */
        uint64_t len;
        uint64_t start, from, to;
};
/* place.c: each of the n jobs' windows, in the jobs' order: at its startdelay=, not before the jobs
 * ahead of it ended (stonewall) nor the one it waits for (wait_for=), its ramp_time= then len (fio's
 * run_threads) */
void bench_jobs_place(struct bench_window *w, unsigned n);
/* place.c: the time the placed windows cover, overlaps counted once: from their ramps' ends (measured),
 * or with ramps from their starts; sorts w */
uint64_t bench_windows_cover(struct bench_window *w, unsigned n, bool ramps);
/* sample.c: the measured time of n jobs as they ran (all[idx[i]], or all[i] without idx), into to's
 * runtime_ns: what their measured windows cover, placed by bench_jobs_place() with their runtimes; and
 * each direction's, of the jobs' time in it from the start of their windows (a verify's reads, after
 * its writes, are a job's read time) */
void bench_result_spans(struct bench_result *to, const struct bench_result *all, const unsigned *idx,
                        unsigned n);
/* sample.c: the time of r's I/O in direction d: its own where known, else the result's */
uint64_t bench_result_dir_ns(const struct bench_result *r, int d);
/* from's per-interval samples into to's: a copy into an empty result, else the sum (sample.c) */
int bench_result_merge_samples(struct bench_result *to, const struct bench_result *from);
/* sample.c: the result's samples freed */
void bench_result_done(struct bench_result *res);
struct bench_cpu_snap {
        uint64_t busy, total, steal;    /* /proc/stat's first line, in ticks */
};
int bench_cpu_snap_read(struct bench_cpu_snap *s);
/* Machine busy and steal % between a and b into res (res->ncpu set). */
void bench_result_machine_cpu(struct bench_result *res, const struct bench_cpu_snap *a,
                              const struct bench_cpu_snap *b);
/* The disk's stat file, 11 fields; false if d is NULL or it cannot be read. */
bool bench_disk_stat_read(struct ios_device *d, uint64_t out[11]);
/* Append a per-interval sample; *cap is the arrays' size, grown as needed. */
int bench_result_add_sample(struct bench_result *res, unsigned *cap, const double iops[BENCH_NDIR],
                            const double kib[BENCH_NDIR]);
/* Counts at a time, and the rates since then. */
struct bench_rate {
        uint64_t t_ns;
        uint64_t ios[BENCH_NDIR], bytes[BENCH_NDIR];
};
void bench_rate_mark(struct bench_rate *m, uint64_t now_ns, const uint64_t ios[BENCH_NDIR],
                     const uint64_t bytes[BENCH_NDIR]);
/* I/Os and bytes per second from the mark to now; the mark moves to now. */
void bench_rate_take(struct bench_rate *m, uint64_t now_ns, const uint64_t ios[BENCH_NDIR],
                     const uint64_t bytes[BENCH_NDIR], double iops[BENCH_NDIR], double bps[BENCH_NDIR]);

/* Set by the signal handler (main.c), read by every loop (stop.c). */
extern volatile int bench_stop_signal;
/* What a run tells its caller while it runs: once a second, and once more at the end (done). */
struct bench_progress {
        double elapsed_s, total_s;      /* since the start; ramp + runtime */
        bool ramp;                      /* still in --ramp_time */
        bool done;                      /* the run is over (the rates are not set) */
        double iops[BENCH_NDIR], bw[BENCH_NDIR];        /* over the last second; bw in B/s */
};
struct bench_progress_ops {
        void (*update)(void *userdata, const struct bench_progress *p);
        void *userdata;
};
/* membound.c: the memory a run's jobs may take together (our engines' I/O buffers, what fio takes):
 * half of the machine's */
uint64_t bench_memory_max(void);
/* worker.c: the bytes the I/O buffers of o's job threads take (numjobs x iodepth x the largest block size) */
uint64_t bench_workers_memory(const struct bench_opts *o);
/* run.c: one measured run; progress (NULL: none) is called from this thread. */
int bench_run(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
              const struct bench_progress_ops *progress, struct bench_result *res, struct bench_error *e);

/* progress.c: the progress line, a bench_progress_ops.update whose userdata is a struct bench_eta_line */
struct bench_eta_line {
        FILE *f;
        const char *tag;                /* in front of the line ("bfq 2/3"), or NULL */
};
void bench_eta_update(void *userdata, const struct bench_progress *p);
/* --eta: always, or (auto) when f is a terminal and the run takes more than a second. */
bool bench_eta_wanted(const struct bench_opts *o, FILE *f);

/* ------------------------------------------------------------------ */
/* report.c                                                            */
/* ------------------------------------------------------------------ */

struct bench_json;
/* Who ran the workload: "native", or fio's version ("fio-3.33"); in every report (main.c sets it). */
extern const char *bench_backend_name;
/* Totals across directions. */
double bench_result_iops(const struct bench_result *r, int dir);        /* dir -1: all */
double bench_result_bw(const struct bench_result *r, int dir);          /* B/s */
uint64_t bench_result_clat_pct(const struct bench_result *r, int dir, double p);
double bench_result_cpu_us_per_io(const struct bench_result *r, bool machine);
/* The block sizes job o runs, as the reports label them: "bs=4KiB", "bs=4KiB,64KiB" or
 * "bssplit=4KiB/50:64KiB/50" */
const char *bench_fmt_bs(char *buf, size_t len, const struct bench_opts *o);

void bench_report_text(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, const struct bench_result *r);
/* The body of one fio-style jobs[] element (without the braces). */
void bench_report_json_job(FILE *f, const struct bench_opts *o, const struct bench_result *r,
                           const char *jobname, const char *indent);
/* The opening of the JSON document up to and including "global options". */
void bench_report_json_begin(FILE *f, const struct bench_opts *o);
/* "disk_util" : [...] (the document's last member, no trailing comma). */
void bench_report_json_disk_util(FILE *f, const struct ios_device *disk, const struct bench_result *r);
void bench_report_json(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, const struct bench_result *r);
/* What is reported of a run: one result per job, or per group for the jobs
 * with group_reporting (fio's rule); *ret (n of them) freed by the caller. */
int bench_report_units(const struct bench_opts *o, const struct bench_result *r, struct bench_result **ret,
                       unsigned *ret_n);
/* Those units as jobs[] elements, names with suffix (".2": the loop); *first: no comma before. */
void bench_report_json_units(FILE *f, const struct bench_opts *o, const struct bench_result *r, const char *suffix,
                             bool *first);
void bench_json_string(FILE *f, const char *s);

#endif
