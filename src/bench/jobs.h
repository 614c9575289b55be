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
/* 1 if name is a job option (or an alias), 0 if not. */
int bench_jobopt_known(const char *name);
/*
 * Set job option name to value (NULL: a boolean given alone) in o.  -ENOENT
 * with no message for a name that is no job option; other errors set e
 * ("invalid --NAME 'VALUE' (...)", or for fio options we do not implement,
 * a message naming them).  where (NULL on the command line) prefixes the
 * message with "FILE:LINE: " and spells the option without dashes.
 */
int bench_jobopt_set(struct bench_opts *o, const char *name, const char *value, const char *where,
                     struct bench_error *e);
/* A deep copy of src's job options into dst (the program's fields left empty). */
int bench_opts_copy_job(struct bench_opts *dst, const struct bench_opts *src);
/* Free the job options' strings. */
void bench_opts_done_job(struct bench_opts *o);

/* ------------------------------------------------------------------ */
/* jobs.c: the run's jobs: started by --name, job files, --workload    */
/* ------------------------------------------------------------------ */

/* A new job named name, a copy of base's job options (the global options g,
 * or a job file's [global]), appended to g->jobs; *ret is valid until the next add. */
int bench_jobs_add(struct bench_opts *g, const struct bench_opts *base, const char *name, struct bench_opts **ret);
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

/* ------------------------------------------------------------------ */
/* workloads.c: --workload presets, each a fio job file                */
/* ------------------------------------------------------------------ */

/* The preset's job file text, or NULL; its names in order through i. */
const char *bench_workload_text(const char *name);
const char *bench_workload_name(unsigned i);

#endif
