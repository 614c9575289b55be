/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiocapture.c: fio run to its end for its own reading of a job
 * (--showcmd, fioread.c) or of itself (--enghelp, fioengines.c): standard
 * input, output and errors in memory files, SIGINT and SIGTERM to
 * iosched-bench ending it.  It starts and ends as the run's fio does
 * (fioproc.c): in the run's cgroup, with the guard told, so that a job
 * it forks (fionamed.c runs the jobs with create_only=1) cannot outlive
 * iosched-bench, even after a kill -9.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio.h"
#include "fioread.h"
#include "guard.h"
#include "jobs.h"
#include "macro.h"

/* ------------------------------------------------------------------ */

static int memfd_text(const char *name, const char *text)
{
        int fd = memfd_create(name, MFD_CLOEXEC);
        size_t len = text ? strlen(text) : 0, done = 0;

        if (fd < 0)
                return -errno;
        while (done < len) {
                ssize_t w = write(fd, text + done, len - done);

                if (w <= 0) {
                        close(fd);
                        return -EIO;
                }
                done += (size_t)w;
        }
        lseek(fd, 0, SEEK_SET);
        return fd;
}

static char *memfd_read(int fd)
{
        off_t len = lseek(fd, 0, SEEK_END);
        char *s = len >= 0 ? malloc((size_t)len + 1) : NULL;
        ssize_t n;

        if (!s)
                return NULL;
        n = pread(fd, s, (size_t)len, 0);
        s[n > 0 ? n : 0] = '\0';
        return s;
}

/* fio's argv run to its end, stdin from in (or /dev/null), its output and errors returned; its exit status */
int bench_fio_capture(const struct bench_fence *fc, char * const *argv, const char *in, bool jobs, char **out,
                      char **err, struct bench_error *e)
{
        const char *step = NULL;
        int ifd = memfd_text("fio-in", in), ofd = memfd_text("fio-out", NULL), efd = memfd_text("fio-err", NULL);
        char **env = jobs ? bench_fio_environ() : environ;
        int status = 0, r = 0;
        pid_t pid = -1, parent = getpid();

        /* the run's cgroup and its guard first: a job fio forks while it reads ends with the run */
        (void)bench_guard_start();
        (void)bench_fio_proc_subreaper();
        if (ifd < 0 || ofd < 0 || efd < 0 || !env)
                r = -ENOMEM;
        else if ((pid = bench_fio_proc_fork()) < 0)
                r = bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot start fio: %s", ios_strerror(errno));
        else if (pid == 0) {
                r = bench_fio_proc_enter(parent, &step);
                if (r < 0) {
                        if (r != -ECHILD)
                                dprintf(2, "iosched-bench: cannot start fio (%s: %s)\n", step,
                                        ios_strerror(r));
                        _exit(127);
                }
                if (dup2(ifd, 0) < 0 || dup2(ofd, 1) < 0 || dup2(efd, 2) < 0)
                        _exit(127);
                /* fio reads the job inside the fence, as it runs it: never unconfined */
                if ((r = bench_fence_enter(fc, &step)) < 0) {
                        dprintf(2, "iosched-bench: cannot fence fio (%s: %s)\n", step, ios_strerror(r));
                        _exit(127);
                }
                execve(argv[0], argv, env);
                _exit(127);
        }
        if (pid > 0)
                bench_fio_proc_started(pid);
        while (pid > 0 && r == 0 && !bench_fio_proc_exited(pid)) {
                if (bench_stop_signal)
                        r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d",
                                            bench_stop_signal);
                else
                        usleep(5000);
        }
        /* fio and the jobs it forked (sessions of their own) ended whole, fio reaped */
        if (pid > 0)
                bench_fio_proc_end(pid, r < 0, BENCH_FIO_GRACE_MS, &status);
        if (r == 0) {
                *out = memfd_read(ofd);
                *err = memfd_read(efd);
                if (!*out || !*err)
                        r = -ENOMEM;
                else
                        r = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if (ifd >= 0)
                close(ifd);
        if (ofd >= 0)
                close(ofd);
        if (efd >= 0)
                close(efd);
        return r;
}
