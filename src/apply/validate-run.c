/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * validate-run.c: iosched-bench as validate's child.  Its standard output
 * (the -J report) is read into memory; its standard error is copied to
 * ours as it comes, byte for byte, and its last "iosched-bench: " line is
 * kept (the one error it ends with).  While it runs, SIGINT and SIGQUIT
 * (which the terminal sends to both) are left to it, and SIGTERM and SIGHUP
 * sent to validate alone are passed on: the bench stops and restores what
 * it changed, and validate waits for that.  The child ignores SIGPIPE, so
 * that a validate that is killed cannot kill it halfway through a restore.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "grow.h"

#define REPORT_MAX (256u << 20)         /* more -J than any bench run prints */

static volatile sig_atomic_t child_pid;

static void forward(int sig)
{
        if (child_pid > 0)
                (void)kill((pid_t)child_pid, sig);
}

static void write_all(int fd, const char *p, size_t n)
{
        while (n > 0) {
                ssize_t w = write(fd, p, n);

                if (w < 0 && errno == EINTR)
                        continue;
                if (w <= 0)
                        return;         /* our stderr is gone: the bench's lines are lost, not the run */
                p += w;
                n -= (size_t)w;
        }
}

/* Keep the last "iosched-bench: " line of what the bench wrote on stderr. */
static void scan_err(struct apply_bench_run *r, const char *p, size_t n)
{
        for (size_t i = 0; i < n; i++) {
                char c = p[i];

                if (c == '\n' || c == '\r') {
                        r->line[r->linelen] = '\0';
                        if (startswith(r->line, "iosched-bench: "))
                                memcpy(r->last_err, r->line, r->linelen + 1);
                        r->linelen = 0;
                } else if (r->linelen + 1 < sizeof(r->line))
                        r->line[r->linelen++] = c;
        }
}

/* One read from fd; 0 at its end, 1 more to come, -errno. */
static int drain(struct apply_bench_run *r, int fd, bool is_out)
{
        char buf[65536];
        ssize_t n = read(fd, buf, sizeof(buf));

        if (n < 0)
                return errno == EINTR || errno == EAGAIN ? 1 : -errno;
        if (n == 0)
                return 0;
        if (!is_out) {
                write_all(STDERR_FILENO, buf, (size_t)n);
                scan_err(r, buf, (size_t)n);
                return 1;
        }
        if (r->outlen + (size_t)n + 1 > REPORT_MAX)
                return -EFBIG;
        if (r->outlen + (size_t)n + 1 > r->outcap) {
                char *t = ios_grow(r->out, &r->outcap, r->outlen + (size_t)n + 1, 1);

                if (!t)
                        return -ENOMEM;
                r->out = t;
        }
        memcpy(r->out + r->outlen, buf, (size_t)n);
        r->outlen += (size_t)n;
        r->out[r->outlen] = '\0';
        return 1;
}

static void child(char **argv, int out, int err)
{
        if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
                _exit(127);
        signal(SIGPIPE, SIG_IGN);
        signal(SIGINT, SIG_DFL);
        signal(SIGQUIT, SIG_DFL);
        execvp(argv[0], argv);
        dprintf(STDERR_FILENO, "iosched-apply: cannot run %s: %s\n", argv[0], ios_strerror(errno));
        _exit(127);
}

/* Read both pipes until both end; an error stops reading the report but not the wait. */
static int pump(struct apply_bench_run *r, int *out, int *err)
{
        struct pollfd p[2] = { { .fd = *out, .events = POLLIN }, { .fd = *err, .events = POLLIN } };
        int *fds[2] = { out, err };
        int e = 0;

        while (p[0].fd >= 0 || p[1].fd >= 0) {
                int k = poll(p, 2, -1);

                if (k < 0 && errno == EINTR)
                        continue;
                if (k < 0)
                        return -errno;
                for (int i = 0; i < 2; i++) {
                        int rr;

                        if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
                                continue;
                        rr = drain(r, p[i].fd, i == 0);
                        if (rr < 0 && i == 0 && !e)
                                e = rr;
                        if (rr <= 0) {
                                /* closed: the bench ignores SIGPIPE, a report too big fails its write */
                                close(p[i].fd);
                                p[i].fd = *fds[i] = -1;
                        }
                }
        }
        return e;
}

int apply_bench_run(char **argv, struct apply_bench_run *r)
{
        struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = forward };
        struct sigaction old_int, old_quit, old_term, old_hup;
        int out[2] = { -1, -1 }, err[2] = { -1, -1 }, st, e;
        pid_t pid;

        *r = (struct apply_bench_run){ .status = -1 };
        if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
                e = -errno;
                goto close;
        }
        (void)fflush(stdout);
        (void)fflush(stderr);
        sigemptyset(&fwd.sa_mask);
        sigemptyset(&ign.sa_mask);
        (void)sigaction(SIGINT, &ign, &old_int);
        (void)sigaction(SIGQUIT, &ign, &old_quit);
        (void)sigaction(SIGTERM, &fwd, &old_term);
        (void)sigaction(SIGHUP, &fwd, &old_hup);
        pid = fork();
        if (pid == 0)
                child(argv, out[1], err[1]);
        e = pid < 0 ? -errno : 0;
        close(out[1]);
        close(err[1]);
        out[1] = err[1] = -1;
        if (pid > 0) {
                child_pid = pid;
                e = pump(r, &out[0], &err[0]);
                while (waitpid(pid, &st, 0) < 0)
                        if (errno != EINTR) {
                                st = -1;
                                break;
                        }
                child_pid = 0;
                r->status = st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        }
        (void)sigaction(SIGINT, &old_int, NULL);
        (void)sigaction(SIGQUIT, &old_quit, NULL);
        (void)sigaction(SIGTERM, &old_term, NULL);
        (void)sigaction(SIGHUP, &old_hup, NULL);
close:
        for (int i = 0; i < 2; i++) {
                if (out[i] >= 0)
                        close(out[i]);
                if (err[i] >= 0)
                        close(err[i]);
        }
        return e;
}

void apply_bench_run_done(struct apply_bench_run *r)
{
        free(r->out);
        r->out = NULL;
        r->outlen = r->outcap = 0;
}
