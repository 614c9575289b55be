/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* iosched-apply's own modules (not the library). */
#ifndef APPLY_H
#define APPLY_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

#include "iosched.h"
#include "iosched-evidence.h"

#define APPLY_LIST_MAX_COLS 64

struct apply_list_opts {
        bool json, raw, noheadings;
        bool bytes;             /* -b: SIZE in bytes (JSON always has bytes) */
        bool hide_empty;        /* not -a and no disk named: leave out disks of size 0 */
        struct apply_out *out;
        int cols[APPLY_LIST_MAX_COLS];
        size_t ncols;
};

void apply_list_help_columns(FILE *out);
int apply_list_parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad);
bool apply_list_needs_extra(const struct apply_list_opts *o);
/* Whether o's columns include the one named name ("HWQ"). */
bool apply_list_has_column(const struct apply_list_opts *o, const char *name);
int apply_list_print(struct ios_device **devs, size_t n, const struct apply_list_opts *o);
int apply_list_explain(FILE *out, const struct ios_device *d);
int apply_table_print(const char * const *headers, const bool *right, size_t ncols, char * const *cells,
                      size_t nrows, const struct apply_list_opts *o);
/* SIZE as lsblk prints it: "128M", "931.5G". */
char *apply_size_human(uint64_t bytes);


/*
 * What a run came to, from harmless to most systemic: when disks fail in
 * different ways the worst one counts.  main.c alone turns it into an exit
 * status (iosched-apply(8), EXIT STATUS).
 */
enum apply_outcome {
        APPLY_OK,
        APPLY_DRIFT,            /* --check: some disk differs from its policy */
        APPLY_REFUSED,          /* the kernel refused or did not keep a value */
        APPLY_VANISHED,         /* a disk disappeared while being applied */
        APPLY_READONLY,         /* /sys is read-only or not writable */
        APPLY_FAILED,           /* configuration or system error */
};
/* The class of a failed write's -errno (0: APPLY_OK). */
enum apply_outcome apply_outcome_of_errno(int e);
static inline enum apply_outcome apply_outcome_worse(enum apply_outcome a, enum apply_outcome b)
{
        return a > b ? a : b;
}

enum apply_mode { APPLY_MODE_APPLY, APPLY_MODE_DRY_RUN, APPLY_MODE_CHECK };

extern const char * const apply_mode_names[];   /* "apply", "dry-run", "check" */

struct apply_run_opts {
        const char *prog;
        enum apply_mode mode;
        bool json, prometheus, quiet, verbose, udev;
        bool all_disks;         /* no disk named: every disk of the machine */
        enum apply_outcome base;        /* what happened before the run (skipped files, missing disks) */
        struct ios_ctx *ctx;    /* for conflicting writers (--check) */
        const char *conf_root;
        struct apply_out *out;  /* where output and errors go */
};

/*
 * errors.c: the output context of one run and the JSON contract, schema 1
 * (iosched-apply(8), JSON OUTPUT).  Every error goes through it: one line
 * on stderr and a record (apply_err, apply_error_add), so that -J always
 * prints one object on stdout: the command's (apply_json_header marks it
 * printed), or, when the command could not print one, the error object
 * apply_out_finish() prints in its place.  The same for --format
 * prometheus: health and time on every run (prom.c).
 */
#define APPLY_JSON_SCHEMA 1
enum apply_format { APPLY_FORMAT_TEXT, APPLY_FORMAT_JSON, APPLY_FORMAT_PROMETHEUS };
struct apply_error;
struct apply_out {
        const char *prog;
        int (*exit_of)(enum apply_outcome o);   /* main.c's exit codes: the JSON "exit", each error's */
        enum apply_format format;       /* as the command line asks (looked at before parsing it) */
        const char *command;    /* the error object's "command": a verb, "import-grub"; NULL: apply */
        int mode;               /* its "mode" (enum apply_mode), -1: none */
        int policy_ok;          /* prometheus: the policy was read whole (1, 0), -1: not read */
        bool json_printed, prom_printed;
        bool policy_errors_reported;    /* held.c: once per run */
        struct apply_error *errs;       /* the "errors" array */
        size_t nerrs, caperrs;
};
/* The context for argv: its format from -J, --format, --textfile (JSON wins). */
void apply_out_init(struct apply_out *out, const char *prog, int argc, char **argv);
/* The run ended with exit status rc: the error object or health it owes, if any; returns rc. */
int apply_out_finish(struct apply_out *out, int rc);
void apply_out_done(struct apply_out *out);
void apply_error_add(struct apply_out *out, const char *file, unsigned line, const char *device, int exit,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
size_t apply_errors_count(const struct apply_out *out);
void apply_errors_json(const struct apply_out *out, FILE *f);        /* the "errors" array */
/* "{"schema": 1, "tool": ..., "version": ..." (and "command" when not NULL), no newline */
void apply_json_header(struct apply_out *out, FILE *f, const char *command);
void apply_json_mark_printed(struct apply_out *out);      /* a JSON object was printed another way (libsmartcols) */
/* One error: "prog: [device: ]message" on stderr, and recorded; returns code. */
int apply_err(struct apply_out *out, int code, const char *device, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
int apply_verr(struct apply_out *out, int code, const char *device, const char *fmt, va_list ap)
        __attribute__((format(printf, 4, 0)));
/* A string vector as a JSON array of strings. */
void apply_json_strv(FILE *f, char * const *l);
/* The policy's broken files as the JSON "policy_errors" array. */
void apply_json_policy_errors(FILE *f, const struct ios_policy *p);

/*
 * textfile.c: --textfile FILE: standard output goes to a new file of a random
 * name in FILE's directory (root's, writable by no one else, or refused),
 * renamed over FILE by commit; keep false removes it instead (what it holds,
 * --help for one, goes to the old standard output).
 */
struct apply_textfile {
        int dirfd;
        int out;                /* standard output as it was */
        const char *path;       /* borrowed */
        char *base, *tmp;
        bool created;
};
const char *apply_textfile_requested(int argc, char **argv);  /* the last --textfile FILE, or NULL */
int apply_textfile_open(const char *path, struct apply_textfile *t, char **ret_msg);
int apply_textfile_commit(struct apply_textfile *t, bool keep, char **ret_msg);
void apply_textfile_done(struct apply_textfile *t);

/* udevlog.c: --udev's log: syslog, or the kernel log where there is no syslog socket. */
void apply_log_open(const char *prog);
void apply_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/*
 * model.c: the run model.  Every disk planned once (and written when the
 * mode is apply), the result recorded here; the verbs only render it.
 */
struct apply_disk {
        struct ios_device *dev;         /* borrowed: its class and evidence */
        struct ios_plan plan;           /* each setting's before, wanted, after and state; held; notes */
        int read_error;                 /* -errno: its current settings could not be read (no plan) */
        enum apply_outcome outcome;     /* what it came to */
        size_t drift;                   /* settings that differ from the policy */
        bool changed;                   /* apply: something written; otherwise: something would be */
        bool compliant;                 /* ios_plan_compliant */
        const char *wanted;             /* the scheduler the plan chose; NULL: the policy sets none */
        const char *wanted_source;      /* file:line of the rule that chose it */
        /* the views (apply_model_opts.evidence): its validation evidence (evidence-view.c) */
        struct ios_evidence_state ev;   /* ev.last NULL: never validated */
        int ev_error;                   /* -errno: its evidence document could not be read */
};
struct apply_model_opts {
        enum apply_mode mode;
        bool report;                    /* explain, status, facts: read only, an outcome is a read error */
        bool hide_empty;                /* disks of size 0 left out (apply_cli_hides_empty) */
        enum apply_outcome base;        /* what happened before (a broken policy, a disk named and missing) */
        bool evidence;                  /* the views: read each disk's evidence (never on --udev or apply) */
        const char *evidence_root;      /* its root: --config-root, --sysroot (NULL: /) */
};
struct apply_model {
        enum apply_mode mode;
        bool report;
        bool evidence;                  /* each disk's evidence was read */
        const struct ios_policy *policy;        /* borrowed */
        struct ios_device **devs;       /* borrowed: every disk given, also those left out */
        size_t ndevs;
        size_t policy_errors;           /* files the policy could not use */
        struct apply_disk *disks;       /* in the order given, without the ones left out */
        size_t n;
        size_t drift, ndrift, ndrives;  /* settings drifting, disks drifting, removable-media drives */
        bool changed, disks_compliant;
        bool compliant;                 /* no broken policy file, and every disk compliant */
        enum apply_outcome outcome;     /* the worst of the disks' and the base */
};
int apply_model_build(struct apply_model *m, const struct apply_model_opts *mo, const struct ios_policy *p,
                      struct ios_device **devs, size_t n);
void apply_model_done(struct apply_model *m);
/* A disk whose settings could not be read: its error recorded (say: and printed). */
void apply_model_disk_error(struct apply_out *out, const struct apply_disk *d, bool say);
void apply_model_disk_errors(struct apply_out *out, const struct apply_model *m, bool say);
const char *apply_change_state_name(enum ios_change_state s);   /* "ok", "drift", "not-applied" ... */

/*
 * What a verb's renderer sees: the model and the options.  A renderer
 * prints it (records and says the disks' errors at the point its output
 * wants them) and returns the outcome, or -errno when it could not print.
 */
struct apply_view {
        const struct apply_run_opts *o;
        const struct apply_list_opts *lo;       /* status: the table's options */
        const char *columns;                    /* status: -o */
        struct apply_model *m;
};
typedef int apply_render_fn(const struct apply_view *v);
apply_render_fn apply_run_render;       /* run.c: apply, --dry-run, --check, --udev */
apply_render_fn apply_explain_render;   /* explain.c: text or JSON */
apply_render_fn apply_status_render;    /* status.c: the table or JSON */
apply_render_fn apply_facts_render;     /* facts.c: the JSON inventory */
/* run.c: plan (and apply) every disk and render it in one call; returns the worst outcome. */
enum apply_outcome apply_run(const struct apply_run_opts *o, const struct ios_policy *p,
                             struct ios_device **devs, size_t n);
/* status.c: its columns for --help. */
void apply_status_help_columns(FILE *out);
/* cat-config.c: the policy as read, each line with its source. */
int apply_cat_config(FILE *out, const struct ios_policy *p);

/* grub.c: the last elevator=VALUE of a kernel command line (malloc'd), or NULL. */
char *apply_find_elevator(const char *text);
/*
 * The elevator= that counts: the last of the command line GRUB builds from
 * conf_root's /etc/default/grub and grub.d/ *.cfg, else the last of
 * /proc/cmdline.  Returns 1 with the value and "file:line (VARIABLE)" or
 * "/proc/cmdline", 0 if there is none, or -errno; *ret_notes (if not NULL)
 * gets one line per conflict and per statement that was not evaluated.
 */
int apply_elevator_sources(struct ios_ctx *r, const char *conf_root, char **ret_value, char **ret_where,
                         char ***ret_notes);
void apply_warn_elevator(const char *prog, struct ios_ctx *r, const char *conf_root);
/*
 * Print the policy equivalent to that elevator=.  -ENOENT (none) and -EINVAL
 * (unknown scheduler) come with one line in *ret_msg; *ret_notes as above.
 */
int apply_import_grub(FILE *out, struct ios_ctx *r, const char *conf_root, char **ret_msg, char ***ret_notes);
/*
 * validate.c: `validate DEVICE [-- BENCH-OPTIONS]`: iosched-bench compares
 * the policy's scheduler on the disk, and the verdict is said about it.
 * Returns the exit status (iosched-apply(8), validate): 0 the policy's
 * scheduler is best or within the noise, 1 beaten, 2 error, 3 refused.
 */
struct apply_validate_opts {
        struct apply_out *out;
        const struct ios_policy *policy;
        struct ios_device *dev;
        const char *config, *conf_root;         /* as given to iosched-apply */
        bool no_builtin, json;
        bool no_record, adopt;                  /* --no-record, --adopt */
        size_t ndropins;
        char **bench_args;                      /* after "--" */
        int nbench_args;
};
int apply_validate(const struct apply_validate_opts *o);

/*
 * validate-policy.c: the --policy argument that gives iosched-bench this
 * policy (malloc'd): "--policy", "--policy=FILE", or a file of the policy's
 * settings for the disk in a new directory *ret_dir (remove it with
 * apply_validate_policy_remove); -errno with one line in *ret_msg if none.
 */
int apply_validate_policy_arg(const struct apply_validate_opts *o, char **ret_arg, char **ret_dir, char **ret_msg);
void apply_validate_policy_remove(char *dir);

/* validate-run.c: iosched-bench as a child: its stdout read, its stderr passed through. */
struct apply_bench_run {
        int status;             /* its exit status, 128 + a signal that ended it, -1: not known */
        char *out;              /* its standard output, NUL-terminated */
        size_t outlen, outcap;
        char last_err[1024];    /* its last "iosched-bench: " line on stderr, or "" */
        char line[1024];        /* the line being read */
        size_t linelen;
};
/* Runs argv (argv[0] looked up in PATH) to its end; -errno when it could not start or be read. */
int apply_bench_run(char **argv, struct apply_bench_run *r);
void apply_bench_run_done(struct apply_bench_run *r);

/* the JSON reader (iosched-bench -J, facts -J documents): src/lib/jsonread.h */
#include "jsonread.h"

/*
 * validate-verdict.c: iosched-bench --compare -J's verdict about the policy's
 * scheduler sched: the report read once into ev (the library's reader) and
 * judged by the library's one rule (ios_evidence_judge).  0; -EINVAL with
 * one line in *ret_msg (no verdict in it, ev empty); -ENOMEM.
 */
struct ios_evidence;
int apply_verdict_read(const char *text, size_t len, const char *sched, struct ios_evidence *ev,
                       char **ret_msg);
/* "DEV: WHO SCHED: best (12% lower reader p99 than kyber, p=0.03)" and the other two */
void apply_verdict_line(FILE *f, const char *dev, const char *who, const char *sched,
                        const struct ios_evidence *v);
/* every variant's runs, median, range and spread, what each ran without, the restore */
void apply_verdict_table(FILE *f, const char *sched, const struct ios_evidence *v);
/* ', "objective": ..., "verdict": ..., ..., "significant": ...' (nulls without a verdict: v NULL or none) */
void apply_verdict_json(FILE *f, const struct ios_evidence *v);

/*
 * held.c: one line per policy file with an error (stderr, or the journal
 * with o->udev, and -J "errors"): file:line, the error, and the disks of
 * the model it holds (m NULL: not known).  Once per run; later calls do nothing.
 */
void apply_policy_errors_report(const struct apply_run_opts *o, const struct ios_policy *p,
                                const struct apply_model *m);

/*
 * textsafe.c: text that cannot drive a terminal: control characters (but,
 * in layout text, newline and tab), UTF-8 C1 controls and bytes that are
 * not valid UTF-8 written as \xNN.
 */
void apply_write_safe(FILE *out, const char *s, size_t len);
/* A string put inside a line (a disk's model, a file's text): newline and tab escaped too. */
void apply_write_field(FILE *out, const char *s);
/* A malloc'd copy of s escaped as a field (NULL for NULL or ENOMEM). */
char *apply_escape(const char *s);
/* Print into t->f, then apply_text_end() writes it escaped to out. */
struct apply_text {
        FILE *f;
        char *buf;
        size_t len;
};
int apply_text_begin(struct apply_text *t);
int apply_text_end(struct apply_text *t, FILE *out);

/* facts.c: the facts of one disk, shared with `explain -J`. */
void apply_json_disk_facts(FILE *f, const struct ios_device *d);

/*
 * conflicts.c: other writers (TuneD, udev rules, elevator=) of what the
 * plan sets for its disk, scanned once per run under o->conf_root / o->ctx.
 */
void apply_conflicts_json(FILE *f, const struct apply_run_opts *o, const struct ios_plan *pl);   /* ', "conflicts": [...]' */
char **apply_conflicts_lines(const struct apply_run_opts *o, const struct ios_plan *pl);
size_t apply_conflicts_count(const struct apply_run_opts *o, const struct ios_plan *pl);
/* "tuned:PROFILE(KEY),udev:FILE:LINE(KEY),elevator=X" for a table cell, NULL when there is none */
char *apply_conflicts_short(const struct apply_run_opts *o, const struct ios_plan *pl);
void apply_conflicts_free(void);

/*
 * evidence-view.c: a disk's validation evidence as the views show it (read
 * once by model.c): the record in words, the status cell, its warnings
 * (stale, against the policy, unreadable) and the "validation" JSON member.
 */
/* "validated 2026-11-27 on 6.12.48: mq-deadline best, 12% lower reader p99 than none, p=0.01, 5 rounds" */
void apply_evidence_line(FILE *f, const struct apply_disk *d);
/* status's VALIDATED cell: "2026-11-27", with ",stale" and ",against"; "-" never validated; "?" unreadable */
char *apply_evidence_cell(const struct apply_disk *d);
/* The warnings of the disk's evidence, one line each (NULL: none) */
char **apply_evidence_warnings(const struct apply_disk *d);
/* ', "validation": {...}|null' (and ', "validation_error": "..."' when it could not be read) */
void apply_evidence_json(FILE *f, const struct apply_disk *d);
/* Text views: "PROG: DEV: warning: ..." on stderr per disk and warning */
void apply_evidence_say(const char *prog, const struct apply_model *m);

/* prom.c: --format prometheus; health and time on every run (policy_ok -1: not known, left out). */
void apply_prom_run(FILE *f, const struct apply_run_opts *o, const struct apply_model *m, int exit);
void apply_prom_failure(struct apply_out *out, FILE *f, int exit);

#endif
