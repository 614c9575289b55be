/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy.c: the policy object (built-in rules, lifecycle), which rules
 * match a disk, and the merged settings it gets.
 * Rules apply in order (built-in, then files by name); a later matching
 * rule overrides an earlier one key by key, and every value remembers the
 * file:line that set it.  One safety rule sits above all files: before
 * Linux 6.10, host-managed zoned disks need mq-deadline (zone write
 * locking), whatever a rule says.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "policy-internal.h"
#include "grow.h"
#include "strv.h"

static bool glob_any(char * const *globs, const char *s)
{
        if (!s)
                return false;
        for (; globs && *globs; globs++)
                if (fnmatch(*globs, s, 0) == 0)
                        return true;
        return false;
}

static bool cond_holds(const struct ios_cond *c, const struct ios_device *d)
{
        const char *s = NULL;
        char buf[16];
        bool m;

        switch (c->key) {
        case IOS_MK_CLASS: s = ios_class_to_string(d->cls); break;
        case IOS_MK_NAME: s = d->name; break;
        case IOS_MK_VENDOR: s = d->vendor; break;
        case IOS_MK_MODEL: s = d->model; break;
        case IOS_MK_SERIAL: s = d->serial; break;
        case IOS_MK_WWN: s = d->wwn; break;
        case IOS_MK_DRIVER: s = d->driver; break;
        case IOS_MK_TRANSPORT: s = d->tran; break;
        case IOS_MK_PCI: s = d->pci_id; break;
        case IOS_MK_ZONED: s = ios_zoned_to_string(d->zoned); break;
        case IOS_MK_PROPERTY: s = ios_props_get(&d->props, c->prop); break;
        case IOS_MK_ROTATIONAL:
        case IOS_MK_REMOVABLE: {
                int v = c->key == IOS_MK_ROTATIONAL ? d->rotational : d->removable;
                if (v >= 0) {
                        snprintf(buf, sizeof(buf), "%d", v);
                        s = buf;
                }
                break;
        }
        case IOS_MK_SIZE:
                m = d->size >= c->min && d->size <= c->max;
                return c->negate ? !m : m;
        default:
                return false;
        }
        m = glob_any(c->values, s);
        return c->negate ? !m : m;
}

static bool rule_matches(const struct ios_rule *r, const struct ios_device *d)
{
        for (size_t i = 0; i < r->nconds; i++)
                if (!cond_holds(&r->conds[i], d))
                        return false;
        return true;
}

static void drop_held(struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; i < w->nheld; i++)
                if (streq(w->held[i].key, key)) {
                        free(w->held[i].key);
                        free(w->held[i].source);
                        w->held[i--] = w->held[--w->nheld];
                }
}

/* key (NULL: every one, "*") is held on this disk by error i: what earlier rules set does not count */
static int hold(const struct ios_policy *p, struct ios_wanted *w, const char *key, size_t i)
{
        struct ios_held *nh;
        char where[300];

        ios_wanted_unset(w, key);
        drop_held(w, key ? key : "*");
        nh = ios_grow(w->held, &w->capheld, w->nheld + 1, sizeof(*nh));
        if (!nh)
                return -ENOMEM;
        w->held = nh;
        w->held[w->nheld] = (struct ios_held){ strdup(key ? key : "*"),
                                               strdup(ios_error_where(&p->errors[i], where, sizeof(where))), i };
        w->nheld++;
        return w->held[w->nheld - 1].key && w->held[w->nheld - 1].source ? 0 : -ENOMEM;
}

int ios_policy_resolve(const struct ios_policy *p, const struct ios_device *d, struct ios_wanted *ret)
{
        struct ios_wanted w = {};
        bool skipped_builtin = false;
        int e = 0;

        assert(p && d && ret);
        /* a file whose [Match] cannot be read: no disk is changed */
        if (p->hold_everything) {
                e = hold(p, &w, NULL, p->hold_error);
                if (e < 0) {
                        ios_wanted_done(&w);
                        return e;
                }
                *ret = w;
                return 0;
        }
        for (size_t i = 0; i < p->nrules && e >= 0; i++) {
                const struct ios_rule *r = &p->rules[i];

                if (!rule_matches(r, d))
                        continue;
                /* dm-multipath inserts its I/O below a path's scheduler: not ours to set */
                if (d->mpath_path && startswith(r->source, "built-in:")) {
                        skipped_builtin = true;
                        continue;
                }
                if (r->hold) {
                        /* a broken file: what it names stays as the disk has it */
                        if (r->hold_every_key)
                                e = hold(p, &w, NULL, r->error);
                        for (size_t k = 0; k < r->set.n && e >= 0 && !r->hold_every_key; k++)
                                e = hold(p, &w, r->set.s[k].key, r->error);
                        continue;
                }
                /* a later file's rule still wins over a broken one, as it would over a fixed one */
                for (size_t k = 0; k < r->set.n && e >= 0; k++) {
                        drop_held(&w, r->set.s[k].key);
                        e = ios_wanted_set(&w, r->set.s[k].key, r->set.s[k].value, r->set.s[k].source);
                        IOS_TRACE("%s: %s = %s (%s)", d->name, r->set.s[k].key, r->set.s[k].value ?: "(none)",
                                  r->set.s[k].source);
                }
        }

        if (e >= 0 && skipped_builtin)
                e = ios_strv_pushf(&w.notes, "path of dm-multipath device %s: its scheduler is bypassed, so the "
                                   "built-in rules leave it alone (a site rule may still name it)",
                                   d->mpath_holder ? d->mpath_holder : "(udev DM_MULTIPATH_DEVICE_PATH=1)");
        if (e >= 0 && d->zoned == IOS_ZONED_HOST_MANAGED) {
                unsigned maj = 0, min = 0;

                bool known = ios_ctx_kernel_version(d->ctx, &maj, &min) >= 0;

                if (!known || maj < 6 || (maj == 6 && min < 10)) {
                        const struct ios_setting *sched = ios_wanted_get(&w, "scheduler");
                        const char *was = sched ? sched->value : NULL, *src = sched ? sched->source : NULL;

                        /* note it only when the rule's first choice was something else */
                        if (was && strncmp(was, "mq-deadline", 11) != 0 && strncmp(was, "deadline", 8) != 0) {
                                char kv[32] = "of unknown version";

                                if (known)
                                        snprintf(kv, sizeof(kv), "%u.%u", maj, min);
                                e = ios_strv_pushf(&w.notes,
                                                   "zoned host-managed disk on kernel %s (before 6.10 it needs zone write locking): mq-deadline overrides \"%s\" from %s",
                                                   kv, was, src);
                        }
                        if (e >= 0)
                                e = ios_wanted_set(&w, "scheduler", "mq-deadline deadline",
                                               "built-in (zoned safety rule)");
                }
        }
        if (e < 0) {
                ios_wanted_done(&w);
                return e;
        }
        *ret = w;
        return 0;
}

int ios_policy_unmatched(const struct ios_policy *p, struct ios_device * const *devs, size_t n,
                         char ***ret)
{
        char **l = NULL;
        size_t nl = 0, cap = 0;
        int e;

        for (size_t i = 0; i < p->nrules; i++) {
                const struct ios_rule *r = &p->rules[i];
                bool any = false;

                if (r->hold || startswith(r->source, "built-in:"))
                        continue;
                for (size_t k = 0; k < n && !any; k++)
                        any = rule_matches(r, devs[k]);
                if (any)
                        continue;
                e = ios_strv_push_fast(&l, &nl, &cap, strdup(r->source));
                if (e < 0) {
                        ios_strv_free(l);
                        return e;
                }
        }
        *ret = l;
        return 0;
}

/* ------------------------------------------------------------------ */
/* the policy object: built-in rules, lifecycle                        */
/* ------------------------------------------------------------------ */

/*
 * Optical and floppy drives, stacked and RAM-only kinds get no built-in
 * rule.  A multipath device's Rotational is 1 only when every path spins
 * (classify.c), so the last rule gives a spinning LUN mq-deadline.  The
 * paths of a multipath device are left out of every built-in rule
 * (ios_policy_resolve).  The line numbers of the first rules are kept:
 * sources "built-in:5" and "built-in:9" are in logs and golden files.
 */
static const char builtin_policy[] =
        "# built-in defaults\n"
        "[Match]\nClass=nvme ssd raid virtual multipath ram array\n[Set]\nScheduler=none noop\n"
        "[Match]\nClass=hdd\n[Set]\nScheduler=mq-deadline deadline\n"
        "# a multipath device whose paths all spin\n"
        "[Match]\nClass=multipath\nRotational=1\n[Set]\nScheduler=mq-deadline deadline\n";

bool ios_policy_has_builtin(const struct ios_policy *p)
{
        for (size_t i = 0; i < p->nrules; i++)
                if (!p->rules[i].hold && startswith(p->rules[i].source, "built-in:"))
                        return true;
        return false;
}

const char *ios_policy_builtin_text(void)
{
        return builtin_policy;
}

int ios_policy_new_builtin(struct ios_policy **ret)
{
        struct ios_policy *p = calloc(1, sizeof(*p));
        int e;

        if (!p)
                return -ENOMEM;
        e = ios_policy_parse(p, "built-in", builtin_policy, NULL);
        if (e < 0) {
                ios_policy_free(p);
                return e;
        }
        *ret = p;
        return 0;
}

struct ios_policy *ios_policy_free(struct ios_policy *p)
{
        if (!p)
                return NULL;
        for (size_t i = 0; i < p->nrules; i++)
                ios_rule_done(&p->rules[i]);
        free(p->rules);
        ios_strv_free(p->files);
        ios_strv_free(p->warnings);
        free(p->errors);
        free(p);
        return NULL;
}

char * const *ios_policy_files(const struct ios_policy *p)
{
        return p->files;
}

uint64_t ios_policy_drift_interval_ms(const struct ios_policy *p)
{
        return p->drift_ms;
}

unsigned ios_policy_probe_flags(const struct ios_policy *p)
{
        return p->needs_extra ? IOS_PROBE_EXTRA : 0;
}
