/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * created.c: the files a run makes (a target we lay out, target.c; the
 * names fio lays out, fio.c), removed by directory handle.  The directory
 * of each is opened (O_PATH) before the run, as the path reads then, and
 * the file is removed with unlinkat() on that handle, only while the
 * entry is still the regular file that was made: its device and inode,
 * from the file we made, or as seen after each fio run (fio may make it
 * anew in each round).  A directory
 * renamed or replaced by a link during the run (a user's own parent
 * directory) then never makes the cleanup remove a file elsewhere: the
 * handle is the directory the name was made in, wherever it went.  Each
 * one is also told to the guard (guard.c, with its directory handle), which
 * removes it by the same rule if iosched-bench is killed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "iosched.h"
#include "macro.h"
#include "grow.h"

struct made {
        char *path;             /* as given, the key */
        char *name;             /* the last component, beneath dfd */
        int dfd;
        dev_t dev;
        ino_t ino;
        bool known;             /* dev and ino recorded */
        bool by_fio;            /* fio makes it, again in each run (unlink=1): recorded after each */
};

static struct made *made;
static size_t nmade, capmade;

/* One handle per directory, shared by the files made in it (numjobs x nrfiles can be a million). */
struct dir {
        char *path;
        int fd;
        size_t refs;
};
static struct dir *dirs;
static size_t ndirs, capdirs, lastdir;
static size_t ntold;            /* files told to the guard, which keeps GUARD_MAX_FILES */

static struct made *find(const char *path)
{
        for (size_t i = 0; i < nmade; i++)
                if (streq(made[i].path, path))
                        return &made[i];
        return NULL;
}

/* The handle of directory path, opened (O_PATH) on its first file; -errno. */
static int dir_get(const char *path)
{
        struct dir *v;

        if (lastdir < ndirs && streq(dirs[lastdir].path, path))
                return dirs[lastdir].refs++, dirs[lastdir].fd;
        for (size_t i = 0; i < ndirs; i++)
                if (streq(dirs[i].path, path)) {
                        lastdir = i;
                        return dirs[i].refs++, dirs[i].fd;
                }
        v = ios_grow(dirs, &capdirs, ndirs + 1, sizeof(*dirs));
        if (!v)
                return -ENOMEM;
        dirs = v;
        dirs[ndirs] = (struct dir){ .path = strdup(path), .fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC), .refs = 1 };
        if (dirs[ndirs].fd < 0 || !dirs[ndirs].path) {
                int e = dirs[ndirs].fd < 0 ? -errno : -ENOMEM;

                if (dirs[ndirs].fd >= 0)
                        close(dirs[ndirs].fd);
                free(dirs[ndirs].path);
                return e;
        }
        lastdir = ndirs;
        return dirs[ndirs++].fd;
}

static void dir_put(int fd)
{
        for (size_t i = 0; i < ndirs; i++)
                if (dirs[i].fd == fd) {
                        if (--dirs[i].refs == 0) {
                                close(fd);
                                free(dirs[i].path);
                                dirs[i] = dirs[--ndirs];
                                lastdir = 0;
                        }
                        return;
                }
}

int bench_created_add(const char *path, int fd)
{
        _cleanup_free_ char *d = strdup(path), *b = strdup(path);
        struct made *m, *v;
        struct stat st, at;

        if (!d || !b)
                return -ENOMEM;
        /* ours are few; fio's names are unique already (fiojob.c) and added once (fio.c) */
        if (fd >= 0 && find(path))
                return 0;
        v = ios_grow(made, &capmade, nmade + 1, sizeof(*made));
        if (!v)
                return -ENOMEM;
        made = v;
        m = &made[nmade];
        *m = (struct made){ .dfd = dir_get(dirname(d)), .by_fio = fd < 0 };
        if (m->dfd < 0)
                return m->dfd == -ENOENT ? 0 : m->dfd;  /* fio would make the directory: not ours to remove */
        m->path = strdup(path);
        m->name = strdup(basename(b));
        if (!m->path || !m->name) {
                free(m->path);
                free(m->name);
                dir_put(m->dfd);
                return -ENOMEM;
        }
        if (fd >= 0) {
                /* ours: the entry must be the file we hold, else someone raced us to the name */
                if (fstat(fd, &st) < 0 || fstatat(m->dfd, m->name, &at, AT_SYMLINK_NOFOLLOW) < 0 ||
                    st.st_dev != at.st_dev || st.st_ino != at.st_ino) {
                        free(m->path);
                        free(m->name);
                        dir_put(m->dfd);
                        return -EEXIST;
                }
                m->dev = st.st_dev;
                m->ino = st.st_ino;
                m->known = true;
        }
        nmade++;
        if (ntold < GUARD_MAX_FILES) {
                ntold++;
                bench_guard_file(m->path, m->dfd, m->dev, m->ino, m->known);  /* removed by the guard after a kill -9 */
        }
        return 0;
}

void bench_created_seen(void)
{
        for (size_t i = 0; i < nmade; i++) {
                struct made *m = &made[i];
                struct stat st;

                if ((m->known && !m->by_fio) || fstatat(m->dfd, m->name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                    !S_ISREG(st.st_mode))
                        continue;
                if (m->known && m->dev == st.st_dev && m->ino == st.st_ino)
                        continue;
                m->dev = st.st_dev;
                m->ino = st.st_ino;
                m->known = true;
                bench_guard_file_seen(m->path, m->dev, m->ino);
        }
}

static int remove_one(struct made *m)
{
        struct stat st;
        int r = 0;

        if (m->known && fstatat(m->dfd, m->name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
            st.st_dev == m->dev && st.st_ino == m->ino)
                r = unlinkat(m->dfd, m->name, 0) == 0 ? 1 : -errno;
        bench_guard_file_gone(m->path);
        dir_put(m->dfd);
        free(m->path);
        free(m->name);
        *m = made[--nmade];
        return r;
}

int bench_created_remove(const char *path)
{
        struct made *m = find(path);

        return m ? remove_one(m) : 0;
}

void bench_created_remove_fio(void)
{
        /* backwards: remove_one() moves the last entry into the slot it frees */
        for (size_t i = nmade; i-- > 0;)
                if (made[i].by_fio)
                        (void)remove_one(&made[i]);
}

void bench_created_remove_all(void)
{
        while (nmade > 0)
                (void)remove_one(&made[nmade - 1]);
        free(made);
        made = NULL;
        nmade = capmade = 0;
}
