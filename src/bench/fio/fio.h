/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fio.h: fio as a workload backend.  A small JSON reader (fiojson.c); the
 * job as written and fio run on it in its own process group (fio.c); what
 * the job touches and its safety checks (fiojob.c); fio's --output-format=json+ read back
 * into a struct bench_result and a view of the jobs as fio ran them, so
 * that report.c and the comparison report fio's runs as they report ours
 * (fioresult.c).
 */
#ifndef IOS_BENCH_FIO_H
#define IOS_BENCH_FIO_H

#include "bench.h"

/* fio's JSON report is read with the library's reader (src/lib/jsonread.h). */
#include "jsonread.h"
/* A number of fio's report: a number, a numeric string (fio prints some so), true (1) or false (0); def
 * for anything else (fioresult.c). */
double bench_fio_num(const struct ios_json *v, double def);

/* ------------------------------------------------------------------ */
/* fio.c                                                               */
/* ------------------------------------------------------------------ */

struct bench_fio_job;
struct bench_fio_scratch;

/*
 * What fio may touch, as the job was resolved before fio starts (fiojob.c),
 * and the kernel's fence around fio built from it (sandbox.c, Landlock).
 * Paths are absolute and resolved (no symlink left).
 */
struct bench_fio_access {
        char **read;            /* existing files and devices the jobs open */
        char **input;           /* files fio reads for a job's settings (a pattern's 'FILE'), read only */
        char **listed;          /* directories fio lists (opendir=), their subtrees listed only */
        char **write;           /* existing files and devices fio may write (--allow-write only) */
        char **create;          /* the run's scratch directories: fio makes files only there (fioscratch.c) */
        char **exec;            /* programs fio may run besides itself (--allow-exec only) */
        bool allow_exec;        /* --allow-exec: exec_*, trigger*, ioengine=exec/external allowed */
        bool allow_net;         /* --allow-net: sockets (fio's network engines: nbd, net, http, rdma...) */
        bool allow_hints;       /* a job has write_hint=: fcntl(F_SET_RW_HINT) (fiohints.c puts them back) */
        bool resolved;          /* every file of every job was resolved (else: only with the kernel's fence) */
};

/*
 * The fence every fio process starts in (sandbox.c): a Landlock ruleset
 * built once, in iosched-bench, from handles opened once; entered by each
 * fio child between fork and execv with no_new_privs and a system call
 * filter (no socket without --allow-net or --allow-exec; no device request
 * that changes a device).
 */
struct bench_fence {
        int rs;                 /* the Landlock ruleset; -1: none (no Landlock) */
        bool allow_net, allow_hints, allow_exec;
};

struct bench_fio {
        char *exe;                      /* fio, found in PATH */
        char version[48];               /* "fio-3.33", from fio's report */
        char **argv;                    /* fio's command line */
        char **envp;                    /* its environment (bench_fio_environ(), not owned) */
        char *preset;                   /* a --workload preset written out for fio, removed at the end */
        bool writes;                    /* some job writes, trims or verifies */
        char **created;                 /* files the job names that did not exist: removed at the end */
        struct bench_fio_access access; /* what fio may touch (fiojob.c), enforced by sandbox.c */
        struct bench_fence fence;       /* built from access once, before the first run */
        bool created_held;              /* created's directories held (created.c), before the first run */
        struct bench_fio_scratch *scratch;      /* where fio makes its files (fioscratch.c) */
        size_t nscratch, capscratch;
        bool sets_hints;                /* a job has write_hint=: fio sets its files' hints (fiohints.c) */
        struct bench_fio_hint *hints;   /* the write targets' hints before fio's first run */
        size_t nhints;
        bool *grouped;                  /* each job's group_reporting=, which fio is not given: it would
                                         * report a group as one job, which no run's time can place;
                                         * report.c merges the group (fioresult.c) */
        unsigned ngrouped;
        /* fioresult.c: the jobs as fio reports them, for report.c and compare.c */
        struct bench_opts view;
        struct bench_fio_job *jobs;
        unsigned njobs;
        bool have_view;
};

/* Is fio installed? Its path, or NULL. */
char *bench_fio_find(void);
/*
 * Ready the fio backend for g: fio found (else a usage error naming what the
 * native engine lacks), the job files and command line read for their
 * targets and whether they write, the safety checks made on every existing
 * target (--allow-write; a mounted or held device refused) before fio
 * starts, and tg set to the target whose disk is compared.
 */
int bench_fio_prepare(const struct bench_opts *g, struct ios_ctx *root, struct bench_fio *f,
                      struct bench_target *tg, struct bench_error *e);
/* (fioread.c reads the jobs as fio does; fiojob.c models what they touch: fioread.h) */
/* fiojob.c: the lists of a filled struct bench_fio_access freed */
void bench_fio_access_done(struct bench_fio_access *a);
/* sandbox.c: the Landlock ABI version the kernel offers, 0 without Landlock (or IOSCHED_BENCH_LANDLOCK=0) */
int bench_sandbox_abi(void);
/* sandbox.c: the fence from a, the files of readable (read only, as named) and exe (and its ELF
 * interpreter) executable, built now; 0, or -errno with *step (and *what, a path) naming what failed */
int bench_fence_build(struct bench_fence *fc, const struct bench_fio_access *a, char * const *readable,
                      const char *exe, const char **step, const char **what);
/* sandbox.c: in a fio child, before execv: no_new_privs, the filter, the ruleset; 0 or -errno, *step */
int bench_fence_enter(const struct bench_fence *fc, const char **step);
void bench_fence_done(struct bench_fence *fc);
/* sandbox.c: build and enter at once (a child that enters one fence: the unit test) */
int bench_sandbox_enter(const struct bench_fio_access *a, const char *exe, const char **step);
/* sandbox.c: whether rdev is one of the character devices any fenced process may read and write
 * (null, zero, full, random, urandom); any other character device is a driver's door (NVMe and
 * SCSI generic take passthrough commands, writes too, on a descriptor open for reading) */
bool bench_sandbox_harmless_rdev(dev_t rdev);
/* fioproc.c: the environment fio is executed with (TMPDIR root's alone), built at the first call, in the
 * parent before a fork; NULL: no memory */
char **bench_fio_environ(void);
/* fioproc.c: iosched-bench made a child subreaper, before the first fio starts, so that what fio's processes
 * leave comes to it and is ended with the run (bench_fio_proc_end()): 0 or -errno */
int bench_fio_proc_subreaper(void);
/* fioproc.c: fork() into a PID namespace of its own where the bench may make one, else fork() */
pid_t bench_fio_proc_fork(void);
/* fioproc.c: in a fio child before exec: its own process group, the parent-death signal, the run's
 * cgroup; 0, -ECHILD when parent is gone already, or -errno with *step.  Async-signal-safe. */
int bench_fio_proc_enter(pid_t parent, const char **step);
/* fioproc.c: in the parent: the child pid's group set, and told to the guard */
void bench_fio_proc_started(pid_t pid);
/* fioproc.c: whether fio pid has ended (not reaped yet) */
bool bench_fio_proc_exited(pid_t pid);
/* fioproc.c: fio pid ended (term: made to, TERM then KILL grace_ms later), all it started with it,
 * reaped into *status */
#define BENCH_FIO_GRACE_MS 5000
void bench_fio_proc_end(pid_t pid, bool term, unsigned grace_ms, int *status);
/* sandbox.c: exe's ELF interpreter (PT_INTERP) in buf: 1, 0 when it names none, -errno */
int bench_sandbox_interp(const char *exe, char *buf, size_t size);
/*
 * fioscratch.c: the scratch directory of the run in dir (a resolved
 * directory; made, mode 0700, on the first call for dir; told to the
 * guard) into *ret, valid until bench_fio_scratch_done(); 0 or -errno.
 */
int bench_fio_scratch_dir(struct bench_fio *f, const char *dir, const char **ret);
/* path is one of the run's scratch directories */
bool bench_fio_scratch_is(const struct bench_fio *f, const char *path);
/* what fio makes in scratch that is moved to its directory at the end */
enum bench_fio_keep {
        BENCH_FIO_KEEP_NAME,    /* the file name (write_iolog=) */
        BENCH_FIO_KEEP_LOGS,    /* fio's name_*.log (write_bw_log=name and the like) */
        BENCH_FIO_KEEP_DUMPS,   /* the blocks verify_dump=1 writes on a failure: TARGET.OFFSET.TYPE */
};
int bench_fio_scratch_keep(struct bench_fio *f, const char *scratch, enum bench_fio_keep kind,
                           const char *name);
/* each scratch directory: the logs moved out, the rest removed, the directory removed (by handle) */
void bench_fio_scratch_done(struct bench_fio *f);
/* fiohints.c: the write targets' hints kept (f->sets_hints), before fio's first run; 0 or -errno (e) */
int bench_fio_hints_keep(struct bench_fio *f, struct bench_error *e);
/* fiohints.c: after a fio run, each kept hint set back and read back; 0 or -errno (e: both values) */
int bench_fio_hints_restore(struct bench_fio *f, struct bench_error *e);
void bench_fio_hints_done(struct bench_fio *f);
/* One run of fio (the measurement of a plain run or a comparison's round). */
int bench_fio_run(struct bench_fio *f, const struct bench_opts *g, struct ios_device *disk,
                  struct bench_result *res, struct bench_error *e);
void bench_fio_done(struct bench_fio *f);

/* fioresult.c: fio's JSON document into res (jobs per fio job), the view built on the first */
int bench_fio_result(struct bench_fio *f, const struct bench_opts *g, const struct ios_json *doc,
                     struct bench_result *res, struct bench_error *e);
void bench_fio_view_done(struct bench_fio *f);

#endif
