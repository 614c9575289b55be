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
        memset(s, 0, sizeof(*s));
}

const char *bench_sched_state_get(const struct bench_sched_state *s, const char *attr)
{
        const char *key = streq(attr, "queue/scheduler") ? "scheduler" : attr;

        for (size_t i = 0; i < s->saved.n; i++)
                if (streq(s->saved.s[i].key, key))
                        return s->saved.s[i].value;
        return NULL;
}

int bench_sched_save(struct ios_device *d, struct bench_sched_state *s)
{
        int r;

        memset(s, 0, sizeof(*s));
        s->dev = d;
        r = ios_snapshot_take(d, &s->saved);
        if (r < 0)
                return r;
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

int bench_sched_switch(struct ios_device *d, const char *sched, const struct ios_wanted *extra,
                       char **ret_msg)
{
        struct ios_wanted w = {};
        size_t n = extra ? extra->n : 0;
        int r;

        if (ret_msg)
                *ret_msg = NULL;
        w.s = calloc(n + 1, sizeof(*w.s));
        if (!w.s)
                return -ENOMEM;
        /* exactly this scheduler: a one-name preference list */
        w.s[w.n++] = (struct ios_setting){ .key = (char *)"scheduler", .value = (char *)sched,
                                           .source = (char *)"--compare" };
        for (size_t i = 0; i < n; i++)
                if (!streq(extra->s[i].key, "scheduler"))
                        w.s[w.n++] = extra->s[i];
        r = plan_and_apply(d, &w, true, ret_msg);
        free(w.s);              /* the strings are borrowed */
        return r;
}

static int add_bad(char ***bad, const char *attr, const char *want, const char *now)
{
        if (!bad)
                return 0;
        return ios_strv_pushf(bad, "%s: want \"%s\", is \"%s\"", attr, want, now ? now : "(unreadable)");
}

int bench_sched_verify(const struct bench_sched_state *s, char ***ret_bad)
{
        char **bad = NULL;

        for (size_t i = 0; i < s->saved.n; i++) {
                const struct ios_setting *a = &s->saved.s[i];
                _cleanup_free_ char *now = NULL;

                if (streq(a->key, "scheduler")) {
                        _cleanup_free_ char *text = NULL;
                        char **avail = NULL;

                        if (ios_sysfs_read_string(s->dev->fd, "queue/scheduler", &text) == 0 &&
                            ios_sched_parse(text, &now, &avail) == 0)
                                ios_strv_free(avail);
                        if (!now || !streq(now, a->value))
                                add_bad(&bad, "queue/scheduler", a->value, now);
                        continue;
                }
                if (ios_sysfs_read_string(s->dev->fd, a->key, &now) < 0 || !streq(now, a->value))
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

static struct bench_sched_state *armed;
static void (*armed_report)(const struct bench_sched_state *s, int r, char **bad);

static void restore_atexit(void)
{
        char **bad = NULL;
        int r;

        if (!armed || !armed->armed)
                return;
        r = bench_sched_restore(armed, &bad);
        if (armed_report)
                armed_report(armed, r, bad);
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

int bench_sched_restore(struct bench_sched_state *s, char ***ret_bad)
{
        s->armed = false;
        if (armed == s)
                armed = NULL;
        /* a write that failed but left the right value behind is not a
         * failure: what counts is what the kernel shows afterwards */
        (void)plan_and_apply(s->dev, &s->saved, false, NULL);
        (void)ios_device_refresh_sched(s->dev);
        return bench_sched_verify(s, ret_bad);
}
