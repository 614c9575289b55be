/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * evidence-read.c: an evidence document into records
 * (ios_evidence_parse, ios_evidence_load: what the views and the next
 * record read), and an iosched-bench --compare -J report into one record
 * (ios_evidence_from_compare: the workload as a job file text and its
 * digest, the objective, rounds and each variant's median, spread and how
 * the best beat it).  Absent members are tolerated: they stay unknown.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "evidence-internal.h"
#include "iosched-internal.h"
#include "macro.h"
#include "jsonread.h"
#include "strv.h"
#include "readfile.h"

#define DOC_MAX (4u << 20)

/* a string member, copied; NULL when absent or not a string (-ENOMEM in *e) */
static char *sdup(const struct ios_json *o, const char *key, int *e)
{
        const char *s = ios_json_str(ios_json_get(o, key));
        char *d = s ? strdup(s) : NULL;

        if (s && !d)
                *e = -ENOMEM;
        return d;
}

static double dnum(const struct ios_json *o, const char *key)
{
        double d;

        return ios_json_num(ios_json_get(o, key), &d) ? d : NAN;
}

static unsigned unum(const struct ios_json *o, const char *key)
{
        double d = dnum(o, key);

        return !isnan(d) && d > 0 && d < 1e9 ? (unsigned)d : 0;
}

static bool bval(const struct ios_json *o, const char *key)
{
        bool b = false;

        (void)ios_json_bool(ios_json_get(o, key), &b);
        return b;
}

static int read_tunables(const struct ios_json *t, char ***ret)
{
        for (size_t i = 0; t && t->type == IOS_JSON_OBJ && i < t->n; i++) {
                const char *v = ios_json_str(&t->kids[i]);

                if (v && ios_strv_pushf(ret, "%s=%s", t->kids[i].key, v) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* A variant's left_at_default: [{"key", "value", "why"}] (absent: none) */
static int read_left(const struct ios_json *a, struct ios_evidence_variant *v)
{
        int e = 0;

        if (!a || a->type != IOS_JSON_ARR || a->n == 0)
                return 0;
        v->left = calloc(a->n, sizeof(*v->left));
        if (!v->left)
                return -ENOMEM;
        for (size_t i = 0; e == 0 && i < a->n; i++) {
                struct ios_evidence_left *l = &v->left[v->nleft];

                l->key = sdup(&a->kids[i], "key", &e);
                l->value = sdup(&a->kids[i], "value", &e);
                l->why = sdup(&a->kids[i], "why", &e);
                v->nleft++;
                if (e == 0 && (!l->key || !l->value)) {        /* not one: dropped */
                        free(l->key);
                        free(l->value);
                        free(l->why);
                        *l = (struct ios_evidence_left){};
                        v->nleft--;
                }
        }
        return e;
}

static int read_variant(const struct ios_json *o, struct ios_evidence_variant *v)
{
        const struct ios_json *vs = ios_json_get(o, "vs_best");
        int e = 0;

        v->name = sdup(o, "name", &e);
        v->scheduler = sdup(o, "scheduler", &e);
        v->runs = unum(o, "runs");
        v->median = dnum(o, "median");
        v->min = dnum(o, "min");
        v->max = dnum(o, "max");
        v->spread_pct = dnum(o, "spread_pct");
        if (vs && vs->type == IOS_JSON_OBJ) {
                const struct ios_json *sig = ios_json_get(vs, "significant");

                v->has_vs = true;
                v->vs_significant = bval(vs, "significant");
                v->vs_margin_pct = dnum(vs, "margin_pct");
                v->vs_ratio = dnum(vs, "ratio");
                v->vs_p_value = dnum(vs, "p_value");
                v->vs_label = sdup(vs, "label", &e);
                v->vs_partial = !sig || sig->type != IOS_JSON_BOOL || !v->vs_label;
        }
        if (e == 0)
                e = read_tunables(ios_json_get(o, "tunables"), &v->tunables);
        if (e == 0)
                e = read_left(ios_json_get(o, "left_at_default"), v);
        return e;
}

static int read_variants(const struct ios_json *arr, struct ios_evidence *ev)
{
        if (!arr || arr->type != IOS_JSON_ARR)
                return 0;
        ev->v = calloc(arr->n ? arr->n : 1, sizeof(*ev->v));
        if (!ev->v)
                return -ENOMEM;
        for (size_t i = 0; i < arr->n; i++) {
                int e;

                ev->nv++;
                e = read_variant(&arr->kids[i], &ev->v[i]);
                if (e < 0)
                        return e;
        }
        return 0;
}

/* The record o into ev; the disk it measured: its "disk", else the document's identity id (older) */
static int read_record(const struct ios_json *o, const struct ios_json *id, struct ios_evidence *ev)
{
        const struct ios_json *w = ios_json_get(o, "workload"), *disk = ios_json_get(o, "disk");
        double t = dnum(o, "time");
        int e = 0;

        *ev = (struct ios_evidence){ .effect_pct = NAN, .p_value = NAN, .ratio = NAN };
        if (!o || o->type != IOS_JSON_OBJ)
                return -EBADMSG;
        ev->time = isnan(t) || t < -1e15 || t > 1e15 ? 0 : (long long)t;   /* no overflow in the cast */
        ev->tool = sdup(o, "tool", &e);
        ev->version = sdup(o, "version", &e);
        ev->kernel = sdup(o, "kernel", &e);
        ev->device = sdup(o, "device", &e);
        if (!disk || disk->type != IOS_JSON_OBJ)
                disk = id;
        ev->firmware = sdup(disk, "firmware", &e);
        ev->wwn = sdup(disk, "wwn", &e);
        ev->serial = sdup(disk, "serial", &e);
        ev->rule = sdup(o, "rule", &e);
        ev->policy_scheduler = sdup(o, "policy_scheduler", &e);
        ev->backend = sdup(w, "backend", &e);
        ev->job_digest = sdup(w, "job_digest", &e);
        ev->job_text = sdup(w, "job_text", &e);
        ev->objective = sdup(o, "objective", &e);
        ev->lower_is_better = bval(o, "lower_is_better");
        ev->rounds = unum(o, "rounds");
        ev->best = sdup(o, "best", &e);
        ev->runner_up = sdup(o, "runner_up", &e);
        ev->verdict = ios_evidence_verdict_from_name(ios_json_str(ios_json_get(o, "verdict")));
        ev->against = sdup(o, "against", &e);
        ev->label = sdup(o, "label", &e);
        ev->effect_pct = dnum(o, "effect_pct");
        ev->p_value = dnum(o, "p_value");
        ev->significant = bval(o, "significant");
        if (e == 0)
                e = read_variants(ios_json_get(o, "variants"), ev);
        return e;
}

int ios_evidence_parse(const char *text, size_t len, struct ios_evidence_doc *doc)
{
        const struct ios_json *id, *recs;
        struct ios_json root;
        double schema;
        int e;

        *doc = (struct ios_evidence_doc){};
        e = ios_json_parse(text, len, &root);
        if (e < 0)
                return e == -ENOMEM ? e : -EBADMSG;
        id = ios_json_get(&root, "identity");
        recs = ios_json_get(&root, "records");
        e = 0;
        if (!streq(ios_json_str(ios_json_get(&root, "kind")) ?: "", "iosched-evidence") ||
            !ios_json_num(ios_json_get(&root, "schema"), &schema) || schema < 1 || !id ||
            id->type != IOS_JSON_OBJ || !recs || recs->type != IOS_JSON_ARR) {
                e = -EBADMSG;
                goto out;
        }
        doc->id.vendor = sdup(id, "vendor", &e);
        doc->id.model = sdup(id, "model", &e);
        doc->id.firmware = sdup(id, "firmware", &e);
        doc->id.wwn = sdup(id, "wwn", &e);
        doc->id.serial = sdup(id, "serial", &e);
        doc->id.cls = sdup(id, "class", &e);
        doc->r = calloc(recs->n ? recs->n : 1, sizeof(*doc->r));
        if (!doc->r)
                e = -ENOMEM;
        for (size_t i = 0; e == 0 && i < recs->n; i++) {
                doc->n++;
                e = read_record(&recs->kids[i], id, &doc->r[i]);
        }
out:
        ios_json_done(&root);
        if (e < 0)
                ios_evidence_doc_done(doc);
        return e;
}

/* The document NAME under root; -ENOENT: none */
static int load(const char *root, const char *name, struct ios_evidence_doc *doc)
{
        _cleanup_free_ char *path = NULL, *text = NULL;
        _cleanup_close_ int fd = -1;
        struct stat st;
        size_t len = 0;
        int e;

        if (!name ||
            asprintf(&path, "%s%s/%s", root && strcmp(root, "/") ? root : "", IOS_EVIDENCE_DIR, name) < 0)
                return -ENOMEM;
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EBADMSG;
        e = ios_read_fd_max(fd, DOC_MAX, &text, &len);
        if (e < 0)
                return e == -EFBIG ? -EBADMSG : e;
        return ios_evidence_parse(text, len, doc);
}

int ios_evidence_load(const char *root, const struct ios_evidence_id *id, struct ios_evidence_doc *doc)
{
        _cleanup_free_ char *name = NULL, *own = NULL;
        int e;

        *doc = (struct ios_evidence_doc){};
        if (!ios_evidence_id_keyed(id))
                return -ENOENT; /* no record can be this disk's alone */
        name = ios_evidence_file_name(id);
        e = load(root, name, doc);
        if (e != -ENOENT || !ios_evidence_id_per_model(id))
                return e;
        own = ios_evidence_file_name_per_disk(id);      /* its own, from before documents were per model */
        return load(root, own, doc);
}


/* the options of an object ("global options", "job options") as "key=value" lines */
static int options_text(const struct ios_json *o, char ***lines)
{
        for (size_t i = 0; o && o->type == IOS_JSON_OBJ && i < o->n; i++) {
                const char *v = ios_json_str(&o->kids[i]);

                if (v && ios_strv_pushf(lines, "%s=%s", o->kids[i].key, v) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/*
 * The workload as a job file: [global] and each job of the first variant's
 * first round ("JOB.VARIANT.1" in the report), with the options the report
 * gives them.
 */
static int job_text(const struct ios_json *doc, const char *first, char **ret)
{
        const struct ios_json *jobs = ios_json_get(doc, "jobs");
        _cleanup_(ios_strv_freep) char **l = NULL;
        _cleanup_free_ char *sfx = NULL;
        int e;

        if (asprintf(&sfx, ".%s.1", first ? first : "") < 0)
                return -ENOMEM;
        e = ios_strv_pushf(&l, "[global]");
        if (e >= 0)
                e = options_text(ios_json_get(doc, "global options"), &l);
        for (size_t i = 0; e >= 0 && jobs && jobs->type == IOS_JSON_ARR && i < jobs->n; i++) {
                const char *n = ios_json_str(ios_json_get(&jobs->kids[i], "jobname"));
                size_t ln = n ? strlen(n) : 0, ls = strlen(sfx);

                if (!n || ln <= ls || !streq(n + ln - ls, sfx))
                        continue;
                e = ios_strv_pushf(&l, "[%.*s]", (int)(ln - ls), n);
                if (e >= 0)
                        e = options_text(ios_json_get(&jobs->kids[i], "job options"), &l);
        }
        if (e < 0)
                return e;
        *ret = ios_strv_join(l, "\n");
        return *ret ? 0 : -ENOMEM;
}

int ios_evidence_from_compare(const char *json, size_t len, struct ios_evidence *ev, char **ret_msg)
{
        const struct ios_json *cmp, *scheds;
        struct ios_json doc;
        int e;

        *ev = (struct ios_evidence){ .effect_pct = NAN, .p_value = NAN, .ratio = NAN };
        *ret_msg = NULL;
        e = ios_json_parse(json, len, &doc);
        if (e == -ENOMEM)
                return e;
        if (e < 0)
                return ios_evidence_why(ret_msg, -EINVAL,
                                        "iosched-bench's output is not one JSON object (%zu bytes)", len);
        cmp = ios_json_get(&doc, "compare");
        scheds = ios_json_get(cmp, "schedulers");
        if (!scheds || scheds->type != IOS_JSON_ARR) {
                e = ios_evidence_why(ret_msg, -EINVAL, "iosched-bench's output has no compare.schedulers");
                goto out;
        }
        ev->objective = sdup(cmp, "objective", &e);
        ev->lower_is_better = bval(cmp, "lower_is_better");
        ev->rounds = unum(cmp, "loops");
        ev->best = sdup(cmp, "best", &e);
        ev->runner_up = sdup(cmp, "runner_up", &e);
        ev->backend = sdup(cmp, "backend", &e);
        if (!ev->backend)
                ev->backend = sdup(&doc, "backend", &e);
        ev->original_scheduler = sdup(cmp, "original_scheduler", &e);
        ev->restored = bval(cmp, "restored");
        if (e == 0)
                e = read_variants(scheds, ev);
        for (size_t i = 0; e == 0 && i < ev->nv; i++)
                if (!ev->v[i].name)
                        e = ios_evidence_why(ret_msg, -EINVAL,
                                             "iosched-bench's output has a scheduler without a name");
        if (e == 0)
                e = job_text(&doc, ev->nv ? ev->v[0].name : NULL, &ev->job_text);
        if (e == 0 && !(ev->job_digest = ios_evidence_digest(ev->job_text)))
                e = -ENOMEM;
out:
        ios_json_done(&doc);
        if (e < 0) {
                char *m = *ret_msg;

                ios_evidence_done(ev);
                *ret_msg = m;
        }
        return e;
}
