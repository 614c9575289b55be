/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * guard.c: a run never outlives iosched-bench.  fio itself dies with
 * iosched-bench (its parent-death signal, fio.c), but fio forks its jobs,
 * which do not inherit that signal, and a kill -9 leaves no one to put the
 * scheduler back.  So iosched-bench forks, once, a guard: a process of its
 * own process group (a terminal's ^C is iosched-bench's to handle), named
 * "iosched-guard", with every other descriptor closed (it never holds the
 * bench lock nor a target), that reads short lines from a pipe:
 *   "F PGID"      fio's process group runs (0: none runs)
 *   "D MAJ:MIN"   that disk's scheduler is switched (0:0: given back)
 * When the pipe reaches EOF, iosched-bench has ended; one that ended its
 * own way said "F 0" and "D 0:0" before, and the guard just exits.
 * Otherwise it kills fio's process group (SIGKILL: every job process of
 * it) and, for a switched disk, waits (up to 2 s) until the bench lock is
 * free and writes "change" to the disk's uevent: ioschedd and the udev
 * rule (iosched-apply --udev) then apply the policy, as they yield to a
 * held lock only.  It says what it did in one line on standard error.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "guard.h"
#include "iosched.h"
#include "macro.h"

static int guard_fd = -1;
static bool guard_failed;

/* Is the disk's bench lock held by a live iosched-bench? */
static bool lock_held(unsigned major, unsigned minor)
{
        struct ios_ctx *ctx = NULL;
        long pid = 0;
        int r;

        if (ios_ctx_new(NULL, &ctx) < 0)
                return false;
        r = ios_bench_lock_holder(ctx, major, minor, &pid);
        ios_ctx_free(ctx);
        return r > 0;
}

static void give_back(unsigned major, unsigned minor, pid_t pgid)
{
        char path[64], msg[160] = "";
        int n = 0, fd;

        if (pgid > 0 && kill(-pgid, SIGKILL) == 0)
                n = snprintf(msg, sizeof(msg), "stopped fio (process group %d)", (int)pgid);
        if (major || minor) {
                for (int i = 0; i < 200 && lock_held(major, minor); i++)
                        usleep(10000);
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

static _Noreturn void guard_main(int fd)
{
        char buf[256];
        size_t len = 0;
        unsigned major = 0, minor = 0;
        pid_t pgid = 0;

        for (;;) {
                ssize_t n = read(fd, buf + len, sizeof(buf) - 1 - len);
                char *nl;

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                len += (size_t)n;
                buf[len] = '\0';
                while ((nl = strchr(buf, '\n'))) {
                        unsigned a, b;
                        int p;

                        *nl = '\0';
                        if (sscanf(buf, "F %d", &p) == 1)
                                pgid = p > 1 ? p : 0;
                        else if (sscanf(buf, "D %u:%u", &a, &b) == 2) {
                                major = a;
                                minor = b;
                        }
                        len -= (size_t)(nl + 1 - buf);
                        memmove(buf, nl + 1, len + 1);
                }
                if (len == sizeof(buf) - 1)
                        len = 0;        /* no line of ours is that long */
        }
        give_back(major, minor, pgid);
        _exit(0);
}

int bench_guard_start(void)
{
        int p[2], null, rd;
        pid_t pid;

        if (guard_fd >= 0 || guard_failed)
                return guard_fd >= 0 ? 0 : -ECHILD;
        if (pipe2(p, O_CLOEXEC) < 0)
                goto fail;
        pid = fork();
        if (pid < 0) {
                close(p[0]);
                close(p[1]);
                goto fail;
        }
        if (pid == 0) {
                setpgid(0, 0);
                (void)prctl(PR_SET_NAME, "iosched-guard", 0, 0, 0);
                signal(SIGINT, SIG_IGN);
                signal(SIGQUIT, SIG_IGN);
                signal(SIGHUP, SIG_IGN);
                signal(SIGTERM, SIG_DFL);
                signal(SIGPIPE, SIG_DFL);
                /* the pipe as fd 3, nothing else but stderr: not the lock, not a target */
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
        return 0;
fail:
        guard_failed = true;
        fprintf(stderr, "iosched-bench: warning: cannot start the guard (%s): a kill -9 would leave fio running\n",
                strerror(errno));
        return -errno;
}

static void tell(const char *line)
{
        size_t len = strlen(line);

        if (bench_guard_start() < 0)
                return;
        while (write(guard_fd, line, len) < 0 && errno == EINTR)
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
