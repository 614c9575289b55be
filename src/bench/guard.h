/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guard.h: what outlives iosched-bench when it is killed (guard.c), and the
 * files a run created, removed by directory handle (created.c).
 */
#ifndef IOS_BENCH_GUARD_H
#define IOS_BENCH_GUARD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * guard.c: a small process forked once (the first time it is told
 * something), holding only its end of a socket pair: when that reaches
 * EOF (iosched-bench ended, however) it kills the fio process group it was
 * last told of and, for a disk whose scheduler was switched and not given
 * back, writes "change" to its uevent once the bench lock is free, so that
 * ioschedd and the udev rule apply the policy again; and removes the files
 * the run made (created.c's rule, on the directory handles it was given).  0 or -errno; a guard
 * that cannot start is said once and the run goes on.
 */
int bench_guard_start(void);
void bench_guard_fio(pid_t pgid);                      /* fio's process group runs; 0: none */
void bench_guard_disk(unsigned major, unsigned minor);  /* the disk is switched; 0, 0: given back */
/* created.c's files, for the guard to remove after a kill -9: made (dfd: its directory's handle, passed),
 * seen (its identity once fio made it), gone (removed or given up) */
void bench_guard_file(const char *path, int dfd, dev_t dev, ino_t ino, bool known);
void bench_guard_file_seen(const char *path, dev_t dev, ino_t ino);
void bench_guard_file_gone(const char *path);

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

#endif
