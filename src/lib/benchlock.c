/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * benchlock.c: the lock iosched-bench holds on a disk while it switches the
 * disk's scheduler (src/bench/lock.c takes it), and the question the other
 * writers ask before they touch that disk: is a benchmark on it?  ioschedd
 * and `iosched-apply --udev` yield to it (a drift check would otherwise put
 * the policy's scheduler back in the middle of a --compare, and the
 * benchmark would compare a scheduler with itself).
 *
 * The lock is flock(LOCK_EX) on run/iosched-bench/MAJ:MIN.lock, a root-owned
 * 0600 file holding the holder's pid.  Asking takes LOCK_SH|LOCK_NB for an
 * instant: the kernel's answer, however its holder ends; a benchmark that
 * starts in that instant tries again (lock.c), so the question never refuses
 * a benchmark.
 *
 * Yielding switches the policy off for a disk, so a held lock counts only
 * when it cannot be anyone's but a root iosched-bench's: the file is
 * root's, regular and mode 0600 (lock.c fixes that on every open), and the
 * process holding the flock is alive, named iosched-bench, or
 * iosched-guard (the bench's guard, src/bench/guard.c, which holds the
 * lock while it puts the disk back after a kill -9), and runs with
 * effective uid 0.  The mode alone is not enough: a descriptor a user opened
 * while an older iosched-bench left the file 0644 still locks it, and flock
 * needs only a read descriptor.  The holder is the kernel's (proc/locks,
 * matched by device and inode), not the pid in the file, which a dead
 * benchmark leaves behind; the file's pids ("BENCH GUARD START" while a
 * guard holds it) serve only where proc/locks cannot be read (a fake tree
 * without it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"
#include "nodefree-internal.h"

int ios_bench_lock_path(unsigned major, unsigned minor, char *buf, size_t size)
{
        int n = snprintf(buf, size, IOS_BENCH_LOCK_DIR "/%u:%u.lock", major, minor);

        return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

static FILE *ctx_fopen(struct ios_ctx *r, const char *path)
{
        int fd = ios_ctx_open(r, path, O_RDONLY);
        FILE *f;

        if (fd < 0) {
                errno = -fd;
                return NULL;
        }
        f = fdopen(fd, "re");
        if (!f)
                close(fd);
        return f;
}

/*
 * The pid proc/locks shows holding a FLOCK WRITE lock on st's inode: > 0, 0
 * when none is listed (released since, or a pid this namespace cannot see),
 * -ENOENT when proc/locks cannot be opened.  A line looks like
 * "1: FLOCK  ADVISORY  WRITE 1301 fe:00:10969101 0 EOF"; waiters carry "->".
 */
static long flock_holder(struct ios_ctx *r, const struct stat *st)
{
        _cleanup_free_ char *line = NULL;
        size_t cap = 0;
        long pid = 0;
        FILE *f = ctx_fopen(r, "/proc/locks");

        if (!f)
                return -ENOENT;
        while (pid == 0 && getline(&line, &cap, f) > 0) {
                char type[16], mode[16], access[16];
                unsigned maj, min;
                uintmax_t ino;
                long p;

                if (strstr(line, "->") ||
                    sscanf(line, "%*[^:]: %15s %15s %15s %ld %x:%x:%ju", type, mode, access, &p, &maj, &min, &ino) != 7)
                        continue;
                if (streq(type, "FLOCK") && streq(access, "WRITE") && maj == major(st->st_dev) &&
                    min == minor(st->st_dev) && ino == (uintmax_t)st->st_ino)
                        pid = p > 0 ? p : 0;
        }
        fclose(f);
        return pid;
}

static bool comm_is(const char *v, const char *comm)
{
        v += strspn(v, " \t");
        return strcspn(v, "\n") == strlen(comm) && !strncmp(v, comm, strlen(comm));
}

/* What pid is, alive and running as root (proc/PID/status: Name and Uid): 1 an iosched-bench, 2 its
 * guard, 0 neither. */
static int root_bench_proc(struct ios_ctx *r, long pid)
{
        _cleanup_free_ char *line = NULL;
        char path[64];
        size_t cap = 0;
        int kind = 0;
        bool root = false;
        FILE *f;

        if (pid <= 0)
                return 0;
        snprintf(path, sizeof(path), "/proc/%ld/status", pid);
        f = ctx_fopen(r, path);
        if (!f)
                return 0;
        while (getline(&line, &cap, f) > 0) {
                const char *v;
                unsigned ruid, euid;

                if ((v = startswith(line, "Name:")))
                        kind = comm_is(v, IOS_BENCH_COMM) ? 1 : comm_is(v, IOS_BENCH_GUARD_COMM) ? 2 : 0;
                else if ((v = startswith(line, "Uid:")))
                        root = sscanf(v, "%u %u", &ruid, &euid) == 2 && euid == 0;
        }
        fclose(f);
        return root ? kind : 0;
}

int ios_bench_lock_holder(struct ios_ctx *r, unsigned major, unsigned minor, long *ret_pid)
{
        _cleanup_close_ int fd = -EBADF;
        char path[64], buf[64];
        struct stat st;
        long pid;
        ssize_t n;
        int dfd, e;

        *ret_pid = 0;
        e = ios_bench_lock_path(major, minor, path, sizeof(path));
        if (e < 0)
                return e;
        /* marked node-free when run/ is a nodev mount: the file below is then one open */
        dfd = ios_ctx_open_dir(r, IOS_BENCH_LOCK_DIR, NULL);
        if (dfd == -ENOENT || dfd == -ENOTDIR)
                return 0;               /* no benchmark ever ran here */
        if (dfd < 0)
                return dfd;
        /* the file itself: no link followed, a regular file only (beneath.c) */
        fd = ios_open_beneath(dfd, strrchr(path, '/') + 1, O_RDONLY);
        ios_dirfd_close(dfd);
        if (fd == -ENOENT)
                return 0;               /* none on this disk */
        if (fd == -ELOOP || fd == -EISDIR || fd == -EBADFD)
                return 0;               /* a link, directory, FIFO...: iosched-bench locks none of them */
        if (fd < 0)
                return fd;
        /* only a lock file as root's iosched-bench leaves it counts */
        if (fstat(fd, &st) < 0)
                return -errno;
        if (st.st_uid != 0 || (st.st_mode & 07777) != 0600)
                return 0;
        /* free: the shared lock goes with the descriptor, closed on return */
        if (flock(fd, LOCK_SH | LOCK_NB) == 0)
                return 0;
        if (errno != EWOULDBLOCK)
                return -errno;
        pid = flock_holder(r, &st);
        if (pid == -ENOENT) {
                char *end;

                n = pread(fd, buf, sizeof(buf) - 1, 0);
                buf[n > 0 ? n : 0] = '\0';
                pid = strtol(buf, &end, 10);
                /* a killed bench's pid, its guard's after it */
                if (root_bench_proc(r, pid) != 1)
                        pid = strtol(end, NULL, 10);
        }
        e = root_bench_proc(r, pid);
        if (e > 0)
                *ret_pid = pid;
        return e;
}
