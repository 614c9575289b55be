/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * benchlock.c: the lock iosched-bench holds on a disk while it switches the
 * disk's scheduler (src/bench/lock.c takes it), and the question the other
 * writers ask before they touch that disk: is a benchmark on it?  ioschedd
 * yields to it (its drift check would otherwise put the policy's scheduler
 * back in the middle of a --compare, and the benchmark would compare a
 * scheduler with itself).
 *
 * The lock is flock(LOCK_EX) on run/iosched-bench/MAJ:MIN.lock, a root-owned
 * file holding the holder's pid.  Asking takes LOCK_SH|LOCK_NB for an
 * instant: the kernel's answer, whoever holds the lock and however its
 * holder ends; a benchmark that starts in that instant tries again
 * (lock.c), so the question never refuses a benchmark.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"

int ios_bench_lock_path(unsigned major, unsigned minor, char *buf, size_t size)
{
        int n = snprintf(buf, size, IOS_BENCH_LOCK_DIR "/%u:%u.lock", major, minor);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

int ios_bench_lock_holder(struct ios_ctx *r, unsigned major, unsigned minor, long *ret_pid)
{
        _cleanup_close_ int dfd = -EBADF, fd = -EBADF;
        char path[64], buf[24];
        struct stat st;
        ssize_t n;
        int e;

        *ret_pid = 0;
        e = ios_bench_lock_path(major, minor, path, sizeof(path));
        if (e < 0)
                return e;
        dfd = ios_ctx_open(r, IOS_BENCH_LOCK_DIR, O_PATH | O_DIRECTORY);
        if (dfd == -ENOENT || dfd == -ENOTDIR)
                return 0;               /* no benchmark ever ran here */
        if (dfd < 0)
                return dfd;
        /* the file itself: no link followed, a regular file only (beneath.c) */
        fd = ios_open_beneath(dfd, strrchr(path, '/') + 1, O_RDONLY);
        if (fd == -ENOENT)
                return 0;               /* none on this disk */
        if (fd == -ELOOP || fd == -EISDIR || fd == -EBADFD)
                return 0;               /* a link, directory, FIFO...: iosched-bench locks none of them */
        if (fd < 0)
                return fd;
        /* only a lock root's iosched-bench made counts (the directory is root's, 0755) */
        if (fstat(fd, &st) < 0)
                return -errno;
        if (st.st_uid != 0)
                return 0;
        if (flock(fd, LOCK_SH | LOCK_NB) == 0) {
                (void)flock(fd, LOCK_UN);
                return 0;
        }
        if (errno != EWOULDBLOCK)
                return -errno;
        n = pread(fd, buf, sizeof(buf) - 1, 0);
        buf[n > 0 ? n : 0] = '\0';
        *ret_pid = strtol(buf, NULL, 10);
        if (*ret_pid < 0)
                *ret_pid = 0;
        return 1;
}
