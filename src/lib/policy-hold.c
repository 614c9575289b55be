/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-hold.c: what a broken policy file still says.  A file with an
 * error gives no rule, but it must not let the disks it was written for
 * fall through to lower rules or the built-in ones: a typo in the file
 * that put a RAID LD on mq-deadline must not switch it to none.  So the
 * file is read a second time, leniently: each rule's [Match] (read as
 * conf.c reads it) and the keys its [Set] names become a hold rule, which
 * leaves those settings as the disk has them (policy.c).  What cannot be
 * told holds more: a [Set] line whose key is unknown (a typo of which
 * setting?) holds every setting
 * of that rule's disks; a [Match] line with an error, a line outside a
 * rule, a file too large or unreadable hold everything (holds_all).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "policy-internal.h"
#include "grow.h"
#include "strv.h"

static int hold_key(struct ios_rule *r, const char *key)
{
        /* what is held is the key: no value, no source */
        return ios_wanted_get(&r->set, key) ? 0 : ios_wanted_set(&r->set, key, NULL, NULL);
}

static int push_hold(struct ios_policy *p, struct ios_rule *r)
{
        struct ios_rule *nr;

        if (!r->set.n && !r->hold_every_key) {
                ios_rule_done(r);       /* names nothing: holds nothing */
                return 0;
        }
        nr = ios_grow(p->rules, &p->caprules, p->nrules + 1, sizeof(*nr));
        if (!nr)
                return -ENOMEM;
        p->rules = nr;
        p->rules[p->nrules++] = *r;
        *r = (struct ios_rule){};
        return 0;
}

/* Everything: no disk changes while this error stands. */
static int hold_all(struct ios_policy *p, size_t error)
{
        if (!p->hold_everything) {
                p->hold_everything = true;
                p->hold_error = error;
        }
        p->errors[error].holds_all = true;
        return 0;
}

int ios_policy_hold(struct ios_policy *p, const char *name, const char *text, size_t error)
{
        enum { S_NONE, S_MATCH, S_SET, S_OTHER } sect = S_NONE;
        _cleanup_free_ char *copy = NULL;
        struct ios_rule cur = {};
        bool in_rule = false, have_set = false, whole = false;
        unsigned line = 0;
        size_t first = p->nrules;
        int e = 0;

        if (!text || p->errors[error].code == -EFBIG)
                return hold_all(p, error);
        copy = strdup(text);
        if (!copy)
                return -ENOMEM;
        for (char *l = copy, *nl; l && !whole && e >= 0; l = nl) {
                char *eq, *key, *val;

                nl = strchr(l, '\n');
                if (nl)
                        *nl++ = '\0';
                line++;
                l = ios_strip(l);
                if (!*l || *l == '#' || *l == ';')
                        continue;
                if (*l == '[') {
                        size_t n = strlen(l);

                        if (streq(l, "[Match]") || streq(l, "[Set]")) {
                                /* as conf.c: a [Match] after a [Set] starts the next rule */
                                if (in_rule && have_set && l[1] == 'M') {
                                        e = push_hold(p, &cur);
                                        in_rule = have_set = false;
                                }
                                if (!in_rule)
                                        cur = (struct ios_rule){ .hold = true, .error = error };
                                in_rule = true;
                                have_set = have_set || l[1] == 'S';
                                sect = l[1] == 'M' ? S_MATCH : S_SET;
                        } else if (streq(l, "[Daemon]"))
                                sect = S_OTHER;
                        else if (in_rule && l[n - 1] == ']') {
                                cur.hold_every_key = true;      /* a misspelt [Set]? */
                                have_set = true;
                                sect = S_SET;
                        } else
                                whole = true;
                        continue;
                }
                eq = strchr(l, '=');
                if (sect == S_OTHER)
                        continue;               /* [Daemon]: no disk setting */
                if (sect == S_NONE || (!eq && sect == S_MATCH)) {
                        whole = true;
                        continue;
                }
                if (!eq) {
                        cur.hold_every_key = true;
                        continue;
                }
                *eq = '\0';
                key = ios_strip(l);
                val = ios_strip(eq + 1);
                ios_conf_cut_comment(val);
                if (sect == S_MATCH) {
                        e = ios_conf_add_cond(&cur, name, line, key, val, p, NULL);
                        if (e == -EINVAL) {
                                whole = true;
                                e = 0;
                        }
                } else if (streq(key, "Scheduler"))
                        e = hold_key(&cur, "scheduler");
                else if (ios_tunable_known(key))
                        e = hold_key(&cur, key);
                else
                        cur.hold_every_key = true;      /* a misspelt key: which one it meant is not known */
        }
        if (e >= 0 && in_rule && !whole)
                e = push_hold(p, &cur);
        ios_rule_done(&cur);
        if (e < 0 || whole) {
                /* what was added of this file goes: it holds everything instead */
                for (size_t i = first; i < p->nrules; i++)
                        ios_rule_done(&p->rules[i]);
                p->nrules = first;
        }
        if (e < 0)
                return e;
        if (whole)
                return hold_all(p, error);
        p->errors[error].holds_nothing = p->nrules == first;
        return 0;
}
