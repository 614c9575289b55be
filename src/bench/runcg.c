/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * runcg.c: the run's processes in a cgroup of their own, ended by the
 * kernel.  Where cgroup v2 is mounted and writable, iosched-bench makes,
 * once, a child of its own cgroup (iosched-bench.PID), and fio's child
 * joins it between fork and exec (bench_runcg_join(): a write of "0" to
 * cgroup.procs, async-signal-safe), so that fio, the jobs it forks into
 * sessions of their own and any program a job starts (exec_prerun, a
 * daemon that double-forks) are in it from their first instruction.
 * cgroup.kill (Linux 5.14) then ends them all at once, whatever session,
 * group or parent they have: after each fio run (fio.c), at exit, and by
 * the guard after a kill -9 (guard.c, told the path).  Where there is no
 * such cgroup, fio's parent-death signal and its process group, and the
 * guard's following of fio's children, are what remains (guard.c).  The
 * bench holds a lock (flock) on its cgroup's directory: a bench that
 * finds an empty iosched-bench.PID of a gone bench removes it, never one
 * whose lock is held (a bench of another PID namespace beside it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "guard.h"
#include "macro.h"

static char cg_path[PATH_MAX];
static int cg_procs = -1;
static int cg_lock = -1;        /* the cgroup's directory, flock()ed: ours while the bench lives */
static bool cg_tried;

/* Our own cgroup v2 path (/proc/self/cgroup: "0::PATH"). */
static int own_cgroup(char *buf, size_t len)
{
        FILE *f = fopen("/proc/self/cgroup", "re");
        char line[PATH_MAX + 8];
        int r = -ENOENT;

        if (!f)
                return -errno;
        while (r < 0 && fgets(line, sizeof(line), f))
                if (startswith(line, "0::")) {
                        line[strcspn(line, "\n")] = '\0';
                        if ((size_t)snprintf(buf, len, "%s", streq(line + 3, "/") ? "" : line + 3) < len)
                                r = 0;
                }
        fclose(f);
        return r;
}

/* Write s to the cgroup's file name; 0 or -errno. */
static int cg_write(const char *dir, const char *name, const char *s)
{
        char p[PATH_MAX + 32];
        ssize_t n;
        int fd;

        snprintf(p, sizeof(p), "%s/%s", dir, name);
        fd = open(p, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = write(fd, s, strlen(s));
        n = n < 0 ? -errno : 0;
        close(fd);
        return (int)n;
}

/* Processes in the cgroup now (cgroup.procs' lines), -errno. */
int bench_runcg_count(const char *dir)
{
        char p[PATH_MAX + 32], line[32];
        FILE *f;
        int n = 0;

        snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
        f = fopen(p, "re");
        if (!f)
                return -errno;
        while (fgets(line, sizeof(line), f))
                n++;
        fclose(f);
        return n;
}

int bench_runcg_kill_dir(const char *dir)
{
        int n = bench_runcg_count(dir), r;

        if (n <= 0)
                return n;
        r = cg_write(dir, "cgroup.kill", "1");
        if (r < 0)
                return r;
        /* the kernel sends SIGKILL to them all at once; their exit takes as long as it takes (a process
         * in uninterruptible I/O waits for it): up to a minute, polled */
        for (int i = 0; i < 12000 && bench_runcg_count(dir) > 0; i++)
                usleep(5000);
        return n;
}

int bench_runcg_rmdir(const char *dir)
{
        /* a cgroup whose last process is still being torn down is busy for a moment: up to a minute */
        for (int i = 0; i < 12000; i++) {
                if (rmdir(dir) == 0 || errno == ENOENT)
                        return 0;
                if (errno != EBUSY)
                        return -errno;
                usleep(5000);
        }
        return -EBUSY;
}

const char *bench_runcg_path(void)
{
        return cg_procs >= 0 ? cg_path : NULL;
}

/* dir's lock (flock on the cgroup's directory, held for the bench's life): an fd, or -errno */
static int lock_dir(const char *dir)
{
        int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        if (fd < 0)
                return -errno;
        if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                int r = -errno;

                close(fd);
                return r;
        }
        return fd;
}

/*
 * An empty cgroup of a bench that is gone (its guard killed too): removed; one with processes stays.
 * Gone: its lock is free and no process of its PID runs here.  The PID in the name is that of the
 * bench's PID namespace: a bench in a container or chroot of its own beside this one, in the same
 * cgroup, may bear a PID that is no process here, and holds the lock.
 */
static void remove_stale(const char *parent)
{
        DIR *d = opendir(parent);
        struct dirent *de;

        if (!d)
                return;
        while ((de = readdir(d))) {
                char p[PATH_MAX + 300];
                int pid, fd;

                if (sscanf(de->d_name, "iosched-bench.%d", &pid) != 1 || pid <= 0 ||
                    (kill(pid, 0) == 0 || errno != ESRCH))
                        continue;
                snprintf(p, sizeof(p), "%s/%s", parent, de->d_name);
                fd = lock_dir(p);
                if (fd < 0)
                        continue;       /* held by a live bench, or gone */
                (void)rmdir(p);
                close(fd);
        }
        closedir(d);
}

/* the cgroup made and not used: removed, its lock let go */
static void drop(void)
{
        (void)rmdir(cg_path);
        close(cg_lock);
        cg_lock = -1;
}

int bench_runcg_new(void)
{
        _cleanup_free_ char *mnt = NULL;
        char own[PATH_MAX], p[PATH_MAX + 32];

        if (cg_tried)
                return cg_procs >= 0 ? 0 : -ENOENT;
        cg_tried = true;
        if (bench_mounts_cgroup2(&mnt) < 0 || own_cgroup(own, sizeof(own)) < 0)
                return -ENOENT;
        if ((size_t)snprintf(cg_path, sizeof(cg_path), "%s%s/iosched-bench.%d", mnt, own, (int)getpid()) >=
            sizeof(cg_path))
                return -ENAMETOOLONG;
        *strrchr(cg_path, '/') = '\0';        /* the parent, our own cgroup */
        remove_stale(cg_path);
        cg_path[strlen(cg_path)] = '/';
        if (mkdir(cg_path, 0755) < 0 && errno != EEXIST)
                return -errno;
        /* ours for the bench's life; one of that name held by another bench (another PID namespace's,
         * of the same PID) is not ours: no cgroup then */
        cg_lock = lock_dir(cg_path);
        if (cg_lock < 0)
                return cg_lock == -EWOULDBLOCK ? -EEXIST : cg_lock;
        snprintf(p, sizeof(p), "%s/cgroup.kill", cg_path);
        if (access(p, W_OK) < 0) {
                /* no cgroup.kill (before 5.14): the group and the guard do it */
                drop();
                return -EOPNOTSUPP;
        }
        snprintf(p, sizeof(p), "%s/cgroup.procs", cg_path);
        cg_procs = open(p, O_WRONLY | O_CLOEXEC);
        if (cg_procs < 0) {
                int r = -errno;

                drop();
                return r;
        }
        return 0;
}

int bench_runcg_join(void)
{
        if (cg_procs < 0)
                return 0;
        return write(cg_procs, "0", 1) == 1 ? 0 : -errno;
}

int bench_runcg_kill(void)
{
        return cg_procs >= 0 ? bench_runcg_kill_dir(cg_path) : 0;
}

void bench_runcg_remove(void)
{
        if (cg_procs < 0)
                return;
        (void)bench_runcg_kill();
        close(cg_procs);
        cg_procs = -1;
        (void)bench_runcg_rmdir(cg_path);
        close(cg_lock);
        cg_lock = -1;
}
