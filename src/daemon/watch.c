/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * watch.c: notice policy edits.  Directories are watched, never files:
 * editors and package managers replace files by rename, which a watch on
 * the old inode would miss.  Each directory's parent is watched for that
 * one name too, so /run/iosched.d created after start is seen; the daemon
 * then rebuilds the whole watch set when it reloads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

#define WATCH_MASK (IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
                    IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

struct entry {
        int wd;                 /* -1 when the directory does not exist (yet) */
        char *dir;
        char *pattern;          /* names in dir that matter */
};

struct iosd_watch {
        int fd;
        struct entry *e;
        size_t n, cap;          /* cap: room in e (ios_grow) */
};

static int add(struct iosd_watch *w, const char *dir, const char *pattern)
{
        struct entry *ne;

        for (size_t i = 0; i < w->n; i++)
                if (streq(w->e[i].dir, dir) && streq(w->e[i].pattern, pattern))
                        return 0;
        ne = ios_grow(w->e, &w->cap, w->n + 1, sizeof(*ne));
        if (!ne)
                return -ENOMEM;
        w->e = ne;
        ne = &w->e[w->n];
        *ne = (struct entry){ .wd = -1, .dir = strdup(dir), .pattern = strdup(pattern) };
        if (!ne->dir || !ne->pattern) {
                free(ne->dir);
                free(ne->pattern);
                return -ENOMEM;
        }
        w->n++;
        ne->wd = inotify_add_watch(w->fd, dir, WATCH_MASK);
        if (ne->wd < 0 && errno != ENOENT && errno != ENOTDIR)
                iosd_log(LOG_WARNING, "cannot watch %s: %m", dir);
        return 0;
}

/* Watch path's directory for path's name. */
static int add_path(struct iosd_watch *w, const char *path)
{
        _cleanup_free_ char *copy = strdup(path);
        char *slash;

        if (!copy)
                return -ENOMEM;
        slash = strrchr(copy, '/');
        if (!slash)
                return add(w, ".", copy);
        *slash = '\0';
        return add(w, slash == copy ? "/" : copy, slash + 1);
}

/* Watch a drop-in directory for its policy files, and its parent for its name. */
static int add_dir(struct iosd_watch *w, const char *dir)
{
        int e;

        e = add_path(w, dir);
        if (e >= 0)
                e = add(w, dir, IOS_POLICY_DROPIN_GLOB);
        return e;
}

int iosd_watch_new(const char *conf_root, const char *file, char * const *extra,
                   struct iosd_watch **ret)
{
        _cleanup_(ios_strv_freep) char **files = NULL, **dirs = NULL;
        struct iosd_watch *w;
        int e;

        /* the library's list of where the policy is read from */
        e = ios_policy_search_paths(conf_root, file, &files, &dirs);
        if (e < 0)
                return e;
        w = calloc(1, sizeof(*w));
        if (!w)
                return -ENOMEM;
        w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (w->fd < 0) {
                e = -errno;
                free(w);
                return e;
        }
        for (char **f = files; e >= 0 && *f; f++)
                e = add_path(w, *f);
        for (char **d = dirs; e >= 0 && *d; d++)
                e = add_dir(w, *d);
        for (char * const *f = extra; e >= 0 && f && *f; f++)
                e = add_path(w, *f);
        if (e < 0) {
                iosd_watch_free(w);
                return e;
        }
        *ret = w;
        return 0;
}

struct iosd_watch *iosd_watch_free(struct iosd_watch *w)
{
        if (!w)
                return NULL;
        for (size_t i = 0; i < w->n; i++) {
                free(w->e[i].dir);
                free(w->e[i].pattern);
        }
        free(w->e);
        if (w->fd >= 0)
                close(w->fd);
        free(w);
        return NULL;
}

int iosd_watch_fd(const struct iosd_watch *w)
{
        return w->fd;
}

size_t iosd_watch_count(const struct iosd_watch *w)
{
        size_t n = 0;

        for (size_t i = 0; i < w->n; i++) {
                bool dup = false;
                if (w->e[i].wd < 0)
                        continue;
                for (size_t j = 0; j < i; j++)
                        dup = dup || w->e[j].wd == w->e[i].wd;
                n += !dup;
        }
        return n;
}

static bool relevant(const struct iosd_watch *w, const struct inotify_event *ev)
{
        if (ev->mask & IN_Q_OVERFLOW)
                return true;
        for (size_t i = 0; i < w->n; i++) {
                if (w->e[i].wd != ev->wd)
                        continue;
                if (ev->len == 0) {
                        /* the watched directory itself went away or moved */
                        if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF))
                                return true;
                        continue;
                }
                if (fnmatch(w->e[i].pattern, ev->name, 0) == 0)
                        return true;
        }
        return false;
}

int iosd_watch_process(struct iosd_watch *w)
{
        union {
                struct inotify_event ev;
                char raw[4096];
        } buf;
        int hit = 0;

        for (;;) {
                ssize_t n = read(w->fd, &buf, sizeof(buf));

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        if (errno == EAGAIN)
                                return hit;
                        return -errno;
                }
                for (char *p = buf.raw; p < buf.raw + n;) {
                        struct inotify_event *ev = (struct inotify_event *)p;

                        if (relevant(w, ev)) {
                                if (iosd_log_enabled(LOG_DEBUG))
                                        iosd_log(LOG_DEBUG, "policy change noticed: %s (mask 0x%x)",
                                                 ev->len ? ev->name : "(directory)", ev->mask);
                                hit = 1;
                        }
                        p += sizeof(*ev) + ev->len;
                }
        }
}
