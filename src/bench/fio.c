/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fio.c: fio as a workload backend (--backend=fio, or auto when the jobs
 * use an option the native engine lacks).  fio runs the job as
 * iosched-bench read it (fioread.c: fio's own reading of the job files,
 * the command line as options.c understood it): --name=J and every
 * setting of J, for each job, and no job file, with --output-format=json+
 * so that the clat histogram comes back bucket by bucket (fio's layout is
 * ours, hist.c).  Before fio starts, fio's report options are refused (a
 * typo is an unknown option already: jobopts-fio.c), and what each job
 * touches is resolved and checked, every problem said at once (fiojob.c).
 * fio runs in its own process group: a signal to iosched-bench ends that
 * group (SIGTERM, then SIGKILL), and the caller restores.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio.h"
#include "fioread.h"
#include "jobs.h"
#include "macro.h"

char *bench_fio_find(void)
{
        const char *path = getenv("PATH");
        _cleanup_(ios_strv_freep) char **dirs = NULL;

        if (!path || ios_strv_split(path, ":", &dirs) < 0)
                return NULL;
        for (char **d = dirs; d && *d; d++) {
                char *p = NULL;

                if (asprintf(&p, "%s/fio", **d ? *d : ".") < 0)
                        return NULL;
                if (access(p, X_OK) == 0)
                        return p;
                free(p);
        }
        return NULL;
}

/* fio's own program options (fio --help) that may come with a job; those that would take the report
 * away from us, or run nothing, are refused */
static const char * const fio_prog_ok[] = { "eta-newline", "eta-interval", "status-interval", "readonly",
                                            "section", "alloc-size", "warnings-fatal", "max-jobs", "debug",
                                            "aux-path", "idle-prof", "trigger-file", "trigger-timeout", "trigger" };
static const char * const fio_prog_refused[] = { "output", "minimal", "terse-version", "append-terse", "server",
                                                 "client", "daemonize", "remote-config", "parse-only", "showcmd",
                                                 "cmdhelp", "enghelp", "crctest", "cpuclock-test", "bandwidth-log",
                                                 "latency-log", "merge-blktrace-only" };

/*
 * What native lacks was checked against fio's option names when it was
 * parsed (jobopts-fio.c: a typo is an unknown option there, no fio run per
 * option); here only fio's program options that would take the report away
 * from us, or run nothing, are refused ("--minimal", from the command line).
 */
static int check_unsupported(const struct bench_opts *g, struct bench_error *e)
{
        for (char **u = g->unsupported; u && *u; u++) {
                size_t len;

                if (strstr(*u, ": ") || strncmp(*u, "--", 2))
                        continue;       /* a job file's or a preset's: job options only */
                len = strcspn(*u + 2, "=");
                for (size_t i = 0; i < ELEMENTSOF(fio_prog_refused); i++)
                        if (strlen(fio_prog_refused[i]) == len && !strncmp(*u + 2, fio_prog_refused[i], len))
                                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                       "--%s: fio's report is iosched-bench's to read; not with iosched-bench",
                                                       fio_prog_refused[i]);
        }
        return 0;
}

int bench_fio_prog_option(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(fio_prog_ok); i++)
                if (streq(name, fio_prog_ok[i]))
                        return 1;
        for (size_t i = 0; i < ELEMENTSOF(fio_prog_refused); i++)
                if (streq(name, fio_prog_refused[i]))
                        return -1;
        return 0;
}

/* Every problem the model found: each on its own line, the last one the error. */
static int refuse(struct bench_fio_defs *d, struct bench_error *e)
{
        for (size_t i = 0; i + 1 < d->nproblems; i++)
                fprintf(stderr, "iosched-bench: %s\n", d->problems[i]);
        if (d->nproblems > 1)
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM, "%s (%zu problems: fio not started)",
                                       d->problems[d->nproblems - 1], d->nproblems);
        return bench_error_set(e, BENCH_ERR_REFUSED, EPERM, "%s", d->problems[0]);
}

/* fio's command line: our program options, then each job's full list of settings, and no job file. */
static int build_argv(const struct bench_fio_defs *d, struct bench_fio *f)
{
        size_t n = 4 + d->prog.n, k = 0;
        char **v;

        for (size_t i = 0; i < d->n; i++)
                n += 1 + d->jobs[i].kv.n;
        v = calloc(n + 1, sizeof(*v));
        if (!v)
                return -ENOMEM;
        f->argv = v;
        v[k++] = strdup(f->exe);
        v[k++] = strdup("--output-format=json+");
        v[k++] = strdup("--eta=never");
        for (size_t i = 0; i < d->prog.n; i++)
                if (!streq(d->prog.v[i].key, "section")) /* applied already: fio reads no job file */
                        (void)(d->prog.v[i].val ? asprintf(&v[k++], "--%s=%s", d->prog.v[i].key, d->prog.v[i].val)
                                                : asprintf(&v[k++], "--%s", d->prog.v[i].key));
        for (size_t i = 0; i < d->n; i++) {
                const struct bench_fio_def *j = &d->jobs[i];

                (void)asprintf(&v[k++], "--name=%s", j->name);
                for (size_t s = 0; s < j->kv.n; s++) {
                        /* a job option alone is "=1" on fio's command line */
                        bool bare = !j->kv.v[s].val;

                        (void)asprintf(&v[k++], "--%s=%s", j->kv.v[s].key, bare ? "1" : j->kv.v[s].val);
                }
        }
        for (size_t i = 0; i < k; i++)
                if (!v[i])
                        return -ENOMEM;
        return 0;
}

int bench_fio_prepare(const struct bench_opts *g, struct ios_ctx *root, struct bench_fio *f,
                      struct bench_target *tg, struct bench_error *e)
{
        struct bench_fio_defs d = {};
        int r;

        *f = (struct bench_fio){};
        f->exe = bench_fio_find();
        if (!f->exe) {
                _cleanup_free_ char *list = ios_strv_join(g->unsupported, ", ");

                if (g->unsupported)
                        return bench_error_set(e, BENCH_ERR_USAGE, ENOENT,
                                               "the native engine does not implement: %s, and fio is not installed "
                                               "(no fio in PATH) to run the job", list ? list : "some options");
                return bench_error_set(e, BENCH_ERR_USAGE, ENOENT, "--backend=fio: fio is not installed (no fio in PATH)");
        }
        snprintf(f->version, sizeof(f->version), "fio");       /* fio's report names its version */
        r = check_unsupported(g, e);
        if (r < 0)
                return r;
        /* the jobs as fio reads them (fioread.c), then what they touch (fiojob.c), all before fio starts */
        r = bench_fio_read(g, f->exe, &d, e);
        if (r >= 0 && d.n == 0 && d.nproblems == 0)
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "no job for fio to run");
        if (r >= 0)
                r = bench_fio_model(g, &d, root, f, tg, e);
        if (r >= 0 && d.nproblems)
                r = refuse(&d, e);
        if (r >= 0)
                r = build_argv(&d, f);
        if (r >= 0 && bench_sandbox_abi() == 0)
                fprintf(stderr, "iosched-bench: note: this kernel has no Landlock: fio runs unconfined, held only "
                                "by the checks made before it starts\n");
        bench_fio_defs_done(&d);
        return r;
}

/* End fio's process group: TERM, then KILL after 5 s. */
static void stop_group(pid_t pid)
{
        kill(-pid, SIGTERM);
        for (int i = 0; i < 50; i++) {
                if (waitpid(pid, NULL, WNOHANG) != 0)
                        return;
                usleep(100000);
        }
        kill(-pid, SIGKILL);
}

int bench_fio_run(struct bench_fio *f, const struct bench_opts *g, struct ios_device *disk,
                  struct bench_result *res, struct bench_error *e)
{
        _cleanup_free_ char *out = NULL;
        size_t len = 0, cap = 0;
        struct bench_cpu_snap a, b;
        struct bench_fj doc;
        bool have_cpu, stopped = false;
        uint64_t t0, stat0[11];
        int pfd[2], status = 0, r;
        pid_t pid;
        char *json;

        memset(res, 0, sizeof(*res));
        res->ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
        if (pipe2(pfd, O_CLOEXEC) < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "pipe: %s", strerror(errno));
        have_cpu = bench_cpu_snap_read(&a) == 0;
        res->have_disk_stat = bench_disk_stat_read(disk, stat0);
        t0 = bench_clock_gettime_ns();
        pid = fork();
        if (pid < 0) {
                close(pfd[0]);
                close(pfd[1]);
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot start fio: %s", strerror(errno));
        }
        if (pid == 0) {
                setpgid(0, 0);
                signal(SIGPIPE, SIG_DFL);
                if (dup2(pfd[1], STDOUT_FILENO) < 0)
                        _exit(127);
                execv(f->exe, f->argv);
                _exit(127);
        }
        setpgid(pid, pid);
        close(pfd[1]);
        for (;;) {
                struct pollfd p = { .fd = pfd[0], .events = POLLIN };
                ssize_t n;

                if (bench_stop_signal && !stopped) {
                        stopped = true;
                        kill(-pid, SIGTERM);
                }
                if (poll(&p, 1, 200) <= 0)
                        continue;
                if (len + 65536 > cap) {
                        char *t = ios_grow(out, &cap, len + 65536, 1);

                        if (!t) {
                                close(pfd[0]);
                                stop_group(pid);
                                waitpid(pid, NULL, 0);
                                return -ENOMEM;
                        }
                        out = t;
                }
                n = read(pfd[0], out + len, cap - len - 1);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                len += (size_t)n;
        }
        close(pfd[0]);
        if (stopped)
                stop_group(pid);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
        res->elapsed_ns = bench_clock_gettime_ns() - t0;
        if (have_cpu && bench_cpu_snap_read(&b) == 0)
                bench_result_machine_cpu(res, &a, &b);
        if (res->have_disk_stat) {
                memcpy(res->disk_stat_before, stat0, sizeof(stat0));
                res->have_disk_stat = bench_disk_stat_read(disk, res->disk_stat_after);
        }
        if (!out)
                return stopped ? bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d",
                                                 bench_stop_signal)
                               : bench_error_set(e, BENCH_ERR_IO, EIO, "fio failed (exit status %d) and wrote no report",
                                                 WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        out[len] = '\0';
        /* fio may write notes before the document: it starts at a line's '{' */
        json = out[0] == '{' ? out : strstr(out, "\n{");
        json = json && *json == '\n' ? json + 1 : json;
        if (!stopped && (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || !json))
                return bench_error_set(e, BENCH_ERR_IO, EIO, "fio failed (exit status %d)%s",
                                       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
                                       json ? "" : " and wrote no report");
        if (!json || bench_fj_parse(json, len - (size_t)(json - out), &doc) < 0)
                return stopped ? bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d",
                                                 bench_stop_signal)
                               : bench_error_set(e, BENCH_ERR_IO, EINVAL, "cannot read fio's JSON report");
        r = bench_fio_result(f, g, &doc, res, e);
        bench_fj_free(&doc);
        res->interrupted = stopped;
        return r;
}

void bench_fio_done(struct bench_fio *f)
{
        if (f->preset)
                unlink(f->preset);
        /* the files fio laid out for the job, as our engine removes its own */
        for (char **c = f->created; c && *c; c++) {
                struct stat st;

                if (lstat(*c, &st) == 0 && S_ISREG(st.st_mode))
                        unlink(*c);
        }
        ios_strv_free(f->created);
        bench_fio_access_done(&f->access);
        free(f->preset);
        free(f->exe);
        ios_strv_free(f->argv);
        bench_fio_view_done(f);
        *f = (struct bench_fio){};
}
