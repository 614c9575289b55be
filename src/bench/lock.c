/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * lock.c: one iosched-bench at a time may switch a disk's scheduler.  A
 * second --compare (or --observe) on the same disk would save the first
 * one's switched state as "the original" and restore that at its end; so
 * before the state is saved, each takes flock(LOCK_EX|LOCK_NB) on
 * /run/iosched-bench/MAJ:MIN.lock (the path is the library's,
 * src/lib/benchlock.c) and writes its pid there (and its guard's), and one that finds the lock
 * held is refused with that pid.  The kernel drops the lock when the process
 * ends, however it ends; the file stays (harmless).  The file is root's and
 * mode 0600, set on the open descriptor on every run (an older version left
 * 0644 files, and flock needs only a read descriptor); a file that is not
 * regular, not root's or has other links is refused.  ioschedd asks whether
 * the lock is held by taking it shared for an instant, so a lock found held
 * is tried again for a while before a refusal.
 *
 * The guard (guard.c) is started before the lock is taken and told the disk
 * once its state is saved, and that it is given back at the release: after
 * a kill -9 it takes the lock once it is free, puts the disk back, and
 * asks for the disk's policy again.  The file names the bench and its
 * guard while a bench holds the lock and is emptied when the disk is given
 * back, by the bench or its guard; a bench that finds a guard there alive
 * is refused until the guard has put the disk back, and never saves a
 * killed bench's switched disk as found.
 *
 * Not /run/lock: it is world-writable, so any user could plant the file or
 * hold the lock.  Not the device node itself: udev's convention is that
 * LOCK_EX on a whole-disk node makes udevd skip or postpone that disk's
 * events, and an --observe on a busy server runs for minutes; nor should a
 * benchmark fight mkfs or systemd-repart, which take that lock for their
 * own reasons.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "compare.h"
#include "guard.h"
#include "macro.h"

/* Is pid, started at start, a live iosched-bench guard (guard.c): root's, named so, that process? */
static bool is_guard(long pid, unsigned long long start)
{
        char path[64], comm[32] = "";
        struct stat st;
        FILE *f;

        snprintf(path, sizeof(path), "/proc/%ld", pid);
        if (stat(path, &st) < 0 || st.st_uid != 0 || start == 0 || bench_proc_start((pid_t)pid) != start)
                return false;
        snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
        f = fopen(path, "re");
        if (!f)
                return false;
        if (!fgets(comm, sizeof(comm), f))
                comm[0] = '\0';
        fclose(f);
        comm[strcspn(comm, "\n")] = '\0';
        return streq(comm, IOS_BENCH_GUARD_COMM);
}

/*
 * The lock file holds "PID GUARD START" (START: the guard's start time, so
 * that a pid used again is no guard of this disk) while a bench holds the
 * lock, and is emptied when it gives the disk back (or its guard did): one
 * still holding a guard when the lock is taken is a killed bench's, whose
 * guard, if it lives, is about to put the disk back or doing so; the disk
 * is then not saved as found, but refused (BENCH_ERR_REFUSED).
 */
static int killed_bench(int fd, const struct ios_device *d, struct bench_error *e)
{
        char buf[64];
        ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
        unsigned long long start;
        long pid, g;

        buf[n > 0 ? n : 0] = '\0';
        if (sscanf(buf, "%ld %ld %llu", &pid, &g, &start) != 3 || g <= 0 || g == (long)bench_guard_pid() ||
            !is_guard(g, start))
                return 0;
        return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                               "%s: the guard (pid %ld) of an iosched-bench killed on this disk is putting "
                               "it back: try again", d->name, g);
}

int bench_disk_lock_take(const struct ios_device *d, struct bench_disk_lock *l, struct bench_error *e)
{
        char path[128], buf[64];
        struct stat st;
        int fd, r, tries = 0;

        (void)ios_bench_lock_path(d->major, d->minor, path, sizeof(path));
        (void)bench_guard_start();      /* before the lock: the guard holds none but after its bench's end */
        if (mkdir(IOS_BENCH_LOCK_DIR, 0755) < 0 && errno != EEXIST)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "%s: cannot create " IOS_BENCH_LOCK_DIR ": %s",
                                       d->name, ios_strerror(errno));
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0600);
        if (fd < 0 && (errno == ELOOP || errno == EISDIR))
                return bench_error_set(e, BENCH_ERR_REFUSED, errno, "%s: %s is a %s: refused", d->name, path,
                                       errno == ELOOP ? "symbolic link" : "directory");
        if (fd < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "%s: cannot open %s: %s", d->name, path,
                                       ios_strerror(errno));
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 || st.st_nlink != 1) {
                close(fd);
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                       "%s: %s is not a regular file of root's with one link: refused",
                                       d->name, path);
        }
        /* root's alone, whatever an older iosched-bench or anyone else left:
         * benchlock.c counts no other lock */
        if ((st.st_gid != 0 && fchown(fd, 0, 0) < 0) || ((st.st_mode & 07777) != 0600 && fchmod(fd, 0600) < 0)) {
                r = errno;
                close(fd);
                return bench_error_set(e, BENCH_ERR_SYSTEM, r, "%s: cannot make %s root's only: %s", d->name, path,
                                       ios_strerror(r));
        }
        while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
                long pid = 0;
                bool dead;
                ssize_t n;

                r = errno;
                if (r != EWOULDBLOCK) {
                        close(fd);
                        return bench_error_set(e, BENCH_ERR_SYSTEM, r, "%s: cannot lock %s: %s", d->name, path,
                                               ios_strerror(r));
                }
                /* held shared: ioschedd asking (benchlock.c), for an instant */
                if (++tries < 100 && flock(fd, LOCK_SH | LOCK_NB) == 0) {
                        (void)flock(fd, LOCK_UN);
                        usleep(1000);
                        continue;
                }
                /* held by another iosched-bench: it writes its pid right after it locks; or by the guard
                 * of one killed, whose pid is still there */
                for (int i = 0; i < 20 && pid <= 0; i++) {
                        n = pread(fd, buf, sizeof(buf) - 1, 0);
                        buf[n > 0 ? n : 0] = '\0';
                        pid = strtol(buf, NULL, 10);
                        if (pid <= 0)
                                usleep(5000);
                }
                /* emptied: its holder gave the disk back (a bench, or a killed one's guard) since: again */
                if (pid <= 0 && ++tries < 100)
                        continue;
                dead = pid > 0 && kill((pid_t)pid, 0) < 0 && errno == ESRCH;
                if (dead) {
                        r = killed_bench(fd, d, e);
                        if (r < 0) {
                                close(fd);
                                return r;
                        }
                        if (++tries < 100)
                                continue;       /* its guard gone too: the lock is being let go */
                }
                close(fd);
                /* a killed bench's lock still held, by no guard of its own that lives: said as it is */
                if (dead)
                        return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                                               "%s: the iosched-bench (pid %ld) that locked this disk is "
                                               "gone, and %s is still held (by its guard or its fio, "
                                               "ending): try again",
                                               d->name, pid, path);
                if (pid > 0)
                        return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                                               "%s: another iosched-bench (pid %ld) is comparing schedulers on this disk",
                                               d->name, pid);
                return bench_error_set(e, BENCH_ERR_REFUSED, EBUSY,
                                       "%s: another iosched-bench is comparing schedulers on this disk (%s is locked)",
                                       d->name, path);
        }
        if ((r = killed_bench(fd, d, e)) < 0) {
                close(fd);
                return r;
        }
        r = snprintf(buf, sizeof(buf), "%ld %ld %llu\n", (long)getpid(), (long)bench_guard_pid(),
                     bench_guard_pid() > 0 ? bench_proc_start(bench_guard_pid()) : 0ull);
        if (ftruncate(fd, 0) < 0 || pwrite(fd, buf, (size_t)r, 0) != r) {
                r = errno ? errno : EIO;
                close(fd);
                return bench_error_set(e, BENCH_ERR_SYSTEM, r, "%s: cannot write %s: %s", d->name, path,
                                       ios_strerror(r));
        }
        l->fd = fd;
        return 0;
}

void bench_disk_lock_release(struct bench_disk_lock *l)
{
        if (l->fd >= 0) {
                bench_guard_disk(0, 0);         /* given back: nothing for the guard to ask for */
                (void)!ftruncate(l->fd, 0);     /* given back: no killed bench's (above) */
                close(l->fd);
        }   /* drops the lock; the file stays, so no one can lock an unlinked one */
        l->fd = -1;
}

int bench_switch_begin(struct ios_device *d, struct bench_disk_lock *l, struct bench_sched_state *s,
                       void (*report)(const struct bench_sched_state *s, int r, char **bad),
                       struct bench_error *e)
{
        int r = bench_disk_lock_take(d, l, e);

        if (r < 0)
                return r;
        r = bench_sched_save(d, s);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s: cannot read the scheduler state: %s", d->name,
                                       ios_strerror(r));
        bench_sched_arm(s, report);
        /* from here a kill -9 leaves the disk switched: the guard puts back what the restore would
         * (told before each switch) but what another program set after the switch (told what it
         * left), then asks for the disk's policy again */
        s->on_target = bench_guard_state;
        s->on_left = bench_guard_left;
        bench_guard_disk(d->major, d->minor);
        return 0;
}
