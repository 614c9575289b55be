/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-record.c: validate's verdict kept as evidence: the comparison
 * iosched-bench reported (workload, objective, rounds, every variant's
 * median and spread), the verdict validate said about the policy's
 * scheduler, the rule that chose it (file:line), the kernel release, the
 * date and this version, added to the document of the disk's model (its
 * identity without one)
 * under the policy's root (--config-root DIR, else /):
 * DIR/var/lib/iosched/evidence (the library's evidence-write.c).  With
 * --no-record nothing is written and that is said.  A record that cannot
 * be written is said on one line; the verdict and exit status stand.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "validate.h"

static char *dup_or_null(const char *s)
{
        return s ? strdup(s) : NULL;
}

/* What validate adds to the bench's comparison, judged already: who, when, where, under which rule. */
static int fill(struct validate *s)
{
        struct ios_evidence *ev = &s->ev;

        ev->time = (long long)time(NULL);
        ev->tool = strdup("iosched-apply validate");
        ev->version = strdup(IOS_VERSION);
        ev->kernel = ios_ctx_kernel_release(s->o->dev->ctx);
        ev->device = strdup(s->dev);
        ev->rule = dup_or_null(s->rule);
        ev->policy_scheduler = dup_or_null(s->want);
        if (!ev->tool || !ev->version || !ev->device || (s->rule && !ev->rule) ||
            (s->want && !ev->policy_scheduler))
                return -ENOMEM;
        return 0;
}

void apply_validate_record(struct validate *s)
{
        const char *prog = s->o->out->prog, *root = s->o->conf_root;
        int e;

        e = ios_evidence_id_of(s->o->dev, &s->id);
        if (e >= 0)
                e = fill(s);
        if (e < 0) {
                fprintf(stderr, "%s: %s: warning: the verdict is not recorded: %s\n", prog, s->dev,
                        ios_strerror(-e));
                return;
        }
        if (s->o->no_record) {
                fprintf(stderr, "%s: %s: not recorded (--no-record)\n", prog, s->dev);
                return;
        }
        e = ios_evidence_record(root, &s->id, &s->ev, 0, &s->record);
        if (e < 0) {
                const char *why = ios_evidence_record_strerror(e);

                fprintf(stderr, "%s: %s: warning: the verdict is not recorded in %s: %s\n", prog, s->dev,
                        s->record ? s->record : IOS_EVIDENCE_DIR, why);
                free(s->record);
                s->record = NULL;
                return;
        }
        fprintf(stderr, "%s: %s: recorded in %s\n", prog, s->dev, s->record);
}

void apply_validate_state_done(struct validate *s)
{
        apply_bench_run_done(&s->run);
        ios_evidence_id_done(&s->id);
        ios_evidence_done(&s->ev);
        free(s->want);
        free(s->rule);
        free(s->compare);
        free(s->policy);
        free(s->filename);
        free(s->target);
        free(s->record);
        free(s->adopted);
}
