/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writers.c: who else writes a disk's queue attributes.  The active TuneD
 * profile ([disk] elevator=/readahead=, [sysfs] /sys/block/X/queue/...,
 * following include=) and udev rules assigning ATTR{queue/...} other than
 * iosched's own 60-iosched.rules.  Everything is read under conf_root, so
 * a captured tree shows its own writers.  What a writer does is reported
 * as written: iosched does not evaluate TuneD's variables or udev's
 * matches beyond KERNEL=="glob".
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"

#define MAX_FILE (1 << 20)
#define MAX_INCLUDE_DEPTH 8

/* A rule or profile file: never blocks, a regular file of at most MAX_FILE bytes (readfile.c). */
static int read_text(const char *path, char **ret)
{
        return ios_read_regular_file(path, MAX_FILE, ret, NULL);
}

static int add(struct ios_writers *ws, const char *kind, const char *name, const char *devglob, const char *key,
               const char *value, const char *file, unsigned line)
{
        struct ios_writer *n = ios_grow(ws->w, &ws->cap, ws->n + 1, sizeof(*n));
        struct ios_writer *w;

        if (!n)
                return -ENOMEM;
        ws->w = n;
        w = &ws->w[ws->n];
        *w = (struct ios_writer){ .line = line };
        w->kind = strdup(kind);
        w->name = name ? strdup(name) : NULL;
        w->devglob = devglob ? strdup(devglob) : NULL;
        w->key = strdup(key);
        w->value = strdup(value);
        w->file = strdup(file);
        ws->n++;
        if (!w->kind || (name && !w->name) || (devglob && !w->devglob) || !w->key || !w->value || !w->file)
                return -ENOMEM;
        return 0;
}

/* ------------------------------------------------------------------ */
/* TuneD                                                               */
/* ------------------------------------------------------------------ */

/* conf_root's tuned.conf of a profile: /etc/tuned/NAME first, then /usr/lib/tuned/NAME. */
static int profile_path(const char *root, const char *name, char **ret)
{
        static const char * const dirs[] = { "/etc/tuned", "/usr/lib/tuned" };

        if (!*name || strchr(name, '/') || streq(name, "..") || streq(name, "."))
                return -EINVAL;
        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                char *p;

                if (asprintf(&p, "%s%s/%s/tuned.conf", root, dirs[i], name) < 0)
                        return -ENOMEM;
                if (access(p, R_OK) == 0) {
                        *ret = p;
                        return 0;
                }
                free(p);
        }
        return -ENOENT;
}

/*
 * /sys/block/GLOB/queue/ATTR (TuneD's [sysfs] key) -> "GLOB" and "queue/ATTR";
 * anything else is not about a disk's queue.
 */
static bool sysfs_queue_key(const char *k, char **ret_glob, const char **ret_attr)
{
        const char *s = startswith(k, "/sys/block/"), *q;

        if (!s || !(q = strstr(s, "/queue/")) || q == s)
                return false;
        *ret_glob = strndup(s, (size_t)(q - s));
        *ret_attr = q + 1;
        return *ret_glob != NULL;
}

/* One key=value of a TuneD section, pointing into the profile's text. */
struct kv {
        const char *k, *v;
        unsigned line;
};

/*
 * A section's writers, once the whole section is read (type= and devices=
 * may come after the keys they qualify): [disk] or type=disk elevator= and
 * readahead=, limited by the section's devices=; [sysfs] or type=sysfs
 * /sys/block/GLOB/queue/ATTR keys.
 */
static int flush_section(struct ios_writers *ws, const char *profile, const char *path, const char *section,
                         const struct kv *kv, size_t n)
{
        const char *type = section, *devices = NULL;
        int e;

        for (size_t i = 0; i < n; i++) {
                if (streq(kv[i].k, "type"))
                        type = kv[i].v;
                else if (streq(kv[i].k, "devices") && *kv[i].v)
                        devices = kv[i].v;
        }
        for (size_t i = 0; i < n; i++) {
                _cleanup_free_ char *glob = NULL;
                const char *attr = NULL;

                if (streq(type, "disk")) {
                        if (streq(kv[i].k, "elevator"))
                                attr = "queue/scheduler";
                        else if (streq(kv[i].k, "readahead"))
                                attr = "queue/read_ahead_kb";
                } else if (streq(type, "sysfs") && !sysfs_queue_key(kv[i].k, &glob, &attr))
                        attr = NULL;
                if (!attr)
                        continue;
                e = add(ws, "tuned", profile, glob ? glob : devices, attr, kv[i].v, path, kv[i].line);
                if (e < 0)
                        return e;
        }
        return 0;
}

static int scan_profile(struct ios_writers *ws, const char *root, const char *name, unsigned depth)
{
        _cleanup_free_ char *path = NULL, *text = NULL;
        _cleanup_free_ struct kv *kv = NULL;
        _cleanup_(ios_strv_freep) char **includes = NULL;
        const char *section = NULL;
        unsigned ln = 0;
        size_t n = 0;
        int e;

        if (depth > MAX_INCLUDE_DEPTH)
                return 0;
        e = profile_path(root, name, &path);
        if (e == -ENOMEM)
                return e;
        if (e < 0 || read_text(path, &text) < 0)
                return 0;       /* a profile that is not there writes nothing */
        kv = calloc(strlen(text) / 2 + 1, sizeof(*kv));        /* a key=value line has at least 2 bytes */
        if (!kv)
                return -ENOMEM;
        for (char *cur = text;;) {
                char *s = NULL, *eq;

                if (cur) {
                        char *nl = strchr(cur, '\n');

                        if (nl)
                                *nl++ = '\0';
                        s = ios_strip(cur);
                        cur = nl;       /* NULL after the last line */
                        ln++;
                }
                /* a new section, or the end: the one before is complete */
                if (!s || *s == '[') {
                        if (section) {
                                e = flush_section(ws, name, path, section, kv, n);
                                if (e < 0)
                                        return e;
                        }
                        n = 0;
                        if (!s)
                                break;
                        s[strcspn(s, "]")] = '\0';
                        section = s + 1;
                        continue;
                }
                if (!*s || *s == '#' || *s == ';' || !section || !(eq = strchr(s, '=')))
                        continue;
                *eq = '\0';
                kv[n] = (struct kv){ ios_strip(s), ios_strip(eq + 1), ln };
                if (streq(section, "main") && streq(kv[n].k, "include")) {
                        ios_strv_free(includes);
                        includes = NULL;
                        e = ios_strv_split(kv[n].v, ", \t", &includes);
                        if (e < 0)
                                return e;
                        continue;
                }
                n++;
        }
        /* what an included profile sets is set too (the including one wins, but both write) */
        for (char **inc = includes; inc && *inc; inc++) {
                e = scan_profile(ws, root, *inc, depth + 1);
                if (e < 0)
                        return e;
        }
        return 0;
}

static int scan_tuned(struct ios_writers *ws, const char *root)
{
        _cleanup_free_ char *path = NULL, *active = NULL;
        _cleanup_(ios_strv_freep) char **names = NULL;
        int e;

        if (asprintf(&path, "%s/etc/tuned/active_profile", root) < 0)
                return -ENOMEM;
        if (read_text(path, &active) < 0)
                return 0;       /* TuneD not installed or no profile active */
        e = ios_strv_split(active, " \t\n", &names);
        if (e < 0)
                return e;
        for (char **n = names; n && *n; n++) {
                e = scan_profile(ws, root, *n, 0);
                if (e < 0)
                        return e;
        }
        return 0;
}

/* ------------------------------------------------------------------ */
/* udev rules                                                          */
/* ------------------------------------------------------------------ */

/* The KERNEL=="glob" of a rule line (NULL: the rule does not say). */
static char *rule_kernel_glob(const char *l)
{
        const char *p = strstr(l, "KERNEL==\"");
        const char *e;

        if (!p)
                return NULL;
        p += strlen("KERNEL==\"");
        e = strchr(p, '"');
        return e ? strndup(p, (size_t)(e - p)) : NULL;
}

static int scan_rule_text(struct ios_writers *ws, const char *file, char *text)
{
        unsigned ln = 0, start = 0;
        char *l = text;

        while (l && *l) {
                char *nl = strchr(l, '\n');
                _cleanup_free_ char *glob = NULL;
                const char *p;

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
                p = l;
                while (isspace((unsigned char)*p))
                        p++;
                if (*p != '#') {
                        glob = rule_kernel_glob(p);
                        for (const char *a = strstr(p, "ATTR{queue/"); a; a = strstr(a + 1, "ATTR{queue/")) {
                                const char *k = a + 5, *ke = strchr(k, '}'), *v, *ve;
                                _cleanup_free_ char *key = NULL, *val = NULL;
                                int e;

                                if (!ke || ke[1] != '=' || ke[2] == '=')
                                        continue;       /* a match (==), not an assignment */
                                v = ke + 2;
                                if (*v != '"')
                                        continue;
                                ve = strchr(++v, '"');
                                if (!ve)
                                        continue;
                                key = strndup(k, (size_t)(ke - k));
                                val = strndup(v, (size_t)(ve - v));
                                if (!key || !val)
                                        return -ENOMEM;
                                e = add(ws, "udev", NULL, glob, key, val, file, start);
                                if (e < 0)
                                        return e;
                        }
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

static int scan_udev(struct ios_writers *ws, const char *root)
{
        /* udev's order of precedence: a same-named file in an earlier directory masks later ones */
        static const char * const dirs[] = { "/etc/udev/rules.d", "/run/udev/rules.d", "/usr/lib/udev/rules.d",
                                             "/lib/udev/rules.d" };
        _cleanup_(ios_strv_freep) char **seen = NULL, **paths = NULL;
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
                        if (streq(*n, "60-iosched.rules"))
                                continue;       /* iosched's own rule */
                        e = ios_strv_pushf(&paths, "%s/%s", dir, *n);
                        if (e < 0)
                                return e;
                }
        }
        if (paths)
                qsort(paths, ios_strv_length(paths), sizeof(char *), cmp_base);
        for (char **p = paths; p && *p; p++) {
                _cleanup_free_ char *text = NULL;

                if (read_text(*p, &text) < 0)
                        continue;
                e = scan_rule_text(ws, *p, text);
                if (e < 0)
                        return e;
        }
        return 0;
}

int ios_writers_scan(const char *conf_root, struct ios_writers *ret)
{
        struct ios_writers ws = {};
        const char *root = conf_root ? conf_root : "";
        _cleanup_free_ char *r = strdup(root);
        int e;

        if (!r)
                return -ENOMEM;
        for (size_t l = strlen(r); l > 0 && r[l - 1] == '/'; l--)
                r[l - 1] = '\0';
        e = scan_tuned(&ws, r);
        if (e >= 0)
                e = scan_udev(&ws, r);
        if (e < 0) {
                ios_writers_done(&ws);
                return e;
        }
        *ret = ws;
        return 0;
}

/* TuneD's devices= ("sda,sdb", "!sdc", "sd*") or a udev KERNEL=="glob" against a disk name. */
static bool devglob_matches(const char *glob, const char *dev)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        bool any_positive = false, hit = false;

        if (!glob)
                return true;
        if (ios_strv_split(glob, ",| \t", &l) < 0)
                return true;    /* out of memory: rather name a writer too many */
        for (char **p = l; p && *p; p++) {
                if (**p == '!') {
                        if (fnmatch(*p + 1, dev, 0) == 0)
                                return false;
                        continue;
                }
                any_positive = true;
                hit = hit || fnmatch(*p, dev, 0) == 0;
        }
        return any_positive ? hit : true;
}

bool ios_writer_applies(const struct ios_writer *w, const char *dev, const char *key)
{
        if (key && !streq(w->key, key))
                return false;
        return devglob_matches(w->devglob, dev);
}

const char *ios_writer_line(const struct ios_writer *w, char *buf, size_t n)
{
        if (streq(w->kind, "tuned"))
                snprintf(buf, n, "TuneD profile %s sets %s=%s (%s:%u)", w->name ? w->name : "?", w->key, w->value,
                         w->file, w->line);
        else
                snprintf(buf, n, "udev rule sets ATTR{%s}=\"%s\" (%s:%u)", w->key, w->value, w->file, w->line);
        return buf;
}

void ios_writers_done(struct ios_writers *ws)
{
        for (size_t i = 0; i < ws->n; i++) {
                free(ws->w[i].kind);
                free(ws->w[i].name);
                free(ws->w[i].devglob);
                free(ws->w[i].key);
                free(ws->w[i].value);
                free(ws->w[i].file);
        }
        free(ws->w);
        *ws = (struct ios_writers){};
}
