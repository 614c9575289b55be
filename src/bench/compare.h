/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-bench: a disk's scheduler state saved, switched and restored
 * (sched-state.c), one such run per disk (lock.c), the variants compared
 * (variant.c), the verdict (verdict.c), and the runs over them: --compare
 * (compare.c, with the --policy hook in policy.c) and --observe
 * (observe.c).
 */
#ifndef IOS_BENCH_COMPARE_H
#define IOS_BENCH_COMPARE_H

#include "bench.h"

/* ------------------------------------------------------------------ */
/* sched-state.c: save / switch / restore a disk's scheduler state     */
/* ------------------------------------------------------------------ */

/*
 * A file of the disk's state that another program set while the state was
 * armed (its value differs from what iosched-bench itself last left there):
 * iosched-bench never sets it again, every later switch keeps it (writes
 * the other program's value back where the kernel's switch reset it), and
 * so does the restore (sched-kept.c).
 */
struct bench_sched_kept {
        char *key;                      /* "scheduler", "queue/read_ahead_kb", "queue/iosched/read_expire" */
        char *value;                    /* the other program's value, as last seen */
        char *had;                      /* what iosched-bench had there when the change was seen */
        char *sched;                    /* an iosched/ file: the scheduler it belongs to */
        char **when;                    /* each change: "during the none 2/3 run, which has no result" */
        char *refused;                  /* the kernel did not take it back after a switch: why */
        bool lost;                      /* ... and that switch was the restore's: not kept */
};

/* Everything writable under queue/ and queue/iosched/ at the time of save. */
struct bench_sched_state {
        struct ios_device *dev;         /* borrowed */
        struct ios_wanted saved;        /* ios_snapshot_take(): "scheduler" and attributes */
        size_t n_attrs;                 /* attributes in saved, the scheduler not counted */
        bool armed;                     /* restore pending (atexit) */
        struct ios_wanted left;         /* what iosched-bench itself last left in each file */
        bool left_known;                /* false: that snapshot failed, nothing can be told apart */
        struct bench_sched_kept *kept;  /* what other programs set, one entry per file */
        size_t n_kept, cap_kept;
        char *phase;                    /* when a change seen now happened (bench_sched_phase()) */
        char *fin;                      /* restore: the scheduler the disk was left on */
        size_t n_found;                 /* restore: attributes put back as found */
        /* told before each switch what the restore would write, and after it what the switch left, so
         * that a value another program sets after it is kept (the guard's, set by lock.c) */
        void (*on_target)(const struct ios_wanted *target);
        void (*on_left)(const struct ios_wanted *left);
};

/* ---- sched-kept.c: what another program set, kept ---- */
/*
 * Name the time a change seen from now on happened in, for the lines:
 * "before the first run" (the default), "during the none 2/3 run, which
 * has no result", "after the none 2/3 run".
 */
void bench_sched_phase(struct bench_sched_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * Compare every file of the disk's state with what iosched-bench last left
 * there, and record each one another program changed (the scheduler, every
 * queue/ and queue/iosched/ file; the iosched/ files of a scheduler another
 * program switched to are that scheduler's own) with the current phase.
 * Returns how many files changed since the last look (> 0), 0, or -errno
 * when the state could not be read.
 */
int bench_sched_check(struct bench_sched_state *s);
/* Compare a snapshot taken now instead of reading the disk (the same rules). */
int bench_sched_check_snapshot(struct bench_sched_state *s, const struct ios_wanted *now);
/* The entry of key ("scheduler" or "queue/...") if another program set it, or NULL. */
const struct bench_sched_kept *bench_sched_kept_get(const struct bench_sched_state *s, const char *key);
/* Another program switched the scheduler: its name, or NULL. */
const char *bench_sched_taken(const struct bench_sched_state *s);
/*
 * One "iosched-bench: DISK: FILE: kept VALUE, set by another program WHEN
 * (iosched-bench had OLD)" line per kept file (the atexit restore prints
 * them too).  With the scheduler taken, a file back at the value found is
 * not said: the line that stopped the comparison said it.
 */
void bench_sched_kept_print(const struct bench_sched_state *s, FILE *f);
/* "kept" : [ { "file", "value", "had", "when" : [...] }, ... ] without a trailing comma, each line after indent */
void bench_sched_kept_json(const struct bench_sched_state *s, FILE *f, const char *indent);
/* After the restore: "scheduler mq-deadline and 17 queue tunables as found, 4 kept as another program set them". */
const char *bench_sched_restored_what(const struct bench_sched_state *s, char *buf, size_t n);
/* sched-state.c's bookkeeping (not for the tools) */
struct bench_sched_kept *bench_sched_kept_find(struct bench_sched_state *s, const char *key);
int bench_sched_kept_add(struct bench_sched_state *s, const char *key, const char *value, const char *had,
                         const char *sched);
void bench_sched_kept_done(struct bench_sched_state *s);

/*
 * Snapshot every writable queue/ and queue/iosched/ attribute of d (the
 * disk, never a partition).  Does not change anything.  s->dev borrows d.
 */
int bench_sched_save(struct ios_device *d, struct bench_sched_state *s);
/*
 * Make s the state an atexit() handler restores if the process exits before
 * bench_sched_restore() ran (one state at a time).  report, if not NULL, is
 * called from that handler with the restore's result, so the tool can say
 * what happened; the handler itself prints nothing.
 */
void bench_sched_arm(struct bench_sched_state *s,
                     void (*report)(const struct bench_sched_state *s, int r, char **bad));
/*
 * Switch d to sched and then write extra settings (a policy's tunables),
 * through the library's plan: its order, and every value read back.  On
 * failure *ret_msg (when not NULL) gets the library's one-line reason.
 * While a state of d is armed: first bench_sched_check() (another program
 * that switched the scheduler: -ESTALE, nothing written), then a file
 * another program set is not set from extra but kept (its value written
 * back where the switch reset it; one the kernel refuses under sched is
 * left as the kernel has it, noted in its entry), and what the switch left
 * is recorded (a file it did not write that moved meanwhile, without a
 * scheduler change, is another program's).
 */
int bench_sched_switch(struct ios_device *d, const char *sched, const struct ios_wanted *extra,
                       char **ret_msg);
/*
 * Put the saved state back through the library's plan (scheduler,
 * nr_requests, other queue/ tunables, then iosched/), writing only what
 * differs, then read everything back.  Only what iosched-bench changed goes
 * back: after a last bench_sched_check(), a file another program set
 * during the run keeps its value (s->kept, bench_sched_kept_print()), a
 * scheduler another program switched to stays with its iosched/ files.
 * Returns 0, or -EIO when some attribute could not be restored; with
 * ret_bad, a list of the attributes that differ is returned for the
 * message.  Disarms s.
 */
int bench_sched_restore(struct bench_sched_state *s, char ***ret_bad);
/* The guard's restore after a kill -9 (guard.c): w, what the restore would have written as of the last
 * switch (told to the guard before it), put on d and read back; 0, or -errno with the files that differ. */
int bench_sched_put_back(struct ios_device *d, struct ios_wanted *w, char ***ret_bad);
/* Re-read and compare without writing: 0 if identical, -EIO + list otherwise. */
int bench_sched_verify(const struct bench_sched_state *s, char ***ret_bad);
void bench_sched_state_done(struct bench_sched_state *s);
/* The saved value of "queue/scheduler" or an attribute, or NULL. */
const char *bench_sched_state_get(const struct bench_sched_state *s, const char *attr);

/*
 * Hook for --policy: called before each switch of a --compare run for the
 * settings to write with that scheduler (everything but the scheduler;
 * iosched/ tunables of other schedulers are skipped by the plan).  The
 * settings stay owned by the hook.
 */
typedef int (*bench_sched_tune_fn)(void *userdata, const struct ios_device *d, const struct ios_wanted **ret);

/* ------------------------------------------------------------------ */
/* lock.c: one scheduler-switching iosched-bench per disk              */
/* ------------------------------------------------------------------ */

struct bench_disk_lock {
        int fd;
};
#define BENCH_DISK_LOCK_INIT { .fd = -1 }
/* flock /run/iosched-bench/MAJ:MIN.lock; held: BENCH_ERR_REFUSED naming the holder's pid. */
int bench_disk_lock_take(const struct ios_device *d, struct bench_disk_lock *l, struct bench_error *e);
void bench_disk_lock_release(struct bench_disk_lock *l);
/*
 * lock.c: what every run that switches d's scheduler (--compare, --observe)
 * does first: take the disk's lock (one such run per disk: a second one would
 * save our switched state as its "original"), save d's state, and arm its
 * restore at exit with report.  On failure the lock may be held: release it.
 */
int bench_switch_begin(struct ios_device *d, struct bench_disk_lock *l, struct bench_sched_state *s,
                       void (*report)(const struct bench_sched_state *s, int r, char **bad),
                       struct bench_error *e);

/* ------------------------------------------------------------------ */
/* variant.c: what --compare compares: a scheduler plus tunables       */
/* ------------------------------------------------------------------ */

struct bench_variant {
        char *label;                    /* the kernel's scheduler name, then the tunables as written */
        char *sched;                    /* the kernel's name */
        struct ios_wanted set;          /* "queue/iosched/NAME" or "queue/NAME" = value */
        struct ios_wanted left;         /* --policy values the kernel refuses under sched, left at its
                                         * default in this variant's rounds; source: the bound */
};

struct bench_variants {
        struct bench_variant *v;
        unsigned n;
        size_t cap_v, cap_start;        /* room in v and start (ios_grow) */
        char **queue_keys;              /* queue/ files any variant sets */
        char **start_sched;             /* bench_variants_learn(): per scheduler ... */
        struct ios_wanted *start;       /* ... the state right after a fresh switch to it */
        unsigned n_start;
};

/* The spelling of one variant, SCHED[:TUNABLE=VALUE...], against the table (no disk): for options.c.
 * -EINVAL with the reason in msg. */
int bench_variant_check(const char *spelling, char *msg, size_t len);
/*
 * The variants of o (every scheduler offered without a list) in the
 * kernel's names, checked against disk without writing: the scheduler can
 * run there, an iosched/ tunable is one of that scheduler's, a queue/ file
 * exists.  Usage errors name the variant.
 */
int bench_variants_resolve(const struct bench_opts *o, struct ios_device *disk, struct bench_variants *ret,
                           struct bench_error *e);
/*
 * Switch to each scheduler once, afresh (through another when the disk is
 * on it), and record what it starts with; a tunable the scheduler has no
 * file for on this kernel is a usage error.  Writes: call with the lock
 * held and the state saved and armed.
 */
int bench_variants_learn(struct bench_variants *vs, struct ios_device *disk, struct bench_error *e);
/*
 * Put disk in variant i's whole state (extra: the --policy settings), through the library's plan.  A
 * --policy value the kernel refuses under the variant's scheduler but takes under another the disk
 * offers (ios_tunable_refused(): nr_requests beyond the tag depth under none) is not written: the
 * file keeps the scheduler's default, and the value and why go in the variant's left, for the
 * report.  A value every scheduler refuses is written, and the kernel's refusal stops the run.
 */
int bench_variant_switch(struct bench_variants *vs, unsigned i, struct ios_device *disk,
                         const struct ios_wanted *extra, char **ret_msg);
/*
 * What variant i's run stands on, as the kernel shows it: "queue/scheduler=NAME"
 * and a "FILE=value" line for each of the variant's own files, in that order.
 * Errors set e (BENCH_ERR_SYSTEM).
 */
int bench_variant_shown(const struct bench_variants *vs, unsigned i, struct ios_device *disk, char ***ret,
                        struct bench_error *e);
/*
 * After a run of variant i that started on before (bench_variant_shown): 0, or
 * (BENCH_ERR_SCHED) "DISK: FILE went from "a" to "b" during the WHAT: another
 * program changed it ...": what was measured was not variant i.
 */
int bench_variant_kept(const struct bench_variants *vs, unsigned i, struct ios_device *disk, char * const *before,
                       const char *what, struct bench_error *e);
/* "scheduler" : ..., "tunables" : { "queue/iosched/NAME" : "value", ... }, "left_at_default" : [ { "key" :
 * ..., "value" : ..., "why" : ... } ... ], each line after indent */
void bench_variant_json(FILE *f, const struct bench_variant *v, const char *indent);
void bench_variants_done(struct bench_variants *vs);

/* ------------------------------------------------------------------ */
/* verdict.c: the winner, its margin, the noise and the rank test      */
/* ------------------------------------------------------------------ */

struct bench_verdict {
        int best, second;               /* indexes, -1 if none */
        double margin, noise, p;        /* margin and noise in % (bench_verdict_pair()) */
        double ratio;                   /* best's median over the runner-up's */
        bool significant;
        bool noise_known;               /* a variant has two values or more: noise is a figure */
};
/* How variant A beat variant B on the objective, by the verdict's rule. */
struct bench_pair {
        double margin;                  /* %: lower is better (B - A) / B, higher A / B - 1 */
        double ratio;                   /* A's median over B's */
        double p;                       /* one-sided Mann-Whitney, A better */
        bool significant;               /* p <= 0.05, two values each, margin > half the noise */
        char label[128];                /* "31% lower reader p99", "1.4x the IOPS" */
};
/* Median, min, max and spread ((max - min) / median, in %) of v; v is not changed. */
void bench_spread(const double *v, unsigned n, double *ret_med, double *ret_min, double *ret_max,
                  double *ret_spread);
/* values[i]: variant i's counts[i] values (per loop or round, in order). */
void bench_verdict_decide(double * const *values, const unsigned *counts, unsigned n, bool lower_is_better,
                          struct bench_verdict *v);
/* A's na values against B's nb; noise: the verdict's; metric: the objective's label ("reader:p99"). */
void bench_verdict_pair(const double *a, unsigned na, const double *b, unsigned nb, bool lower_is_better,
                        double noise, const char *metric, struct bench_pair *ret);
/* The win of median a over median b in words: "31% lower reader p99", "1.4x the IOPS". */
void bench_win_label(char *buf, size_t len, double a, double b, bool lower_is_better, const char *metric);
/* Why the verdict is or is not a win, in words. */
const char *bench_verdict_why(const struct bench_verdict *v);
/* "  best: B, 31% lower p99 than S; round-to-round noise 4.0%; Mann-Whitney p=0.050: ..." (judged: NULL,
 * or what replaces the why); round: "round" or "loop". */
void bench_verdict_print(FILE *f, const struct bench_verdict *v, const char *best, const char *second,
                         bool lower_is_better, double best_med, double second_med, const char *metric,
                         const char *round, const char *judged);

/*
 * jobs.c: a throughput objective (iops, bw) on a run whose measured jobs are
 * all capped (rate=, rate_iops= in every direction they do, thinktime=) is
 * replaced by p99 (the same job's): 1 with a one-line note, else 0.
 */
int bench_objective_uncap(struct bench_opts *g, char *note, size_t len);
/* jobs.c: fio's end rule, the bytes a thread of o does before it ends by its amount: io_size= (from
 * size= or number_ios=), else unless time_based its region (region: its bytes, 0 when not known),
 * times its loops=; 0 when only time ends it (runtime= ends it first in either case, if it comes
 * first). */
uint64_t bench_job_amount(const struct bench_opts *o, uint64_t region);
/* jobs.c: amount, one pass's, times o's loops= (fio's number_ios= and size= count per pass). */
uint64_t bench_job_passes(const struct bench_opts *o, uint64_t amount);
/* jobs.c: a job whose ios all fell in its ramp (measured none) is refused (BENCH_ERR_USAGE); else 0. */
int bench_ramp_took_all(const struct bench_opts *job, uint64_t ios, uint64_t measured, struct bench_error *e);

/* ------------------------------------------------------------------ */
/* upfront.c: what a scheduler-switching run says before it switches   */
/* ------------------------------------------------------------------ */

/* A round's length in words: "10.0s (+1.0s ramp)", "up to 6.0s or 64MiB per thread, whichever comes first",
 * "until each job has done its size (4MiB per thread)"; region: a thread's region in bytes, which ends a job
 * that is not time_based (0: not known).  Returns the seconds a round takes at most, 0 when only the size
 * ends it. */
double bench_round_words(const struct bench_opts *o, uint64_t region, char *buf, size_t len);
/*
 * Lines on f (stderr) before the first switch: which disk's scheduler will
 * switch and why that disk (path: the target, is_bdev: a device), for how
 * long (rounds x variants x a round; region as for bench_round_words), what it holds (mounted filesystems,
 * swap, md/dm members, read through disk's ios_ctx), and note (may be NULL).
 */
void bench_upfront_print(FILE *f, const struct bench_opts *o, const struct ios_device *disk, const char *path,
                         bool is_bdev, uint64_t region, unsigned nvariants, const char *note);

/* ------------------------------------------------------------------ */
/* trial.c: the trial loop --compare and --observe share               */
/* ------------------------------------------------------------------ */

struct bench_compare_hooks;

struct bench_trial {
        struct ios_device *disk;        /* borrowed */
        struct bench_variants vs;
        struct bench_disk_lock lock;
        struct bench_sched_state st;
        char *orig;                     /* the scheduler found */
        char **bad;                     /* what could not be restored */
        bool saved, restored;
        /* set before bench_trial_begin(): called with the lock held, before the first switch */
        void (*upfront)(void *userdata, unsigned nvariants);
        void *upfront_data;
};
/*
 * Measure variant i in round l (tag: "bfq 2/3"), the disk switched to it:
 * 0 done, > 0 stopped by a signal, < 0 an error (e set).
 */
typedef int (*bench_trial_measure_fn)(void *userdata, unsigned variant, unsigned round, const char *tag,
                                      struct bench_error *e);
/* The measurement stood on the variant's state throughout: count it. */
typedef void (*bench_trial_keep_fn)(void *userdata, unsigned variant, unsigned round);
/* Warn on f when o->loops rounds cannot reach the verdict's significance level. */
void bench_trial_warn_rounds(const struct bench_opts *o, unsigned nvariants, FILE *f);
/* Variants resolved, the warning, the lock, the state saved and armed, the variants learnt. */
int bench_trial_begin(const struct bench_opts *o, struct ios_device *d, struct bench_trial *t, struct bench_error *e);
/* The interleaved rounds; what ("run", "round") names a measurement in the messages. */
int bench_trial_rounds(struct bench_trial *t, const struct bench_opts *o, const struct bench_compare_hooks *hooks,
                       const char *what, bench_trial_measure_fn measure, bench_trial_keep_fn keep, void *userdata,
                       struct bench_error *e);
/* Restore the saved state; returns the error that matters (r, or the restore's, or the interruption). */
int bench_trial_restore(struct bench_trial *t, int r, struct bench_error *e);
void bench_trial_done(struct bench_trial *t);

/* ------------------------------------------------------------------ */
/* compare.c                                                           */
/* ------------------------------------------------------------------ */

struct bench_compare_hooks {
        bench_sched_tune_fn tune;       /* NULL: kernel defaults per scheduler */
        void *userdata;
};

/* policy.c: the --policy tune hook (system policy, or built-in plus file) */
/* Load the policy and set root's probe flags for it: call before the disk is looked up. */
int bench_policy_hooks(const char *file, struct ios_ctx *root, struct bench_compare_hooks *h,
                       struct bench_error *err);
void bench_policy_hooks_done(struct bench_compare_hooks *h);

/* record.c: --record[=ROOT]: the comparison kept as evidence (the library's ios_evidence_record) */
int bench_record_option(struct bench_opts *o, const char *arg);
int bench_record_check(const struct bench_opts *o, struct bench_error *e); /* --record without --compare */
void bench_record(const struct bench_opts *o, struct ios_device *disk, const char *json, size_t len);

/* observe.c: --observe; the option cross-checks for options.c */
int bench_observe_check_opts(const struct bench_opts *o, struct bench_error *e);
int bench_observe(const struct bench_opts *o, struct ios_ctx *root, const struct bench_compare_hooks *hooks,
                  FILE *out, struct bench_error *e);

/* ------------------------------------------------------------------ */
/* compare.c measures, compare-report.c reports                        */
/* ------------------------------------------------------------------ */

/* One run of a variant */
struct bench_cmp_run {
        struct bench_result res;
        bool done;
        double value;                   /* the objective */
};

/* One job's (or reporting group's) medians over a variant's runs */
struct bench_cmp_job {
        double iops, bw, p50, p99;
};

/* A variant of a --compare: its runs and their summary */
struct bench_cmp_variant {
        const char *name;
        const struct bench_variant *var;
        struct bench_cmp_run *runs;     /* loops */
        unsigned n;                     /* completed runs */
        double med, min, max, spread;   /* objective over completed runs */
        double iops, bw, p50, p99, rp99, wp99, cpu;     /* medians, for the table */
        struct bench_cmp_job *jobs;     /* per job, when the run has several */
        unsigned njobs;
};
/* The report: text, or the JSON document (--json; also what --record keeps) */
void bench_compare_text(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                        const struct ios_device *disk, struct bench_cmp_variant *s, unsigned n,
                        const struct bench_verdict *v, bool restored, const char *restored_what,
                        const char *note);
void bench_compare_json(FILE *f, const struct bench_opts *o, const struct ios_device *disk,
                        struct bench_cmp_variant *s, unsigned n, const struct bench_verdict *v, bool restored,
                        char **bad, const char *orig, const struct bench_sched_state *st, const char *note);

/* --compare; runner (runner.h: ours or fio) runs the jobs of each round */
struct bench_runner;
int bench_compare(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
                  const struct bench_compare_hooks *hooks, struct bench_runner *runner, FILE *out,
                  struct bench_error *e);

#endif
