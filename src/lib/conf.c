/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * conf.c: the policy file format (policy-files.c reads the files).
 *
 *   [Match]            every line is a condition; all must hold (AND);
 *   Class=ssd nvme     values in one line are alternatives (OR, globs);
 *   Name=!sd*          a leading "!" negates the line
 *   [Set]
 *   Scheduler=kyber mq-deadline none     first one the kernel offers wins
 *   queue/read_ahead_kb=1024
 *   queue/iosched/read_expire=300
 *   [Daemon]
 *   DriftInterval=30s
 *
 * A [Match] after a [Set] starts the next rule.  Errors name file:line and
 * leave the policy untouched; unknown keys, classes and schedulers are
 * errors, never skipped.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "policy-internal.h"
#include "grow.h"
#include "strv.h"

static const char * const match_names[_IOS_MK_MAX] = {
        [IOS_MK_CLASS] = "Class",         [IOS_MK_NAME] = "Name",
        [IOS_MK_VENDOR] = "Vendor",       [IOS_MK_MODEL] = "Model",
        [IOS_MK_SERIAL] = "Serial",       [IOS_MK_WWN] = "WWN",
        [IOS_MK_DRIVER] = "Driver",       [IOS_MK_TRANSPORT] = "Transport",
        [IOS_MK_PCI] = "PCI",             [IOS_MK_ROTATIONAL] = "Rotational",
        [IOS_MK_ZONED] = "Zoned",         [IOS_MK_REMOVABLE] = "Removable",
        [IOS_MK_SIZE] = "Size",           [IOS_MK_PROPERTY] = "Property",
};

int ios_error_set(struct ios_error *err, const char *file, unsigned line, int code, const char *fmt, ...)
{
        va_list ap;

        if (err) {
                snprintf(err->file, sizeof(err->file), "%s", file ? file : "");
                err->line = line;
                va_start(ap, fmt);
                vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
                va_end(ap);
        }
        return code;
}

const char *ios_error_where(const struct ios_error *e, char *buf, size_t n)
{
        if (e->line)
                snprintf(buf, n, "%s:%u", e->file, e->line);
        else
                snprintf(buf, n, "%s", e->file);
        return buf;
}

/* A diagnostic that does not stop the file from loading: "file:line: message". */
static int warn(struct ios_policy *p, const char *file, unsigned line, const char *fmt, ...)
        __attribute__((format(printf, 4, 5)));
static int warn(struct ios_policy *p, const char *file, unsigned line, const char *fmt, ...)
{
        _cleanup_free_ char *m = NULL;
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (n < 0)
                return -ENOMEM;
        return ios_strv_pushf(&p->warnings, "%s:%u: %s", file, line, m);
}

int ios_conf_add_cond(struct ios_rule *r, const char *file, unsigned line, const char *key, char *val,
                      struct ios_policy *p, struct ios_error *err)
{
        struct ios_cond c = { .max = UINT64_MAX };
        struct ios_cond *nc;
        int k, e;

        for (k = 0; k < _IOS_MK_MAX; k++)
                if (streq(key, match_names[k]))
                        break;
        if (k == _IOS_MK_MAX) {
                const char *near = ios_suggest(key, match_names, _IOS_MK_MAX);

                return ios_error_set(err, file, line, -EINVAL, "unknown key \"%s\" in [Match]%s%s%s", key,
                                     near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
        }
        c.key = (enum ios_match_key)k;
        if (*val == '!') {
                c.negate = true;
                val = ios_strip(val + 1);
        }
        if (!*val)
                return ios_error_set(err, file, line, -EINVAL, "%s= needs a value", key);

        if (c.key == IOS_MK_NAME && strchr(val, '/')) {
                /* a kernel name never has a "/": a path would match nothing, silently */
                const char *base = startswith(val, "/dev/");

                if (base && *base && !strchr(base, '/'))
                        return ios_error_set(err, file, line, -EINVAL,
                                             "Name= takes a kernel name, not a path: did you mean \"Name=%s\"?", base);
                return ios_error_set(err, file, line, -EINVAL,
                                     "Name= takes a kernel name such as sda, not a path (\"%s\"); "
                                     "for a /dev/disk/by-* link match on Serial=, WWN= or Property=", val);
        }
        if (c.key == IOS_MK_PROPERTY) {
                char *eq = strchr(val, '=');
                if (!eq || eq == val)
                        return ios_error_set(err, file, line, -EINVAL, "Property= wants KEY=GLOB, got \"%s\"", val);
                c.prop = strndup(val, (size_t)(eq - val));
                val = eq + 1;
        }
        if (c.key == IOS_MK_SIZE) {
                char *dash = strchr(val, '-');
                _cleanup_free_ char *lo = dash ? strndup(val, (size_t)(dash - val)) : strdup(val);
                const char *hi = dash ? dash + 1 : NULL;

                if (!lo)
                        return -ENOMEM;
                _cleanup_free_ char *hi_copy = hi ? strdup(hi) : NULL;

                if (hi && !hi_copy)
                        return -ENOMEM;
                hi = hi_copy ? ios_strip(hi_copy) : NULL;
                if ((*lo && ios_conf_parse_size(ios_strip(lo), &c.min) < 0) || (hi && *hi && ios_conf_parse_size(hi, &c.max) < 0) ||
                    (!dash && !*lo))
                        return ios_error_set(err, file, line, -EINVAL,
                                    "Size= wants MIN-MAX with K/M/G/T units (either side may be empty), got \"%s\"", val);
                if (!dash)
                        c.max = c.min;
                if (c.min > c.max)
                        return ios_error_set(err, file, line, -EINVAL, "Size= range is empty: \"%s\"", val);
                p->needs_extra = true;
        } else {
                e = ios_conf_split_words(val, &c.values);
                if (e < 0) {
                        free(c.prop);
                        return e == -EINVAL ? ios_error_set(err, file, line, e, "unterminated quote in %s=", key) : e;
                }
                for (char **v = c.values; v && *v; v++) {
                        const char *bad = NULL;

                        if (c.key == IOS_MK_CLASS && ios_class_from_string(*v) < 0 && !strpbrk(*v, "*?["))
                                bad = "class";
                        else if ((c.key == IOS_MK_ROTATIONAL || c.key == IOS_MK_REMOVABLE) &&
                                 !streq(*v, "0") && !streq(*v, "1"))
                                bad = "boolean (0 or 1)";
                        else if (c.key == IOS_MK_ZONED && ios_zoned_from_string(*v) < 0)
                                bad = "zoned model (none, host-aware, host-managed)";
                        if (bad) {
                                const char *near = c.key == IOS_MK_CLASS ? ios_class_suggest(*v) : NULL;

                                ios_error_set(err, file, line, -EINVAL, "unknown %s \"%s\" in %s=%s%s%s", bad, *v, key,
                                              near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
                                ios_strv_free(c.values);
                                free(c.prop);
                                return -EINVAL;
                        }
                }
                if (c.key == IOS_MK_REMOVABLE)
                        p->needs_extra = true;
        }
        nc = ios_grow(r->conds, &r->capconds, r->nconds + 1, sizeof(*nc));
        if (!nc) {
                ios_strv_free(c.values);
                free(c.prop);
                return -ENOMEM;
        }
        r->conds = nc;
        r->conds[r->nconds++] = c;
        return 0;
}


/* A [Set] key that names the scheduler by the kernel's file or the old boot option: queue/scheduler,
 * elevator (a near miss of Scheduler itself gets the key's own suggestion). */
static bool names_scheduler(const char *key)
{
        const char *base = strrchr(key, '/') ? strrchr(key, '/') + 1 : key;

        return !strcasecmp(base, "elevator") || (strchr(key, '/') && !strcasecmp(base, "scheduler"));
}

static int add_setting(struct ios_rule *r, const char *file, unsigned line, const char *key, char *val,
                       struct ios_policy *p, struct ios_error *err)
{
        _cleanup_free_ char *k = NULL, *source = NULL;
        char msg[256];
        int e;

        if (!*val)
                return ios_error_set(err, file, line, -EINVAL, "%s= needs a value", key);
        if (names_scheduler(key))
                return ios_error_set(err, file, line, -EINVAL, "unknown key \"%s\" in [Set]: did you mean "
                                     "\"Scheduler=%s\"?", key, val);
        if (streq(key, "Scheduler")) {
                _cleanup_(ios_strv_freep) char **l = NULL;
                if (ios_strv_split(val, " \t", &l) < 0)
                        return -ENOMEM;
                for (char **s = l; *s; s++) {
                        if (ios_sched_name_known(*s)) {
                                const char *mq = ios_sched_alias(*s, false);

                                /* a legacy name whose blk-mq twin only stands in for it (cfq) */
                                if (mq && (ios_sched_flags(*s) & IOS_SCHED_TWIN_DIFFERS) &&
                                    warn(p, file, line, "Scheduler=%s: %s is a legacy scheduler; on blk-mq kernels "
                                         "(all since 5.0) it is mapped to %s, a different scheduler", *s, *s, mq) < 0)
                                        return -ENOMEM;
                                continue;
                        }
                        if (ios_sched_name_suggest(*s))
                                return ios_error_set(err, file, line, -EINVAL,
                                            "unknown scheduler \"%s\": did you mean \"%s\"? (known: %s)", *s,
                                            ios_sched_name_suggest(*s), ios_sched_names_text());
                        if (!ios_sched_name_valid(*s))
                                return ios_error_set(err, file, line, -EINVAL,
                                            "invalid scheduler name \"%s\" (known: %s)", *s, ios_sched_names_text());
                        /* out-of-tree schedulers: used where the kernel offers them */
                        if (warn(p, file, line, "Scheduler=%s: not a scheduler iosched knows; "
                                 "used only on disks whose kernel offers it", *s) < 0)
                                return -ENOMEM;
                }
                k = strdup("scheduler");
        } else if (startswith(key, "queue/")) {
                e = ios_tunable_check(key, val, msg, sizeof(msg));
                if (e == -ENOENT) {
                        char nb[96];
                        const char *near = ios_tunable_suggest(key, nb, sizeof(nb));

                        return ios_error_set(err, file, line, -EINVAL, "unknown %s tunable \"%s\"%s%s%s",
                                    startswith(key, "queue/iosched/") ? "scheduler" : "queue", key,
                                    near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
                }
                if (e < 0)
                        return ios_error_set(err, file, line, -EINVAL, "%s", msg);
                k = strdup(key);
        } else {
                char nb[96];
                const char *near = NULL;

                /* a tunable without its directory: read_ahead_kb for queue/read_ahead_kb */
                for (const char *dir = "queue/"; !near && dir; dir = streq(dir, "queue/") ? "queue/iosched/" : NULL) {
                        snprintf(nb, sizeof(nb), "%s%s", dir, key);
                        if (!strchr(key, '/') && ios_tunable_known(nb))
                                near = nb;
                }
                for (const char *dir = "queue/"; !near && !strchr(key, '/') && dir;
                     dir = streq(dir, "queue/") ? "queue/iosched/" : NULL) {
                        char full[96];

                        snprintf(full, sizeof(full), "%s%s", dir, key);
                        near = ios_tunable_suggest(full, nb, sizeof(nb));
                }
                if (!near)
                        near = ios_tunable_suggest(key, nb, sizeof(nb));
                return ios_error_set(err, file, line, -EINVAL, "unknown key \"%s\" in [Set]%s%s%s", key,
                                     near ? ": did you mean \"" : "", near ? near : "", near ? "\"?" : "");
        }
        if (!k || asprintf(&source, "%s:%u", file, line) < 0)
                return -ENOMEM;
        /* a key set twice in one rule: the later line wins */
        return ios_wanted_set(&r->set, k, val, source);
}

void ios_rule_done(struct ios_rule *r)
{
        for (size_t i = 0; i < r->nconds; i++) {
                ios_strv_free(r->conds[i].values);
                free(r->conds[i].prop);
        }
        ios_wanted_done(&r->set);
        free(r->conds);
        free(r->source);
        *r = (struct ios_rule){};
}

/*
 * A queue/iosched/ tunable that none of the rule's own schedulers has is
 * never written: say so once, where it is set.  Rules without Scheduler=
 * (their tunables go with whatever another rule chose) and rules naming an
 * out-of-tree scheduler (its files are unknown) are not judged.
 */
static int check_rule(struct ios_policy *p, const struct ios_rule *r)
{
        _cleanup_(ios_strv_freep) char **scheds = NULL;
        const struct ios_setting *sched = ios_wanted_get(&r->set, "scheduler");

        if (!sched)
                return 0;
        if (ios_strv_split(sched->value, " \t", &scheds) < 0)
                return -ENOMEM;
        for (char **n = scheds; *n; n++)
                if (!ios_sched_tunables_known(*n))
                        return 0;
        for (size_t i = 0; i < r->set.n; i++) {
                const struct ios_setting *set = &r->set.s[i];
                const char *t = startswith(set->key, "queue/iosched/");
                bool has = false;

                for (char **n = scheds; t && *n && !has; n++)
                        has = ios_iosched_tunable_of(*n, t) ||
                              ios_iosched_tunable_of(ios_sched_alias(*n, false), t) ||
                              ios_iosched_tunable_of(ios_sched_alias(*n, true), t);
                if (t && !has &&
                    ios_strv_pushf(&p->warnings, "%s: %s is not a tunable of %s (Scheduler=%s at %s): it is never written",
                                   set->source, set->key,
                                   ios_strv_length(scheds) == 1 ? scheds[0] : "any of them",
                                   sched->value, sched->source) < 0)
                        return -ENOMEM;
        }
        return 0;
}

static int push_rule(struct ios_policy *p, struct ios_rule *r)
{
        struct ios_rule *nr = ios_grow(p->rules, &p->caprules, p->nrules + 1, sizeof(*nr));

        if (!nr)
                return -ENOMEM;
        p->rules = nr;
        p->rules[p->nrules++] = *r;
        *r = (struct ios_rule){};
        return 0;
}

/* One ios_policy_parse() in progress: the scratch policy and where the reader is. */
struct parse {
        struct ios_policy tmp;          /* what the text gives; p is changed only at the end */
        struct ios_rule cur;                /* the rule being read */
        const char *name;
        unsigned line;
        enum { S_NONE, S_MATCH, S_SET, S_DAEMON } sect;
        bool in_rule, have_set, drift_set;
        struct ios_error *err;
};

/* The rule read so far is complete: judge it and keep it. */
static int end_rule(struct parse *ps)
{
        int e = check_rule(&ps->tmp, &ps->cur);

        if (e >= 0)
                e = push_rule(&ps->tmp, &ps->cur);
        ps->in_rule = ps->have_set = false;
        return e;
}

/* A "[Section]" line, l its text without blanks around it. */
static int parse_section(struct parse *ps, char *l)
{
        size_t n = strlen(l);

        if (l[n - 1] != ']')
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL, "section header without closing ]");
        l[n - 1] = '\0';
        l++;
        if (streq(l, "Match")) {
                if (ps->in_rule && ps->have_set) {
                        int e = end_rule(ps);

                        if (e < 0)
                                return e;
                }
                ps->sect = S_MATCH;
        } else if (streq(l, "Set")) {
                ps->sect = S_SET;
                ps->have_set = true;
        } else if (streq(l, "Daemon")) {
                ps->sect = S_DAEMON;
                return 0;
        } else {
                static const char * const sections[] = { "Match", "Set", "Daemon" };
                const char *near = ios_suggest(l, sections, ELEMENTSOF(sections));

                if (near)
                        return ios_error_set(ps->err, ps->name, ps->line, -EINVAL,
                                             "unknown section [%s]: did you mean [%s]?", l, near);
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL,
                                     "unknown section [%s] (known: Match, Set, Daemon)", l);
        }
        if (!ps->in_rule) {
                ps->in_rule = true;
                if (asprintf(&ps->cur.source, "%s:%u", ps->name, ps->line) < 0)
                        return -ENOMEM;
        }
        return 0;
}

/* A [Daemon] line. */
static int parse_daemon(struct parse *ps, const char *key, const char *val)
{
        if (!streq(key, "DriftInterval"))
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL, "unknown key \"%s\" in [Daemon]%s", key,
                                     ios_near_miss(key, "DriftInterval") ? ": did you mean \"DriftInterval\"?" : "");
        if (ios_parse_interval_ms(val, &ps->tmp.drift_ms) < 0)
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL,
                                     "DriftInterval= wants a time such as 500ms, 30s, 2min or off, got \"%s\"", val);
        ps->drift_set = true;
        return 0;
}

/* A "KEY=VALUE" line, l its text without blanks around it. */
static int parse_assignment(struct parse *ps, char *l)
{
        char *eq = strchr(l, '='), *key, *val;

        if (!eq)
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL,
                                     "expected KEY=VALUE or [Section], got \"%s\"", l);
        *eq = '\0';
        key = ios_strip(l);
        val = ios_strip(eq + 1);
        ios_conf_cut_comment(val);
        switch (ps->sect) {
        case S_MATCH:
                return ios_conf_add_cond(&ps->cur, ps->name, ps->line, key, val, &ps->tmp, ps->err);
        case S_SET:
                return add_setting(&ps->cur, ps->name, ps->line, key, val, &ps->tmp, ps->err);
        case S_DAEMON:
                return parse_daemon(ps, key, val);
        case S_NONE:
        default:
                return ios_error_set(ps->err, ps->name, ps->line, -EINVAL, "\"%s=\" outside of a section", key);
        }
}

/* Every line of copy (cut in place). */
static int parse_lines(struct parse *ps, char *copy)
{
        for (char *l = copy, *nl; l; l = nl) {
                int e;

                nl = strchr(l, '\n');
                if (nl)
                        *nl++ = '\0';
                ps->line++;
                if ((size_t)((nl ? nl - 1 : l + strlen(l)) - l) > IOS_POLICY_LINE_MAX)
                        return ios_error_set(ps->err, ps->name, ps->line, -EFBIG, "line longer than %u KiB",
                                             IOS_POLICY_LINE_MAX / 1024);
                l = ios_strip(l);
                if (!*l || *l == '#' || *l == ';')
                        continue;
                e = *l == '[' ? parse_section(ps, l) : parse_assignment(ps, l);
                if (e < 0)
                        return e;
        }
        if (ps->in_rule && !ps->have_set) {
                unsigned at = 0;
                const char *colon = strrchr(ps->cur.source, ':');

                if (colon)
                        at = (unsigned)atoi(colon + 1);
                return ios_error_set(ps->err, ps->name, at, -EINVAL, "[Match] has no [Set] section");
        }
        return ps->in_rule ? end_rule(ps) : 0;
}

/* The scratch policy's rules, warnings and [Daemon] into p. */
static int commit(struct ios_policy *p, struct parse *ps)
{
        struct ios_policy *tmp = &ps->tmp;
        struct ios_rule *nr = ios_grow(p->rules, &p->caprules, p->nrules + tmp->nrules + 1, sizeof(*nr));

        if (!nr)
                return -ENOMEM;
        p->rules = nr;
        if (tmp->nrules)
                memcpy(p->rules + p->nrules, tmp->rules, tmp->nrules * sizeof(*p->rules));
        p->nrules += tmp->nrules;
        free(tmp->rules);
        tmp->rules = NULL;
        tmp->nrules = 0;
        p->needs_extra |= tmp->needs_extra;
        for (size_t i = 0; tmp->warnings && tmp->warnings[i]; i++)
                if (ios_strv_push_fast(&p->warnings, &p->nwarnings, &p->capwarnings,
                                       TAKE_PTR(tmp->warnings[i])) < 0) {
                        ios_strv_free(tmp->warnings + i + 1);
                        free(tmp->warnings);
                        tmp->warnings = NULL;
                        return -ENOMEM;
                }
        if (ps->drift_set)
                p->drift_ms = tmp->drift_ms;
        return 0;
}

/* Parse into a scratch policy first, so an error leaves p as it was. */
int ios_policy_parse(struct ios_policy *p, const char *name, const char *text, struct ios_error *err)
{
        struct parse ps = { .name = name, .err = err };
        _cleanup_free_ char *copy = strdup(text);
        int e;

        if (!copy)
                return -ENOMEM;
        if (strlen(copy) > IOS_POLICY_FILE_MAX)
                return ios_error_set(err, name, 0, -EFBIG, "policy file larger than %u KiB",
                                     IOS_POLICY_FILE_MAX / 1024);
        /* a UTF-8 byte-order mark (Windows editors, some tools) is no part of the first line: skipped, said */
        if (!strncmp(copy, "\xef\xbb\xbf", 3)) {
                memmove(copy, copy + 3, strlen(copy + 3) + 1);
                e = warn(&ps.tmp, name, 1, "a UTF-8 byte-order mark at the start of the file is skipped");
                if (e < 0)
                        return e;
        }
        e = parse_lines(&ps, copy);
        if (e >= 0)
                e = commit(p, &ps);
        ios_rule_done(&ps.cur);
        for (size_t i = 0; i < ps.tmp.nrules; i++)
                ios_rule_done(&ps.tmp.rules[i]);
        free(ps.tmp.rules);
        ios_strv_free(ps.tmp.warnings);
        return e;
}
