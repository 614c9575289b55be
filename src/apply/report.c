/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c: `iosched-apply report FILE...|-`: the facts -J documents of
 * many hosts (schema/iosched-apply.schema.json, command "facts") read with
 * the library's JSON reader and their disks grouped by model (vendor and
 * model), one row per host: its disks of that model, their classes, the
 * scheduler the policy wants and the one found, how many drift, and their
 * validation evidence (the per-disk "validation" object: verdict, date,
 * stale, against_policy).  Standard input may hold several documents one
 * after another.  The host is the document's "hostname" when it has one,
 * else the file's name without ".json".  What a document lacks (an older
 * iosched-apply's: no "validation", no "wanted_scheduler", ...) is noted per
 * host, and its disks counted as unknown there; nothing is guessed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "jsonread.h"
#include "cli.h"
#include "report.h"
#include "grow.h"
#include "strv.h"
#include "readfile.h"

#define DOC_MAX (16u << 20)

static bool same(const char *a, const char *b)
{
        return a == b || (a && b && streq(a, b));
}

static int add_distinct(char ***l, const char *s)
{
        if (!s || ios_strv_contains(*l, s))
                return 0;
        return ios_strv_pushf(l, "%s", s) < 0 ? -ENOMEM : 0;
}

static struct report_row *row_of(struct report *r, const char *vendor, const char *model, const char *host)
{
        struct report_model *m = NULL;

        for (size_t i = 0; i < r->n && !m; i++)
                if (same(r->m[i].vendor, vendor) && same(r->m[i].model, model))
                        m = &r->m[i];
        if (!m) {
                struct report_model *t = ios_grow(r->m, &r->cap, r->n + 1, sizeof(*t));

                if (!t)
                        return NULL;
                r->m = t;
                m = &r->m[r->n++];
                *m = (struct report_model){ .vendor = vendor ? strdup(vendor) : NULL,
                                            .model = model ? strdup(model) : NULL };
        }
        for (size_t i = 0; i < m->n; i++)
                if (streq(m->rows[i].host, host))
                        return &m->rows[i];
        {
                struct report_row *t = ios_grow(m->rows, &m->cap, m->n + 1, sizeof(*t));

                if (!t)
                        return NULL;
                m->rows = t;
                m->rows[m->n] = (struct report_row){ .host = strdup(host) };
                return m->rows[m->n].host ? &m->rows[m->n++] : NULL;
        }
}

/* A disk's validation object (or the last of an array of them) into row; 1: it had none (key absent). */
static int add_validation(struct report_row *w, const struct ios_json *disk)
{
        const struct ios_json *v = ios_json_get(disk, "validation"), *st;
        const char *verdict, *date;
        bool b = false;

        if (!v)
                return w->unknown++, 1;
        if (v->type == IOS_JSON_ARR)
                v = v->n ? &v->kids[v->n - 1] : NULL;
        if (!v || v->type != IOS_JSON_OBJ || !(verdict = ios_json_str(ios_json_get(v, "verdict"))))
                return w->never++, 0;
        w->validated++;
        st = ios_json_get(v, "stale");
        if ((ios_json_bool(st, &b) && b) || (st && st->type == IOS_JSON_ARR && st->n))
                w->stale++;
        b = false;
        if ((ios_json_bool(ios_json_get(v, "against_policy"), &b) && b) || streq(verdict, "beaten"))
                w->against++;
        date = ios_json_str(ios_json_get(v, "date"));
        return ios_strv_pushf(&w->verdicts, "%s%s%.10s", verdict, date ? " " : "", date ? date : "") < 0 ?
                       -ENOMEM :
                       0;
}

static int note_lack(struct report_host *h, const char *what)
{
        return add_distinct(&h->lacks, what);
}

static int add_disk(struct report *r, struct report_host *h, const struct ios_json *d)
{
        const char *vendor = ios_json_str(ios_json_get(d, "vendor"));
        const char *model = ios_json_str(ios_json_get(d, "model"));
        const char *wanted = ios_json_str(ios_json_get(d, "wanted_scheduler"));
        struct report_row *w = row_of(r, vendor, model, h->host);
        double drift = 0;
        int e;

        if (!w)
                return -ENOMEM;
        w->disks++;
        e = add_distinct(&w->classes, ios_json_str(ios_json_get(d, "class")));
        if (e == 0)
                e = add_distinct(&w->found, ios_json_str(ios_json_get(d, "scheduler")) ?: "-");
        if (e == 0 && !ios_json_get(d, "wanted_scheduler"))
                e = note_lack(h, "wanted_scheduler");
        else if (e == 0)
                e = add_distinct(&w->wanted, wanted ? wanted : "-");
        if (e == 0 && !ios_json_num(ios_json_get(d, "drift"), &drift))
                e = note_lack(h, "drift");
        else if (drift > 0)
                w->drift++;
        if (e == 0 && !ios_json_get(d, "vendor") && !ios_json_get(d, "model"))
                e = note_lack(h, "model");
        if (e == 0 && (e = add_validation(w, d)) == 1)
                e = note_lack(h, "validation");
        return e;
}

/* The host of a document: its "hostname", else the file's name without ".json" (and #N past the first) */
static char *host_name(const struct ios_json *doc, const char *file, unsigned nth)
{
        const char *h = ios_json_str(ios_json_get(doc, "hostname"));
        const char *base = strrchr(file, '/');
        size_t len;
        char *s;

        if (h && *h)
                return strdup(h);
        base = base ? base + 1 : file;
        len = strlen(base);
        if (len > 5 && streq(base + len - 5, ".json"))
                len -= 5;
        if (nth == 0)
                return strndup(base, len);
        return asprintf(&s, "%.*s#%u", (int)len, base, nth + 1) < 0 ? NULL : s;
}

static int add_doc(struct apply_out *out, struct report *r, const char *file, unsigned nth,
                   const struct ios_json *doc)
{
        const struct ios_json *disks = ios_json_get(doc, "disks");
        struct report_host *h;
        double schema = -1;

        if (!same(ios_json_str(ios_json_get(doc, "tool")), "iosched-apply") ||
            !same(ios_json_str(ios_json_get(doc, "command")), "facts") || !disks ||
            disks->type != IOS_JSON_ARR)
                return apply_err(out, APPLY_EXIT_ERROR, NULL, "%s: not an iosched-apply facts -J document",
                                 file);
        h = ios_grow(r->h, &r->caph, r->nh + 1, sizeof(*h));
        if (!h)
                return apply_err(out, APPLY_EXIT_ERROR, NULL, "out of memory");
        r->h = h;
        h = &r->h[r->nh++];
        (void)ios_json_num(ios_json_get(doc, "schema"), &schema);
        *h = (struct report_host){ .host = host_name(doc, file, nth),
                                   .file = strdup(file),
                                   .schema = (int)schema };
        if (ios_json_str(ios_json_get(doc, "version")))
                h->version = strdup(ios_json_str(ios_json_get(doc, "version")));
        if (!h->host || !h->file)
                return apply_err(out, APPLY_EXIT_ERROR, NULL, "out of memory");
        for (size_t i = 0; i < disks->n; i++)
                if (add_disk(r, h, &disks->kids[i]) < 0)
                        return apply_err(out, APPLY_EXIT_ERROR, NULL, "out of memory");
        return 0;
}

/* The end of the JSON value that starts at p (a string-aware brace count), or NULL. */
static const char *value_end(const char *p, const char *end)
{
        int depth = 0;
        bool in_str = false;

        for (; p < end; p++) {
                if (in_str) {
                        if (*p == '\\')
                                p++;
                        else if (*p == '"')
                                in_str = false;
                } else if (*p == '"')
                        in_str = true;
                else if (*p == '{' || *p == '[')
                        depth++;
                else if ((*p == '}' || *p == ']') && --depth == 0)
                        return p + 1;
        }
        return NULL;
}

/* Every document in text (one, or several one after another) */
static int read_text(struct apply_out *out, struct report *r, const char *file, const char *text, size_t len)
{
        const char *p = text, *end = text + len;
        unsigned nth = 0;
        int rc = 0;

        for (;;) {
                const char *q;
                struct ios_json doc;
                int e;

                p += strspn(p, " \t\r\n");
                if (p >= end || !*p)
                        break;
                q = value_end(p, end);
                e = q ? ios_json_parse(p, (size_t)(q - p), &doc) : -EINVAL;
                if (e < 0)
                        return apply_err(out, APPLY_EXIT_ERROR, NULL, "%s: %s", file,
                                         e == -ENOMEM ? "out of memory" :
                                                        "not JSON (facts -J documents, one after another)");
                e = add_doc(out, r, file, nth++, &doc);
                ios_json_done(&doc);
                rc = e > rc ? e : rc;
                p = q;
        }
        if (nth == 0)
                return apply_err(out, APPLY_EXIT_ERROR, NULL, "%s: no document", file);
        return rc;
}

static int cmp_row(const void *a, const void *b)
{
        return strcmp(((const struct report_row *)a)->host, ((const struct report_row *)b)->host);
}

static int cmp_host(const void *a, const void *b)
{
        return strcmp(((const struct report_host *)a)->host, ((const struct report_host *)b)->host);
}

static int cmp_model(const void *a, const void *b)
{
        const struct report_model *x = a, *y = b;
        int c = strcmp(x->vendor ? x->vendor : "\x7f", y->vendor ? y->vendor : "\x7f");

        return c ? c : strcmp(x->model ? x->model : "\x7f", y->model ? y->model : "\x7f");
}

int apply_report_read(struct apply_out *out, char **files, int n, struct report *r)
{
        int rc = 0;

        *r = (struct report){};
        if (n == 0)
                return apply_err(out, APPLY_EXIT_ERROR, NULL,
                                 "report takes facts -J files (or - for standard input)");
        for (int i = 0; i < n; i++) {
                _cleanup_free_ char *text = NULL;
                size_t len = 0;
                int e = streq(files[i], "-") ? ios_read_fd_max(STDIN_FILENO, DOC_MAX, &text, &len) :
                                               ios_read_regular_file(files[i], DOC_MAX, &text, &len);

                if (e < 0) {
                        rc = apply_err(out, APPLY_EXIT_ERROR, NULL, "%s: %s", files[i], ios_strerror(-e));
                        continue;
                }
                e = read_text(out, r, streq(files[i], "-") ? "stdin" : files[i], text, len);
                rc = e > rc ? e : rc;
        }
        for (size_t i = 0; i < r->n; i++)
                qsort(r->m[i].rows, r->m[i].n, sizeof(*r->m[i].rows), cmp_row);
        if (r->n)
                qsort(r->m, r->n, sizeof(*r->m), cmp_model);
        if (r->nh)
                qsort(r->h, r->nh, sizeof(*r->h), cmp_host);
        return rc;
}

void apply_report_done(struct report *r)
{
        for (size_t i = 0; i < r->n; i++) {
                for (size_t k = 0; k < r->m[i].n; k++) {
                        struct report_row *w = &r->m[i].rows[k];

                        free(w->host);
                        ios_strv_free(w->classes);
                        ios_strv_free(w->wanted);
                        ios_strv_free(w->found);
                        ios_strv_free(w->verdicts);
                }
                free(r->m[i].rows);
                free(r->m[i].vendor);
                free(r->m[i].model);
        }
        for (size_t i = 0; i < r->nh; i++) {
                free(r->h[i].host);
                free(r->h[i].file);
                free(r->h[i].version);
                ios_strv_free(r->h[i].lacks);
        }
        free(r->m);
        free(r->h);
        *r = (struct report){};
}

int apply_fleet_report(struct apply_out *out, char **files, int n, bool json)
{
        struct report r;
        int rc = apply_report_read(out, files, n, &r);

        if (json)
                apply_report_json(stdout, out, &r, rc);
        else
                apply_report_text(stdout, &r);
        apply_report_done(&r);
        return rc;
}
