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
 * Restore puts back only what iosched-bench changed.  Every switch made
 * while a state is armed first compares each file with what iosched-bench
 * itself last left there (bench_sched_check(), sched-kept.c), so a value
 * another program wrote in between (an iosched-apply, an admin) is
 * recorded as that program's before the switch's own snapshot could take
 * it for iosched-bench's; the switch then keeps it (the other program's
 * value, written back where the kernel's switch reset it), and so does the
 * restore, which says so.  A scheduler another program switched to keeps
 * its iosched/ tunables, and no later switch is made.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"
#include "strv.h"

void bench_sched_state_done(struct bench_sched_state *s)
{
        ios_wanted_done(&s->saved);
        ios_wanted_done(&s->left);
        bench_sched_kept_done(s);
        free(s->phase);
        free(s->fin);
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

static struct bench_sched_state *armed;
static void (*armed_report)(const struct bench_sched_state *s, int r, char **bad);

/* The first change of pl that failed, or NULL. */
static const struct ios_change *first_failed(const struct ios_plan *pl)
{
        for (size_t i = 0; i < pl->n; i++)
                if (pl->c[i].state == IOS_CHANGE_FAILED)
                        return &pl->c[i];
        return NULL;
}

/*
 * Plan w on d and apply it; the keys written into *ret_written.  With
 * all_or_nothing, a plan that already fails (a scheduler not offered)
 * writes nothing.  A file another program set (in keep) that the kernel
 * does not take is dropped from w, the reason noted in its entry (lost
 * when keep is no longer armed: the restore), and the rest planned again.
 * Else the first failure is the result, its one-line reason in *ret_msg.
 */
static int restore_target(struct bench_sched_state *s, struct ios_wanted *t);

static int plan_and_apply(struct ios_device *d, struct ios_wanted *w, struct bench_sched_state *keep,
                          bool all_or_nothing, char ***ret_written, char **ret_msg)
{
        for (size_t tries = 0;; tries++) {
                const struct ios_change *bad = NULL;
                struct bench_sched_kept *k;
                struct ios_plan pl;
                int r;

                r = ios_plan_from_settings(d, w, &pl);
                if (r < 0)
                        return r;
                if (all_or_nothing)
                        bad = first_failed(&pl);
                if (!bad) {
                        r = ios_plan_apply(&pl);
                        for (size_t i = 0; i < pl.n && ret_written; i++)
                                if (pl.c[i].state == IOS_CHANGE_APPLIED && ios_strv_pushf(ret_written, "%s", pl.c[i].key) < 0)
                                        r = -ENOMEM;
                        bad = first_failed(&pl);
                }
                if (bad && keep && tries <= keep->n_kept && !streq(bad->key, "scheduler") &&
                    (k = bench_sched_kept_find(keep, bad->key))) {
                        const char *to = ios_wanted_value(w, "scheduler");

                        free(k->refused);
                        if (asprintf(&k->refused,
                                     "the kernel did not take it under %s, which ran without it (%s)",
                                     to ? to : d->sched_current ? d->sched_current : "its scheduler",
                                     bad->msg ? bad->msg : ios_strerror(bad->error ? bad->error : -EINVAL)) <
                            0)
                                k->refused = NULL;
                        k->lost = !keep->armed;
                        ios_wanted_unset(w, bad->key);
                        ios_plan_done(&pl);
                        continue;
                }
                if (bad && r >= 0)
                        r = bad->error ? bad->error : -EINVAL;
                if (r < 0 && ret_msg) {
                        const char *m = bad && bad->msg ? bad->msg : pl.error_msg;

                        *ret_msg = m ? strdup(m) : NULL;
                }
                ios_plan_done(&pl);
                return r;
        }
}

/*
 * After a switch of s's disk from the scheduler before: what iosched-bench
 * left.  Without a scheduler change, a file the plan did not write (nor
 * reset by a write) that moved since the check before the switch was set by
 * another program in between.
 */
static void record_left(struct bench_sched_state *s, const char *before, char * const *written)
{
        struct ios_wanted now = {};
        const char *sc;

        if (ios_snapshot_take(s->dev, &now) < 0) {
                s->left_known = false;  /* cannot tell our values from others' until the next switch */
                return;
        }
        sc = ios_wanted_value(&now, "scheduler");
        for (size_t i = 0; s->left_known && before && sc && streq(before, sc) && i < now.n; i++) {
                const char *key = now.s[i].key, *cur = now.s[i].value, *ours = ios_wanted_value(&s->left, key);
                bool reset = false;

                /* a value the kernel reset for one of our writes is ours, not another program's */
                for (char * const *w = written; w && *w && !reset; w++)
                        reset = ios_tunable_reset_on(s->dev, key, *w);
                if (streq(key, "scheduler") || bench_sched_kept_find(s, key) || !ours || streq(ours, cur) ||
                    ios_strv_contains(written, key) || reset)
                        continue;
                (void)bench_sched_kept_add(s, key, cur, ours, startswith(key, "queue/iosched/") ? sc : NULL);
        }
        ios_wanted_done(&s->left);
        s->left = now;
        s->left_known = true;
}

/* The switch's settings: sched, extra but for what another program set, and that program's values. */
static int switch_settings(const struct bench_sched_state *s, const char *sched, const struct ios_wanted *extra,
                           struct ios_wanted *w)
{
        /* exactly this scheduler: a one-name preference list */
        int r = ios_wanted_set(w, "scheduler", sched, "--compare");

        for (size_t i = 0; extra && i < extra->n && r >= 0; i++)
                if (!streq(extra->s[i].key, "scheduler") && !(s && bench_sched_kept_get(s, extra->s[i].key)))
                        r = ios_wanted_set(w, extra->s[i].key, extra->s[i].value, extra->s[i].source);
        for (size_t i = 0; s && i < s->n_kept && r >= 0; i++) {
                const struct bench_sched_kept *k = &s->kept[i];

                if (!streq(k->key, "scheduler") && (!k->sched || streq(k->sched, sched)))
                        r = ios_wanted_set(w, k->key, k->value, "another program");
        }
        return r;
}

int bench_sched_switch(struct ios_device *d, const char *sched_in, const struct ios_wanted *extra,
                       char **ret_msg)
{
        struct bench_sched_state *s = armed && armed->dev == d ? armed : NULL;
        _cleanup_(ios_strv_freep) char **written = NULL;
        /* sched may be one of d's own strings (d->sched_avail), which a re-read of d below replaces */
        _cleanup_free_ char *before = NULL, *sched = strdup(sched_in);
        struct ios_wanted w = {};
        int r;

        if (ret_msg)
                *ret_msg = NULL;
        if (!sched)
                return -ENOMEM;
        if (s) {
                const struct bench_sched_kept *k;

                (void)bench_sched_check(s);
                k = bench_sched_kept_get(s, "scheduler");
                if (k) {
                        if (ret_msg && asprintf(ret_msg, "another program switched the scheduler to \"%s\" %s; it is kept",
                                                k->value, k->when ? k->when[ios_strv_length(k->when) - 1] : "") < 0)
                                *ret_msg = NULL;
                        return -ESTALE;
                }
                if (ios_wanted_value(&s->left, "scheduler") && !(before = strdup(ios_wanted_value(&s->left, "scheduler"))))
                        return -ENOMEM;
        }
        if (s && s->on_target) {
                /* what a restore would write, for the guard to write after a kill -9 during this switch */
                struct ios_wanted t = {};

                if (restore_target(s, &t) >= 0)
                        s->on_target(&t);
                ios_wanted_done(&t);
        }
        r = switch_settings(s, sched, extra, &w);
        if (r >= 0) {
                r = plan_and_apply(d, &w, s, true, &written, ret_msg);
                if (s)
                        record_left(s, before, written);
                if (s && s->on_left && s->left_known)
                        s->on_left(&s->left);
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
 * another program set the file during the run: then its value.  A
 * scheduler another program switched to stays, and its iosched/ files are
 * its own.
 */
static int restore_target(struct bench_sched_state *s, struct ios_wanted *t)
{
        const char *taken = bench_sched_taken(s), *fin = taken ? taken : ios_wanted_value(&s->saved, "scheduler");
        int r = 0;

        free(s->fin);
        s->fin = fin ? strdup(fin) : NULL;
        if (fin && !s->fin)
                return -ENOMEM;
        s->n_found = 0;
        if (fin)
                r = ios_wanted_set(t, "scheduler", fin, "saved");
        for (size_t i = 0; i < s->saved.n && r >= 0; i++) {
                const char *key = s->saved.s[i].key;
                const struct bench_sched_kept *k = bench_sched_kept_get(s, key);

                if (streq(key, "scheduler") || (taken && startswith(key, "queue/iosched/")))
                        continue;
                if (k && (!k->sched || (fin && streq(k->sched, fin)))) {
                        r = ios_wanted_set(t, key, k->value, "another program");
                        continue;
                }
                r = ios_wanted_set(t, key, s->saved.s[i].value, "saved");
                s->n_found++;
        }
        return r;
}

int bench_sched_restore(struct bench_sched_state *s, char ***ret_bad)
{
        struct ios_wanted target = {};
        int r;

        s->armed = false;
        if (armed == s)
                armed = NULL;
        /* what changed since the last look, in the phase it happened in */
        (void)bench_sched_check(s);
        r = restore_target(s, &target);
        if (r < 0) {
                /* cannot tell: put everything back as found */
                ios_wanted_done(&target);
                s->n_found = s->n_attrs;
                r = ios_wanted_copy(&s->saved, &target);
                if (r < 0)
                        return r;
        }
        /* the guard told, as before a switch: after a kill -9 in the middle of these writes it writes them
         * all, none taken for another program's */
        if (s->on_target)
                s->on_target(&target);
        /* a write that failed but left the right value behind is not a
         * failure: what counts is what the kernel shows afterwards */
        (void)plan_and_apply(s->dev, &target, s, false, NULL, NULL);
        (void)ios_device_refresh_sched(s->dev);
        r = verify(s->dev, &target, ret_bad);
        ios_wanted_done(&target);
        return r;
}

int bench_sched_put_back(struct ios_device *d, struct ios_wanted *w, char ***ret_bad)
{
        (void)plan_and_apply(d, w, NULL, false, NULL, NULL);
        (void)ios_device_refresh_sched(d);
        return verify(d, w, ret_bad);
}
