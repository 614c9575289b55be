/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobs.h: how iosched-bench's jobs come to be: a job's options (jobopts.c,
 * one table for the command line and job files), the jobs of a run
 * (jobs.c), fio's job file format (jobfile.c) and the --workload presets
 * (workloads.c).  Included by options.c and those files; the rest of the
 * benchmark sees the jobs as struct bench_opts.jobs[] (bench.h).
 */
#ifndef IOS_BENCH_JOBS_H
#define IOS_BENCH_JOBS_H

#include "bench.h"

/* ------------------------------------------------------------------ */
/* jobopts.c: a job's options, one table for the command line and job files */
/* ------------------------------------------------------------------ */

enum bench_jobopt_arg { BENCH_JOBOPT_VALUE, BENCH_JOBOPT_BOOL };
/* The table: its i-th name and whether it takes a value or is a boolean
 * (which may stand alone); NULL past the end. */
const char *bench_jobopt_name(unsigned i, enum bench_jobopt_arg *ret_arg);
/*
 * Set job option name to value (NULL: a boolean given alone) in o.
 * Returns:
 *   0            set;
 *   1            accepted and ignored: an fio option that changes only fio's
 *                own reporting or timing (gtod_reduce, per_job_logs ...);
 *                the caller records it for the one-line note (g->ignored);
 *   -EOPNOTSUPP  an fio option (or value: ioengine=posixaio, rw=trim,
 *                random_distribution=zoned ...) that fio runs and the
 *                native engine does not; no message, the caller records it
 *                (bench_jobs_record) and goes on parsing;
 *   -ENOENT      with no message: a name neither we nor fio know;
 *   -EINVAL      (e set) a bad value of an option we implement:
 *                "invalid --NAME 'VALUE' (...)".
 * where (NULL on the command line) prefixes the message with "FILE:LINE: "
 * and spells the option without dashes.
 */
int bench_jobopt_set(struct bench_opts *o, const char *name, const char *value, const char *where,
                     struct bench_error *e);
/* jobs.c: the job, as set (before its end conditions are worked out), is bounded by the default runtime=
 * (10 s): it sets no runtime= and no amount ends it (io_size=, number_ios=, or size= unless time_based
 * or a percentage); the fio backend passes that bound to fio, whose own default is none. */
bool bench_job_default_runtime(const struct bench_opts *o);
/* jobs.c: the job, as set or finished, ends by its amount (io_size=, number_ios=, or size= unless
 * time_based or a percentage) before any runtime=, not by time. */
bool bench_job_ends_by_amount(const struct bench_opts *o);
/* The ramp_time= a --compare job that sets none gets on either backend to settle after each scheduler
 * switch, unless it ends by its amount (its I/Os would be counted but not measured): jobs.c for the
 * native engine, fioread.c passes it to fio. */
#define BENCH_SWITCH_SETTLE_NS 1000000000ull
bool bench_job_settles(const struct bench_opts *o, bool compare);
/* jobopts-fio.c: 'b' if fio knows name as an option that may stand alone,
 * 'v' if fio knows it and it takes a value, 0 if fio does not know it. */
int bench_fio_option_arg(const char *name);
/* jobopts-fio.c: true for a log option (write_bw_log ...) that, alone in a job file, fio names after
 * the job (options.c str_write_bw_log_cb); "=1" on fio's command line would name it "1" */
bool bench_fio_option_job_named(const char *name);
/* jobopts-fio.c: fio's canonical name for an option or its alias ("readwrite": "rw"), else name */
const char *bench_fio_canonical(const char *name);
/* jobopts-fio.c: 1 fio's program option passed on with a job, -1 one refused (it would take the report
 * away from us, or run nothing), 0 a job option (or unknown) */
int bench_fio_prog_option(const char *name);
/* jobopts-dist.c: bssplit= and random_distribution= into o (-EINVAL, or
 * -EOPNOTSUPP for fio's forms we do not implement: trims, zoned, a center). */
int bench_parse_bssplit(const char *s, struct bench_opts *o);
int bench_parse_distribution(const char *s, struct bench_opts *o);
/* A deep copy of src's job options into dst (the program's fields left empty). */
int bench_opts_copy_job(struct bench_opts *dst, const struct bench_opts *src);
/* Free the job options' strings. */
void bench_opts_done_job(struct bench_opts *o);

/* ------------------------------------------------------------------ */
/* joblist.c, jobs.c: the run's jobs: by --name, job files, --workload */
/* ------------------------------------------------------------------ */

/* A new job named name, a copy of base's job options (the global options g,
 * or a job file's [global]), appended to g->jobs; *ret is valid until the next add.
 * -E2BIG: BENCH_JOBS_MAX jobs already. */
int bench_jobs_add(struct bench_opts *g, const struct bench_opts *base, const char *name, struct bench_opts **ret);
/*
 * THE UNSUPPORTED-OPTION CONTRACT (with the fio backend).  A job file or
 * command line may use fio options or values the native engine does not
 * implement.  Parsing does not stop at the first: each is appended to
 * g->unsupported (a strv, in the order met) as "FILE:LINE: OPTION[=VALUE]"
 * for a job file (or "--workload=NAME:LINE: ..." for a preset) and as
 * "--OPTION[=VALUE]" for the command line, and parsing goes on.  At the end
 * bench_jobs_finish() returns -EOPNOTSUPP (class BENCH_ERR_USAGE) with one
 * message listing them all: "the native engine does not implement: job.fio:3:
 * verify, job.fio:7: zonemode=zbd, --flow" (shortened with "..." when it does
 * not fit e->msg; the strv always has all of them).  g->unsupported stays set
 * for the caller (the auto backend falls back to fio and prints what native
 * lacks) and is freed by bench_opts_done(); the jobs are then parsed but not
 * finished (no per-job defaults, groups or objective settled).  A real error (a bad value of a
 * supported option, a syntax error, an option fio does not know either) is
 * -EINVAL with FILE:LINE as before, and wins over the unsupported ones.
 * Options that only change fio's own reporting or timing are accepted;
 * g->ignored lists them the same way ("FILE:LINE: gtod_reduce") for a
 * one-line note.
 */
/* Record an option of bench_jobopt_set()'s result r (1: ignored, -EOPNOTSUPP:
 * unsupported) in g; returns 0 for those, r otherwise. */
int bench_jobs_record(struct bench_opts *g, int r, const char *where, const char *name, const char *value);
/* "the native engine does not implement: a, b, c" into e, -EOPNOTSUPP; 0 when none. */
int bench_jobs_unsupported_error(const struct bench_opts *g, struct bench_error *e);

/*
 * After parsing: one job from the global options when no job was named,
 * the defaults that depend on other options, groups (new_group, stonewall),
 * the objective's job, and the checks across jobs.  Usage errors set e.
 */
int bench_jobs_finish(struct bench_opts *g, struct bench_error *e);

/* ------------------------------------------------------------------ */
/* jobfile.c: fio's job file format                                    */
/* ------------------------------------------------------------------ */

/*
 * Parse fio job file text (path for messages) into g's jobs: [global]
 * sections set defaults for the sections after them, every other section is
 * a job named after it.  ";" and "#" start comments.  Unknown options are
 * usage errors naming path:line and the option.
 */
int bench_jobfile_parse_text(struct bench_opts *g, const char *text, const char *path, struct bench_error *e);
int bench_jobfile_parse(struct bench_opts *g, const char *path, struct bench_error *e);
/* A job file's text: a regular file (else -EINVAL; looked at before it is opened) on no kernel interface
 * filesystem (else -EMEDIUMTYPE), text (else -EBADMSG; a control character but a blank: -EILSEQ) of at
 * most BENCH_JOBFILE_MAX bytes (else -EFBIG), or -errno. */
int bench_jobfile_read(const char *path, char **ret);
/* Why bench_jobfile_read()'s r is no job file, or NULL for another error. */
const char *bench_jobfile_unread(int r);
/* A job file's text (path "-": standard input's), or the error said with its path. */
int bench_jobfile_load(const char *path, char **ret, struct bench_error *e);

/* ------------------------------------------------------------------ */
/* workloads.c: --workload presets, each a fio job file                */
/* ------------------------------------------------------------------ */

/* The preset's job file text, or NULL; its names in order through i. */
const char *bench_workload_text(const char *name);
const char *bench_workload_name(unsigned i);

#endif
