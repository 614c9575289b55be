/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysfs.c: typed reads and writes of attributes relative to a directory fd
 * that root.c opened inside the root.  Attribute names never contain ".."
 * and never cross a symlink (the caller opens "device" etc. through root.c),
 * so a plain openat() cannot leave the root.  ios_sysfs_list() is the one
 * directory listing of the library (and of the tools).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"

static int check_attr(const char *attr)
{
        if (!attr || !*attr || attr[0] == '/' || strstr(attr, ".."))
                return -EINVAL;
        return 0;
}

int ios_sysfs_read_string(int dirfd, const char *attr, char **ret)
{
        _cleanup_close_ int fd = -1;
        char buf[4096];
        size_t len = 0;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        fd = openat(dirfd, attr, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        for (;;) {
                size_t want = sizeof(buf) - 1 - len;
                ssize_t n = read(fd, buf + len, want);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                len += (size_t)n;
                /* sysfs hands out a whole attribute in one read(): no second call */
                if (n == 0 || (size_t)n < want || len == sizeof(buf) - 1)
                        break;
        }
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
                len--;
        buf[len] = '\0';
        *ret = strdup(buf);
        return *ret ? 0 : -ENOMEM;
}

int ios_sysfs_read_u64(int dirfd, const char *attr, uint64_t *ret)
{
        _cleanup_free_ char *s = NULL;
        unsigned long long v;
        char *end;
        int e;

        e = ios_sysfs_read_string(dirfd, attr, &s);
        if (e < 0)
                return e;
        if (!*s || s[0] == '-')
                return -EINVAL;
        errno = 0;
        v = strtoull(s, &end, 10);
        if (errno || *end)
                return -EINVAL;
        *ret = v;
        return 0;
}

int ios_sysfs_read_int(int dirfd, const char *attr, int *ret)
{
        _cleanup_free_ char *s = NULL;
        long v;
        char *end;
        int e;

        e = ios_sysfs_read_string(dirfd, attr, &s);
        if (e < 0)
                return e;
        errno = 0;
        v = strtol(s, &end, 10);
        if (!*s || errno || *end || v < INT_MIN || v > INT_MAX)
                return -EINVAL;
        *ret = (int)v;
        return 0;
}

int ios_sysfs_write_string(int dirfd, const char *attr, const char *value)
{
        _cleanup_close_ int fd = -1;
        size_t len = strlen(value);
        ssize_t n;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        /* O_TRUNC is a no-op on sysfs and makes fake trees behave. */
        fd = openat(dirfd, attr, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return -errno;
        n = write(fd, value, len);
        if (n < 0)
                return -errno;
        if ((size_t)n != len)
                return -EIO;
        /* sysfs reports some store() errors only at close(). */
        e = close(TAKE_FD(fd));
        return e < 0 ? -errno : 0;
}

bool ios_sysfs_exists(int dirfd, const char *attr)
{
        struct stat st;

        if (check_attr(attr) < 0)
                return false;
        return fstatat(dirfd, attr, &st, 0) == 0;
}

int ios_sysfs_read_link_base(int dirfd, const char *attr, char **ret)
{
        char buf[PATH_MAX];
        const char *b;
        ssize_t n;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        n = readlinkat(dirfd, attr, buf, sizeof(buf) - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        b = strrchr(buf, '/');
        *ret = strdup(b ? b + 1 : buf);
        return *ret ? 0 : -ENOMEM;
}

static int cmp_name(const void *a, const void *b)
{
        return strcmp(*(char * const *)a, *(char * const *)b);
}

int ios_sysfs_list(int dirfd, const char *sub, char ***ret_names)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *d;
        int fd, e;

        e = check_attr(sub);
        if (e < 0)
                return e;
        fd = openat(dirfd, sub, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
                return -errno;
        d = fdopendir(fd);
        if (!d) {
                e = -errno;
                close(fd);
                return e;
        }
        for (;;) {
                errno = 0;
                de = readdir(d);
                if (!de) {
                        e = -errno;     /* 0 at the end */
                        break;
                }
                if (de->d_name[0] == '.')
                        continue;
                if (n >= (size_t)INT_MAX) {
                        e = -E2BIG;
                        break;
                }
                if (ret_names && n + 1 >= cap) {
                        char **nl;

                        cap = cap ? cap * 2 : 16;
                        nl = realloc(l, cap * sizeof(char *));
                        if (!nl) {
                                e = -ENOMEM;
                                break;
                        }
                        l = nl;
                }
                if (ret_names) {
                        l[n] = strdup(de->d_name);
                        l[n + 1] = NULL;
                        if (!l[n]) {
                                e = -ENOMEM;
                                break;
                        }
                }
                n++;
        }
        closedir(d);
        if (e < 0)
                return e;
        if (ret_names) {
                if (!l && !(l = calloc(1, sizeof(char *))))
                        return -ENOMEM;
                qsort(l, n, sizeof(char *), cmp_name);
                *ret_names = TAKE_PTR(l);
        }
        return (int)n;
}
