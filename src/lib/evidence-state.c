/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evidence-state.c: what the views show of a disk's evidence: its latest
 * record, why it is stale for the disk, kernel and rule in force now, and
 * whether it goes against the policy or was measured on another disk of
 * its model (ios_evidence_of_disk), and that as
 * the per-disk "validation" object of facts -J (ios_evidence_state_json),
 * the one `iosched-apply report` reads.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "evidence-internal.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"

int ios_evidence_of_disk(const char *root, struct ios_device *d, const char *rule, const char *scheduler,
                         struct ios_evidence_state *ret)
{
        struct ios_evidence_id id = {};
        _cleanup_free_ char *kernel = NULL;
        int e;

        *ret = (struct ios_evidence_state){};
        e = ios_evidence_id_of(d, &id);
        if (e >= 0)
                e = ios_evidence_load(root, &id, &ret->doc);
        if (e == -ENOENT)
                e = 0;
        if (e >= 0 && ret->doc.n) {
                kernel = ios_ctx_kernel_release(d->ctx);
                ret->last = &ret->doc.r[ret->doc.n - 1];
                ret->stale = ios_evidence_stale(ret->last, &ret->doc.id, &id, kernel, rule, scheduler);
                ret->against_policy = ios_evidence_against_policy(ret->last);
                ret->other_disk = ios_evidence_other_disk(ret->last, &id);
        }
        ios_evidence_id_done(&id);
        if (e < 0)
                ios_evidence_state_done(ret);
        return e;
}

void ios_evidence_state_done(struct ios_evidence_state *st)
{
        ios_evidence_doc_done(&st->doc);
        *st = (struct ios_evidence_state){};
}

static void num(FILE *f, const char *key, double x)
{
        if (isnan(x) || isinf(x))
                fprintf(f, ", \"%s\": null", key);
        else
                fprintf(f, ", \"%s\": %.6g", key, x);
}

static void str(FILE *f, const char *key, const char *s)
{
        fprintf(f, ", \"%s\": ", key);
        ios_json_string(f, s);
}

void ios_evidence_state_json(FILE *f, const struct ios_evidence_state *st)
{
        static const char * const words[] = { "kernel", "firmware", "device", "rule" };
        const struct ios_evidence *r = st->last;
        char date[32] = "";
        time_t t;
        struct tm tm;
        bool first = true;

        if (!r) {
                fputs("null", f);
                return;
        }
        t = (time_t)r->time;
        if (gmtime_r(&t, &tm))
                strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
        fputs("{\"verdict\": ", f);
        ios_json_string(f, ios_evidence_verdict_name(r->verdict));
        str(f, "date", date);
        str(f, "kernel", r->kernel);
        str(f, "device", r->device);
        fprintf(f, ", \"other_disk\": %s", st->other_disk ? "true" : "false");
        str(f, "rule", r->rule);
        str(f, "policy_scheduler", r->policy_scheduler);
        str(f, "against", r->against);
        str(f, "label", r->label);
        num(f, "effect_pct", r->effect_pct);
        num(f, "p_value", r->p_value);
        fprintf(f, ", \"rounds\": %u, \"stale\": [", r->rounds);
        for (size_t i = 0; i < ELEMENTSOF(words); i++)
                if (st->stale & (1u << i)) {
                        fprintf(f, "%s\"%s\"", first ? "" : ", ", words[i]);
                        first = false;
                }
        fprintf(f, "], \"against_policy\": %s}", st->against_policy ? "true" : "false");
}
