/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guard.h: what outlives iosched-bench when it is killed (guard.c), the
 * files a run created, removed by directory handle (created.c), and the
 * write hints a run puts back (rwhint.c).
 */
#ifndef IOS_BENCH_GUARD_H
#define IOS_BENCH_GUARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * guard.c: a small process forked once (the first time it is told
 * something), holding only its end of a socket pair: when that reaches
 * EOF (iosched-bench ended, however) it ends the run's cgroup (cgroup.kill)
 * or, without one, kills the fio process group it was last told of; for a
 * disk whose scheduler was switched and not given back it puts back the
 * scheduler and tunables the restore would have written (but a file
 * another program set after the last switch: kept, as the restore keeps
 * it) and writes
 * "change" to its uevent once the bench lock is free, so that ioschedd and
 * the udev rule apply the policy again; it puts back the write hints of the
 * run's write targets; and it removes the files the run made (created.c's
 * rule, on the directory handles it was given).  0 or -errno; a guard that
 * cannot start is said once and the run goes on.
 */
int bench_guard_start(void);
pid_t bench_guard_pid(void);                            /* the guard's pid, 0 when none runs */
void bench_guard_fio(pid_t pgid);                      /* fio's process group runs; 0: none */
void bench_guard_disk(unsigned major, unsigned minor);  /* the disk is switched; 0, 0: given back */
struct ios_wanted;
void bench_guard_state(const struct ios_wanted *w);     /* what the restore writes, as of the next switch */
void bench_guard_left(const struct ios_wanted *w);      /* what that switch left: a file that moves since is
                                                         * another program's, kept */
/* created.c's files, for the guard to remove after a kill -9: made (dfd: its directory's handle, passed),
 * seen (its identity once fio made it), gone (removed or given up) */
void bench_guard_file(const char *path, int dfd, dev_t dev, ino_t ino, bool known);
void bench_guard_file_seen(const char *path, dev_t dev, ino_t ino);
void bench_guard_file_gone(const char *path);
/* fiohints.c's write targets, for the guard to put their hints back after a kill -9: fd (passed) and the hint
 * found; done: put back (the guard forgets them) */
void bench_guard_hint(int fd, uint64_t hint, const char *path);
void bench_guard_hints_done(void);

/* rwhint.c: a file's or device's write hint (RWH_WRITE_LIFE_*), on a descriptor: 0 or -errno (-EINVAL: a
 * kernel without write hints) */
int bench_rw_hint_get(int fd, uint64_t *ret);
/* set to want and read back into *now: 0, -EIO (the kernel keeps *now) or -errno */
int bench_rw_hint_put(int fd, uint64_t want, uint64_t *now);
/* fio's name of a hint ("short"), or the number */
const char *bench_rw_hint_name(uint64_t h, char *buf, size_t size);

/* procs.c: pid's /proc/PID/stat fields after its name ("S 1 42 ...") in buf: 0 or -errno */
int bench_proc_stat(pid_t pid, char *buf, size_t len);
/* procs.c: pid's start time (clock ticks after boot): with the pid, a process no other is; 0 unknown */
unsigned long long bench_proc_start(pid_t pid);
/* procs.c: pid's children (at most max) into v: how many */
size_t bench_proc_children(pid_t pid, pid_t *v, size_t max);

/*
 * runcg.c: the run's cgroup (cgroup v2, where writable): made once by
 * bench_guard_start() and told to the guard, joined by fio's child before
 * exec, emptied with cgroup.kill after each fio run, at exit and by the
 * guard.  0 or -errno (-ENOENT: no writable cgroup v2, the process group
 * and the guard's following of fio's children do it).
 */
int bench_runcg_new(void);
const char *bench_runcg_path(void);                     /* NULL: none */
int bench_runcg_join(void);                             /* in fio's child, before exec; async-signal-safe */
int bench_runcg_kill(void);                             /* every process in it ended: how many there were */
int bench_runcg_kill_dir(const char *dir);              /* the same for a cgroup by path (the guard's) */
/* Remove the cgroup dir, waiting out EBUSY while its last processes are torn down; 0 or -errno. */
int bench_runcg_rmdir(const char *dir);
int bench_runcg_count(const char *dir);
void bench_runcg_remove(void);                          /* emptied and removed (atexit) */

/*
 * created.c: each file the run makes (ours, or fio's by the names the job
 * gives), its directory opened before the run, and removed at the end (or
 * at exit) with unlinkat() on that directory, only while the entry is still
 * the regular file that was made (device and inode, from the open file, or
 * as seen after each fio run).
 */
/* the files the guard removes after a kill -9 (the first made; the rest are left) */
#define GUARD_MAX_FILES 256
int bench_created_add(const char *path, int fd);       /* fd: the file made, or -1 when fio makes it */
void bench_created_seen(void);                          /* record what fio made, as it is now */
int bench_created_remove(const char *path);            /* 1 removed, 0 not ours any more or gone, -errno */
void bench_created_remove_all(void);
void bench_created_remove_fio(void);                    /* every file fio made, in one pass */
/* rmtree.c: a directory the run made (a scratch directory, fioscratch.c), name beneath dfd, while it is
 * dev:ino: everything in it (no link followed), then itself; the regular files removed, counted, or -errno */
int bench_remove_tree(int dfd, const char *name, dev_t dev, ino_t ino);

#endif
