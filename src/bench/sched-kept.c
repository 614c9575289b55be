/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sched-kept.c: what another program set on a disk whose state
 * iosched-bench holds (sched-state.c).  iosched-bench knows what it left in
 * every file of the state (the snapshot after each of its own switches), so
 * a file that holds something else was set by someone else: an
 * iosched-apply, ioschedd, an administrator's echo.  Such a file is
 * recorded once, with when it changed (the phase the trial names: during a
 * run, after one, before the first), and from then on it is that program's:
 * no later switch sets it and the restore keeps it.  A value is never taken
 * for iosched-bench's own just because it was there at the next snapshot.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

void bench_sched_kept_done(struct bench_sched_state *s)
{
        for (size_t i = 0; i < s->n_kept; i++) {
                free(s->kept[i].key);
                free(s->kept[i].value);
                free(s->kept[i].had);
                free(s->kept[i].sched);
                ios_strv_free(s->kept[i].when);
                free(s->kept[i].refused);
        }
        free(s->kept);
        s->kept = NULL;
        s->n_kept = s->cap_kept = 0;
}

void bench_sched_phase(struct bench_sched_state *s, const char *fmt, ...)
{
        va_list ap;
        char *p = NULL;

        va_start(ap, fmt);
        if (vasprintf(&p, fmt, ap) < 0)
                p = NULL;
        va_end(ap);
        if (p) {
                free(s->phase);
                s->phase = p;
        }
}

struct bench_sched_kept *bench_sched_kept_find(struct bench_sched_state *s, const char *key)
{
        for (size_t i = 0; i < s->n_kept; i++)
                if (streq(s->kept[i].key, key))
                        return &s->kept[i];
        return NULL;
}

const struct bench_sched_kept *bench_sched_kept_get(const struct bench_sched_state *s, const char *key)
{
        return bench_sched_kept_find((struct bench_sched_state *)s, key);
}

const char *bench_sched_taken(const struct bench_sched_state *s)
{
        const struct bench_sched_kept *k = bench_sched_kept_get(s, "scheduler");

        return k ? k->value : NULL;
}

static int add_when(struct bench_sched_state *s, struct bench_sched_kept *k)
{
        const char *p = s->phase ? s->phase : "before the first run";

        /* one change per phase is enough to say */
        if (ios_strv_contains(k->when, p))
                return 0;
        return ios_strv_pushf(&k->when, "%s", p);
}

int bench_sched_kept_add(struct bench_sched_state *s, const char *key, const char *value, const char *had,
                         const char *sched)
{
        struct bench_sched_kept *k = bench_sched_kept_find(s, key), *n;

        if (k) {
                char *v = strdup(value);

                if (!v)
                        return -ENOMEM;
                free(k->value);
                k->value = v;
                return add_when(s, k);
        }
        n = ios_grow(s->kept, &s->cap_kept, s->n_kept + 1, sizeof(*n));
        if (!n)
                return -ENOMEM;
        s->kept = n;
        k = &s->kept[s->n_kept];
        *k = (struct bench_sched_kept){ .key = strdup(key), .value = strdup(value),
                                        .had = had ? strdup(had) : NULL, .sched = sched ? strdup(sched) : NULL };
        s->n_kept++;
        if (!k->key || !k->value || (had && !k->had) || (sched && !k->sched))
                return -ENOMEM;
        return add_when(s, k);
}

int bench_sched_check_snapshot(struct bench_sched_state *s, const struct ios_wanted *now)
{
        const char *sl = ios_wanted_value(&s->left, "scheduler"), *sc = ios_wanted_value(now, "scheduler");
        struct bench_sched_kept *taken = bench_sched_kept_find(s, "scheduler");
        int n = 0, r = 0;

        if (!s->left_known)
                return 0;       /* nothing to tell our values from others' by */
        /* the scheduler: a switch by another program makes every iosched/ file its own */
        if (sc && (taken ? !streq(taken->value, sc) : (sl && !streq(sl, sc)))) {
                r = bench_sched_kept_add(s, "scheduler", sc, sl, NULL);
                n++;
                taken = bench_sched_kept_find(s, "scheduler");
        }
        for (size_t i = 0; i < now->n && r >= 0; i++) {
                const char *key = now->s[i].key, *cur = now->s[i].value, *ours;
                struct bench_sched_kept *k;

                if (streq(key, "scheduler") || (taken && startswith(key, "queue/iosched/")))
                        continue;
                k = bench_sched_kept_find(s, key);
                ours = ios_wanted_value(&s->left, key);
                if (k) {
                        /* as iosched-bench's last switch left it (the kernel's cap under that scheduler):
                         * not another program's, and the value that program set stays the one kept */
                        if (!streq(k->value, cur) && !(ours && streq(ours, cur))) {
                                r = bench_sched_kept_add(s, key, cur, NULL, NULL);
                                n++;
                        }
                        continue;
                }
                if (!ours || streq(ours, cur))
                        continue;       /* a file iosched-bench never saw, or as it left it */
                r = bench_sched_kept_add(s, key, cur, ours, startswith(key, "queue/iosched/") ? sc : NULL);
                n++;
        }
        return r < 0 ? r : n;
}

int bench_sched_check(struct bench_sched_state *s)
{
        struct ios_wanted now = {};
        int r;

        if (!s->left_known)
                return 0;
        r = ios_snapshot_take(s->dev, &now);
        if (r < 0)
                return r;
        r = bench_sched_check_snapshot(s, &now);
        ios_wanted_done(&now);
        return r;
}

/*
 * Once another program switched the scheduler, the line that stopped the
 * comparison said so: an entry back at the value found is not said again,
 * nor an iosched/ file of the scheduler that program switched away from.
 */
static bool unsaid(const struct bench_sched_state *s, const struct bench_sched_kept *k)
{
        const char *was = ios_wanted_value(&s->saved, k->key), *taken = bench_sched_taken(s);

        return taken && ((was && streq(was, k->value)) || (k->sched && !streq(k->sched, taken)));
}

/* An iosched/ file of a scheduler the disk is not left on: gone with it. */
static bool gone(const struct bench_sched_state *s, const struct bench_sched_kept *k)
{
        return k->lost || (k->sched && s->fin && !streq(k->sched, s->fin) && !bench_sched_taken(s));
}

void bench_sched_kept_print(const struct bench_sched_state *s, FILE *f)
{
        /* the scheduler first: what the others are kept under */
        for (size_t j = 0; j <= s->n_kept; j++) {
                const struct bench_sched_kept *k = j ? &s->kept[j - 1] : bench_sched_kept_get(s, "scheduler");
                _cleanup_free_ char *when = NULL;

                if (!k || (j && streq(k->key, "scheduler")) || unsaid(s, k))
                        continue;
                when = ios_strv_join(k->when, ", and ");
                fprintf(f, "iosched-bench: %s: %s: %s %s, set by another program %s (iosched-bench had %s)",
                        s->dev->name, streq(k->key, "scheduler") ? "queue/scheduler" : k->key,
                        gone(s, k) ? "not kept" : "kept", k->value, when ? when : "?", k->had ? k->had : "nothing");
                if (gone(s, k) && !k->lost)
                        fprintf(f, "; it went with %s, %s is restored", k->sched, s->fin);
                else if (streq(k->key, "scheduler"))
                        fputs(", with its own iosched/ tunables", f);
                if (k->refused)
                        fprintf(f, "; %s", k->refused);
                fputc('\n', f);
        }
}

void bench_sched_kept_json(const struct bench_sched_state *s, FILE *f, const char *indent)
{
        fprintf(f, "%s\"kept\" : [", indent);
        for (size_t i = 0; i < s->n_kept; i++) {
                const struct bench_sched_kept *k = &s->kept[i];

                fprintf(f, "%s\n%s  { \"file\" : ", i ? "," : "", indent);
                bench_json_string(f, streq(k->key, "scheduler") ? "queue/scheduler" : k->key);
                fputs(", \"value\" : ", f);
                bench_json_string(f, k->value);
                fputs(", \"had\" : ", f);
                bench_json_string(f, k->had ? k->had : "");
                fprintf(f, ", \"kept\" : %s, \"when\" : [", gone(s, k) ? "false" : "true");
                for (char **w = k->when; w && *w; w++) {
                        fputs(w == k->when ? "" : ", ", f);
                        bench_json_string(f, *w);
                }
                fputs("] }", f);
        }
        fprintf(f, "%s%s]", s->n_kept ? "\n" : " ", s->n_kept ? indent : "");
}

const char *bench_sched_restored_what(const struct bench_sched_state *s, char *buf, size_t n)
{
        const char *taken = bench_sched_taken(s), *orig = ios_wanted_value(&s->saved, "scheduler");
        size_t kept = 0;

        for (size_t i = 0; i < s->n_kept; i++)
                kept += !streq(s->kept[i].key, "scheduler") && !gone(s, &s->kept[i]) && !unsaid(s, &s->kept[i]);
        if (taken)
                snprintf(buf, n, "%zu queue tunables as found; scheduler %s kept as another program set it, "
                         "with its iosched/ tunables and %zu more", s->n_found, taken, kept);
        else if (kept)
                snprintf(buf, n, "scheduler %s and %zu queue tunables as found, %zu kept as another program set them",
                         orig ? orig : "?", s->n_found, kept);
        else
                snprintf(buf, n, "scheduler %s and %zu queue tunables as found", orig ? orig : "?", s->n_found);
        return buf;
}
