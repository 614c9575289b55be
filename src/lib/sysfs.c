/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sysfs.c: typed reads and writes of attributes relative to a directory fd
 * that root.c opened inside the root.  Every attribute is opened beneath
 * that directory without following any link (ios_open_beneath(): a "queue"
 * or "queue/iosched" link in a --sysroot tree ends the lookup with ELOOP;
 * the caller opens "device" etc. through root.c), must be a regular file
 * (a FIFO, socket or device node is refused before it is opened, -EBADFD),
 * is opened O_NONBLOCK and read up to IOS_SYSFS_ATTR_MAX bytes: a longer
 * one is an error (-EFBIG), never a truncated value.  ios_sysfs_list() is
 * the one directory listing of the library (and of the tools).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "root-internal.h"
#include "grow.h"
#include "strv.h"

/*
 * The largest attribute the kernel hands out: sysfs show() fills one page,
 * and 64 KiB is the largest page size Linux has.
 */
#define IOS_SYSFS_ATTR_MAX (64u * 1024u)

static int check_attr(const char *attr)
{
        if (!attr || !*attr || attr[0] == '/' || strstr(attr, ".."))
                return -EINVAL;
        return 0;
}

/* The rest of an attribute longer than one small read, up to the cap. */
static int read_long(int fd, const char *head, size_t len, char **ret, size_t *ret_len)
{
        /* one byte more than the cap tells a value at the cap from a longer one */
        char *buf = malloc(IOS_SYSFS_ATTR_MAX + 2);

        if (!buf)
                return -ENOMEM;
        memcpy(buf, head, len);
        for (;;) {
                size_t want = IOS_SYSFS_ATTR_MAX + 1 - len;
                ssize_t n = read(fd, buf + len, want);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0 || len + (size_t)n > IOS_SYSFS_ATTR_MAX) {
                        int e = n < 0 ? -errno : -EFBIG;

                        free(buf);
                        return e;
                }
                len += (size_t)n;
                /* sysfs hands out a whole attribute in one read(): no second call */
                if (n == 0 || (size_t)n < want)
                        break;
        }
        *ret = buf;
        *ret_len = len;
        return 0;
}

static int read_string(int dirfd, const char *attr, char **ret)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *big = NULL;
        char small[4096];
        const char *buf = small;
        size_t len;
        ssize_t n;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        fd = ios_open_beneath(dirfd, attr, O_RDONLY);
        if (fd < 0)
                return fd;
        /* most attributes are a few bytes: one read on the stack, a read of less ends it */
        do
                n = read(fd, small, sizeof(small));
        while (n < 0 && errno == EINTR);
        if (n < 0)      /* EAGAIN: a FIFO on a node-free mount, opened once (nodefree.c) */
                return errno == EAGAIN ? ios_fd_verify_regular(fd) ?: -EAGAIN : -errno;
        len = (size_t)n;
        if (len == sizeof(small)) {
                e = read_long(fd, small, len, &big, &len);
                if (e < 0)
                        return e;
                buf = big;
        } else if (len == 0) {
                e = ios_fd_verify_regular(fd);  /* nothing read: a FIFO? */
                if (e < 0)
                        return e;
        }
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
                len--;
        *ret = strndup(buf, len);
        return *ret ? 0 : -ENOMEM;
}

int ios_sysfs_read_string(int dirfd, const char *attr, char **ret)
{
        char path[PATH_MAX], q[256];
        int e;

        assert(ret);
        e = read_string(dirfd, attr, ret);
        IOS_TRACE("read %s: %s", ios_log_path(dirfd, attr, path, sizeof(path)),
                  e < 0 ? ios_strerror(e) : ios_log_quote(*ret, q, sizeof(q)));
        return e;
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

/*
 * One write of value to attr, closed so that store() errors reported at
 * close() are seen.  A fake tree's regular file (regular) is written from
 * its start and cut to the value only after the write went in, so that a
 * failed write leaves it as it was, as a failed store() leaves a sysfs
 * attribute; on sysfs O_TRUNC is a no-op.
 */
static int write_string(int dirfd, const char *attr, const char *value, bool regular)
{
        _cleanup_close_ int fd = -1;
        size_t len = strlen(value);
        ssize_t n;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        fd = ios_open_beneath(dirfd, attr, regular ? O_WRONLY : O_WRONLY | O_TRUNC);
        if (fd < 0)
                return fd;
        n = write(fd, value, len);
        if (n < 0)
                return -errno;
        if ((size_t)n != len)
                return -EIO;
        if (regular && ftruncate(fd, (off_t)len) < 0)
                return -errno;
        e = close(TAKE_FD(fd));
        return e < 0 ? -errno : 0;
}

static int write_said(int dirfd, const char *attr, const char *value, bool regular)
{
        char path[PATH_MAX], q[256];
        int e;

        assert(value);
        e = write_string(dirfd, attr, value, regular);
        IOS_TRACE("write %s: %s: %s", ios_log_path(dirfd, attr, path, sizeof(path)),
                  ios_log_quote(value, q, sizeof(q)), e < 0 ? ios_strerror(e) : "ok");
        return e;
}

int ios_sysfs_write_regular(int dirfd, const char *attr, const char *value)
{
        return write_said(dirfd, attr, value, true);
}

int ios_sysfs_write_string(int dirfd, const char *attr, const char *value)
{
        return write_said(dirfd, attr, value, false);
}

bool ios_sysfs_exists(int dirfd, const char *attr)
{
        int fd;

        if (check_attr(attr) < 0)
                return false;
        fd = ios_open_beneath(dirfd, attr, O_PATH);
        if (fd < 0)
                return false;
        close(fd);
        return true;
}

/*
 * Whether ATTR is there, for a decision that must not be taken on a failed
 * lookup: 1 present, 0 absent (ENOENT, ENOTDIR), else the lookup's error
 * (EMFILE, ENOMEM, ELOOP...), which ios_sysfs_exists() would take for absence.
 */
int ios_sysfs_present(int dirfd, const char *attr)
{
        int fd, e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        fd = ios_open_beneath(dirfd, attr, O_PATH);
        if (fd == -ENOENT || fd == -ENOTDIR)
                return 0;
        if (fd < 0)
                return fd;
        close(fd);
        return 1;
}

/* The last component of a link's target ("driver" -> "ahci"); only ATTR itself may be a link. */
int ios_sysfs_read_link_base(int dirfd, const char *attr, char **ret)
{
        _cleanup_close_ int parent = -1;
        char buf[PATH_MAX];
        const char *b, *base;
        ssize_t n;
        int e;

        e = check_attr(attr);
        if (e < 0)
                return e;
        base = strrchr(attr, '/');
        if (base) {
                _cleanup_free_ char *dir = strndup(attr, (size_t)(base - attr));

                if (!dir)
                        return -ENOMEM;
                parent = ios_open_beneath(dirfd, dir, O_PATH | O_DIRECTORY);
                if (parent < 0)
                        return parent;
                base++;
        } else
                base = attr;
        n = readlinkat(parent >= 0 ? parent : dirfd, base, buf, sizeof(buf) - 1);
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

/* One name into the list (NULL: only counted); 0 or -errno. */
static int list_add(char ***l, size_t *n, size_t *cap, const char *name, bool keep)
{
        if (*n >= (size_t)INT_MAX)
                return -E2BIG;
        if (keep) {
                char **nl = ios_grow(*l, cap, *n + 2, sizeof(char *));

                if (!nl)
                        return -ENOMEM;
                *l = nl;
                nl[*n] = strdup(name);
                nl[*n + 1] = NULL;
                if (!nl[*n])
                        return -ENOMEM;
        }
        (*n)++;
        return 0;
}

/*
 * The directory read with getdents64() on the descriptor itself: no
 * fdopendir() (which adds an fstat and two fcntl calls to every listing).
 */
int ios_sysfs_list(int dirfd, const char *sub, char ***ret_names)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        _cleanup_close_ int fd = -1;
        size_t n = 0, cap = 0;
        char buf[8192] __attribute__((aligned(8)));
        int e;

        e = check_attr(sub);
        if (e < 0)
                return e;
        fd = ios_open_beneath(dirfd, sub, O_RDONLY | O_DIRECTORY);
        if (fd < 0)
                return fd;
        for (;;) {
                ssize_t got = syscall(SYS_getdents64, fd, buf, sizeof(buf));

                if (got < 0 && errno == EINTR)
                        continue;
                if (got < 0)
                        return -errno;
                if (got == 0)
                        break;
                for (ssize_t off = 0; off < got;) {
                        struct dirent64 *de = (struct dirent64 *)(void *)(buf + off);

                        off += de->d_reclen;
                        if (de->d_name[0] == '.')
                                continue;
                        e = list_add(&l, &n, &cap, de->d_name, ret_names != NULL);
                        if (e < 0)
                                return e;
                }
        }
        if (ret_names) {
                if (!l && !(l = calloc(1, sizeof(char *))))
                        return -ENOMEM;
                qsort(l, n, sizeof(char *), cmp_name);
                *ret_names = TAKE_PTR(l);
        }
        return (int)n;
}
