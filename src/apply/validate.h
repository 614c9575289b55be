/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate.h: the state of one `iosched-apply validate` run, shared by
 * validate.c (the run and its exit status), validate-record.c (the
 * verdict recorded as evidence) and validate-adopt.c (--adopt: the
 * winner as a drop-in for the disk's model).
 */
#ifndef APPLY_VALIDATE_H
#define APPLY_VALIDATE_H

#include "apply.h"
#include "iosched-evidence.h"

struct validate {
        const struct apply_validate_opts *o;
        const char *dev;
        char *want;                     /* the policy's scheduler, NULL: it sets none the kernel offers */
        char *rule;                     /* file:line of the rule that chose it ("built-in"), NULL: none */
        char *compare, *policy, *tmpdir, *filename, *target;
        struct apply_bench_run run;
        bool ran;
        const char *sched;              /* the scheduler judged: the policy's, else the current one */
        struct ios_evidence ev;         /* the bench's comparison, judged about sched */
        bool have_ev;                   /* ev holds it, with a verdict */
        /* validate-record.c */
        struct ios_evidence_id id;
        char *record;                   /* the evidence document written, NULL: none */
        char *adopted;                  /* the drop-in --adopt wrote, NULL: none */
};

/* The comparison as a record, written unless --no-record (a failure said, not fatal). */
void apply_validate_record(struct validate *s);
/* --adopt: the winner's drop-in, after the diff, when it beat the policy with significance; else why not.
 * Returns an exit status to merge (0, or APPLY_EXIT_ERROR when the drop-in could not be written). */
int apply_validate_adopt(struct validate *s);
void apply_validate_state_done(struct validate *s);

#endif
