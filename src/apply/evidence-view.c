/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evidence-view.c: a disk's validation evidence as the views show it, from
 * what model.c read once (struct apply_disk's ev, ev_error): the latest
 * record in words under explain's scheduler rule, status's VALIDATED cell,
 * the warnings of every view (stale: the kernel, firmware, device or rule
 * changed since; against the policy: its scheduler lost with significance;
 * a document that cannot be read), and the per-disk "validation" member of
 * the JSON (the library's, the one `iosched-apply report` reads).  Neither
 * warning changes an outcome: --check's exit status is the policy's.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

/* "2026-11-27" of the record's time (UTC) */
static const char *date_of(const struct ios_evidence *r, char *buf, size_t n)
{
        time_t t = (time_t)r->time;
        struct tm tm;

        if (!gmtime_r(&t, &tm) || strftime(buf, n, "%Y-%m-%d", &tm) == 0)
                snprintf(buf, n, "?");
        return buf;
}

static const char *or_q(const char *s)
{
        return s && *s ? s : "?";
}

/* ", p=0.01", or "" when the record has none */
static const char *p_text(double p, char *buf, size_t n)
{
        if (isnan(p) || isinf(p))
                return "";
        snprintf(buf, n, ", p=%.2g", p);
        return buf;
}

/* The verdict about the scheduler validated, true for each kind. */
static void verdict_words(FILE *f, const struct ios_evidence *r)
{
        const char *sched = r->policy_scheduler ? r->policy_scheduler :
                                                  "the scheduler found (the policy set none)";
        char p[32];

        switch (r->verdict) {
        case IOS_EVIDENCE_BEST:
                if (r->against)
                        fprintf(f, "%s best, %s than %s%s", sched, or_q(r->label), r->against,
                                p_text(r->p_value, p, sizeof(p)));
                else
                        fprintf(f, "%s best (nothing else completed a run)", sched);
                break;
        case IOS_EVIDENCE_WITHIN_NOISE:
                fprintf(f, "%s within the noise of %s (%s: %s%s, not significant)", sched, or_q(r->against),
                        or_q(r->best), or_q(r->label), p_text(r->p_value, p, sizeof(p)));
                break;
        case IOS_EVIDENCE_BEATEN:
                fprintf(f, "%s beat %s, %s%s", or_q(r->against), sched, or_q(r->label),
                        p_text(r->p_value, p, sizeof(p)));
                break;
        case IOS_EVIDENCE_NONE:
                fprintf(f, "no verdict about %s", sched);
                break;
        }
}

/* A line built in memory (NULL: out of memory). */
static char *line_of(const struct apply_disk *d, void (*fn)(FILE *f, const struct apply_disk *d))
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        if (!f)
                return NULL;
        fn(f, d);
        if (fclose(f) != 0) {
                free(buf);
                return NULL;
        }
        return buf;
}

static void summary(FILE *f, const struct apply_disk *d)
{
        const struct ios_evidence *r = d->ev.last;
        char date[16];

        if (!r) {
                fputs("never validated", f);
                return;
        }
        fprintf(f, "validated %s on %s", date_of(r, date, sizeof(date)), or_q(r->kernel));
        if (d->ev.other_disk)
                fprintf(f, " with %s (%s), another disk of this model", or_q(r->device),
                        r->wwn ? r->wwn : or_q(r->serial));
        fputs(": ", f);
        verdict_words(f, r);
        fprintf(f, ", %u round%s", r->rounds, r->rounds == 1 ? "" : "s");
}

void apply_evidence_line(FILE *f, const struct apply_disk *d)
{
        _cleanup_free_ char *s = line_of(d, summary);

        apply_write_field(f, s ? s : "(out of memory)");
}

char *apply_evidence_cell(const struct apply_disk *d)
{
        const struct ios_evidence *r = d->ev.last;
        char date[16], *s = NULL;

        if (d->ev_error)
                return strdup("?");
        if (!r)
                return strdup("-");
        if (asprintf(&s, "%s%s%s", date_of(r, date, sizeof(date)), d->ev.stale ? ",stale" : "",
                     d->ev.against_policy ? ",against" : "") < 0)
                return NULL;
        return s;
}

/* "kernel (6.12.48 then), rule (/etc/iosched.d/50-ssd.conf:4, mq-deadline then)" */
static void stale_words(FILE *f, const struct apply_disk *d)
{
        const struct ios_evidence *r = d->ev.last;
        const char *sep = "";

        if (d->ev.stale & IOS_EVIDENCE_STALE_KERNEL) {
                fprintf(f, "kernel (%s then)", or_q(r->kernel));
                sep = ", ";
        }
        if (d->ev.stale & IOS_EVIDENCE_STALE_FIRMWARE) {
                fprintf(f, "%sfirmware (%s then)", sep, or_q(r->firmware));
                sep = ", ";
        }
        if (d->ev.stale & IOS_EVIDENCE_STALE_DEVICE) {
                fprintf(f, "%sdevice (%s %s then)", sep, or_q(d->ev.doc.id.model),
                        r->wwn ? r->wwn : or_q(r->serial));
                sep = ", ";
        }
        if (d->ev.stale & IOS_EVIDENCE_STALE_RULE)
                fprintf(f, "%srule (%s, %s then)", sep, r->rule ? r->rule : "none",
                        r->policy_scheduler ? r->policy_scheduler : "no scheduler");
}

static void stale_line(FILE *f, const struct apply_disk *d)
{
        char date[16];

        fprintf(f, "warning: the validation of %s is stale, changed since: ",
                date_of(d->ev.last, date, sizeof(date)));
        stale_words(f, d);
        fputs("; validate again", f);
}

static void against_line(FILE *f, const struct apply_disk *d)
{
        const struct ios_evidence *r = d->ev.last;
        char date[16], p[32];

        fprintf(f, "warning: the validation of %s is against the policy: %s beat %s with significance (%s%s)",
                date_of(r, date, sizeof(date)), or_q(r->against), or_q(r->policy_scheduler), or_q(r->label),
                p_text(r->p_value, p, sizeof(p)));
}

static void error_line(FILE *f, const struct apply_disk *d)
{
        fprintf(f, "note: its validation evidence in %s cannot be read: %s", IOS_EVIDENCE_DIR,
                d->ev_error == -EBADMSG ? "not an evidence document" : ios_strerror(-d->ev_error));
}

static int push(char ***l, const struct apply_disk *d, void (*fn)(FILE *f, const struct apply_disk *d))
{
        char *s = line_of(d, fn);

        if (!s || ios_strv_push(l, s) < 0) {
                free(s);
                return -ENOMEM;
        }
        return 0;
}

char **apply_evidence_warnings(const struct apply_disk *d)
{
        char **l = NULL;
        int e = 0;

        if (d->ev_error)
                e = push(&l, d, error_line);
        if (e >= 0 && d->ev.last && d->ev.stale)
                e = push(&l, d, stale_line);
        if (e >= 0 && d->ev.last && d->ev.against_policy)
                e = push(&l, d, against_line);
        return l;
}

void apply_evidence_json(FILE *f, const struct apply_disk *d)
{
        fputs(",\n     \"validation\": ", f);
        ios_evidence_state_json(f, &d->ev);
        if (d->ev_error) {
                _cleanup_free_ char *s = line_of(d, error_line);

                fputs(", \"validation_error\": ", f);
                ios_json_string(f, s ? s + strlen("note: ") : NULL);
        }
}

void apply_evidence_say(const char *prog, const struct apply_model *m)
{
        for (size_t i = 0; m->evidence && i < m->n; i++) {
                _cleanup_(ios_strv_freep) char **w = apply_evidence_warnings(&m->disks[i]);

                for (char **l = w; l && *l; l++) {
                        fprintf(stderr, "%s: %s: ", prog, m->disks[i].dev->name);
                        apply_write_field(stderr, *l);
                        fputc('\n', stderr);
                }
        }
}
