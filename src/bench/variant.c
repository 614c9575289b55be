/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * variant.c: what --compare compares.  A variant is a scheduler and
 * tunables, spelled "mq-deadline:read_expire=300:fifo_batch=1": names as
 * the kernel calls its files under queue/iosched/ (of that scheduler) or
 * queue/ (nr_requests, read_ahead_kb ...), typed and range-checked by the
 * library's table (tunables.c).  Checked in three steps, each before any
 * run: the spelling and the table when the command line is parsed; the
 * scheduler and the queue/ files against the disk (reads only); and, with
 * the lock held and the state saved, one fresh switch to each scheduler,
 * which also records what that scheduler starts with.  Every run then
 * writes the whole state it should have (the scheduler's start values, the
 * variant's own values, and for queue/ files another variant touches, the
 * start value), so no variant inherits a tunable from the one before it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

static bool name_char_ok(const char *s)
{
        for (; *s; s++)
                if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
                        return false;
        return true;
}

/* "read_expire" -> "queue/iosched/read_expire" or "queue/read_ahead_kb"; NULL if the table has neither. */
static char *tunable_key(const char *name)
{
        char *k = NULL;

        if (!*name || !name_char_ok(name))
                return NULL;
        if (asprintf(&k, "queue/iosched/%s", name) < 0)
                return NULL;
        if (ios_tunable_known(k))
                return k;
        free(k);
        if (asprintf(&k, "queue/%s", name) < 0)
                return NULL;
        if (ios_tunable_known(k) && !streq(name, "scheduler"))
                return k;
        free(k);
        return NULL;
}

/*
 * One variant's spelling into its scheduler (as written) and settings,
 * with the table's checks.  Fills msg on a usage error (-EINVAL).
 */
static int parse_one(const char *spelling, char **ret_sched, struct ios_wanted *ret_set, char *msg, size_t len)
{
        _cleanup_free_ char *copy = strdup(spelling);
        struct ios_wanted set = {};
        char *save = NULL, *tok;
        int r = 0;

        if (!copy)
                return -ENOMEM;
        tok = strtok_r(copy, ":", &save);
        if (!tok || !ios_sched_name_valid(tok)) {
                snprintf(msg, len, "'%s' is not SCHED[:TUNABLE=VALUE...]", spelling);
                return -EINVAL;
        }
        if (ret_sched && !(*ret_sched = strdup(tok)))
                return -ENOMEM;
        while (r == 0 && (tok = strtok_r(NULL, ":", &save))) {
                char *eq = strchr(tok, '=');
                _cleanup_free_ char *key = NULL;
                char why[256];

                if (!eq || eq == tok || !eq[1]) {
                        snprintf(msg, len, "'%s' is not TUNABLE=VALUE", tok);
                        r = -EINVAL;
                        break;
                }
                *eq = '\0';
                key = tunable_key(tok);
                if (!key) {
                        snprintf(msg, len, "unknown tunable '%s' "
                                 "(a file of queue/iosched/ or queue/, as the kernel names it)", tok);
                        r = -EINVAL;
                        break;
                }
                if (ios_wanted_get(&set, key)) {
                        snprintf(msg, len, "%s given twice in one variant", tok);
                        r = -EINVAL;
                        break;
                }
                if (ios_tunable_check(key, eq + 1, why, sizeof(why)) < 0) {
                        snprintf(msg, len, "%s", why);
                        r = -EINVAL;
                        break;
                }
                r = ios_wanted_set(&set, key, eq + 1, "--compare");
        }
        if (r < 0 || !ret_set) {
                ios_wanted_done(&set);
                if (r < 0 && ret_sched) {
                        free(*ret_sched);
                        *ret_sched = NULL;
                }
                return r;
        }
        *ret_set = set;
        return 0;
}

int bench_variant_check(const char *spelling, char *msg, size_t len)
{
        return parse_one(spelling, NULL, NULL, msg, len);
}

/*
 * The kernel's name of the scheduler that name selects on disk, decided as
 * bench_sched_switch() will decide it, by the library's plan for a one-name
 * preference (reads only): a name the queue offers, its legacy/blk-mq twin
 * (ios_sched_alias(), from the table), or a blk-mq scheduler built
 * as a module that is not listed yet but installed for the running kernel,
 * which loads it on the write.  NULL in *ret: the disk cannot run it.
 */
static int sched_kernel_name(struct ios_device *disk, const char *name, char **ret)
{
        struct ios_wanted w = {};
        struct ios_plan pl;
        int r;

        *ret = NULL;
        r = ios_wanted_set(&w, "scheduler", name, "--compare");
        if (r >= 0)
                r = ios_plan_from_settings(disk, &w, &pl);
        ios_wanted_done(&w);
        if (r < 0)
                return r;
        for (size_t i = 0; i < pl.n && r == 0; i++)
                if (streq(pl.c[i].key, "scheduler") && pl.c[i].wanted &&
                    (pl.c[i].state == IOS_CHANGE_OK || pl.c[i].state == IOS_CHANGE_DRIFT) &&
                    !(*ret = strdup(pl.c[i].wanted)))
                        r = -ENOMEM;
        ios_plan_done(&pl);
        return r;
}

void bench_variants_done(struct bench_variants *vs)
{
        for (unsigned i = 0; vs->v && i < vs->n; i++) {
                free(vs->v[i].label);
                free(vs->v[i].sched);
                ios_wanted_done(&vs->v[i].set);
                ios_wanted_done(&vs->v[i].left);
        }
        free(vs->v);
        for (unsigned i = 0; vs->start && i < vs->n_start; i++)
                ios_wanted_done(&vs->start[i]);
        free(vs->start);
        ios_strv_free(vs->start_sched);
        ios_strv_free(vs->queue_keys);
        memset(vs, 0, sizeof(*vs));
}

/* What the disk could run instead, for the message. */
static char *available(struct ios_device *disk)
{
        _cleanup_(ios_strv_freep) char **avail = NULL;
        const char *name;
        unsigned flags;

        for (char * const *p = disk->sched_avail; p && *p; p++)
                if (ios_strv_pushf(&avail, "%s", *p) < 0)
                        return NULL;
        /* the schedulers the table says the kernel may load as modules */
        for (size_t i = 0; (name = ios_sched_nth(i, &flags)); i++) {
                _cleanup_free_ char *k = NULL;

                if (!(flags & IOS_SCHED_MODULAR) || ios_strv_contains(disk->sched_avail, name))
                        continue;
                if (sched_kernel_name(disk, name, &k) < 0)
                        return NULL;
                if (k && streq(k, name) && ios_strv_pushf(&avail, "%s (module)", k) < 0)
                        return NULL;
        }
        return ios_strv_join(avail, " ");
}

static int add_variant(struct bench_variants *vs, char *sched, struct ios_wanted *set, const char *spelling)
{
        const char *tail = strchr(spelling, ':');
        struct bench_variant *n;
        char *label = NULL;

        if (asprintf(&label, "%s%s", sched, tail ? tail : "") < 0)
                return -ENOMEM;
        for (unsigned i = 0; i < vs->n; i++)
                if (streq(vs->v[i].label, label)) {
                        /* the same variant twice (or noop and none): run it once */
                        free(label);
                        free(sched);
                        ios_wanted_done(set);
                        return 0;
                }
        n = ios_grow(vs->v, &vs->cap_v, (size_t)vs->n + 1, sizeof(*n));
        if (!n) {
                free(label);
                return -ENOMEM;
        }
        vs->v = n;
        vs->v[vs->n++] = (struct bench_variant){ .label = label, .sched = sched, .set = *set };
        *set = (struct ios_wanted){};
        return 0;
}

int bench_variants_resolve(const struct bench_opts *o, struct ios_device *disk, struct bench_variants *vs,
                           struct bench_error *e)
{
        _cleanup_(ios_strv_freep) char **bad = NULL;
        int r = 0;

        memset(vs, 0, sizeof(*vs));
        for (char * const *p = o->compare_scheds ? o->compare_scheds : disk->sched_avail; p && *p && r >= 0; p++) {
                _cleanup_free_ char *written = NULL;
                struct ios_wanted set = {};
                char *k = NULL, msg[400];

                r = parse_one(*p, &written, &set, msg, sizeof(msg));
                if (r == -EINVAL) {
                        r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "invalid --compare: %s", msg);
                        break;
                }
                if (r < 0)
                        break;
                r = sched_kernel_name(disk, written, &k);
                if (r < 0 || !k) {
                        ios_wanted_done(&set);
                        if (r == 0 && !ios_strv_contains(bad, written))
                                r = ios_strv_push(&bad, TAKE_PTR(written));
                        continue;
                }
                for (size_t i = 0; i < set.n && r >= 0; i++) {
                        const char *tun = startswith(set.s[i].key, "queue/iosched/");

                        if (tun && ios_sched_tunables_known(k) && !ios_iosched_tunable_of(k, tun))
                                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                    "--compare variant '%s': %s is not a tunable of %s",
                                                    *p, tun, k);
                        else if (!tun && !ios_sysfs_exists(disk->fd, set.s[i].key))
                                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                    "--compare variant '%s': %s has no %s", *p, disk->name,
                                                    set.s[i].key);
                        else if (!tun && !ios_strv_contains(vs->queue_keys, set.s[i].key))
                                r = ios_strv_pushf(&vs->queue_keys, "%s", set.s[i].key);
                }
                if (r >= 0)
                        r = add_variant(vs, k, &set, *p);
                else
                        free(k);
                ios_wanted_done(&set);
        }
        if (r >= 0 && bad) {
                _cleanup_free_ char *bad_s = ios_strv_join(bad, ", "), *avail_s = available(disk);

                if (!bad_s || !avail_s)
                        r = -ENOMEM;
                else
                        r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                            "--compare: %s %s not available on %s (available: %s)",
                                            bad_s, bad[1] ? "are" : "is", disk->name, avail_s);
        }
        if (r >= 0 && vs->n == 0)
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--compare: no scheduler to compare on %s",
                                    disk->name);
        /* "none,none" (or "noop,none"): one variant, run once, is no comparison */
        if (r >= 0 && vs->n == 1 && ios_strv_length(o->compare_scheds) > 1) {
                _cleanup_free_ char *named = ios_strv_join(o->compare_scheds, ", ");

                r = named ? bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                            "--compare: %s are one variant on %s (%s): nothing to compare",
                                            named, disk->name, vs->v[0].label)
                          : -ENOMEM;
        }
        if (r < 0)
                bench_variants_done(vs);
        return r < 0 ? r : 0;
}

/* The state sched starts with, as learned; NULL if not learned. */
static const struct ios_wanted *start_of(const struct bench_variants *vs, const char *sched)
{
        for (unsigned i = 0; i < vs->n_start; i++)
                if (streq(vs->start_sched[i], sched))
                        return &vs->start[i];
        return NULL;
}

/* A scheduler other than sched that the disk offers ("none" first), or NULL. */
static const char *other_sched(const struct ios_device *d, const char *sched)
{
        if (ios_strv_contains(d->sched_avail, "none") && !streq(sched, "none"))
                return "none";
        for (char * const *p = d->sched_avail; p && *p; p++)
                if (!streq(*p, sched))
                        return *p;
        return NULL;
}

int bench_variants_learn(struct bench_variants *vs, struct ios_device *d, struct bench_error *e)
{
        int r = 0;

        for (unsigned i = 0; i < vs->n && r >= 0; i++) {
                const char *sched = vs->v[i].sched;
                _cleanup_free_ char *why = NULL;
                struct ios_wanted snap = {}, *ns;

                if (!start_of(vs, sched)) {
                        /* a real switch: what the scheduler starts with, not what someone set before */
                        if (d->sched_current && streq(d->sched_current, sched) && other_sched(d, sched)) {
                                r = bench_sched_switch(d, other_sched(d, sched), NULL, &why);
                                if (r < 0)
                                        return bench_error_set(
                                                e, BENCH_ERR_SCHED, -r, "%s: cannot switch to %s: %s",
                                                d->name, other_sched(d, sched), why ? why : ios_strerror(r));
                        }
                        r = bench_sched_switch(d, sched, NULL, &why);
                        if (r < 0)
                                return bench_error_set(e, BENCH_ERR_SCHED, -r, "%s: cannot switch to %s: %s",
                                                       d->name, sched, why ? why : ios_strerror(r));
                        r = ios_snapshot_take(d, &snap);
                        if (r < 0)
                                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s: cannot read the state under %s: %s",
                                                       d->name, sched, ios_strerror(r));
                        ns = ios_grow(vs->start, &vs->cap_start, (size_t)vs->n_start + 1, sizeof(*ns));
                        if (!ns) {
                                ios_wanted_done(&snap);
                                return -ENOMEM;
                        }
                        vs->start = ns;
                        vs->start[vs->n_start] = snap;
                        r = ios_strv_pushf(&vs->start_sched, "%s", sched);
                        if (r < 0)
                                return r;
                        vs->n_start++;
                }
                /* every iosched/ file the variant names exists under this scheduler on this kernel */
                for (size_t k = 0; k < vs->v[i].set.n; k++) {
                        const char *key = vs->v[i].set.s[k].key;

                        if (startswith(key, "queue/iosched/") && !ios_wanted_get(start_of(vs, sched), key))
                                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                       "--compare variant '%s': %s on %s has no writable %s",
                                                       vs->v[i].label, sched, d->name, key + strlen("queue/"));
                }
        }
        return r < 0 ? r : 0;
}

void bench_variant_json(FILE *f, const struct bench_variant *v, const char *indent)
{
        fprintf(f, "%s\"scheduler\" : ", indent);
        bench_json_string(f, v->sched);
        fprintf(f, ",\n%s\"tunables\" : {", indent);
        for (size_t k = 0; k < v->set.n; k++) {
                fputs(k ? ", " : " ", f);
                bench_json_string(f, v->set.s[k].key);
                fputs(" : ", f);
                bench_json_string(f, v->set.s[k].value);
        }
        fprintf(f, "%s},\n%s\"left_at_default\" : [", v->set.n ? " " : "", indent);
        for (size_t k = 0; k < v->left.n; k++) {
                fputs(k ? ", { \"key\" : " : " { \"key\" : ", f);
                bench_json_string(f, v->left.s[k].key);
                fputs(", \"value\" : ", f);
                bench_json_string(f, v->left.s[k].value);
                fputs(", \"why\" : ", f);
                bench_json_string(f, v->left.s[k].source);
                fputs(" }", f);
        }
        fprintf(f, "%s],\n", v->left.n ? " " : "");
}

/*
 * Whether the kernel refuses value for key under sched but takes it under another scheduler d
 * offers (nr_requests=1024: beyond the tag depth under none, fine under mq-deadline): the
 * candidate's limit, not the policy's error.  A value every scheduler refuses is written and
 * refused, and stops the comparison, as apply would refuse it.
 */
static bool refused_here_only(struct ios_device *d, const char *key, const char *value, const char *sched,
                              char *why, size_t len)
{
        char other[160];

        if (ios_tunable_refused(d, key, value, sched, why, len) != 1)
                return false;
        for (char **s = d->sched_avail; s && *s; s++)
                if (!streq(*s, sched) && ios_tunable_refused(d, key, value, *s, other, sizeof(other)) == 0)
                        return true;
        return false;
}

int bench_variant_switch(struct bench_variants *vs, unsigned i, struct ios_device *d,
                         const struct ios_wanted *extra, char **ret_msg)
{
        struct bench_variant *v = &vs->v[i];
        const struct ios_wanted *start = start_of(vs, v->sched);
        struct ios_wanted w = {};
        int r = 0;

        /* the variant's own values, then the policy's, then what the scheduler starts with */
        for (size_t k = 0; k < v->set.n && r >= 0; k++)
                r = ios_wanted_set(&w, v->set.s[k].key, v->set.s[k].value, "--compare");
        for (size_t k = 0; extra && k < extra->n && r >= 0; k++) {
                const char *key = extra->s[k].key, *value = extra->s[k].value;
                char why[160];

                if (streq(key, "scheduler") || ios_wanted_get(&w, key))
                        continue;
                if (refused_here_only(d, key, value, v->sched, why, sizeof(why)))
                        r = ios_wanted_set(&v->left, key, value, why);  /* the scheduler's default stays */
                else
                        r = ios_wanted_set(&w, key, value, extra->s[k].source);
        }
        for (size_t k = 0; start && k < start->n && r >= 0; k++) {
                const char *key = start->s[k].key;
                bool reset = false;

                /* the variant writes a key that makes the kernel reset this one: the kernel's value counts */
                for (size_t j = 0; j < v->set.n && !reset; j++)
                        reset = ios_tunable_reset_on(d, key, v->set.s[j].key);
                if (reset)
                        continue;
                if ((startswith(key, "queue/iosched/") || streq(key, "queue/nr_requests") ||
                     ios_strv_contains(vs->queue_keys, key)) && !ios_wanted_get(&w, key))
                        r = ios_wanted_set(&w, key, start->s[k].value, "scheduler start value");
        }
        if (r >= 0)
                r = bench_sched_switch(d, v->sched, &w, ret_msg);
        else if (ret_msg)
                *ret_msg = NULL;
        ios_wanted_done(&w);
        return r;
}

/* One "FILE=value" line of what the kernel shows; "(unreadable: why)" when it will not say. */
static int shown(struct ios_device *d, const char *key, char ***l)
{
        _cleanup_free_ char *text = NULL, *now = NULL;
        char **avail = NULL;
        int r;

        r = ios_sysfs_read_string(d->fd, key, &text);
        if (r == 0 && streq(key, "queue/scheduler")) {
                r = ios_sched_parse(text, &now, &avail);
                ios_strv_free(avail);
        }
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return ios_strv_pushf(l, "%s=(unreadable: %s)", key, ios_strerror(r));
        return ios_strv_pushf(l, "%s=%s", key, now ? now : text);
}

int bench_variant_shown(const struct bench_variants *vs, unsigned i, struct ios_device *d, char ***ret,
                        struct bench_error *e)
{
        const struct bench_variant *v = &vs->v[i];
        char **l = NULL;
        int r = shown(d, "queue/scheduler", &l);

        for (size_t k = 0; k < v->set.n && r >= 0; k++)
                r = shown(d, v->set.s[k].key, &l);
        if (r < 0) {
                ios_strv_free(l);
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s: %s", d->name, ios_strerror(r));
        }
        *ret = l;
        return 0;
}

static int moved(char * const *before, char * const *after, char **ret_msg)
{
        char **l = NULL;

        *ret_msg = NULL;
        for (size_t k = 0; before[k] && after[k]; k++) {
                const char *eq = strchr(before[k], '=');
                int len = (int)(eq - before[k]);

                if (!streq(before[k], after[k]) &&
                    ios_strv_pushf(&l, "%.*s went from \"%s\" to \"%s\"", len, before[k], eq + 1,
                                   after[k] + len + 1) < 0) {
                        ios_strv_free(l);
                        return -ENOMEM;
                }
        }
        if (!l)
                return 0;
        *ret_msg = ios_strv_join(l, ", ");
        ios_strv_free(l);
        return *ret_msg ? 1 : -ENOMEM;
}

int bench_variant_kept(const struct bench_variants *vs, unsigned i, struct ios_device *d, char * const *before,
                       const char *what, struct bench_error *e)
{
        _cleanup_(ios_strv_freep) char **after = NULL;
        _cleanup_free_ char *why = NULL;
        int r = bench_variant_shown(vs, i, d, &after, e);

        if (r < 0)
                return r;
        r = moved(before, after, &why);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s: %s", d->name, ios_strerror(r));
        if (r > 0)
                return bench_error_set(e, BENCH_ERR_SCHED, ESTALE,
                                       "%s: %s during the %s: another program changed it "
                                       "(a udev rule, ioschedd, TuneD?); no result is given for it",
                                       d->name, why, what);
        return 0;
}
