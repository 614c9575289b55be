/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writers-udev.c: udev rules that write a disk's queue attributes, and
 * whether each reaches a given disk.
 *
 * Files: every directory udev reads (systemd's CONF_PATHS("udev/rules.d")),
 * /etc, /run, /usr/local/lib, /usr/lib, and /lib (its own directory on an
 * unmerged /usr); a file masks every same-named one in a later directory,
 * and the survivors are read in the order of their names.  iosched's own
 * 60-iosched.rules is left out.
 *
 * Writers: ATTR{queue/...} assignments ("=", and ":=" and "+=", which udev
 * reads as "=" for ATTR with a warning), and a RUN assignment that stops
 * iosched's RUN+= for the disk for good: RUN:= anywhere (final: later
 * RUN+= are ignored; after 60-iosched.rules it also empties the list), or
 * RUN= after 60-iosched.rules (it empties the list).
 *
 * Matches evaluated per disk (ios_writers_eval): KERNEL, SUBSYSTEM
 * ("block"), ACTION ("add" and "change", the events a present disk gets),
 * DRIVER (a disk has none), ENV{} (the disk's uevent file, then the udev
 * database as udev left it after the last event), ATTR{} (its sysfs
 * directory; an attribute that cannot be read fails the rule, as in udev),
 * TEST (a path relative to it), with "|" alternatives, globs and i"..."; and
 * the GOTO/LABEL flow of each file.  Any other match key, or a value with
 * a substitution, is not evaluated: the rule "may" write the disk.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "writers-internal.h"
#include "grow.h"
#include "strv.h"

#define OWN_RULES "60-iosched.rules"

struct umatch {
        char *key;              /* "KERNEL", "ENV", ... */
        char *attr;             /* the {...} part, or NULL */
        char *what;             /* "ENV{ID_FS_TYPE}": said when it cannot be evaluated */
        char *value;
        bool neg, icase;
};

struct urule {
        size_t file;            /* index into files */
        unsigned line;
        struct umatch *m;
        size_t nm;
        char *go, *label;       /* GOTO=, LABEL= */
};

struct ios_udev_rules {
        struct urule *r;
        size_t n, cap;
        char **files;
        size_t *wrule;          /* for each writer of the ios_writers: its rule (TuneD's: SIZE_MAX) */
};

void ios_udev_rules_free(struct ios_udev_rules *u)
{
        if (!u)
                return;
        for (size_t i = 0; i < u->n; i++) {
                for (size_t j = 0; j < u->r[i].nm; j++) {
                        free(u->r[i].m[j].key);
                        free(u->r[i].m[j].attr);
                        free(u->r[i].m[j].what);
                        free(u->r[i].m[j].value);
                }
                free(u->r[i].m);
                free(u->r[i].go);
                free(u->r[i].label);
        }
        free(u->r);
        free(u->wrule);
        ios_strv_free(u->files);
        free(u);
}

/* One KEY{attr}OP"value" of a rule line. */
struct tok {
        char key[32], attr[256], op[3], value[1024];
        bool icase;
};

/* The next token at *p; false at the end of the line or where it makes no sense (udev drops the line). */
static bool next_tok(const char **p, struct tok *t)
{
        const char *s = *p;
        size_t n = 0;

        *t = (struct tok){};
        while (*s == ' ' || *s == '\t' || *s == ',')
                s++;
        if (!*s || *s == '#')
                return false;
        while (isalnum((unsigned char)*s) || *s == '_')
                if (n + 1 < sizeof(t->key))
                        t->key[n++] = *s++;
                else
                        return false;
        if (!n)
                return false;
        if (*s == '{') {
                const char *e = strchr(++s, '}');

                if (!e || (size_t)(e - s) >= sizeof(t->attr))
                        return false;
                memcpy(t->attr, s, (size_t)(e - s));
                s = e + 1;
        }
        while (*s == ' ' || *s == '\t')
                s++;
        if (s[0] && s[1] == '=' && strchr("=!+-:", s[0])) {
                t->op[0] = s[0], t->op[1] = '=';
                s += 2;
        } else if (s[0] == '=') {
                t->op[0] = '=';
                s++;
        } else
                return false;
        while (*s == ' ' || *s == '\t')
                s++;
        for (; isalpha((unsigned char)*s); s++)        /* value prefixes: i"..." (case), e"..." (escapes) */
                if (*s == 'i')
                        t->icase = true;
        if (*s++ != '"')
                return false;
        for (n = 0; *s && *s != '"'; s++) {
                if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
                        s++;
                if (n + 1 >= sizeof(t->value))
                        return false;
                t->value[n++] = *s;
        }
        if (*s != '"')
                return false;
        *p = s + 1;
        return true;
}

static int add_match(struct urule *r, const struct tok *t)
{
        struct umatch *n = realloc(r->m, (r->nm + 1) * sizeof(*n)), *m;

        if (!n)
                return -ENOMEM;
        r->m = n;
        m = &r->m[r->nm++];
        *m = (struct umatch){ .neg = t->op[0] == '!', .icase = t->icase };
        m->key = strdup(t->key);
        m->attr = *t->attr ? strdup(t->attr) : NULL;
        m->value = strdup(t->value);
        if (asprintf(&m->what, "%s%s%s%s", t->key, *t->attr ? "{" : "", t->attr, *t->attr ? "}" : "") < 0)
                m->what = NULL;
        return m->key && (!*t->attr || m->attr) && m->value && m->what ? 0 : -ENOMEM;
}

/* A match key on its own with "=": PROGRAM and IMPORT run something and match on its success. */
static bool assign_is_match(const char *key)
{
        return streq(key, "PROGRAM") || streq(key, "IMPORT");
}

static int parse_rule(struct ios_writers *ws, struct ios_udev_rules *u, size_t file, unsigned line,
                      const char *text, bool after_own)
{
        struct urule *r;
        struct tok t;
        size_t first = ws->n;
        int e;

        r = ios_grow(u->r, &u->cap, u->n + 1, sizeof(*r));
        if (!r)
                return -ENOMEM;
        u->r = r;
        r = &u->r[u->n++];
        *r = (struct urule){ .file = file, .line = line };
        for (const char *p = text; next_tok(&p, &t);) {
                bool match = streq(t.op, "==") || streq(t.op, "!=");

                if (match || assign_is_match(t.key)) {
                        e = add_match(r, &t);
                } else if (streq(t.key, "GOTO")) {
                        free(r->go);
                        e = (r->go = strdup(t.value)) ? 0 : -ENOMEM;
                } else if (streq(t.key, "LABEL")) {
                        free(r->label);
                        e = (r->label = strdup(t.value)) ? 0 : -ENOMEM;
                } else if (streq(t.key, "ATTR") && startswith(t.attr, "queue/") && !streq(t.op, "-=")) {
                        e = ios_writers_add(ws, "udev", NULL, NULL, t.attr, t.value, u->files[file], line);
                        if (e >= 0)
                                ws->w[ws->n - 1].final = streq(t.op, ":=");
                } else if (streq(t.key, "RUN") && (streq(t.op, ":=") || (streq(t.op, "=") && after_own))) {
                        e = ios_writers_add(ws, "udev", NULL, NULL, "*", t.value, u->files[file], line);
                        if (e >= 0) {
                                ws->w[ws->n - 1].op = IOS_WRITER_RUN_FINAL;
                                ws->w[ws->n - 1].final = streq(t.op, ":=");
                        }
                } else
                        e = 0;
                if (e < 0)
                        return e;
        }
        if (ws->n > first) {
                size_t *n = realloc(u->wrule, ws->n * sizeof(*n));

                if (!n)
                        return -ENOMEM;
                u->wrule = n;
        }
        for (size_t i = first; i < ws->n; i++) {
                u->wrule[i] = u->n - 1;
                /* the rule's KERNEL=="glob", for ios_writer_applies()'s look by name alone */
                for (size_t j = 0; j < r->nm; j++)
                        if (streq(r->m[j].key, "KERNEL") && !r->m[j].neg && !ws->w[i].devglob &&
                            !(ws->w[i].devglob = strdup(r->m[j].value)))
                                return -ENOMEM;
        }
        return 0;
}

static int scan_rule_text(struct ios_writers *ws, struct ios_udev_rules *u, size_t file, char *text,
                          bool after_own)
{
        unsigned ln = 0, start;
        char *l = text;
        int e;

        while (l && *l) {
                char *nl = strchr(l, '\n');

                if (nl)
                        *nl = '\0';
                ln++;
                start = ln;
                /* a line ending in a backslash continues on the next */
                while (nl && nl > l && nl[-1] == '\\') {
                        char *next = strchr(nl + 1, '\n');

                        nl[-1] = ' ';
                        *nl = ' ';
                        ln++;
                        if (next)
                                *next = '\0';
                        nl = next;
                }
                while (isspace((unsigned char)*l))
                        l++;
                if (*l && *l != '#') {
                        e = parse_rule(ws, u, file, start, l, after_own);
                        if (e < 0)
                                return e;
                }
                l = nl ? nl + 1 : NULL;
        }
        return 0;
}

/* udev reads the rules of all its directories in the order of their file names */
static int cmp_base(const void *a, const void *b)
{
        const char *x = strrchr(*(char * const *)a, '/'), *y = strrchr(*(char * const *)b, '/');

        return strcmp(x ? x + 1 : *(char * const *)a, y ? y + 1 : *(char * const *)b);
}

int ios_writers_scan_udev(struct ios_writers *ws, const char *root)
{
        /* udev's order of precedence: a same-named file in an earlier directory masks later ones */
        static const char * const dirs[] = { "/etc/udev/rules.d", "/run/udev/rules.d",
                                             "/usr/local/lib/udev/rules.d", "/usr/lib/udev/rules.d",
                                             "/lib/udev/rules.d" };
        _cleanup_(ios_strv_freep) char **seen = NULL, **paths = NULL;
        struct ios_udev_rules *u;
        int e;

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                _cleanup_(ios_strv_freep) char **list = NULL;
                _cleanup_free_ char *dir = NULL;
                _cleanup_close_ int fd = -1;

                if (asprintf(&dir, "%s%s", root, dirs[i]) < 0)
                        return -ENOMEM;
                fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (fd < 0 || ios_sysfs_list(fd, ".", &list) < 0)
                        continue;
                for (char **n = list; n && *n; n++) {
                        size_t l = strlen(*n);

                        if (l < 7 || !streq(*n + l - 6, ".rules") || ios_strv_contains(seen, *n))
                                continue;
                        e = ios_strv_push(&seen, strdup(*n));
                        if (e < 0)
                                return e;
                        if (streq(*n, OWN_RULES))
                                continue;       /* iosched's own rule */
                        e = ios_strv_pushf(&paths, "%s/%s", dir, *n);
                        if (e < 0)
                                return e;
                }
        }
        if (!paths)
                return 0;
        qsort(paths, ios_strv_length(paths), sizeof(char *), cmp_base);
        u = ws->udev = calloc(1, sizeof(*u));
        if (!u || !(u->wrule = malloc((ws->n + 1) * sizeof(*u->wrule))))
                return -ENOMEM;
        for (size_t i = 0; i < ws->n; i++)
                u->wrule[i] = SIZE_MAX;         /* TuneD's */
        u->files = paths;
        paths = NULL;
        for (size_t i = 0; u->files[i]; i++) {
                _cleanup_free_ char *text = NULL;
                const char *base = strrchr(u->files[i], '/') + 1;

                if (ios_writers_read_text(u->files[i], &text) < 0)
                        continue;
                e = scan_rule_text(ws, u, i, text, strcmp(base, OWN_RULES) > 0);
                if (e < 0)
                        return e;
        }
        /* a GOTO with no LABEL after it in its file is ignored by udev */
        for (size_t i = 0; i < u->n; i++) {
                bool found = false;

                for (size_t j = i + 1; u->r[i].go && j < u->n && u->r[j].file == u->r[i].file && !found; j++)
                        found = u->r[j].label && streq(u->r[j].label, u->r[i].go);
                if (u->r[i].go && !found) {
                        free(u->r[i].go);
                        u->r[i].go = NULL;
                }
        }
        return 0;
}

/* ------------------------------------------------------------------ */
/* evaluation against one disk                                         */
/* ------------------------------------------------------------------ */

struct disk {
        struct ios_device *d;
        const char *action;
        char *kernel;           /* udev's sysname: "cciss!c0d0" is "cciss/c0d0" */
        char **uevent;          /* "KEY=value" of the disk's uevent file */
};

/* udev's string match: "|" alternatives, each a glob; "" matches the empty string */
static bool value_matches(const struct umatch *m, const char *s)
{
        _cleanup_free_ char *v = strdup(m->value);
        bool hit = false;

        if (!v)
                return true;
        for (char *a = v, *bar;; a = bar + 1) {
                bar = strchr(a, '|');
                if (bar)
                        *bar = '\0';
                hit = hit || fnmatch(a, s, m->icase ? FNM_CASEFOLD : 0) == 0;
                if (!bar)
                        break;
        }
        return hit != m->neg;
}

static const char *uevent_get(char **l, const char *key)
{
        size_t kl = strlen(key);

        for (; l && *l; l++)
                if (strncmp(*l, key, kl) == 0 && (*l)[kl] == '=')
                        return *l + kl + 1;
        return NULL;
}

static bool plain_relative(const char *a)
{
        return a && *a && *a != '/' && !strstr(a, "..") && !strpbrk(a, "$%*?[");
}

/* One match key against the disk: YES, NO, or MAYBE (not evaluated). */
static enum ios_writer_verdict eval_match(const struct disk *k, const struct umatch *m)
{
        _cleanup_free_ char *buf = NULL;
        const char *s = NULL;
        int e;

        if (strpbrk(m->value, "$%"))
                return IOS_WRITER_MAYBE;        /* a substitution */
        if (streq(m->key, "KERNEL"))
                s = k->kernel;
        else if (streq(m->key, "SUBSYSTEM"))
                s = "block";
        else if (streq(m->key, "ACTION"))
                s = k->action;
        else if (streq(m->key, "DRIVER"))
                s = "";
        else if (streq(m->key, "ENV") && m->attr) {
                s = uevent_get(k->uevent, m->attr);
                if (!s && !k->d->props.kv)
                        return IOS_WRITER_MAYBE;        /* no udev database for it */
                if (!s)
                        s = ios_props_get(&k->d->props, m->attr);
                if (!s)
                        s = "";
        } else if (streq(m->key, "ATTR") && plain_relative(m->attr)) {
                e = ios_sysfs_read_string(k->d->fd, m->attr, &buf);
                if (e == -ENOENT)
                        return IOS_WRITER_NO;   /* udev: an attribute it cannot read does not match */
                if (e < 0)
                        return IOS_WRITER_MAYBE;
                for (size_t l = strlen(buf); l > 0 && isspace((unsigned char)buf[l - 1]); l--)
                        buf[l - 1] = '\0';
                s = buf;
        } else if (streq(m->key, "TEST") && !m->attr && plain_relative(m->value)) {
                return ios_sysfs_exists(k->d->fd, m->value) != m->neg ? IOS_WRITER_YES : IOS_WRITER_NO;
        } else
                return IOS_WRITER_MAYBE;
        return value_matches(m, s) ? IOS_WRITER_YES : IOS_WRITER_NO;
}

static enum ios_writer_verdict eval_rule(const struct disk *k, const struct urule *r, const char **why)
{
        enum ios_writer_verdict v = IOS_WRITER_YES;

        for (size_t i = 0; i < r->nm; i++)
                switch (eval_match(k, &r->m[i])) {
                case IOS_WRITER_NO:
                        return IOS_WRITER_NO;
                case IOS_WRITER_MAYBE:
                        if (v == IOS_WRITER_YES)
                                *why = r->m[i].what;
                        v = IOS_WRITER_MAYBE;
                        break;
                case IOS_WRITER_YES:
                        break;
                }
        return v;
}

/* each rule's verdict for one action, walking each file's GOTO/LABEL flow */
static void eval_action(const struct ios_udev_rules *u, const struct disk *k, struct ios_writer_eval *rv)
{
        const char *skip_to = NULL, *maybe_to = NULL, *maybe_why = NULL;

        for (size_t i = 0; i < u->n; i++) {
                const struct urule *r = &u->r[i];
                const char *why = NULL;
                enum ios_writer_verdict v;

                if (i > 0 && r->file != u->r[i - 1].file)
                        skip_to = maybe_to = NULL;      /* a GOTO never leaves its file */
                if (skip_to && !(r->label && streq(r->label, skip_to))) {
                        rv[i] = (struct ios_writer_eval){ IOS_WRITER_NO, NULL };
                        continue;
                }
                skip_to = NULL;
                if (maybe_to && r->label && streq(r->label, maybe_to))
                        maybe_to = NULL;
                v = eval_rule(k, r, &why);
                if (v != IOS_WRITER_NO && maybe_to) {
                        if (v == IOS_WRITER_YES)
                                why = maybe_why;
                        v = IOS_WRITER_MAYBE;
                }
                rv[i] = (struct ios_writer_eval){ v, why };
                if (r->go && v == IOS_WRITER_YES)
                        skip_to = r->go;
                else if (r->go && v == IOS_WRITER_MAYBE && !maybe_to) {
                        maybe_to = r->go;
                        maybe_why = why;
                }
        }
}

static int read_uevent(struct ios_device *d, char ***ret)
{
        _cleanup_free_ char *text = NULL;
        int e = ios_sysfs_read_string(d->fd, "uevent", &text);

        *ret = NULL;
        if (e < 0)
                return e == -ENOMEM ? e : 0;
        return ios_strv_split(text, "\n", ret);
}

int ios_udev_rules_eval(const struct ios_writers *ws, struct ios_device *d, struct ios_writer_eval *ret)
{
        static const char * const actions[] = { "add", "change" };
        const struct ios_udev_rules *u = ws->udev;
        _cleanup_free_ struct ios_writer_eval *best = NULL, *rv = NULL;
        _cleanup_(ios_strv_freep) char **uevent = NULL;
        _cleanup_free_ char *kernel = NULL;
        int e;

        if (!u || u->n == 0)
                return 0;
        best = calloc(u->n, sizeof(*best));
        rv = calloc(u->n, sizeof(*rv));
        kernel = strdup(d->name);
        if (!best || !rv || !kernel)
                return -ENOMEM;
        for (char *c = kernel; (c = strchr(c, '!'));)
                *c = '/';
        e = read_uevent(d, &uevent);
        if (e < 0)
                return e;
        for (size_t a = 0; a < ELEMENTSOF(actions); a++) {
                struct disk k = { d, actions[a], kernel, uevent };

                eval_action(u, &k, rv);
                /* written at some event: YES over MAYBE over NO */
                for (size_t i = 0; i < u->n; i++)
                        if (rv[i].verdict == IOS_WRITER_YES ||
                            (rv[i].verdict == IOS_WRITER_MAYBE && best[i].verdict == IOS_WRITER_NO))
                                best[i] = rv[i];
        }
        for (size_t i = 0; i < ws->n; i++)
                if (u->wrule[i] < u->n)
                        ret[i] = best[u->wrule[i]];
        return 0;
}
