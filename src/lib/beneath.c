/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * beneath.c: how an attribute is opened below a disk's directory (or any
 * directory root.c opened inside the root).  No link is followed, on the way
 * or at the end: openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS) where the
 * kernel has it, else one component at a time with O_NOFOLLOW (root.c says
 * which, once per process).  A data open gets a regular file only: it is
 * looked at through O_PATH first, so a device node is never opened, then
 * opened O_NONBLOCK|O_NOCTTY (a FIFO never blocks) and checked again on the
 * descriptor that is used.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <linux/openat2.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"
#include "nodefree-internal.h"

/* The only kind of file an attribute, a udev database entry or a policy file may be. */
int ios_fd_verify_regular(int fd)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISREG(st.st_mode))
                return 0;
        if (S_ISLNK(st.st_mode))
                return -ELOOP;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        return -EBADFD;         /* a FIFO, socket or device node */
}

int ios_open_checked(int (*open_once)(void *arg, const char *path, int flags), void *arg,
                     const char *path, int flags)
{
        int fd, e;

        if (flags & (O_PATH | O_DIRECTORY))
                return open_once(arg, path, flags);
        fd = open_once(arg, path, O_PATH);
        if (fd < 0)
                return fd;
        e = ios_fd_verify_regular(fd);
        close(fd);
        if (e < 0)
                return e;
        fd = open_once(arg, path, flags | O_NONBLOCK | O_NOCTTY);
        if (fd < 0)
                return fd;
        e = ios_fd_verify_regular(fd);
        if (e < 0) {
                close(fd);
                return e;
        }
        return fd;
}

static bool beneath_force_walk;
static unsigned n_beneath_openat2, n_beneath_walk;


/* A relative path below a directory: no "..", no empty or absolute name. */
static int check_beneath_path(const char *path)
{
        if (!path || !*path || path[0] == '/')
                return -EINVAL;
        for (const char *c = path; c; ) {
                size_t n = strcspn(c, "/");

                if (n == 2 && c[0] == '.' && c[1] == '.')
                        return -EINVAL;
                c = c[n] ? c + n + 1 : NULL;
        }
        return 0;
}

/*
 * The fallback of ios_open_beneath(): one component at a time, each with
 * O_NOFOLLOW, so a link anywhere on the way ends the lookup (ELOOP) as
 * RESOLVE_NO_SYMLINKS does.  O_PATH|O_NOFOLLOW would open a link itself, so
 * every descriptor is checked not to be one.
 */
static int open_beneath_walk(int dirfd, const char *path, int flags)
{
        char buf[PATH_MAX];
        int cur = dirfd;

        if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
                return -ENAMETOOLONG;
        for (char *p = buf, *next;; p = next) {
                char *slash = strchr(p, '/');
                bool last;
                struct stat st;
                int fd;

                next = NULL;
                if (slash) {
                        *slash = '\0';
                        next = slash + 1;
                        while (*next == '/')
                                next++;         /* "a//b" */
                }
                last = !next || !*next;         /* "queue/" is "queue" */
                fd = openat(cur, p, (last ? flags : O_PATH | O_DIRECTORY) | O_CLOEXEC | O_NOFOLLOW);
                if (fd < 0) {
                        fd = -errno;
                        /* a link where a directory is wanted: ENOTDIR here, ELOOP from openat2 */
                        if (fd == -ENOTDIR && fstatat(cur, p, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
                            S_ISLNK(st.st_mode))
                                fd = -ELOOP;
                }
                if (fd >= 0 && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
                        close(fd);
                        fd = -ELOOP;
                }
                if (cur != dirfd)
                        close(cur);
                if (fd < 0 || last)
                        return fd;
                cur = fd;
        }
}

static int open_beneath_once(int dirfd, const char *path, int flags)
{
        /* no O_NOFOLLOW: with O_PATH it would open a trailing link itself */
        struct open_how how = {
                .flags = (uint64_t)(flags | O_CLOEXEC),
                .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
        };
        int fd;

        if (!ios_openat2_missing() && !beneath_force_walk) {
                fd = ios_openat2_retry(dirfd, path, &how);
                if (fd >= 0 || !ios_openat2_unusable()) {
                        n_beneath_openat2++;
                        return fd >= 0 ? fd : -errno;
                }
        }
        n_beneath_walk++;
        return open_beneath_walk(dirfd, path, flags);
}

static int open_beneath_cb(void *arg, const char *path, int flags)
{
        return open_beneath_once(*(int *)arg, path, flags);
}

int ios_open_beneath(int dirfd, const char *path, int flags)
{
        int e = check_beneath_path(path), fd;

        if (e < 0)
                return e;
        /* a disk's directory on sysfs or a nodev mount: one open (nodefree.c) */
        if (!(flags & (O_PATH | O_DIRECTORY)) && !beneath_force_walk && ios_dirfd_node_free(dirfd)) {
                fd = ios_open_node_free(dirfd, path, flags, RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS);
                if (fd != -IOS_NF_SLOW) {
                        n_beneath_openat2++;
                        return fd;
                }
        }
        return ios_open_checked(open_beneath_cb, &dirfd, path, flags);
}

void ios_beneath_force_walk(bool on)
{
        beneath_force_walk = on;
}

void ios_beneath_counts(unsigned *openat2, unsigned *walk)
{
        *openat2 = n_beneath_openat2;
        *walk = n_beneath_walk;
}

