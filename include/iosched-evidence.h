/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-evidence.h: the library's API for validation evidence, beside
 * iosched.h: what `iosched-apply validate`, `iosched-apply report` and
 * `iosched-bench --compare --record` write and read, and what the views
 * show of a disk's evidence.
 */
#ifndef IOSCHED_EVIDENCE_H
#define IOSCHED_EVIDENCE_H

#include "iosched.h"

/*
 * Evidence (evidence.c, evidence-write.c, evidence-read.c): the verdicts of
 * `iosched-apply validate` and `iosched-bench --compare --record`, one JSON
 * document per device identity in ROOT/var/lib/iosched/evidence
 * (schema/iosched-evidence.schema.json), the last IOS_EVIDENCE_KEEP
 * records each.  ROOT is the root of the system's files: NULL or "/" the
 * running system, else a captured tree or a test's directory (the views
 * pass their conf_root, which is --sysroot's tree when no --config-root).
 */
#define IOS_EVIDENCE_DIR "/var/lib/iosched/evidence"
#define IOS_EVIDENCE_KEEP 10
#define IOS_EVIDENCE_SCHEMA 1

/* The device's identity: what a record is about.  Strings may be NULL. */
struct ios_evidence_id {
        char *vendor, *model, *firmware, *wwn, *serial, *cls;
};
/* Read from d (firmware: udev's ID_REVISION, else device/rev, device/firmware_rev). */
int ios_evidence_id_of(struct ios_device *d, struct ios_evidence_id *ret);
void ios_evidence_id_done(struct ios_evidence_id *id);
/*
 * The document's file name for id (malloc'd), [A-Za-z0-9._-] only: one per
 * model where the disk has one, "VENDOR_MODEL.json", for every disk of that
 * model; one per disk where it has none, "VENDOR_unknown_WWN-or-SERIAL.json"
 * (CLASS for VENDOR when neither vendor nor model is known; "unknown" for
 * each part missing).
 */
char *ios_evidence_file_name(const struct ios_evidence_id *id);
/* Whether id's document is its model's (shared by the disks of that model) rather than its own. */
bool ios_evidence_id_per_model(const struct ios_evidence_id *id);
/* Whether id names one disk or one model (a model, a WWN or a serial): a disk with none of them (a
 * loop device, zram) has no record, so that no other disk's verdict is taken for its own. */
bool ios_evidence_id_keyed(const struct ios_evidence_id *id);

/* A policy value a variant ran without: the kernel refuses it under that scheduler (the bench's). */
struct ios_evidence_left {
        char *key, *value, *why;
};
/* One variant of the comparison. */
struct ios_evidence_variant {
        char *name, *scheduler;
        char **tunables;                /* "key=value", NULL-terminated; may be NULL */
        unsigned runs;
        double median, min, max, spread_pct;    /* NAN: not known */
        /* how the best beat it (the bench's vs_best); has_vs false for the best */
        bool has_vs, vs_significant;
        bool vs_partial;                /* has_vs, without a significant or a label */
        double vs_margin_pct, vs_ratio, vs_p_value;
        char *vs_label;
        struct ios_evidence_left *left; /* its left_at_default (not kept in a document) */
        size_t nleft;
};
enum ios_evidence_verdict {
        IOS_EVIDENCE_NONE,              /* no verdict about the policy's scheduler */
        IOS_EVIDENCE_BEST,              /* best, significantly ahead of the runner-up */
        IOS_EVIDENCE_WITHIN_NOISE,      /* no significant difference with the best or runner-up */
        IOS_EVIDENCE_BEATEN,            /* another beat it with significance: against the policy */
};
const char *ios_evidence_verdict_name(enum ios_evidence_verdict v);     /* "best", ...; NULL for NONE */
enum ios_evidence_verdict ios_evidence_verdict_from_name(const char *s);

/* One record: one comparison on one disk. */
struct ios_evidence {
        long long time;                 /* seconds since the epoch, UTC */
        char *tool, *version;           /* "iosched-apply validate", IOS_VERSION */
        char *kernel;                   /* the kernel release it ran on */
        char *device;                   /* the disk's kernel name then */
        char *firmware, *wwn, *serial;  /* the disk measured (a document's identity: its only disk's) */
        char *rule;                     /* file:line of the rule that chose the scheduler, "built-in"; NULL: none */
        char *policy_scheduler;         /* the scheduler that rule wants; NULL: none */
        char *backend, *job_digest, *job_text;  /* the workload */
        char *objective;
        bool lower_is_better;
        unsigned rounds;
        struct ios_evidence_variant *v;
        size_t nv;
        char *best, *runner_up;         /* the bench's */
        enum ios_evidence_verdict verdict;      /* about policy_scheduler */
        char *against;                  /* the scheduler it was judged against */
        char *label;                    /* "31% lower reader p99" */
        double effect_pct, p_value;     /* of that judgement; NAN: not known */
        double ratio;                   /* of that judgement (not kept in a document) */
        bool significant;
        /* what the bench said of the disk after the run (not kept in a document) */
        char *original_scheduler;       /* the scheduler it found, NULL: not said */
        bool restored;                  /* it is back, with the queue tunables as found */
};
void ios_evidence_done(struct ios_evidence *ev);
/*
 * An iosched-bench --compare -J report into ev: the workload, objective,
 * rounds and variants; time, tool, kernel, device and rule are the
 * caller's.  -EINVAL with one line in *ret_msg when it is no comparison.
 */
int ios_evidence_from_compare(const char *json, size_t len, struct ios_evidence *ev, char **ret_msg);
/*
 * The verdict about sched from ev's variants, the one winner rule of
 * validate, the evidence and the views (the bench's pairwise rule):
 *   best          sched is the best, significantly ahead of the runner-up
 *                 (or nothing else completed a run);
 *   within_noise  it is the best, not significantly ahead of the runner-up,
 *                 or another is best, not significantly;
 *   beaten        another is best, significantly.
 * Sets verdict, against, label, effect_pct, ratio, p_value, significant.
 * -ENOENT with why in *ret_msg (when not NULL): no verdict (sched not
 * measured, no run completed, the bench's vs_best missing).
 */
int ios_evidence_judge(struct ios_evidence *ev, const char *sched, char **ret_msg);
/* "fnv1a64:<16 hex digits>" of text (malloc'd) */
char *ios_evidence_digest(const char *text);

/*
 * Add ev to id's document under root, keeping the last keep records (0:
 * IOS_EVIDENCE_KEEP), written atomically (a temporary file renamed over it,
 * mode 0644) in the directory opened from root one component at a time with
 * no symbolic link followed, created 0755 where missing; a directory not
 * root's or writable by others is refused (-EPERM), as is a document that
 * is not one (-EBADMSG: left as it is).  *ret_path: the document's path.
 */
int ios_evidence_record(const char *root, const struct ios_evidence_id *id, const struct ios_evidence *ev,
                        unsigned keep, char **ret_path);
/* Why ios_evidence_record() returned e, in words ("the disk has no model, WWN or serial ..."). */
const char *ios_evidence_record_strerror(int e);

/* A document: id as recorded and its records, oldest first. */
struct ios_evidence_doc {
        struct ios_evidence_id id;
        struct ios_evidence *r;
        size_t n;
};
void ios_evidence_doc_done(struct ios_evidence_doc *doc);
/* A document's text into doc; -EBADMSG: not an evidence document. */
int ios_evidence_parse(const char *text, size_t len, struct ios_evidence_doc *doc);
/*
 * id's document under root (its model's, else its own; a disk with a model
 * also reads the per-disk document of earlier versions when its model
 * has none); -ENOENT: never validated.
 */
int ios_evidence_load(const char *root, const struct ios_evidence_id *id, struct ios_evidence_doc *doc);
/* ev as one JSON object (a document's record) */
void ios_evidence_json(FILE *f, const struct ios_evidence *ev, const char *indent);

/* Why a record no longer speaks for the disk and the rule in force: */
enum {
        IOS_EVIDENCE_STALE_KERNEL = 1 << 0,     /* another kernel release */
        IOS_EVIDENCE_STALE_FIRMWARE = 1 << 1,   /* another firmware revision */
        IOS_EVIDENCE_STALE_DEVICE = 1 << 2,     /* another model or class (no model: another WWN, serial) */
        IOS_EVIDENCE_STALE_RULE = 1 << 3,       /* another rule (file:line) or scheduler chose it */
};
/*
 * The stale reasons of rec (of the document whose identity is doc_id) for
 * the disk now: its identity, the kernel release, the rule and scheduler in
 * force (each NULL: not known, not compared).
 */
unsigned ios_evidence_stale(const struct ios_evidence *rec, const struct ios_evidence_id *doc_id,
                            const struct ios_evidence_id *id, const char *kernel, const char *rule,
                            const char *scheduler);
/* "kernel, firmware": the reasons in words, into buf */
const char *ios_evidence_stale_text(unsigned stale, char *buf, size_t n);
/* The policy's scheduler lost with significance. */
bool ios_evidence_against_policy(const struct ios_evidence *rec);
/*
 * What the views show for a disk (explain, status, facts -J, --check -J,
 * Prometheus): its document under root, its latest record, and that
 * record's stale reasons against the disk now (its identity, the kernel
 * release of d's root) and the rule and scheduler in force (rule: file:line
 * of the scheduler's setting; each NULL: not compared).  0 with last NULL:
 * never validated; -errno: the document cannot be read (-EBADMSG: not one).
 */
struct ios_evidence_state {
        struct ios_evidence_doc doc;
        const struct ios_evidence *last;        /* in doc; NULL: never validated */
        unsigned stale;                         /* IOS_EVIDENCE_STALE_* of last */
        bool against_policy;                    /* last: the policy's scheduler lost with significance */
        bool other_disk;                        /* last was measured on another disk of the same model */
};
int ios_evidence_of_disk(const char *root, struct ios_device *d, const char *rule, const char *scheduler,
                         struct ios_evidence_state *ret);
void ios_evidence_state_done(struct ios_evidence_state *st);
/*
 * The per-disk "validation" member of facts -J (what `iosched-apply report`
 * reads): null when never validated, else {"verdict", "date", "kernel",
 * "device", "other_disk", "rule", "policy_scheduler", "against", "label",
 * "effect_pct", "p_value", "rounds", "stale": [reasons], "against_policy"}
 * (device: the disk measured then; other_disk: not this one, another disk
 * of its model).
 */
void ios_evidence_state_json(FILE *f, const struct ios_evidence_state *st);

#endif
