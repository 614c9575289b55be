/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evidence.c: what a validation record is about and what it says: the
 * device's identity (vendor, model, firmware, WWN or serial, class) and the
 * document's file name for it, the verdict about the policy's scheduler
 * from a comparison's variants (the bench's pairwise rule: the best beat a
 * variant "significantly" by its vs_best), and why a record is stale for
 * the disk and rule in force now.  Writing: evidence-write.c; reading:
 * evidence-read.c.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "evidence-internal.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"

static char *dup_trim(const char *s)
{
        size_t n;

        if (!s)
                return NULL;
        s += strspn(s, " \t\n");
        n = strlen(s);
        while (n && strchr(" \t\n", s[n - 1]))
                n--;
        return n ? strndup(s, n) : NULL;
}

/* A short attribute of the disk's device directory (links inside the root followed), trimmed; NULL: none. */
static char *device_attr(struct ios_device *d, const char *attr)
{
        _cleanup_free_ char *path = NULL, *text = NULL;

        if (!d->syspath || asprintf(&path, "%s/device/%s", d->syspath, attr) < 0)
                return NULL;
        if (ios_ctx_read_file(d->ctx, path, &text, NULL) < 0)
                return NULL;
        return dup_trim(text);
}

int ios_evidence_id_of(struct ios_device *d, struct ios_evidence_id *ret)
{
        const char *fw = ios_props_get(&d->props, "ID_REVISION");

        *ret = (struct ios_evidence_id){
                .vendor = dup_trim(d->vendor), .model = dup_trim(d->model), .wwn = dup_trim(d->wwn),
                .serial = dup_trim(d->serial), .cls = dup_trim(ios_class_to_string(d->cls)),
        };
        ret->firmware = fw ? dup_trim(fw) : device_attr(d, "rev");
        if (!ret->firmware)
                ret->firmware = device_attr(d, "firmware_rev");
        if ((d->vendor && !ret->vendor && *d->vendor) || (d->model && !ret->model && *d->model))
                return -ENOMEM;
        return 0;
}

void ios_evidence_id_done(struct ios_evidence_id *id)
{
        free(id->vendor);
        free(id->model);
        free(id->firmware);
        free(id->wwn);
        free(id->serial);
        free(id->cls);
        *id = (struct ios_evidence_id){};
}

/* "_" (unless first) and s with every byte outside [A-Za-z0-9.-] as '-' (64 at most; "unknown" for none) */
static void name_part(char *buf, size_t n, const char *s)
{
        size_t k = strlen(buf);

        if (!s || !*s)
                s = "unknown";
        if (k && k + 1 < n)
                buf[k++] = '_';
        for (size_t i = 0; s[i] && i < 64 && k + 1 < n; i++) {
                char c = s[i];

                buf[k++] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                                           c == '.' || c == '-' ?
                                   c :
                                   '-';
        }
        buf[k] = '\0';
}

bool ios_evidence_id_keyed(const struct ios_evidence_id *id)
{
        return (id->model && *id->model) || (id->wwn && *id->wwn) || (id->serial && *id->serial);
}

bool ios_evidence_id_per_model(const struct ios_evidence_id *id)
{
        return id->model && *id->model;
}

/* VENDOR_MODEL, with _WWN-or-SERIAL unless model (CLASS for VENDOR when neither is known) */
static char *file_name(const struct ios_evidence_id *id, bool model)
{
        char buf[256] = "";

        name_part(buf, sizeof(buf), id->vendor || id->model ? id->vendor : id->cls);
        name_part(buf, sizeof(buf), id->model);
        if (!model)
                name_part(buf, sizeof(buf), id->wwn ? id->wwn : id->serial);
        if (buf[0] == '.')
                buf[0] = '-';
        return strdup(strcat(buf, ".json"));
}

char *ios_evidence_file_name(const struct ios_evidence_id *id)
{
        return file_name(id, ios_evidence_id_per_model(id));
}

char *ios_evidence_file_name_per_disk(const struct ios_evidence_id *id)
{
        return file_name(id, false);
}

const char *ios_evidence_verdict_name(enum ios_evidence_verdict v)
{
        switch (v) {
        case IOS_EVIDENCE_BEST: return "best";
        case IOS_EVIDENCE_WITHIN_NOISE: return "within_noise";
        case IOS_EVIDENCE_BEATEN: return "beaten";
        case IOS_EVIDENCE_NONE: break;
        }
        return NULL;
}

enum ios_evidence_verdict ios_evidence_verdict_from_name(const char *s)
{
        for (int v = IOS_EVIDENCE_BEST; s && v <= IOS_EVIDENCE_BEATEN; v++)
                if (streq(s, ios_evidence_verdict_name(v)))
                        return v;
        return IOS_EVIDENCE_NONE;
}

void ios_evidence_done(struct ios_evidence *ev)
{
        for (size_t i = 0; i < ev->nv; i++) {
                free(ev->v[i].name);
                free(ev->v[i].scheduler);
                ios_strv_free(ev->v[i].tunables);
                free(ev->v[i].vs_label);
                for (size_t k = 0; k < ev->v[i].nleft; k++) {
                        free(ev->v[i].left[k].key);
                        free(ev->v[i].left[k].value);
                        free(ev->v[i].left[k].why);
                }
                free(ev->v[i].left);
        }
        free(ev->v);
        free(ev->tool);
        free(ev->version);
        free(ev->kernel);
        free(ev->device);
        free(ev->firmware);
        free(ev->wwn);
        free(ev->serial);
        free(ev->rule);
        free(ev->policy_scheduler);
        free(ev->backend);
        free(ev->job_digest);
        free(ev->job_text);
        free(ev->objective);
        free(ev->best);
        free(ev->runner_up);
        free(ev->against);
        free(ev->label);
        free(ev->original_scheduler);
        *ev = (struct ios_evidence){ .effect_pct = NAN, .p_value = NAN, .ratio = NAN };
}

void ios_evidence_doc_done(struct ios_evidence_doc *doc)
{
        ios_evidence_id_done(&doc->id);
        for (size_t i = 0; i < doc->n; i++)
                ios_evidence_done(&doc->r[i]);
        free(doc->r);
        *doc = (struct ios_evidence_doc){};
}

char *ios_evidence_digest(const char *text)
{
        uint64_t h = 0xcbf29ce484222325ULL;
        char *s;

        for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
                h = (h ^ *p) * 0x100000001b3ULL;
        return asprintf(&s, "fnv1a64:%016llx", (unsigned long long)h) < 0 ? NULL : s;
}

static const struct ios_evidence_variant *variant(const struct ios_evidence *ev, const char *name)
{
        for (size_t i = 0; name && i < ev->nv; i++)
                if (ev->v[i].name && streq(ev->v[i].name, name))
                        return &ev->v[i];
        for (size_t i = 0; name && i < ev->nv; i++)
                if (ev->v[i].scheduler && streq(ev->v[i].scheduler, name))
                        return &ev->v[i];
        return NULL;
}

static int judged(struct ios_evidence *ev, enum ios_evidence_verdict v, const struct ios_evidence_variant *by,
                  const char *against)
{
        free(ev->against);
        free(ev->label);
        ev->against = against ? strdup(against) : NULL;
        ev->label = by && by->vs_label ? strdup(by->vs_label) : NULL;
        ev->effect_pct = by ? by->vs_margin_pct : NAN;
        ev->ratio = by ? by->vs_ratio : NAN;
        ev->p_value = by ? by->vs_p_value : NAN;
        ev->significant = by && by->vs_significant;
        ev->verdict = v;
        if ((against && !ev->against) || (by && by->vs_label && !ev->label))
                return -ENOMEM;
        return 0;
}

int ios_evidence_why(char **ret_msg, int err, const char *fmt, ...)
{
        va_list ap;

        if (ret_msg) {
                va_start(ap, fmt);
                if (vasprintf(ret_msg, fmt, ap) < 0)
                        *ret_msg = NULL;
                va_end(ap);
        }
        return err;
}

/* how the best beat v, complete: or why not */
static int vs_of(const struct ios_evidence_variant *v, char **ret_msg)
{
        if (!v->has_vs)
                return ios_evidence_why(ret_msg, -ENOENT,
                                        "iosched-bench gave no vs_best for %s: it is older than this "
                                        "iosched-apply",
                                        v->name);
        if (v->vs_partial)
                return ios_evidence_why(ret_msg, -ENOENT,
                                        "iosched-bench's vs_best for %s has no significant or label",
                                        v->name);
        return 0;
}

int ios_evidence_judge(struct ios_evidence *ev, const char *sched, char **ret_msg)
{
        const struct ios_evidence_variant *mine = variant(ev, sched), *other;
        int e;

        if (ret_msg)
                *ret_msg = NULL;
        ev->verdict = IOS_EVIDENCE_NONE;
        if (!mine)
                return ios_evidence_why(ret_msg, -ENOENT, "the policy's %s was not measured",
                                        sched ? sched : "scheduler");
        if (mine->runs == 0)
                return ios_evidence_why(ret_msg, -ENOENT, "the policy's %s completed no run", sched);
        if (!ev->best || !*ev->best)
                return ios_evidence_why(ret_msg, -ENOENT,
                                        "iosched-bench named no best scheduler: no run completed");
        if (streq(ev->best, mine->name)) {
                if (!ev->runner_up || !*ev->runner_up)
                        return judged(ev, IOS_EVIDENCE_BEST, NULL, NULL);  /* nothing else completed */
                other = variant(ev, ev->runner_up);
                if (!other)
                        return ios_evidence_why(ret_msg, -ENOENT,
                                                "iosched-bench's runner-up %s is not among its schedulers",
                                                ev->runner_up);
                e = vs_of(other, ret_msg);
                if (e < 0)
                        return e;
                return judged(ev, other->vs_significant ? IOS_EVIDENCE_BEST : IOS_EVIDENCE_WITHIN_NOISE,
                              other, ev->runner_up);
        }
        e = vs_of(mine, ret_msg);
        if (e < 0)
                return e;
        return judged(ev, mine->vs_significant ? IOS_EVIDENCE_BEATEN : IOS_EVIDENCE_WITHIN_NOISE, mine,
                      ev->best);
}

bool ios_evidence_against_policy(const struct ios_evidence *rec)
{
        return rec->verdict == IOS_EVIDENCE_BEATEN;
}

/* Both known and different */
static bool differ(const char *a, const char *b)
{
        return a && b && !streq(a, b);
}

unsigned ios_evidence_stale(const struct ios_evidence *rec, const struct ios_evidence_id *doc_id,
                            const struct ios_evidence_id *id, const char *kernel, const char *rule,
                            const char *scheduler)
{
        unsigned s = 0;

        if (differ(rec->kernel, kernel))
                s |= IOS_EVIDENCE_STALE_KERNEL;
        /* the firmware of the disk measured: a sibling of the model with other firmware is another disk */
        if (id && (differ(rec->firmware, id->firmware) || (!rec->firmware != !id->firmware)))
                s |= IOS_EVIDENCE_STALE_FIRMWARE;
        if (doc_id && id && (differ(doc_id->cls, id->cls) || differ(doc_id->model, id->model) ||
                             differ(doc_id->vendor, id->vendor)))
                s |= IOS_EVIDENCE_STALE_DEVICE;
        /* a document of one disk (no model, or one of earlier versions read for its disk): that disk */
        if (doc_id && id && (!ios_evidence_id_per_model(doc_id) || doc_id->wwn || doc_id->serial) &&
            (differ(rec->wwn, id->wwn) || differ(rec->serial, id->serial)))
                s |= IOS_EVIDENCE_STALE_DEVICE;
        if ((rule && !rec->rule) || differ(rec->rule, rule) || differ(rec->policy_scheduler, scheduler) ||
            (scheduler && !rec->policy_scheduler))
                s |= IOS_EVIDENCE_STALE_RULE;
        return s;
}

bool ios_evidence_other_disk(const struct ios_evidence *rec, const struct ios_evidence_id *id)
{
        return differ(rec->wwn, id->wwn) || differ(rec->serial, id->serial);
}

const char *ios_evidence_stale_text(unsigned stale, char *buf, size_t n)
{
        static const char * const words[] = { "kernel", "firmware", "device", "rule" };
        size_t k = 0;

        if (n)
                buf[0] = '\0';
        for (size_t i = 0; i < ELEMENTSOF(words); i++)
                if (stale & (1u << i)) {
                        int w = snprintf(buf + k, k < n ? n - k : 0, "%s%s", k ? ", " : "", words[i]);

                        k += w > 0 ? (size_t)w : 0;
                }
        return buf;
}
