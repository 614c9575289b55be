/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sched-state.c: save, switch and restore a disk's I/O scheduler state, for
 * --compare here and for `iosched-apply validate`.  The snapshot, the write
 * order and the read-back are the library's (snapshot.c, apply.c): a
 * switch is a plan for one scheduler plus the policy's tunables, and a
 * restore is the plan that puts the snapshot back.  Restore never depends
 * on the run having worked: the caller arms the snapshot, and an atexit()
 * handler restores it if the process exits before the main path did
 * (signals only set a flag; the main path restores).
 *
 * Restore puts back only what iosched-bench changed: every switch made while
 * a state is armed records what it left (a snapshot after the write), and a
 * file whose value at the end is neither the one found nor the one
 * iosched-bench left was set by another program during the run (an
 * iosched-apply, an admin): it keeps that value, and the restore says so.
 * A scheduler another program switched to keeps its iosched/ tunables too.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"

void bench_sched_state_done(struct bench_sched_state *s)
{
        ios_wanted_done(&s->saved);
        ios_wanted_done(&s->left);
        ios_strv_free(s->kept);
        memset(s, 0, sizeof(*s));
}

const char *bench_sched_state_get(const struct bench_sched_state *s, const char *attr)
{
        return ios_wanted_value(&s->saved, streq(attr, "queue/scheduler") ? "scheduler" : attr);
}

int bench_sched_save(struct ios_device *d, struct bench_sched_state *s)
{
        int r;

        memset(s, 0, sizeof(*s));
        s->dev = d;
        r = ios_snapshot_take(d, &s->saved);
        if (r < 0)
                return r;
        /* nothing changed yet: what iosched-bench leaves is what it found */
        r = ios_wanted_copy(&s->saved, &s->left);
        if (r < 0) {
                ios_wanted_done(&s->saved);
                return r;
        }
        s->left_known = true;
        s->n_attrs = s->saved.n - (bench_sched_state_get(s, "queue/scheduler") != NULL);
        return 0;
}

/*
 * Plan settings on d and apply them; the plan's first failure in *ret_msg.
 * With all_or_nothing, a plan that already fails (a scheduler not offered)
 * writes nothing.
 */
static int plan_and_apply(struct ios_device *d, const struct ios_wanted *w, bool all_or_nothing, char **ret_msg)
{
        struct ios_plan pl;
        int r = 0;

        r = ios_plan_from_settings(d, w, &pl);
        if (r < 0)
                return r;
        if (all_or_nothing)
                for (size_t i = 0; i < pl.n && r == 0; i++)
                        if (pl.c[i].state == IOS_CHANGE_FAILED) {
                                r = pl.c[i].error ? pl.c[i].error : -EINVAL;
                                if (ret_msg)
                                        *ret_msg = pl.c[i].msg ? strdup(pl.c[i].msg) : NULL;
                                ios_plan_done(&pl);
                                return r;
                        }
        r = ios_plan_apply(&pl);
        if (r < 0 && ret_msg)
                *ret_msg = pl.error_msg ? strdup(pl.error_msg) : NULL;
        ios_plan_done(&pl);
        return r;
}

static struct bench_sched_state *armed;
static void (*armed_report)(const struct bench_sched_state *s, int r, char **bad);

/* After a write to d: what iosched-bench left, into the armed state of d. */
static void record_left(struct ios_device *d)
{
        struct ios_wanted now = {};

        if (!armed || armed->dev != d)
                return;
        ios_wanted_done(&armed->left);
        /* unknown: the restore cannot tell its own values from others' and puts all back */
        armed->left_known = ios_snapshot_take(d, &now) == 0;
        armed->left = now;
}

int bench_sched_switch(struct ios_device *d, const char *sched, const struct ios_wanted *extra,
                       char **ret_msg)
{
        struct ios_wanted w = {};
        int r;

        if (ret_msg)
                *ret_msg = NULL;
        /* exactly this scheduler: a one-name preference list */
        r = ios_wanted_set(&w, "scheduler", sched, "--compare");
        for (size_t i = 0; extra && i < extra->n && r >= 0; i++)
                if (!streq(extra->s[i].key, "scheduler"))
                        r = ios_wanted_set(&w, extra->s[i].key, extra->s[i].value, extra->s[i].source);
        if (r >= 0) {
                r = plan_and_apply(d, &w, true, ret_msg);
                record_left(d);
        }
        ios_wanted_done(&w);
        return r;
}

static int add_bad(char ***bad, const char *attr, const char *want, const char *now)
{
        if (!bad)
                return 0;
        return ios_strv_pushf(bad, "%s: want \"%s\", is \"%s\"", attr, want, now ? now : "(unreadable)");
}

/* Re-read every setting of want on d: 0, or -EIO and the list of those that differ. */
static int verify(struct ios_device *d, const struct ios_wanted *want, char ***ret_bad)
{
        char **bad = NULL;

        for (size_t i = 0; i < want->n; i++) {
                const struct ios_setting *a = &want->s[i];
                _cleanup_free_ char *now = NULL;

                if (streq(a->key, "scheduler")) {
                        _cleanup_free_ char *text = NULL;
                        char **avail = NULL;

                        if (ios_sysfs_read_string(d->fd, "queue/scheduler", &text) == 0 &&
                            ios_sched_parse(text, &now, &avail) == 0)
                                ios_strv_free(avail);
                        if (!now || !streq(now, a->value))
                                add_bad(&bad, "queue/scheduler", a->value, now);
                        continue;
                }
                if (ios_sysfs_read_string(d->fd, a->key, &now) < 0 || !streq(now, a->value))
                        add_bad(&bad, a->key, a->value, now);
        }
        if (bad) {
                if (ret_bad)
                        *ret_bad = bad;
                else
                        ios_strv_free(bad);
                return -EIO;
        }
        return 0;
}

int bench_sched_verify(const struct bench_sched_state *s, char ***ret_bad)
{
        return verify(s->dev, &s->saved, ret_bad);
}

static void restore_atexit(void)
{
        struct bench_sched_state *s = armed;
        char **bad = NULL;
        int r;

        if (!s || !s->armed)
                return;
        r = bench_sched_restore(s, &bad);
        bench_sched_kept_print(s, stderr);
        if (armed_report)
                armed_report(s, r, bad);
        ios_strv_free(bad);
}

void bench_sched_arm(struct bench_sched_state *s,
                     void (*report)(const struct bench_sched_state *s, int r, char **bad))
{
        static bool registered;

        if (!registered && atexit(restore_atexit) == 0)
                registered = true;
        armed = s;
        armed_report = report;
        s->armed = true;
}

/*
 * What the restore writes: for each saved setting, the value found, unless
 * another program set the file during the run (its value now is neither the
 * one found nor the one iosched-bench left): then the value now, noted in
 * s->kept.
 */
static int restore_target(struct bench_sched_state *s, const struct ios_wanted *now, struct ios_wanted *t)
{
        const char *s0 = ios_wanted_value(&s->saved, "scheduler"), *sl = ios_wanted_value(&s->left, "scheduler");
        const char *sc = ios_wanted_value(now, "scheduler"), *fin = s0;
        bool back = false;      /* iosched-bench switches the scheduler back: its iosched/ is new */
        int r = 0;

        if (s0 && (!sc || !streq(sc, s0))) {
                if (!sc || (sl && streq(sc, sl)))
                        back = true;
                else {
                        fin = sc;
                        r = ios_strv_pushf(&s->kept, "queue/scheduler: another program set \"%s\" during the run; "
                                           "kept, with its iosched/ tunables (it was \"%s\")", sc, s0);
                }
        }
        if (r >= 0 && fin)
                r = ios_wanted_set(t, "scheduler", fin, "saved");
        for (size_t i = 0; i < s->saved.n && r >= 0; i++) {
                const char *key = s->saved.s[i].key, *was = s->saved.s[i].value, *cur, *ours;

                if (streq(key, "scheduler"))
                        continue;
                if (startswith(key, "queue/iosched/") && fin != s0)
                        continue;               /* another program's scheduler: its tunables are its own */
                cur = ios_wanted_value(now, key);
                ours = ios_wanted_value(&s->left, key);
                if ((back && startswith(key, "queue/iosched/")) || !cur || streq(cur, was) || (ours && streq(cur, ours))) {
                        r = ios_wanted_set(t, key, was, "saved");
                        continue;
                }
                r = ios_wanted_set(t, key, cur, "saved");
                if (r >= 0)
                        r = ios_strv_pushf(&s->kept, "%s: another program set \"%s\" during the run; kept (it was \"%s\")",
                                           key, cur, was);
        }
        return r;
}

int bench_sched_restore(struct bench_sched_state *s, char ***ret_bad)
{
        struct ios_wanted now = {}, target = {};
        int r;

        s->armed = false;
        if (armed == s)
                armed = NULL;
        s->kept = ios_strv_free(s->kept);
        if (!s->left_known || ios_snapshot_take(s->dev, &now) < 0 || restore_target(s, &now, &target) < 0) {
                /* cannot tell: put everything back as found */
                s->kept = ios_strv_free(s->kept);
                ios_wanted_done(&target);
                (void)plan_and_apply(s->dev, &s->saved, false, NULL);
                (void)ios_device_refresh_sched(s->dev);
                ios_wanted_done(&now);
                return verify(s->dev, &s->saved, ret_bad);
        }
        /* a write that failed but left the right value behind is not a
         * failure: what counts is what the kernel shows afterwards */
        (void)plan_and_apply(s->dev, &target, false, NULL);
        (void)ios_device_refresh_sched(s->dev);
        r = verify(s->dev, &target, ret_bad);
        ios_wanted_done(&target);
        ios_wanted_done(&now);
        return r;
}

void bench_sched_kept_print(const struct bench_sched_state *s, FILE *f)
{
        for (char **k = s->kept; k && *k; k++)
                fprintf(f, "iosched-bench: %s: %s\n", s->dev->name, *k);
}
