/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writers-tuned.c: the queue attributes the active TuneD profile writes:
 * [disk] (or type=disk) elevator=, readahead= and readahead_multiply=
 * (plugin_disk.py: the disk's own read_ahead_kb times the factor), and
 * [sysfs] /sys/block/GLOB/queue/ATTR, limited by the section's devices=.
 *
 * Where profiles are, as TuneD looks for them (tuned/consts.py,
 * tuned/profiles/locator.py): TuneD up to 2.22 reads /usr/lib/tuned/NAME
 * and /etc/tuned/NAME; TuneD 2.23 and later reads profile_dirs of
 * /etc/tuned/tuned-main.conf, by default /usr/lib/tuned/profiles and
 * /etc/tuned/profiles.  A later directory takes precedence.  The layout is
 * told by /usr/lib/tuned/profiles (or profile_dirs) being there.
 *
 * include= (TuneD's loader.py): names split at "," or ";", each looked up
 * in the directories from the last one down, skipping a file already read,
 * so /etc/tuned/profiles/X can include X (the packaged X); a "-NAME" that is
 * not there is skipped.  Every file is read at most once, and chains end
 * after MAX_INCLUDE_DEPTH: no loop.  Values are as written (TuneD's
 * ${variables} are not expanded).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"
#include "writers-internal.h"
#include "strv.h"

#define MAX_INCLUDE_DEPTH 8

struct tuned {
        struct ios_writers *ws;
        const char *root;
        char **dirs;            /* in TuneD's order: the last one wins */
        char **read;            /* profile files already read (TuneD's processed_files) */
};

static bool is_dir(const char *root, const char *dir)
{
        _cleanup_free_ char *p = NULL;
        struct stat st;

        if (asprintf(&p, "%s%s", root, dir) < 0)
                return false;
        return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* tuned-main.conf's profile_dirs, or the layout's defaults */
static int profile_dirs(const char *root, char ***ret)
{
        _cleanup_free_ char *path = NULL, *text = NULL;
        int e;

        if (asprintf(&path, "%s/etc/tuned/tuned-main.conf", root) < 0)
                return -ENOMEM;
        if (ios_writers_read_text(path, &text) >= 0)
                for (char *sv = NULL, *l = strtok_r(text, "\n", &sv); l; l = strtok_r(NULL, "\n", &sv)) {
                        char *s = ios_strip(l), *eq = strchr(s, '=');

                        if (*s == '#' || !eq)
                                continue;
                        *eq = '\0';
                        if (!streq(ios_strip(s), "profile_dirs"))
                                continue;
                        e = ios_strv_split(eq + 1, ",; \t", ret);
                        if (e < 0)
                                return e;
                        if (*ret)
                                return 0;
                }
        if (is_dir(root, "/usr/lib/tuned/profiles"))
                return ios_strv_split("/usr/lib/tuned/profiles /etc/tuned/profiles", " ", ret);
        return ios_strv_split("/usr/lib/tuned /etc/tuned", " ", ret);
}

/* The profile's tuned.conf, from the last directory down, not one read already; NULL: none. */
static int find_profile(struct tuned *t, const char *name, char **ret)
{
        size_t n = ios_strv_length(t->dirs);

        *ret = NULL;
        if (!*name || strchr(name, '/') || streq(name, "..") || streq(name, "."))
                return 0;
        while (n-- > 0) {
                char *p;
                struct stat st;

                if (asprintf(&p, "%s%s/%s/tuned.conf", t->root, t->dirs[n], name) < 0)
                        return -ENOMEM;
                if (!ios_strv_contains(t->read, p) && stat(p, &st) == 0 && S_ISREG(st.st_mode)) {
                        *ret = p;
                        return 0;
                }
                free(p);
        }
        return 0;
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
 * may come after the keys they qualify).
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
                bool multiply = false;

                if (streq(type, "disk")) {
                        if (streq(kv[i].k, "elevator"))
                                attr = "queue/scheduler";
                        else if (streq(kv[i].k, "readahead"))
                                attr = "queue/read_ahead_kb";
                        else if (streq(kv[i].k, "readahead_multiply"))
                                attr = "queue/read_ahead_kb", multiply = true;
                } else if (streq(type, "sysfs") && !sysfs_queue_key(kv[i].k, &glob, &attr))
                        attr = NULL;
                if (!attr)
                        continue;
                e = ios_writers_add(ws, "tuned", profile, glob ? glob : devices, attr, kv[i].v, path,
                                    kv[i].line);
                if (e < 0)
                        return e;
                if (multiply)
                        ws->w[ws->n - 1].op = IOS_WRITER_MULTIPLY;
        }
        return 0;
}

static int scan_profile(struct tuned *t, const char *name, unsigned depth)
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
        if (*name == '-')
                name++;         /* a conditional include: skipped when not there, as any missing one here */
        e = find_profile(t, name, &path);
        if (e < 0)
                return e;
        if (!path)
                return 0;       /* a profile that is not there writes nothing */
        e = ios_strv_push(&t->read, strdup(path));
        if (e < 0)
                return e;
        if (ios_writers_read_text(path, &text) < 0)
                return 0;
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
                                e = flush_section(t->ws, name, path, section, kv, n);
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
                        e = ios_strv_split(kv[n].v, ",; \t", &includes);
                        if (e < 0)
                                return e;
                        continue;
                }
                n++;
        }
        /* what an included profile sets is set too (the including one wins, but both write) */
        for (char **inc = includes; inc && *inc; inc++) {
                e = scan_profile(t, *inc, depth + 1);
                if (e < 0)
                        return e;
        }
        return 0;
}

int ios_writers_scan_tuned(struct ios_writers *ws, const char *root)
{
        _cleanup_free_ char *path = NULL, *active = NULL;
        _cleanup_(ios_strv_freep) char **names = NULL, **dirs = NULL, **read = NULL;
        struct tuned t = { ws, root, NULL, NULL };
        int e;

        if (asprintf(&path, "%s/etc/tuned/active_profile", root) < 0)
                return -ENOMEM;
        if (ios_writers_read_text(path, &active) < 0)
                return 0;       /* TuneD not installed or no profile active */
        e = ios_strv_split(active, " \t\n", &names);
        if (e >= 0)
                e = profile_dirs(root, &dirs);
        t.dirs = dirs;
        for (char **n = names; e >= 0 && n && *n; n++)
                e = scan_profile(&t, *n, 0);
        read = t.read;
        return e < 0 ? e : 0;
}
