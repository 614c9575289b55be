/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply.c: compare what a disk has with what the policy wants (the plan),
 * then write it in the only order the kernel allows: the scheduler first
 * (a switch recreates queue/iosched/ with defaults and resets
 * nr_requests), then nr_requests, the other queue/ tunables, and last the
 * iosched/ tunables of the scheduler that actually ended up active.
 *
 * The scheduler is checked against the list the kernel offers before it is
 * written.  On the running system a blk-mq scheduler built as a module
 * (bfq, kyber) may be written while unlisted: the kernel loads it; if that
 * fails (EINVAL) the next preference is tried.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/utsname.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "apply-internal.h"
#include "grow.h"
#include "strv.h"

static int add_change(struct ios_plan *pl, const char *key, const char *cur, const char *want,
                      const char *source, enum ios_change_state st)
{
        struct ios_change *nc = ios_grow(pl->c, &pl->cap, pl->n + 1, sizeof(*nc));

        if (!nc)
                return -ENOMEM;
        pl->c = nc;
        nc = &pl->c[pl->n++];
        *nc = (struct ios_change){
                .key = strdup(key),
                .current = cur ? strdup(cur) : NULL,
                .wanted = want ? strdup(want) : NULL,
                .source = source ? strdup(source) : NULL,
                .state = st,
        };
        /* a copy that failed would read as "unknown": no memory is an error */
        return nc->key && (!cur || nc->current) && (!want || nc->wanted) && (!source || nc->source) ? 0 : -ENOMEM;
}



/*
 * Can the running kernel load a module at all?  Not when it is built
 * without module support (no /proc/modules) or loading is switched off
 * (kernel.modules_disabled=1): a scheduler it does not list then never
 * comes, whatever the module tree holds.
 */
static bool kernel_loads_modules(struct ios_device *d)
{
        char buf[8] = "";
        int fd = ios_ctx_open(d->ctx, "/proc/modules", O_RDONLY);
        ssize_t n;

        if (fd < 0)
                return errno != ENOENT;
        close(fd);
        fd = ios_ctx_open(d->ctx, "/proc/sys/kernel/modules_disabled", O_RDONLY);
        if (fd < 0)
                return true;
        n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        return !(n > 0 && buf[0] == '1');
}

/*
 * Blk-mq schedulers built as modules are not listed until loaded, but the
 * kernel loads them on write.  Count one as a choice only if the kernel
 * loads modules and its module is installed for the running kernel: else
 * --check would report drift forever (the best offered choice is in force).
 */
static char **loadable_scheds(struct ios_device *d, char * const *prefs)
{
        static const char * const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
        int tree = -1;          /* module tree readable? -1: not looked yet */
        char **l = NULL;
        struct utsname u;

        if (!ios_ctx_is_host(d->ctx))
                return NULL;
        for (char * const *p = prefs; p && *p; p++) {
                const char *name = ios_sched_alias(*p, false) ?: *p, *mod = ios_sched_module(name);

                /* the usual case, every preference listed, costs nothing */
                if (!mod || ios_strv_contains(d->sched_avail, name) || ios_strv_contains(l, name))
                        continue;
                if (tree < 0 && !kernel_loads_modules(d))
                        break;
                if (tree < 0) {
                        /* no module tree to look at (hardened unit with
                         * ProtectKernelModules=, minimal initramfs): let the
                         * kernel decide, and fall back on EINVAL at the write */
                        _cleanup_free_ char *dir = NULL;
                        int fd;

                        if (uname(&u) < 0 || asprintf(&dir, "/lib/modules/%s/kernel", u.release) < 0)
                                break;
                        fd = ios_ctx_open(d->ctx, dir, O_PATH | O_DIRECTORY);
                        tree = fd >= 0;
                        if (fd >= 0)
                                close(fd);
                }
                if (!tree) {
                        (void)ios_strv_push(&l, strdup(name));
                        continue;
                }
                for (size_t i = 0; i < ELEMENTSOF(ext); i++) {
                        _cleanup_free_ char *path = NULL;
                        int fd;

                        if (asprintf(&path, "/lib/modules/%s/kernel/block/%s%s", u.release, mod, ext[i]) < 0)
                                break;
                        fd = ios_ctx_open(d->ctx, path, O_PATH);
                        if (fd >= 0) {
                                close(fd);
                                (void)ios_strv_push(&l, strdup(name));
                                break;
                        }
                }
        }
        return l;
}

/* Is chosen the scheduler named, or its twin of the other family (mq-deadline, deadline)? */
static bool same_family(const char *name, const char *chosen)
{
        const char *blk_mq = ios_sched_alias(name, false), *legacy = ios_sched_alias(name, true);

        return streq(name, chosen) || (blk_mq && streq(blk_mq, chosen)) || (legacy && streq(legacy, chosen));
}

static int plan_scheduler(struct ios_plan *pl, const struct ios_setting *s, const char **ret_after)
{
        struct ios_device *d = pl->dev;
        _cleanup_(ios_strv_freep) char **prefs = NULL;
        const char *chosen = NULL;
        struct ios_change *c;
        int e;

        *ret_after = d->sched_current;
        if (!s)
                return 0;
        if (!d->sched_current) {
                e = add_change(pl, "scheduler", NULL, s->value, s->source, IOS_CHANGE_SKIPPED);
                if (e >= 0)
                        ios_apply_msg(&pl->c[pl->n - 1], "no scheduler to choose (bio-based queue)");
                return e;
        }
        e = ios_strv_split(s->value, " \t", &prefs);
        if (e < 0)
                return e;
        e = ios_strv_split(s->value, " \t", &pl->sched_prefs);
        if (e < 0)
                return e;
        {
                _cleanup_(ios_strv_freep) char **loadable = loadable_scheds(d, prefs);
                e = ios_sched_choose(prefs, d->sched_avail, loadable, &chosen);
        }
        if (e < 0) {
                _cleanup_free_ char *avail = ios_strv_join(d->sched_avail, " ");

                e = add_change(pl, "scheduler", d->sched_current, s->value, s->source, IOS_CHANGE_FAILED);
                if (e < 0)
                        return e;
                c = &pl->c[pl->n - 1];
                c->error = -EINVAL;
                ios_apply_msg(c, "cannot set scheduler \"%s\": not offered by kernel (available: %s)",
                           s->value, avail ? avail : "");
                return 0;
        }
        e = add_change(pl, "scheduler", d->sched_current, chosen, s->source,
                       streq(chosen, d->sched_current) ? IOS_CHANGE_OK : IOS_CHANGE_DRIFT);
        if (e < 0)
                return e;
        /* a preference list: the first choice's absence said once (explain, -J), never as drift */
        if (prefs[0] && prefs[1] && !same_family(prefs[0], chosen))
                ios_apply_msg(&pl->c[pl->n - 1], "first choice \"%s\" not offered by the kernel "
                              "(nor loadable): \"%s\" is its best", prefs[0], chosen);
        if (!ios_sched_name_known(chosen))
                e = ios_strv_pushf(&pl->notes, "scheduler \"%s\" (%s) is not in iosched's table (out of tree?); "
                                   "the kernel offers it, so it is used", chosen, s->source);
        if (e < 0)
                return e;
        *ret_after = pl->c[pl->n - 1].wanted;
        return 0;
}

/*
 * A queue/iosched/ key that the scheduler sched does not have: known only
 * when the table knows sched (an out-of-tree scheduler's files are tried,
 * and a missing one is "not offered").
 */
static bool not_tunable_of(const char *sched, const char *tun)
{
        return !sched || (ios_sched_tunables_known(sched) && !ios_iosched_tunable_of(sched, tun));
}

int ios_plan_build(const struct ios_policy *p, struct ios_device *d, struct ios_plan *ret)
{
        struct ios_wanted w = {};
        int e;

        assert(p && d && ret);
        e = ios_policy_resolve(p, d, &w);
        if (e < 0)
                return e;
        e = ios_plan_from_settings(d, &w, ret);
        ios_wanted_done(&w);
        return e;
}

/* A wanted value the running kernel has no file for: skipped, and said (never "ok" in silence). */
static int absent(struct ios_plan *pl, struct ios_change *c)
{
        c->state = IOS_CHANGE_SKIPPED;
        ios_apply_msg(c, "%s is not offered by this kernel or device", c->key);
        /* a disk going away loses its whole queue/: that is no fact about the kernel */
        if (!ios_sysfs_exists(pl->dev->fd, "queue"))
                return 0;
        return ios_strv_pushf(&pl->notes, "%s=%s (%s): not set and not checked: this kernel has no %s",
                              c->key, c->wanted, c->source ? c->source : "-", c->key);
}

/* One wanted setting of the plan, under the key the running kernel has (kernel_key). */
static int plan_setting(struct ios_plan *pl, const struct ios_setting *s, const char *key, const char *after,
                        bool switching, bool nr_requests)
{
        struct ios_device *d = pl->dev;
        _cleanup_free_ char *cur = NULL;
        const char *tun = startswith(key, "queue/iosched/");
        char bound[128];
        int e, r;

        if (tun && not_tunable_of(after, tun)) {
                e = add_change(pl, key, NULL, s->value, s->source, IOS_CHANGE_SKIPPED);
                if (e >= 0)
                        ios_apply_msg(&pl->c[pl->n - 1], "not a tunable of %s",
                                   after ? after : "a queue without scheduler");
                return e;
        }
        if (streq(key, "queue/async_depth") && (!after || streq(after, "none"))) {
                /* 7.2's queue attribute: every scheduler's depth for async requests, EINVAL without one */
                e = add_change(pl, key, NULL, s->value, s->source, IOS_CHANGE_SKIPPED);
                if (e < 0)
                        return e;
                ios_apply_msg(&pl->c[pl->n - 1], "not used without a scheduler: not written");
                return ios_strv_pushf(&pl->notes, "%s=%s (%s): not set and not checked: the queue has no "
                                      "scheduler, and async_depth is a scheduler's", key, s->value,
                                      s->source ? s->source : "-");
        }
        if (tun && switching)
                /* iosched/ is rebuilt by the switch; value unknown until then */
                return add_change(pl, key, NULL, s->value, s->source, IOS_CHANGE_DRIFT);
        r = ios_sysfs_read_string(d->fd, key, &cur);
        if (r == -ENOENT) {
                e = add_change(pl, key, NULL, s->value, s->source, IOS_CHANGE_SKIPPED);
                return e < 0 ? e : absent(pl, &pl->c[pl->n - 1]);
        }
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                /* this setting cannot be judged; the others still can */
                e = add_change(pl, key, NULL, s->value, s->source, IOS_CHANGE_FAILED);
                if (e < 0)
                        return e;
                pl->c[pl->n - 1].error = r;
                ios_apply_msg(&pl->c[pl->n - 1], "cannot read %s: %s", key, ios_strerror(r));
                return 0;
        }
        if (((switching && nr_requests) || !ios_apply_same(d, key, cur, s->value)) &&
            ios_tunable_refused(d, key, s->value, after, bound, sizeof(bound))) {
                /* apply-limits.c: the kernel would refuse it; nothing is written on the disk */
                e = add_change(pl, key, cur, s->value, s->source, IOS_CHANGE_FAILED);
                if (e < 0)
                        return e;
                pl->c[pl->n - 1].error = -EINVAL;
                ios_apply_msg(&pl->c[pl->n - 1], "cannot set %s to \"%s\": value refused by the kernel: %s",
                              key, s->value, bound);
                return 0;
        }
        return add_change(pl, key, cur, s->value, s->source,
                          (switching && nr_requests) || !ios_apply_same(d, key, cur, s->value) ?
                          IOS_CHANGE_DRIFT : IOS_CHANGE_OK);
}

int ios_plan_from_settings(struct ios_device *d, const struct ios_wanted *w_in, struct ios_plan *ret)
{
        struct ios_plan pl = { .dev = d };
        const struct ios_wanted *w = w_in;
        const char *after = NULL;
        struct ios_kver kv = {};
        bool switching;
        int e = 0;

        for (char **n = w->notes; n && *n && e >= 0; n++)
                e = ios_strv_push(&pl.notes, strdup(*n));
        if (e < 0)
                goto fail;
        if (w->nheld) {
                pl.held = calloc(w->nheld, sizeof(*pl.held));
                if (!pl.held) {
                        e = -ENOMEM;
                        goto fail;
                }
                for (; pl.nheld < w->nheld; pl.nheld++) {
                        const struct ios_held *h = &w->held[pl.nheld];

                        pl.held[pl.nheld] = (struct ios_held){ strdup(h->key), strdup(h->source), h->error };
                        if (!pl.held[pl.nheld].key || !pl.held[pl.nheld].source) {
                                pl.nheld++;
                                e = -ENOMEM;
                                goto fail;
                        }
                }
        }

        e = plan_scheduler(&pl, ios_wanted_get(w, "scheduler"), &after);
        if (e < 0)
                goto fail;
        switching = pl.n > 0 && pl.c[0].state == IOS_CHANGE_DRIFT;

        for (int pass = 1; pass <= 4; pass++)
                for (size_t i = 0; i < w->n; i++) {
                        const struct ios_setting *s = &w->s[i];
                        const char *key = ios_apply_kernel_key(d, s->key, &kv);

                        if (ios_apply_rank(d, w, key, &kv) != pass)
                                continue;
                        if (key != s->key &&
                            (e = ios_strv_pushf(&pl.notes, "%s=%s (%s): this kernel keeps it as %s: %s there",
                                                s->key, s->value, s->source, key, "set and checked")) < 0)
                                goto fail;
                        e = plan_setting(&pl, s, key, after, switching, pass == 1);
                        if (e < 0)
                                goto fail;
                }
        *ret = pl;
        return 0;
fail:
        ios_plan_done(&pl);
        return e;
}

static const char *why(int e)
{
        return ios_errno_reason(e);
}

/* The switch: 0 made, 1 nothing to make (the next preference is in force), -errno failed. */
static int write_scheduler(struct ios_plan *pl, struct ios_change *c)
{
        struct ios_device *d = pl->dev;
        int e;

        e = ios_device_write(d, "queue/scheduler", c->wanted);
        if (e == -EINVAL && !ios_strv_contains(d->sched_avail, c->wanted) && pl->sched_prefs) {
                /* an unlisted module the kernel could not load: take the next
                 * preference among what the kernel lists */
                char **rest = pl->sched_prefs;
                const char *next = NULL;

                while (*rest && !streq(*rest, c->wanted) &&
                       !(ios_sched_alias(*rest, false) && streq(ios_sched_alias(*rest, false), c->wanted)))
                        rest++;
                if (*rest && ios_sched_choose(rest + 1, d->sched_avail, NULL, &next) >= 0) {
                        char *n = strdup(next);
                        if (!n)
                                return -ENOMEM;
                        (void)ios_strv_pushf(&pl->notes, "scheduler \"%s\" could not be loaded; using \"%s\"",
                                                     c->wanted, n);
                        free(c->wanted);
                        c->wanted = n;
                        if (d->sched_current && streq(d->sched_current, n)) {
                                c->state = IOS_CHANGE_OK;       /* the best the kernel has is in force */
                                return 1;
                        }
                        e = ios_device_write(d, "queue/scheduler", c->wanted);
                }
        }
        if (e < 0) {
                _cleanup_free_ char *list = ios_strv_join(d->sched_avail, " ");

                c->state = IOS_CHANGE_FAILED;
                c->error = e;
                if (e == -EINVAL)
                        ios_apply_msg(c, "cannot set scheduler \"%s\": not offered by kernel (available: %s)",
                                   c->wanted, list ? list : "");
                else
                        ios_apply_msg(c, "cannot set scheduler \"%s\": %s", c->wanted, why(e));
                return e;
        }
        e = ios_device_refresh_sched(d);
        /* the write went in, so queue/scheduler existed: gone now (an empty
         * list) is the queue unregistered, the disk being removed */
        if (e == 0 && !d->sched_current && d->sched_avail && !d->sched_avail[0])
                e = -ENOENT;
        /* read back: the scheduler the queue has now is the result */
        free(c->after);
        c->after = d->sched_current ? strdup(d->sched_current) : NULL;
        if (e < 0 || !d->sched_current || !streq(d->sched_current, c->wanted)) {
                c->state = IOS_CHANGE_FAILED;
                c->error = e < 0 ? e : -EINVAL;
                if (e < 0)
                        ios_apply_msg(c, "scheduler: cannot read back after writing \"%s\": %s", c->wanted,
                                      why(e));
                else
                        ios_apply_msg(c, "scheduler: kernel kept \"%s\", not \"%s\"",
                                   d->sched_current ? d->sched_current : "(none)", c->wanted);
                return c->error;
        }
        c->state = IOS_CHANGE_APPLIED;
        return 0;
}

/* Errors after which no further write to this disk can work. */
static bool fatal(int e)
{
        enum ios_errno_class k = ios_errno_class(e);

        return k == IOS_ERRNO_GONE || k == IOS_ERRNO_READONLY;
}

/*
 * Write what the plan found different, in the plan's order, and read each
 * attribute back.  After a scheduler switch every later setting is looked
 * at again (the switch resets them).  A setting that is not reached
 * because an earlier write made the disk unusable is NOT_APPLIED, with
 * the reason; nothing is ever left in DRIFT.
 */


int ios_plan_apply(struct ios_plan *pl)
{
        struct ios_device *d = pl->dev;
        _cleanup_free_ char *stop = NULL;       /* why nothing more can be written */
        bool sched_failed = false, switched = false, was_ok;
        const char *reset;
        struct ios_kver kv = {};
        int first = 0;

        /* a value the plan already knows the kernel refuses: nothing is written on the disk,
         * so that it is never left half changed (--dry-run said the same) */
        for (size_t i = 0; i < pl->n && !stop; i++)
                if (pl->c[i].state == IOS_CHANGE_FAILED && pl->c[i].error == -EINVAL &&
                    asprintf(&stop, "%s=%s would be refused by the kernel, so nothing is written on "
                             "this disk", pl->c[i].key, pl->c[i].wanted ? pl->c[i].wanted : "") < 0)
                        stop = NULL;
        for (size_t i = 0; i < pl->n; i++) {
                struct ios_change *c = &pl->c[i];
                const char *tun = startswith(c->key, "queue/iosched/");
                int e;

                if (c->state == IOS_CHANGE_FAILED && !first)
                        first = c->error;
                if (c->state == IOS_CHANGE_FAILED || c->state == IOS_CHANGE_SKIPPED)
                        continue;
                if (stop || (sched_failed && tun)) {
                        if (c->state == IOS_CHANGE_DRIFT) {
                                c->state = IOS_CHANGE_NOT_APPLIED;
                                ios_apply_msg(c, "not applied: %s",
                                              stop ? stop : "the scheduler switch failed");
                        }
                        continue;
                }
                if (streq(c->key, "scheduler")) {
                        if (c->state != IOS_CHANGE_DRIFT)
                                continue;
                        e = write_scheduler(pl, c);
                        if (e < 0) {
                                sched_failed = true;
                                if (!first)
                                        first = e;
                                if (fatal(e) && asprintf(&stop, "%s", why(e)) < 0)
                                        stop = NULL;
                        } else if (e == 0)
                                switched = true;
                        continue;
                }
                reset = ios_apply_reset_by_write(pl, i, &kv);
                if (c->state == IOS_CHANGE_OK && !switched && !reset)
                        continue;
                if (tun && d->sched_current && not_tunable_of(d->sched_current, tun)) {
                        /* the switch fell back to another scheduler */
                        c->state = IOS_CHANGE_SKIPPED;
                        ios_apply_msg(c, "not a tunable of %s", d->sched_current);
                        continue;
                }
                /* in place before, but a write before it makes the kernel recompute it: look again */
                was_ok = c->state == IOS_CHANGE_OK;
                e = ios_apply_write_setting(d, c, switched || reset);
                if (e == 1 && absent(pl, c) < 0)
                        return -ENOMEM;
                if (e == 0 && reset && was_ok && c->state == IOS_CHANGE_APPLIED &&
                    ios_strv_pushf(&pl->notes,
                                   "%s: in place until the write of %s made the kernel recompute it; "
                                   "written again after it",
                                   c->key, reset) < 0)
                        return -ENOMEM;
                if (e < 0) {
                        if (!first)
                                first = e;
                        if (fatal(e) && asprintf(&stop, "%s", why(e)) < 0)
                                stop = NULL;
                }
        }
        if (!stop) {
                int e = ios_apply_settle(pl);

                if (e < 0 && !first)
                        first = e;
        }
        if (first) {
                pl->error = first;
                for (size_t i = 0; i < pl->n; i++)
                        if (pl->c[i].state == IOS_CHANGE_FAILED && pl->c[i].msg) {
                                free(pl->error_msg);
                                pl->error_msg = strdup(pl->c[i].msg);
                                break;
                        }
        }
        return first;
}

const char *ios_change_line(const struct ios_change *c, char *buf, size_t n)
{
        const char *before = c->current ? c->current :
                             c->state == IOS_CHANGE_DRIFT ? "(after switch)" : "(default)";
        const char *after = c->state == IOS_CHANGE_APPLIED && c->after ? c->after : c->wanted;

        const char *why = after && c->wanted ? ios_tunable_kept_why(c->key, after, c->wanted) : NULL;
        int k = snprintf(buf, n, "%s: %s -> %s (%s)", c->key, before, after ? after : "-",
                         c->source ? c->source : "-");

        /* say why the number is not the one asked for: the kernel keeps it in a form of its own */
        if (why && streq(why, "its next tick") && k >= 0 && (size_t)k < n)
                snprintf(buf + k, n - (size_t)k, "; the kernel keeps %s ms as %s, its next tick", c->wanted, after);
        else if (why && k >= 0 && (size_t)k < n)
                snprintf(buf + k, n - (size_t)k, "; kept as %s: %s", after, why);
        return buf;
}

size_t ios_plan_count(const struct ios_plan *pl, enum ios_change_state st)
{
        size_t n = 0;

        for (size_t i = 0; i < pl->n; i++)
                n += pl->c[i].state == st;
        return n;
}

bool ios_plan_compliant(const struct ios_plan *pl)
{
        return !pl->error && !ios_plan_count(pl, IOS_CHANGE_DRIFT) &&
               !ios_plan_count(pl, IOS_CHANGE_FAILED) && !ios_plan_count(pl, IOS_CHANGE_NOT_APPLIED);
}

void ios_plan_done(struct ios_plan *pl)
{
        for (size_t i = 0; i < pl->n; i++) {
                free(pl->c[i].key);
                free(pl->c[i].current);
                free(pl->c[i].wanted);
                free(pl->c[i].after);
                free(pl->c[i].source);
                free(pl->c[i].msg);
        }
        free(pl->c);
        for (size_t i = 0; i < pl->nheld; i++) {
                free(pl->held[i].key);
                free(pl->held[i].source);
        }
        free(pl->held);
        ios_strv_free(pl->notes);
        ios_strv_free(pl->sched_prefs);
        free(pl->error_msg);
        *pl = (struct ios_plan){ .dev = pl->dev };
}
