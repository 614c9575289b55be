/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioread.h: the jobs as fio reads them (fioread.c) and what they touch
 * (fiojob.c), private to the fio backend.
 */
#ifndef IOS_BENCH_FIOREAD_H
#define IOS_BENCH_FIOREAD_H

#include "fio.h"
#include "fioset.h"

/* One setting, its key fio's canonical name; val NULL: a boolean alone. */
struct bench_fio_kv {
        char *key, *val;
};

struct bench_fio_kvs {
        struct bench_fio_kv *v;
        size_t n, cap;
};

/* One job as fio will run it: every setting that reaches it, in fio's order (the last one wins). */
struct bench_fio_def {
        char *name;
        struct bench_fio_kvs kv;
};

struct bench_fio_defs {
        struct bench_fio_def *jobs;
        size_t n, cap;
        struct bench_fio_kvs prog;      /* fio's program options (--readonly, --trigger, ...) */
        char **problems;                /* every reason to refuse, said all at once (fiojob.c) */
        size_t nproblems, capproblems;
        size_t nusage;                  /* of them, jobs that cannot be (a region past a device's end) */
};

/* The value of key in kvs as fio takes it (the last one), "1" for a boolean alone; NULL: not set. */
const char *bench_fio_kv_get(const struct bench_fio_kvs *kvs, const char *key);
bool bench_fio_falsy(const char *v);     /* unset, "0", "false", "off", "none" or "no" */
/* key's last setting in kvs, its value as given (NULL: the option alone); NULL: not set */
const struct bench_fio_kv *bench_fio_kv_last(const struct bench_fio_kvs *kvs, const char *key);
/* key's last value in kvs set to val (a copy), or key=val added: 0 or -ENOMEM */
int bench_fio_kv_set(struct bench_fio_kvs *kvs, const char *key, const char *val);
/* key=val added at the end of kvs (val NULL: a boolean alone): 0 or -ENOMEM */
int bench_fio_kv_add(struct bench_fio_kvs *kvs, const char *key, const char *val);
/* every setting of key removed from kvs */
void bench_fio_kv_drop(struct bench_fio_kvs *kvs, const char *key);
/* 0: an engine built into fio; 1: one that runs or loads code (exec, external:, a path, a plugin) */
int bench_fio_engine_runs_code(const char *engine);
/* fioengines.c: the engine fio keeps of an ioengine= value ("null:x" is null), malloc'd; NULL: ENOMEM */
char *bench_fio_engine_kept(const char *value);
/* an engine whose "files" are none: a pseudo target, the CPU, a socket, a program (fioengines.c) */
bool bench_fio_engine_fileless(const char *engine);
/* fioengines.c: whether the engine kept of a job (NULL: none set) is one of the NULL-ended names;
 * bench_fio_engine_is(engine, "a", "b") asks for a list of them */
bool bench_fio_engine_among(const char *engine, const char * const *names);
#define bench_fio_engine_is(engine, ...)                                                                     \
        bench_fio_engine_among(engine, (const char * const[]){ __VA_ARGS__, NULL })
/* fioengines.c: fio's engines whose I/Os are calls on files and directories (create, stat, delete), not
 * reads and writes of the disk */
bool bench_fio_engine_fileops(const char *engine);
/* fioengines.c: fio's built-in engines asked once */
void bench_fio_read_engines(const struct bench_fence *fc, const char *exe);
/* fioengines.c: text's lines and its includes' as fio reads them, checked before fio reads them: 1 with
 * *what set when one runs code (an engine that loads or runs it, arithmetic fio works out with programs,
 * an include iosched-bench cannot read, nesting past 16), -EFBIG with *what set past 16 MiB in all,
 * -EBADMSG with *what set where fio's reading would mislead (a [global] after a job, a job renamed to
 * another section's name, a section's name with " -"), 0 none; its sections added to sections, each by
 * bench_fio_section_key() */
int bench_fio_gate(const char *text, const char *path, char **what, struct bench_sset *sections);
/* the key of the k-th section (from 1) named name in such a set: fio runs each [a] of a file, [a][a] two
 * jobs; -ENAMETOOLONG */
int bench_fio_section_key(char *buf, size_t len, const char *name, unsigned k);
/* fioengines.c: the files fio reads as it reads text: its include lines' (and theirs), as fio finds them,
 * pushed once each to files, and its patterns' ('FILE' in buffer_pattern=, verify_pattern=) to patterns;
 * *budget the bytes text's includes may still have together (the gate's bound, BENCH_JOBFILE_MAX: a file
 * that includes itself many times is read that many times at each depth): -EFBIG past it */
int bench_fio_includes(const char *text, const char *path, int depth, size_t *budget, char ***files,
                       char ***patterns);
/* fiocapture.c: fio run to its end on argv, stdin from in; its output and errors; its exit status.  jobs:
 * fio runs jobs (fionamed.c), in the run's environment (bench_fio_environ()); else iosched-bench's own,
 * whose ${VAR} fio's reading of a job expands as the native engine's reading does */
int bench_fio_capture(const struct bench_fence *fc, char * const *argv, const char *in, bool jobs, char **out,
                      char **err, struct bench_error *e);
int bench_fio_problem(struct bench_fio_defs *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Every job of g (the command line's settings, the job files and the
 * preset as fio reads them: `fio --showcmd`, each file once) into d.
 * A job file that would make fio load code while it is read (an engine
 * from a path) is not given to fio without --allow-exec: a problem in d.
 * < 0 with e set: fio refused the job (its reason), or the reading failed.
 */
int bench_fio_read(const struct bench_opts *g, const char *exe, struct bench_fio_defs *d, struct bench_error *e);
void bench_fio_defs_done(struct bench_fio_defs *d);
/* a job of that name with no setting added to d, *ret it: 0 or -ENOMEM */
int bench_fio_job_add(struct bench_fio_defs *d, const char *name, struct bench_fio_def **ret);
/* fio's command line for d: exe, our report options, then each job's full list of settings as
 * "--KEY=VALUE" (a job option alone "=1"), and no job file; *ret a NULL-terminated strv. */
int bench_fio_argv(const struct bench_fio_defs *d, const char *exe, char ***ret);

/*
 * fionamed.c: the files of each job of d as fio names them, fio run on
 * them once inside a fence with no file right but to read what fio reads
 * as it reads the jobs (a's input and listed) (create_only=1,
 * --debug=file); a job whose engine has no file or runs code is not asked.
 * < 0 with e set: fio stopped before the last job (its reason).
 */
struct bench_fio_named {
        char ***names;          /* per job of d: fio's names, as fio gives them (relative to our cwd) */
        bool *asked;            /* per job: fio named its files (else the model's names stand) */
        size_t n;
};
int bench_fio_named(const struct bench_fio_defs *d, const char *exe, const struct bench_fio_access *a,
                    struct bench_fio_named *n, struct bench_error *e);
void bench_fio_named_done(struct bench_fio_named *n);
/* the name in one of fio's `file PID  file 0x... "NAME" added at N` lines (line, len bytes): a copy,
 * or NULL */
char *bench_fio_added_name(const char *line, size_t len);

/* fiomemory.c: the bytes job j makes fio take (numjobs x (lockmem= + iodepth x its largest block size));
 * -EINVAL: lockmem= unreadable */
int bench_fio_memory(const struct bench_fio_def *j, uint64_t *ret);

/* fionames.c: fio's names for a job's files */
int bench_fio_format_name(const char *fmt, const char *job, unsigned jobnum, unsigned filenum, char *out, size_t len);
/* the next entry of a ':' list (fio's get_next_str: empty entries skipped) into out: the rest, or NULL */
const char *bench_fio_next_part(const char *s, char *out, size_t len);
unsigned bench_fio_count_parts(const char *s);  /* the entries of a list (directory=) */
unsigned bench_fio_count_names(const char *s);  /* the files a filename= list adds */
void bench_fio_dir_entry(const char *dirs, unsigned k, char *out, size_t len);
int bench_fio_joined(const char *dir, const char *name, char *out, size_t len);
void bench_fio_dir_part(const char *path, char *dir, size_t len);
/* the files a pattern setting names ('FILE' in buffer_pattern=, verify_pattern=), pushed to files */
int bench_fio_pattern_files(const char *key, const char *val, char ***files);
/* a pattern's file fio may read: a regular file, owned by our user and writable by no other, not an ELF
 * object (fio loads libraries by reading them); 0, 1 with *why, -errno when it cannot be opened */
int bench_fio_pattern_check(const char *path, const char **why);

/* fiojob.c, per job: what it would do without leave, said once with a count */
struct jobsum {
        const char *name;
        unsigned nnew, nchange;
        char first_new[256], first_change[256];
        bool writes, deletes, truncates;
        bool hints;                     /* write_hint=: fio sets each file's write hint, kept on its inode */
        bool ddir_write;                /* rw= has writes (fio's td_write()): fio saves a verify state */
        uint64_t need;                  /* bytes each file must have, else fio lays it out; 0: no need */
        bool need_unsure;
        bool need_share;                /* unsure as the start is a share of the file or its end */
        bool chardev;                   /* names a character device: the kernel opens none O_DIRECT */
        bool log;                       /* a log or state file: not a target (its disk is not compared) */
        bool keep;                      /* a new file the user asked for (a log): not removed afterwards */
};

/* fiochanges.c: what job j changes of the files it opens (nrfiles: its files) into js */
void bench_fio_changes(const struct bench_fio_def *j, struct jobsum *js, unsigned nrfiles);
/* fiochanges.c: fio's match of a value among an option's values (parse.c str_match_len): the part before
 * a ',', else before a ':', so zonemode=zbd,1 is zbd, rw=randread:8 randread, protocol=unix,x unix */
bool bench_fio_value_is(const char *v, const char *ival);
/* the directions of rw= V (NULL: fio's default, read); a value fio's table does not have: all */
enum { BENCH_FIO_DDIR_READ = 1, BENCH_FIO_DDIR_WRITE = 2, BENCH_FIO_DDIR_TRIM = 4 };
unsigned bench_fio_ddir(const char *v);

/* fiojob.c: what d's jobs touch, checked, into f->access, f->created, f->writes, and tg */
int bench_fio_model(const struct bench_opts *g, struct bench_fio_defs *d, struct ios_ctx *root,
                    struct bench_fio *f, struct bench_target *tg, struct bench_error *e);

#endif
