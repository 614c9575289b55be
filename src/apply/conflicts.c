/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * conflicts.c: the other writers of what the policy sets for a disk, for
 * status, explain and --check: TuneD and udev rules (the library's
 * ios_writers_scan, read once per run under the configuration root, each
 * evaluated against the disk by ios_writers_eval: a udev rule whose match
 * keys say no is no conflict, one with a key iosched cannot evaluate "may"
 * conflict) and elevator= on the root's /proc/cmdline (grub-sh.c's parser).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

static struct {
        bool scanned;
        struct ios_writers w;
        char *elevator;         /* elevator= of /proc/cmdline */
} cache;

static void scan(const struct apply_run_opts *o)
{
        _cleanup_free_ char *cmdline = NULL;

        if (cache.scanned)
                return;
        cache.scanned = true;
        if (ios_writers_scan(o->conf_root, &cache.w) < 0)
                cache.w = (struct ios_writers){};       /* out of memory: none named */
        if (o->ctx && ios_ctx_read_file(o->ctx, "/proc/cmdline", &cmdline, NULL) >= 0)
                cache.elevator = apply_find_elevator(cmdline);
}

void apply_conflicts_free(void)
{
        ios_writers_done(&cache.w);
        free(cache.elevator);
        cache.elevator = NULL;
        cache.scanned = false;
}

/* whether the plan sets key ("*": anything) */
static bool plan_sets(const struct ios_plan *pl, const char *key)
{
        for (size_t i = 0; i < pl->n; i++)
                if ((streq(key, "*") || streq(pl->c[i].key, key)) && pl->c[i].state != IOS_CHANGE_SKIPPED)
                        return true;
        return false;
}

typedef void (*each_fn)(const struct ios_writer *w, const struct ios_writer_eval *ev, const char *elevator,
                        void *u);

/* Calls fn for each writer of a key the plan sets for its disk (YES or MAYBE); the cmdline as w == NULL. */
static size_t each(const struct apply_run_opts *o, const struct ios_plan *pl, each_fn fn, void *u)
{
        _cleanup_free_ struct ios_writer_eval *ev = NULL;
        size_t n = 0;

        scan(o);
        if (cache.w.n && ios_writers_eval(&cache.w, pl->dev, &ev) < 0)
                ev = NULL;      /* out of memory: by name alone */
        for (size_t i = 0; i < cache.w.n; i++) {
                const struct ios_writer *w = &cache.w.w[i];
                const struct ios_writer_eval byname = { IOS_WRITER_YES, NULL };

                /* the plan calls queue/scheduler "scheduler" */
                if (!plan_sets(pl, streq(w->key, "queue/scheduler") ? "scheduler" : w->key))
                        continue;
                if (ev ? ev[i].verdict == IOS_WRITER_NO : !ios_writer_applies(w, pl->dev->name, NULL))
                        continue;
                fn(w, ev ? &ev[i] : &byname, NULL, u);
                n++;
        }
        if (cache.elevator && plan_sets(pl, "scheduler")) {
                fn(NULL, NULL, cache.elevator, u);
                n++;
        }
        return n;
}

static bool maybe(const struct ios_writer_eval *ev)
{
        return ev && ev->verdict == IOS_WRITER_MAYBE;
}

struct json_ctx {
        FILE *f;
        bool first;
};

static void json_one(const struct ios_writer *w, const struct ios_writer_eval *ev, const char *elevator,
                     void *u)
{
        struct json_ctx *j = u;
        FILE *f = j->f;

        fputs(j->first ? "" : ", ", f);
        j->first = false;
        if (!w) {
                fputs("{\"writer\": \"cmdline\", \"profile\": null, \"key\": \"queue/scheduler\", \"value\": ", f);
                ios_json_string(f, elevator);
                fputs(", \"file\": \"/proc/cmdline\", \"line\": null}", f);
                return;
        }
        fputs("{\"writer\": ", f);
        ios_json_string(f, w->kind);
        fputs(", \"profile\": ", f);
        ios_json_string(f, w->name);
        fputs(", \"key\": ", f);
        ios_json_string(f, w->key);
        fputs(", \"value\": ", f);
        ios_json_string(f, w->value);
        fputs(", \"file\": ", f);
        ios_json_string(f, w->file);
        fprintf(f, ", \"line\": %u", w->line);
        if (w->final)
                fputs(", \"final\": true", f);
        if (w->op != IOS_WRITER_SET)
                fputs(w->op == IOS_WRITER_MULTIPLY ? ", \"op\": \"multiply\"" : ", \"op\": \"run-final\"", f);
        if (maybe(ev)) {
                fputs(", \"certain\": false, \"not_evaluated\": ", f);
                ios_json_string(f, ev->why);
        }
        fputc('}', f);
}

void apply_conflicts_json(FILE *f, const struct apply_run_opts *o, const struct ios_plan *pl)
{
        struct json_ctx j = { f, true };

        fputs(",\n     \"conflicts\": [", f);
        (void)each(o, pl, json_one, &j);
        fputc(']', f);
}

static void line_one(const struct ios_writer *w, const struct ios_writer_eval *ev, const char *elevator,
                     void *u)
{
        char buf[1024];

        if (w && maybe(ev))
                (void)ios_strv_pushf(u, "may conflict (iosched cannot evaluate the rule's %s): %s",
                                     ev->why ? ev->why : "match", ios_writer_line(w, buf, sizeof(buf)));
        else if (w)
                (void)ios_strv_push(u, strdup(ios_writer_line(w, buf, sizeof(buf))));
        else
                (void)ios_strv_pushf(u, "kernel command line sets elevator=%s (/proc/cmdline)", elevator);
}

char **apply_conflicts_lines(const struct apply_run_opts *o, const struct ios_plan *pl)
{
        char **l = NULL;

        (void)each(o, pl, line_one, &l);
        return l;
}

size_t apply_conflicts_count(const struct apply_run_opts *o, const struct ios_plan *pl)
{
        _cleanup_(ios_strv_freep) char **l = apply_conflicts_lines(o, pl);

        return ios_strv_length(l);
}

static void short_one(const struct ios_writer *w, const struct ios_writer_eval *ev, const char *elevator,
                      void *u)
{
        const char *base;

        if (!w) {
                (void)ios_strv_pushf(u, "elevator=%s", elevator);
                return;
        }
        base = strrchr(w->file, '/');
        base = base ? base + 1 : w->file;
        if (streq(w->kind, "tuned"))
                (void)ios_strv_pushf(u, "tuned:%s(%s)", w->name ? w->name : "?", w->key);
        else
                (void)ios_strv_pushf(u, "udev:%s:%u(%s)%s", base, w->line,
                                     w->op == IOS_WRITER_RUN_FINAL ? "RUN" : w->key, maybe(ev) ? "?" : "");
}

char *apply_conflicts_short(const struct apply_run_opts *o, const struct ios_plan *pl)
{
        _cleanup_(ios_strv_freep) char **l = NULL;

        if (each(o, pl, short_one, &l) == 0)
                return NULL;
        return ios_strv_join(l, ",");
}
