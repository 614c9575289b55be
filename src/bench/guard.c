/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guard.c: a run never outlives iosched-bench.  fio itself dies with
 * iosched-bench (its parent-death signal, fio.c), but fio forks its jobs,
 * which do not inherit that signal, and a kill -9 leaves no one to put the
 * scheduler back nor to remove the files the run made.  So iosched-bench
 * forks, once, a guard: a process of its own process group (a terminal's
 * ^C is iosched-bench's to handle), named "iosched-guard", with every other
 * descriptor closed (it holds the bench lock only for its restore, after
 * iosched-bench's end, and a target only read only, for its write hint),
 * that reads short lines from a socket pair:
 *   "C PATH"              the run's cgroup (runcg.c): fio and all it starts
 *   "F PGID"              fio's process group runs (0: none runs)
 *   "D MAJ:MIN"           that disk's scheduler is switched (0:0: given back)
 *   "S" then "K KEY=VALUE" lines: what the restore would write (sched-state.c)
 *   "L KEY=VALUE"         what the switch after them left there
 *   "M DEV INO KNOWN PATH" a file the run made, its directory's handle
 *                         passed with it (SCM_RIGHTS); "U DEV INO PATH" its
 *                         identity once fio made it; "R PATH" removed
 *   "H HINT PATH"         a write target's hint before fio ran, a descriptor
 *                         of it passed with it (fiohints.c); "H -" put back
 * When it reaches EOF, iosched-bench has ended; one that ended its own way
 * said "F 0", "D 0:0", "R" and "H -" before, and the guard just exits.
 * Otherwise it ends the run's cgroup with cgroup.kill (every process fio
 * started, whatever its session or parent) and removes it, or, where there
 * is no cgroup, kills fio's process group and fio's job processes (SIGKILL;
 * learnt while fio runs, below), removes the files by created.c's rule
 * (beneath the handle, a regular file, the one made), sets the write hints
 * back on the targets' descriptors (fio sets a job's write_hint= on the
 * inode, which keeps it), read back, and, for a switched disk, takes the
 * bench lock once it is free (up to 2 s), puts the disk's scheduler and
 * tunables back itself, as the restore would have (the values found, and
 * those another program set, before the last switch or after it), read
 * back: where no udevd runs, nothing else would; then releases the lock
 * and writes "change" to the disk's uevent: ioschedd and the udev rule
 * (iosched-apply --udev) then apply the policy, as they yield to a held
 * lock only.  It says what it did in one line on
 * standard error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "guard.h"
#include "strv.h"
#include "iosched.h"
#include "macro.h"

static int guard_fd = -1;
static pid_t guard_pid;
static bool guard_failed;

/*
 * The disk's bench lock, for the guard's restore, once iosched-bench's is
 * released (waited for up to 2 s): a bench started meanwhile is refused,
 * naming the guard, and never saves a disk put back halfway as what it
 * found, as the file still names this guard (lock.c); one that took the
 * lock first sees this guard there and lets it go.  Its descriptor, or -1: there is none, or another
 * holds it past 2 s.
 */
static int lock_take(unsigned major, unsigned minor)
{
        char path[128];
        int fd;

        if (ios_bench_lock_path(major, minor, path, sizeof(path)) < 0)
                return -1;
        fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
                return -1;
        /* the file keeps naming the killed bench and this guard until the disk is put back */
        for (int i = 0; i < 200; i++) {
                if (flock(fd, LOCK_EX | LOCK_NB) == 0)
                        return fd;
                usleep(10000);
        }
        close(fd);
        return -1;
}

/*
 * fio's job processes: fio forks each job into a session of its own
 * (setsid), out of reach of fio's process group, and they are orphaned
 * when fio dies; so the guard learns them while fio runs, from fio's
 * children (and theirs, the programs of an exec engine), every 100 ms,
 * each with its start time, so that a pid used again is never killed.
 */
#define GUARD_MAX_PROCS 1024
struct proc {
        pid_t pid;
        unsigned long long start;
};
struct procs {
        struct proc v[GUARD_MAX_PROCS];
        size_t n;
};

static void learn_children(struct procs *ps, pid_t parent)
{
        pid_t kids[1024];
        size_t nk = bench_proc_children(parent, kids, ELEMENTSOF(kids));

        for (size_t k = 0; k < nk; k++) {
                bool known = false;

                for (size_t i = 0; i < ps->n && !known; i++)
                        known = ps->v[i].pid == kids[k];
                if (!known && ps->n < GUARD_MAX_PROCS)
                        ps->v[ps->n++] = (struct proc){ .pid = kids[k], .start = bench_proc_start(kids[k]) };
        }
}

static void learn(struct procs *ps, pid_t fio)
{
        size_t n;

        learn_children(ps, fio);
        n = ps->n;              /* the jobs' own children, one level down */
        for (size_t i = 0; i < n; i++)
                learn_children(ps, ps->v[i].pid);
}

/* Kill fio's group, and each job still the process that was learnt, with its own group. */
static int kill_fio(struct procs *ps, pid_t pgid)
{
        int n = kill(-pgid, SIGKILL) == 0;

        for (size_t i = 0; i < ps->n; i++)
                if (ps->v[i].start && bench_proc_start(ps->v[i].pid) == ps->v[i].start) {
                        (void)kill(-ps->v[i].pid, SIGKILL);
                        n += kill(ps->v[i].pid, SIGKILL) == 0;
                }
        return n;
}

/*
 * The files the run made (created.c): each one's directory handle (passed
 * with SCM_RIGHTS), its path as the key, and its identity once known; at
 * EOF removed as created.c would, beneath the handle, only while the entry
 * is a regular file (and that file); and the run's scratch directories
 * (fioscratch.c), each with what is left in it, only while it is the
 * directory made.
 */
struct file {
        char *path;
        int dfd;
        dev_t dev;
        ino_t ino;
        bool known;
};
struct files {
        struct file v[GUARD_MAX_FILES];
        size_t n;
        int fds[16];            /* handles received, not yet named by an "M" line */
        size_t nfds;
};

/* the first handle received and not yet named by a line, or -1 */
static int handle_take(struct files *fs)
{
        int fd = fs->nfds ? fs->fds[0] : -1;

        if (fs->nfds)
                memmove(fs->fds, fs->fds + 1, --fs->nfds * sizeof(int));
        return fd;
}

static struct file *file_find(struct files *fs, const char *path)
{
        for (size_t i = 0; i < fs->n; i++)
                if (streq(fs->v[i].path, path))
                        return &fs->v[i];
        return NULL;
}

/* "M DEV INO KNOWN PATH" (with a handle), "U DEV INO PATH", "R PATH" */
static void file_line(struct files *fs, const char *line)
{
        uintmax_t dev, ino;
        int known, off = 0;
        struct file *f;

        if (sscanf(line, "M %ju %ju %d %n", &dev, &ino, &known, &off) == 3 && off > 0) {
                int dfd = handle_take(fs);
                char *p = dfd >= 0 && fs->n < GUARD_MAX_FILES ? strdup(line + off) : NULL;

                if (!p) {
                        if (dfd >= 0)
                                close(dfd);
                        return;
                }
                fs->v[fs->n] = (struct file){ .path = p, .dfd = dfd, .dev = (dev_t)dev, .ino = (ino_t)ino,
                                              .known = known };
                fs->n++;
        } else if (sscanf(line, "U %ju %ju %n", &dev, &ino, &off) == 2 && off > 0 && (f = file_find(fs, line + off)))
                *f = (struct file){ .path = f->path, .dfd = f->dfd, .dev = (dev_t)dev, .ino = (ino_t)ino, .known = true };
        else if (line[0] == 'R' && line[1] == ' ' && (f = file_find(fs, line + 2))) {
                close(f->dfd);
                free(f->path);
                *f = fs->v[--fs->n];
        }
}

/* The files first (a scratch directory's own among them), then the scratch directories. */
static int remove_files(struct files *fs)
{
        int n = 0;

        for (int dirs = 0; dirs < 2; dirs++)
                for (size_t i = 0; i < fs->n; i++) {
                        struct file *f = &fs->v[i];
                        const char *name = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
                        struct stat st;

                        if (fstatat(f->dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                            (f->known && (st.st_dev != f->dev || st.st_ino != f->ino)))
                                continue;
                        if (dirs && S_ISDIR(st.st_mode) && f->known) {
                                int k = bench_remove_tree(f->dfd, name, f->dev, f->ino);

                                n += k > 0 ? k : 0;
                        }
                        else if (!dirs && S_ISREG(st.st_mode) && unlinkat(f->dfd, name, 0) == 0)
                                n++;
                }
        return n;
}

/* The run's write targets (fiohints.c): a descriptor of each and its hint before fio ran. */
#define GUARD_MAX_HINTS 64
struct hint {
        int fd;
        uint64_t hint;
        char *path;
};
struct hints {
        struct hint v[GUARD_MAX_HINTS];
        size_t n;
};

static void hints_forget(struct hints *hs)
{
        for (size_t i = 0; i < hs->n; i++) {
                close(hs->v[i].fd);
                free(hs->v[i].path);
        }
        hs->n = 0;
}

/* "H HINT PATH" (with a descriptor), "H -" */
static void hint_line(struct hints *hs, struct files *fs, const char *line)
{
        uintmax_t h;
        int off = 0, fd;
        char *p;

        if (streq(line, "H -")) {
                hints_forget(hs);
                return;
        }
        if (sscanf(line, "H %ju %n", &h, &off) != 1 || off == 0 || (fd = handle_take(fs)) < 0)
                return;
        p = hs->n < GUARD_MAX_HINTS ? strdup(line + off) : NULL;
        if (!p) {
                close(fd);
                return;
        }
        hs->v[hs->n++] = (struct hint){ .fd = fd, .hint = (uint64_t)h, .path = p };
}

/* Each hint set back and read back: how many were put back; the first that was not into msg. */
static int hints_put_back(struct hints *hs, char *msg, size_t size)
{
        int n = 0;

        for (size_t i = 0; i < hs->n; i++) {
                uint64_t now;
                char b1[24], b2[24];
                int r = bench_rw_hint_put(hs->v[i].fd, hs->v[i].hint, &now);

                if (r == 0)
                        n++;
                else if (!msg[0])
                        snprintf(msg, size, "could not put the write hint of %s back to %s: %s%s",
                                 hs->v[i].path,
                                 bench_rw_hint_name(hs->v[i].hint, b1, sizeof(b1)),
                                 r == -EIO ? "the kernel keeps " : "",
                                 r == -EIO ? bench_rw_hint_name(now, b2, sizeof(b2)) : ios_strerror(-r));
        }
        hints_forget(hs);
        return n;
}

/*
 * What of found the guard writes: a file that moved since the switch left it (left: what the last switch
 * left, empty while one is under way) was set by another program, and is kept, as the bench's restore
 * keeps it; so are a scheduler another program switched to and its iosched/ tunables.  Each file another
 * program set is added to others with its value.
 */
static int not_others(struct ios_device *d, const struct ios_wanted *found, const struct ios_wanted *left,
                      struct ios_wanted *w, struct ios_wanted *others)
{
        struct ios_wanted now = {};
        const char *sl = ios_wanted_value(left, "scheduler"), *sn;
        bool sched_moved;
        int r = left->n ? ios_snapshot_take(d, &now) : 0;

        if (r < 0)
                return r;
        sn = ios_wanted_value(&now, "scheduler");
        sched_moved = sl && sn && !streq(sl, sn);
        for (size_t i = 0; r >= 0 && i < found->n; i++) {
                const char *key = found->s[i].key, *ours = ios_wanted_value(left, key);
                const char *cur = ios_wanted_value(&now, key);
                bool moved = ours && cur && !streq(ours, cur);

                if (moved || (sched_moved && startswith(key, "queue/iosched/"))) {
                        r = moved ? ios_wanted_set(others, key, cur, "another program") : 0;
                        continue;
                }
                r = ios_wanted_set(w, key, found->s[i].value, "found");
        }
        ios_wanted_done(&now);
        return r;
}

/*
 * What another program set, as the disk has it after the restore: "key=value", or "key=value not kept:
 * the kernel has X" where the restore's switch took it away (nr_requests=200 set under mq-deadline, the
 * scheduler found none: the switch to none resets it to the tag depth), as the bench's own restore says.
 */
static void others_said(struct ios_device *d, const struct ios_wanted *others, char *kept, size_t size)
{
        struct ios_wanted now = {};
        bool have = ios_snapshot_take(d, &now) >= 0;
        size_t k = 0;

        for (size_t i = 0; i < others->n && k < size; i++) {
                const char *key = others->s[i].key, *theirs = others->s[i].value;
                const char *cur = have ? ios_wanted_value(&now, key) : NULL;

                k += (size_t)snprintf(kept + k, size - k, "%s%s=%s", k ? ", " : "", key, theirs);
                if (cur && !streq(cur, theirs) && k < size)
                        k += (size_t)snprintf(kept + k, size - k, " not kept: the kernel has %s", cur);
        }
        ios_wanted_done(&now);
}

/* The restore's writes on major:minor, read back, but another program's values: 1 done, -errno not, 0
 * nothing to do. */
static int put_back(unsigned major, unsigned minor, const struct ios_wanted *found,
                    const struct ios_wanted *left, char *kept, size_t size)
{
        char link[64], target[PATH_MAX];
        struct ios_ctx *ctx = NULL;
        struct ios_device *d = NULL;
        struct ios_wanted w = {}, others = {};
        char **bad = NULL;
        ssize_t n;
        int r;

        snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major, minor);
        n = readlink(link, target, sizeof(target) - 1);
        if (n <= 0)
                return -ENODEV;
        target[n] = '\0';
        r = ios_ctx_new(NULL, &ctx);
        if (r >= 0)
                r = ios_device_new(ctx, strrchr(target, '/') ? strrchr(target, '/') + 1 : target, &d);
        if (r >= 0)
                r = not_others(d, found, left, &w, &others);
        if (r >= 0)
                r = bench_sched_put_back(d, &w, &bad);
        if (r >= 0)
                others_said(d, &others, kept, size);
        ios_wanted_done(&others);
        ios_wanted_done(&w);
        ios_strv_free(bad);
        ios_device_free(d);
        ios_ctx_free(ctx);
        return r < 0 ? r : 1;
}

static void give_back(unsigned major, unsigned minor, pid_t pgid, const char *cg, struct procs *ps,
                      struct files *fs, struct hints *hs, const struct ios_wanted *found,
                      const struct ios_wanted *left)
{
        char path[64], msg[1024] = "", bad[PATH_MAX + 64] = "", kept[256] = "";
        int n = 0, fd, k;

        if (cg[0]) {
                k = bench_runcg_kill_dir(cg);
                (void)bench_runcg_rmdir(cg);
                if (k > 0)
                        n = snprintf(msg, sizeof(msg), "stopped fio (%d process%s, cgroup.kill)", k,
                                     k == 1 ? "" : "es");
                if (pgid > 0)
                        (void)kill(-pgid, SIGKILL);
        } else if (pgid > 0) {
                learn(ps, pgid);
                k = kill_fio(ps, pgid);
                if (k > 0)
                        n = snprintf(msg, sizeof(msg), "stopped fio (%d process%s)", k, k == 1 ? "" : "es");
        }
        k = remove_files(fs);
        if (k > 0)
                n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%sremoved %d file%s it made", n ? "; " : "", k,
                              k == 1 ? "" : "s");
        k = hints_put_back(hs, bad, sizeof(bad));
        if (k > 0)
                n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%sput back the write hint%s of %d target%s",
                              n ? "; " : "", k == 1 ? "" : "s", k, k == 1 ? "" : "s");
        if (bad[0])
                n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s%.*s", n ? "; " : "",
                              (int)(sizeof(msg) / 2), bad);
        if (major || minor) {
                int lock = found && found->n ? lock_take(major, minor) : -1;

                if (lock >= 0) {
                        k = put_back(major, minor, found, left, kept, sizeof(kept));
                        (void)!ftruncate(lock, 0);      /* given back (lock.c) */
                        close(lock);
                        if (k != 0)
                                n += snprintf(msg + n, sizeof(msg) - (size_t)n, "%s%s", n ? "; " : "",
                                              k > 0 ? "put its scheduler and tunables back as found" :
                                                      "could not put its scheduler and tunables back");
                        if (k > 0 && kept[0])
                                n += snprintf(msg + n, sizeof(msg) - (size_t)n,
                                              " but what another program set after the last switch (%s)",
                                              kept);
                }
                snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/uevent", major, minor);
                fd = open(path, O_WRONLY | O_CLOEXEC);
                if (fd >= 0 && write(fd, "change", 6) == 6)
                        snprintf(msg + n, sizeof(msg) - (size_t)n, "%sasked for the policy of %u:%u again (change uevent)",
                                 n ? "; " : "", major, minor);
                if (fd >= 0)
                        close(fd);
        }
        if (msg[0])
                fprintf(stderr, "iosched-bench: guard: iosched-bench ended without its cleanup: %s\n", msg);
}

/* Bytes from the socket, and the handles that come with them. */
static ssize_t take(int fd, char *buf, size_t size, struct files *fs)
{
        union {
                struct cmsghdr h;
                char b[CMSG_SPACE(sizeof(int) * 8)];
        } c;
        struct iovec iov = { .iov_base = buf, .iov_len = size };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof(c.b) };
        ssize_t n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);

        for (struct cmsghdr *h = n >= 0 ? CMSG_FIRSTHDR(&m) : NULL; h; h = CMSG_NXTHDR(&m, h)) {
                if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
                        continue;
                for (size_t i = 0; i < (h->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
                        int dfd;

                        memcpy(&dfd, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
                        if (fs->nfds < ELEMENTSOF(fs->fds))
                                fs->fds[fs->nfds++] = dfd;
                        else
                                close(dfd);
                }
        }
        return n;
}

static _Noreturn void guard_main(int fd)
{
        static struct procs ps;
        static struct files fs;
        static struct hints hs;
        static char buf[PATH_MAX + 128], cg[PATH_MAX];
        static struct ios_wanted found, left;
        size_t len = 0;
        unsigned major = 0, minor = 0;
        pid_t pgid = 0;

        for (;;) {
                struct pollfd p = { .fd = fd, .events = POLLIN };
                ssize_t n;
                char *nl;

                /* without a cgroup: fio's job processes learnt while it runs */
                if (poll(&p, 1, pgid > 0 && !cg[0] ? 100 : -1) == 0) {
                        learn(&ps, pgid);
                        continue;
                }
                n = take(fd, buf + len, sizeof(buf) - 1 - len, &fs);
                if (n < 0 && (errno == EINTR || errno == EAGAIN))
                        continue;
                if (n <= 0)
                        break;
                len += (size_t)n;
                buf[len] = '\0';
                while ((nl = strchr(buf, '\n'))) {
                        unsigned a, b;
                        int pg;

                        *nl = '\0';
                        if (sscanf(buf, "F %d", &pg) == 1) {
                                pgid = pg > 1 ? pg : 0;
                                ps.n = 0;       /* a new fio, or none */
                        } else if (streq(buf, "S")) {
                                ios_wanted_done(&found);
                                ios_wanted_done(&left);         /* a switch under way: none is known */
                        } else if ((startswith(buf, "K ") || startswith(buf, "L ")) && strchr(buf, '=')) {
                                char *eq = strchr(buf, '=');

                                *eq = '\0';
                                (void)ios_wanted_set(buf[0] == 'K' ? &found : &left, buf + 2, eq + 1,
                                                     "found");
                        } else if (startswith(buf, "C /") && strlen(buf + 2) < sizeof(cg)) {
                                strcpy(cg, buf + 2);
                        } else if (sscanf(buf, "D %u:%u", &a, &b) == 2) {
                                major = a;
                                minor = b;
                        } else if (buf[0] == 'H')
                                hint_line(&hs, &fs, buf);
                        else
                                file_line(&fs, buf);
                        len -= (size_t)(nl + 1 - buf);
                        memmove(buf, nl + 1, len + 1);
                }
                if (len == sizeof(buf) - 1)
                        len = 0;        /* no line of ours is that long */
        }
        give_back(major, minor, pgid, cg, &ps, &fs, &hs, &found, &left);
        _exit(0);
}

pid_t bench_guard_pid(void)
{
        return guard_fd >= 0 ? guard_pid : 0;
}

/* A normal end: the guard sees EOF with nothing to do and ends; reaped here, not left to init. */
static void guard_atexit(void)
{
        if (guard_fd < 0)
                return;
        close(guard_fd);
        guard_fd = -1;
        for (int i = 0; i < 20 && waitpid(guard_pid, NULL, WNOHANG) == 0; i++)
                usleep(5000);
}

static void tell(const char *line);

int bench_guard_start(void)
{
        int p[2], null, rd;
        pid_t pid;

        if (guard_fd >= 0 || guard_failed)
                return guard_fd >= 0 ? 0 : -ECHILD;
        /* the run's cgroup first, removed at exit after the guard is told of its end (atexit: last first) */
        if (bench_runcg_new() == 0)
                atexit(bench_runcg_remove);
        /* a socket pair, so that a write to a guard that died is EPIPE, never SIGPIPE */
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0)
                goto fail;
        pid = fork();
        if (pid < 0) {
                close(p[0]);
                close(p[1]);
                goto fail;
        }
        if (pid == 0) {
                setpgid(0, 0);
                (void)prctl(PR_SET_NAME, IOS_BENCH_GUARD_COMM, 0, 0, 0);
                signal(SIGINT, SIG_IGN);
                signal(SIGQUIT, SIG_IGN);
                signal(SIGHUP, SIG_IGN);
                signal(SIGTERM, SIG_DFL);
                signal(SIGPIPE, SIG_DFL);
                /* the socket as fd 3, nothing else but stderr: not the lock, not a target */
                rd = fcntl(p[0], F_DUPFD, 100);
                null = open("/dev/null", O_RDWR | O_CLOEXEC);
                if (null >= 0) {
                        dup2(null, STDIN_FILENO);
                        dup2(null, STDOUT_FILENO);
                }
                if (rd < 0 || dup2(rd, 3) < 0)
                        _exit(1);
                close_range(4, ~0U, 0);
                guard_main(3);
        }
        close(p[0]);
        guard_fd = p[1];
        guard_pid = pid;
        atexit(guard_atexit);
        if (bench_runcg_path()) {
                char line[PATH_MAX + 8];

                snprintf(line, sizeof(line), "C %s\n", bench_runcg_path());
                tell(line);
        }
        return 0;
fail:
        guard_failed = true;
        fprintf(stderr, "iosched-bench: warning: cannot start the guard (%s): a kill -9 would leave fio running\n",
                ios_strerror(errno));
        return -errno;
}

static void tell(const char *line)
{
        size_t len = strlen(line);

        if (bench_guard_start() < 0)
                return;
        while (send(guard_fd, line, len, MSG_NOSIGNAL) < 0 && errno == EINTR)
                ;
}

void bench_guard_fio(pid_t pgid)
{
        char line[32];

        snprintf(line, sizeof(line), "F %d\n", (int)pgid);
        tell(line);
}

void bench_guard_disk(unsigned major, unsigned minor)
{
        char line[32];

        snprintf(line, sizeof(line), "D %u:%u\n", major, minor);
        tell(line);
}

/* A line and a descriptor passed with it (SCM_RIGHTS): the guard takes the descriptors in order. */
static void tell_fd(const char *line, size_t len, int fd)
{
        union {
                struct cmsghdr h;
                char b[CMSG_SPACE(sizeof(int))];
        } c;
        struct iovec iov = { .iov_base = (void *)line, .iov_len = len };
        struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b, .msg_controllen = sizeof(c.b) };

        if (bench_guard_start() < 0)
                return;
        memset(&c, 0, sizeof(c));
        c.h.cmsg_level = SOL_SOCKET;
        c.h.cmsg_type = SCM_RIGHTS;
        c.h.cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(&c.h), &fd, sizeof(int));
        while (sendmsg(guard_fd, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
                ;
}

void bench_guard_file(const char *path, int dfd, dev_t dev, ino_t ino, bool known)
{
        char line[PATH_MAX + 96];
        int n = snprintf(line, sizeof(line), "M %ju %ju %d %s\n", (uintmax_t)dev, (uintmax_t)ino, known,
                         path);

        if (strchr(path, '\n') || n < 0 || (size_t)n >= sizeof(line))
                return;         /* not said: the guard leaves it */
        tell_fd(line, (size_t)n, dfd);
}

void bench_guard_file_seen(const char *path, dev_t dev, ino_t ino)
{
        char line[PATH_MAX + 64];
        int n = snprintf(line, sizeof(line), "U %ju %ju %s\n", (uintmax_t)dev, (uintmax_t)ino, path);

        if (!strchr(path, '\n') && n > 0 && (size_t)n < sizeof(line))
                tell(line);
}

void bench_guard_file_gone(const char *path)
{
        char line[PATH_MAX + 8];
        int n = snprintf(line, sizeof(line), "R %s\n", path);

        if (!strchr(path, '\n') && n > 0 && (size_t)n < sizeof(line))
                tell(line);
}

static void tell_settings(char tag, const struct ios_wanted *w)
{
        char line[PATH_MAX + 128];

        for (size_t i = 0; i < w->n; i++)
                if (!strchr(w->s[i].key, '\n') && !strchr(w->s[i].key, '=') &&
                    !strchr(w->s[i].value, '\n') &&
                    (size_t)snprintf(line, sizeof(line), "%c %s=%s\n", tag, w->s[i].key, w->s[i].value) <
                            sizeof(line))
                        tell(line);
}

void bench_guard_state(const struct ios_wanted *w)
{
        tell("S\n");
        tell_settings('K', w);
}

void bench_guard_left(const struct ios_wanted *w)
{
        tell_settings('L', w);
}

void bench_guard_hint(int fd, uint64_t hint, const char *path)
{
        char line[PATH_MAX + 64];
        int n = snprintf(line, sizeof(line), "H %ju %s\n", (uintmax_t)hint, path);

        if (!strchr(path, '\n') && n > 0 && (size_t)n < sizeof(line))
                tell_fd(line, (size_t)n, fd);
}

void bench_guard_hints_done(void)
{
        tell("H -\n");
}
