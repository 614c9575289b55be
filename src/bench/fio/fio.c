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
 * fio runs in its own process group, with a parent-death signal, inside
 * the kernel's fence (sandbox.c, built in the child before execv from
 * struct bench_fio_access; one that cannot be built stops the run): a
 * signal to iosched-bench ends that group (SIGTERM, then SIGKILL), and the
 * caller restores; a kill -9 is the guard's (guard.c).  fio's standard
 * error is passed on and its end kept: a non-zero exit, or exit 0 with
 * fio's "Aborting", fails the run with fio's own reason.  The files fio
 * lays out are removed by directory handle (created.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
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
#include "guard.h"
#include "jobs.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

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

/*
 * What native lacks was checked against fio's option names when it was
 * parsed (jobopts-fio.c: a typo is an unknown option there, no fio run per
 * option); here only fio's program options that would take the report away
 * from us, or run nothing, are refused ("--minimal", from the command line),
 * among those native lacks and those it ignores (--status-interval: fio
 * writes a report of its own every interval).
 */
static int check_prog(char **list, struct bench_error *e)
{
        for (char **u = list; u && *u; u++) {
                size_t len;

                if (strstr(*u, ": ") || strncmp(*u, "--", 2))
                        continue;       /* a job file's or a preset's: job options only */
                len = strcspn(*u + 2, "=");
                {
                        _cleanup_free_ char *name = strndup(*u + 2, len);

                        if (!name)
                                return -ENOMEM;
                        if (bench_fio_prog_option(name) < 0)
                                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                       "--%s: fio's report is iosched-bench's to read; not with iosched-bench",
                                                       name);
                }
        }
        return 0;
}

static int check_unsupported(const struct bench_opts *g, struct bench_error *e)
{
        int r = check_prog(g->unsupported, e);

        return r < 0 ? r : check_prog(g->ignored, e);
}


/*
 * Without Landlock only the checks made before fio starts and the system
 * call filter hold fio: no fio runs but when asked (a job file, which fio
 * reads itself, includes and all; an option only fio knows; or
 * --backend=fio alone, whose files fio opens by path again each round,
 * where a link swapped in meanwhile is followed: only Landlock's rules on
 * the inodes hold that).
 */
static int check_unconfined(const struct bench_opts *g, struct bench_error *e)
{
        if (g->unconfined || bench_sandbox_abi() > 0)
                return 0;
        if (g->jobfiles)
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                       "%s: this kernel has no Landlock to fence fio in, and fio would read "
                                       "the job file unconfined; --unconfined runs it so", g->jobfiles[0]);
        if (g->unsupported)
                return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                                       "%s: this kernel has no Landlock to fence fio in, and the option is "
                                       "fio's alone; --unconfined runs fio unconfined", g->unsupported[0]);
        return bench_error_set(e, BENCH_ERR_REFUSED, EPERM,
                               "--backend=fio: this kernel has no Landlock to fence fio in; "
                               "--unconfined runs fio unconfined (the native backend runs these jobs)");
}

/*
 * The jobs' I/Os are the reads and writes the figures and the verdict are made of: a job that trims is
 * refused (fio reports its trims apart, and they are not read), and with --compare a job of calls on
 * files (filestat...: the disk's scheduler seldom sees them, and a "best" would be named from stat()s).
 */
static int reads_and_writes(const struct bench_fio_defs *d, bool compare, struct bench_error *e)
{
        for (size_t i = 0; i < d->n; i++) {
                const char *rw = bench_fio_kv_get(&d->jobs[i].kv, "rw");
                const char *eng = bench_fio_kv_get(&d->jobs[i].kv, "ioengine");

                if (rw && bench_fio_ddir(rw) & BENCH_FIO_DDIR_TRIM)
                        return bench_error_set(e, BENCH_ERR_USAGE, EOPNOTSUPP,
                                               "job '%s': rw=%s trims: iosched-bench measures and compares "
                                               "reads and writes, not trims", d->jobs[i].name, rw);
                if (compare && eng && bench_fio_engine_fileops(eng))
                        return bench_error_set(e, BENCH_ERR_USAGE, EOPNOTSUPP,
                                               "job '%s': ioengine=%s counts calls on files, which the "
                                               "disk's scheduler seldom sees: --compare compares its reads "
                                               "and writes", d->jobs[i].name, eng);
        }
        return 0;
}

/* Every problem the model found: each on its own line, the last one the error. */
static int refuse(struct bench_fio_defs *d, struct bench_error *e)
{
        /* refused for safety (3), unless every problem is a job that cannot be (2) */
        enum bench_error_class c = d->nusage == d->nproblems ? BENCH_ERR_USAGE : BENCH_ERR_REFUSED;

        for (size_t i = 0; i + 1 < d->nproblems; i++)
                fprintf(stderr, "iosched-bench: %s\n", d->problems[i]);
        if (d->nproblems > 1)
                return bench_error_set(e, c, EPERM, "%s (%zu problems: fio not started)",
                                       d->problems[d->nproblems - 1], d->nproblems);
        return bench_error_set(e, c, c == BENCH_ERR_USAGE ? EINVAL : EPERM, "%s", d->problems[0]);
}

/* Each job's group_reporting= kept in f and taken from what fio is given (fio.h). */
static int ungroup(struct bench_fio_defs *d, struct bench_fio *f)
{
        f->grouped = calloc(d->n ? d->n : 1, sizeof(*f->grouped));
        if (!f->grouped)
                return -ENOMEM;
        f->ngrouped = (unsigned)d->n;
        for (size_t i = 0; i < d->n; i++) {
                const struct bench_fio_kv *kv = bench_fio_kv_last(&d->jobs[i].kv, "group_reporting");

                f->grouped[i] = kv && (!kv->val || !bench_fio_falsy(kv->val));
                bench_fio_kv_drop(&d->jobs[i].kv, "group_reporting");
        }
        return 0;
}

int bench_fio_prepare(const struct bench_opts *g, struct ios_ctx *root, struct bench_fio *f,
                      struct bench_target *tg, struct bench_error *e)
{
        struct bench_fio_defs d = {};
        int r;

        *f = (struct bench_fio){ .fence.rs = -1 };
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
        if (r >= 0)
                r = check_unconfined(g, e);
        if (r < 0)
                return r;
        /* the jobs as fio reads them (fioread.c), then what they touch (fiojob.c), all before fio starts */
        r = bench_fio_read(g, f->exe, &d, e);   /* fio itself, fenced: fiocapture.c */
        if (r >= 0 && d.n == 0 && d.nproblems == 0)
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "no job for fio to run");
        if (r >= 0)
                r = reads_and_writes(&d, g->compare, e);
        if (r >= 0)
                r = bench_fio_model(g, &d, root, f, tg, e);
        if (r >= 0 && d.nproblems)
                r = refuse(&d, e);
        if (r >= 0)
                r = ungroup(&d, f);
        if (r >= 0)
                r = bench_fio_argv(&d, f->exe, &f->argv);
        if (r >= 0 && !(f->envp = bench_fio_environ()))
                r = -ENOMEM;
        if (r >= 0) {
                const char *step, *what;

                /* the fence, once, from what each path names now: no round resolves a path again */
                f->access.allow_net = g->allow_net;
                f->access.allow_hints = f->sets_hints;
                r = bench_fence_build(&f->fence, &f->access, NULL, f->exe, &step, &what);
                if (r < 0)
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, -r,
                                            "cannot fence fio with Landlock (%s%s%s: %s); "
                                            "fio not run unconfined",
                                            step, what ? " " : "", what ? what : "", ios_strerror(r));
        }
        if (r >= 0)
                r = bench_fio_hints_keep(f, e);
        if (r >= 0 && bench_sandbox_abi() == 0)
                fprintf(stderr, "iosched-bench: note: this kernel has no Landlock: fio runs unconfined, held only "
                                "by the checks made before it starts\n");
        bench_fio_defs_done(&d);
        return r;
}

/* ------------------------------------------------------------------ */
/* One run of fio                                                      */
/* ------------------------------------------------------------------ */

/* fio's standard error as it comes: passed on, and its last FIO_ERR_KEEP bytes kept for the reason */
#define FIO_ERR_KEEP 4096
struct fio_child {
        pid_t pid;
        int out, err;                   /* fio's stdout (the report) and stderr */
        char *text;                     /* the report */
        size_t len, cap;
        char tail[FIO_ERR_KEEP + 1];    /* the end of fio's standard error */
        size_t tail_len;
        int status;
};

/* What the child says before execv when it cannot: the step and the errno. */
struct fio_child_fail {
        int err;
        bool fence;             /* building the Landlock fence failed */
        char step[64];
};

static _Noreturn void child_fail(int fd, int err, const char *step, bool fence)
{
        struct fio_child_fail m = { .err = err, .fence = fence };

        snprintf(m.step, sizeof(m.step), "%s", step);
        (void)!write(fd, &m, sizeof(m));
        _exit(127);
}

/*
 * In fio's child: its own process group and the run's cgroup (fioproc.c), the kernel's fence, then fio,
 * reading nothing of the bench's standard input (a terminal: a program a job ran with --allow-exec read
 * what was typed there; fio takes no job from it, the bench read "-" already).
 */
static _Noreturn void child_exec(struct bench_fio *f, pid_t parent, int out, int err, int status)
{
        const char *step = NULL;
        int r, nul;

        r = bench_fio_proc_enter(parent, &step);
        if (r == -ECHILD)
                _exit(127);             /* iosched-bench is gone already */
        if (r < 0)
                child_fail(status, -r, step, false);
        if (dup2(out, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
                child_fail(status, errno, "redirect its output", false);
        nul = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (nul < 0 || dup2(nul, STDIN_FILENO) < 0)
                child_fail(status, errno, "take its input from /dev/null", false);
        r = bench_fence_enter(&f->fence, &step);
        if (r < 0)
                child_fail(status, -r, step, true);
        execve(f->exe, f->argv, f->envp);
        child_fail(status, errno, "execute it", false);
}

/* fio ended with all it started (fioproc.c); the files it laid out then known (created.c). */
static void end_group(struct fio_child *c, bool term, unsigned grace_ms)
{
        bench_fio_proc_end(c->pid, term, grace_ms, &c->status);
        bench_created_seen();
}

/* fio started, in its own process group, fenced; or the one line why not. */
static int spawn(struct bench_fio *f, struct fio_child *c, struct bench_error *e)
{
        int o[2], er[2] = { -1, -1 }, st[2] = { -1, -1 }, r;
        struct fio_child_fail m;
        pid_t parent = getpid();
        ssize_t n;

        if (pipe2(o, O_CLOEXEC) < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "pipe: %s", ios_strerror(errno));
        if (pipe2(er, O_CLOEXEC) < 0 || pipe2(st, O_CLOEXEC) < 0) {
                r = errno;
                close(o[0]);
                close(o[1]);
                if (er[0] >= 0) {
                        close(er[0]);
                        close(er[1]);
                }
                return bench_error_set(e, BENCH_ERR_SYSTEM, r, "pipe: %s", ios_strerror(r));
        }
        (void)bench_guard_start();      /* before fio, so that it holds nothing of fio's */
        (void)bench_fio_proc_subreaper();
        c->pid = bench_fio_proc_fork();
        if (c->pid == 0)
                child_exec(f, parent, o[1], er[1], st[1]);
        r = errno;
        close(o[1]);
        close(er[1]);
        close(st[1]);
        c->out = o[0];
        c->err = er[0];
        if (c->pid < 0) {
                close(st[0]);
                return bench_error_set(e, BENCH_ERR_SYSTEM, r, "cannot start fio: %s", ios_strerror(r));
        }
        bench_fio_proc_started(c->pid);
        while ((n = read(st[0], &m, sizeof(m))) < 0 && errno == EINTR)
                ;
        close(st[0]);
        if (n == (ssize_t)sizeof(m)) {
                end_group(c, false, 0);
                if (m.fence)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, m.err,
                                               "cannot fence fio with Landlock (%s: %s); fio not run unconfined",
                                               m.step, ios_strerror(m.err));
                return bench_error_set(e, BENCH_ERR_SYSTEM, m.err, "cannot start fio (%s: %s)", m.step,
                                       ios_strerror(m.err));
        }
        return 0;
}

/* fio's standard error: passed on as it comes, its end kept. */
static void take_err(struct fio_child *c)
{
        char buf[4096];
        ssize_t n = read(c->err, buf, sizeof(buf));

        if (n < 0 && errno == EINTR)
                return;
        if (n <= 0) {
                close(c->err);
                c->err = -1;
                return;
        }
        /* a value fio echoes, from a file it read (verify_pattern=), reaches no terminal as an escape */
        ios_mask_controls(buf, (size_t)n, true);
        (void)!write(STDERR_FILENO, buf, (size_t)n);
        if ((size_t)n >= FIO_ERR_KEEP) {
                memcpy(c->tail, buf + n - FIO_ERR_KEEP, FIO_ERR_KEEP);
                c->tail_len = FIO_ERR_KEEP;
        } else {
                size_t keep = c->tail_len + (size_t)n > FIO_ERR_KEEP ? FIO_ERR_KEEP - (size_t)n : c->tail_len;

                memmove(c->tail, c->tail + c->tail_len - keep, keep);
                memcpy(c->tail + keep, buf, (size_t)n);
                c->tail_len = keep + (size_t)n;
        }
        c->tail[c->tail_len] = '\0';
}

/*
 * fio's report read until fio closes it, its stderr passed on; a stop
 * signal ends fio's group: fio has its grace from the SIGTERM to report
 * what it ran, then end_group() kills it at once (a job waiting on
 * exec_prerun's command, or in a library's connect, does not hold the
 * bench); *graced when that grace is spent.
 */
static int collect(struct fio_child *c, bool *stopped, bool *graced)
{
        uint64_t stop_ns = 0;

        while (c->out >= 0 || c->err >= 0) {
                struct pollfd p[2] = { { .fd = c->out, .events = POLLIN }, { .fd = c->err, .events = POLLIN } };
                ssize_t n;

                /* fio has ended and its report is read: a program it left running may hold stderr */
                if (c->out < 0 && bench_fio_proc_exited(c->pid)) {
                        p[1].events = POLLIN;
                        for (int i = 0; i < 64 && c->err >= 0 && poll(&p[1], 1, 0) > 0; i++)
                                take_err(c);
                        break;
                }
                if (bench_stop_signal && !*stopped) {
                        *stopped = true;
                        stop_ns = bench_clock_gettime_ns();
                        kill(-c->pid, SIGTERM);
                }
                if (*stopped && bench_clock_gettime_ns() - stop_ns > BENCH_FIO_GRACE_MS * 1000000ULL) {
                        *graced = true;
                        break;
                }
                /* fio has ended, its report in the pipe: a program a job left (a daemon) cannot hold it
                 * open */
                bool ended = c->out >= 0 && bench_fio_proc_exited(c->pid);

                if (ended)
                        (void)bench_runcg_kill();
                if (poll(p, 2, ended ? 0 : 200) <= 0) {
                        if (ended) {
                                close(c->out);
                                c->out = -1;
                        }
                        continue;
                }
                if (p[1].revents)
                        take_err(c);
                if (!p[0].revents)
                        continue;
                if (c->len + 65536 > c->cap) {
                        char *t = ios_grow(c->text, &c->cap, c->len + 65536, 1);

                        if (!t)
                                return -ENOMEM;
                        c->text = t;
                }
                n = read(c->out, c->text + c->len, c->cap - c->len - 1);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0) {
                        close(c->out);
                        c->out = -1;
                        continue;
                }
                c->len += (size_t)n;
        }
        return 0;
}

/*
 * fio's words about a failure: a job process writes its error ("fio: pid=N,
 * err=25/file:ioengines.c:399, ...") to standard output, before the report,
 * and the main process writes to standard error.  The end of each, notes
 * first, into words[].
 */
static void fio_words(const struct fio_child *c, size_t notes, char words[2 * FIO_ERR_KEEP + 2])
{
        size_t n = notes > FIO_ERR_KEEP ? FIO_ERR_KEEP : notes;

        memcpy(words, c->text ? c->text + notes - n : "", n);
        words[n++] = '\n';
        memcpy(words + n, c->tail, c->tail_len + 1);
}

/* fio's own reason, from its words: the last line that says it failed. */
static const char *fio_reason(char *words)
{
        char *best = NULL;

        for (char *l = strtok(words, "\n"); l; l = strtok(NULL, "\n")) {
                l += strspn(l, " \t");
                if (*l && (strstr(l, "Abort") || strstr(l, "err") || strstr(l, "fio: ") || !best))
                        best = l;
        }
        if (best && startswith(best, "fio: "))
                best += 5;
        return best;
}

static size_t count(char **v)
{
        size_t n = 0;

        while (v && v[n])
                n++;
        return n;
}

/*
 * What the fence stopped, in one line from fio's own words: what fio
 * tried (its line with EACCES or EPERM), what the run allows, and the flag
 * that allows it (or that none does).
 */
static void fence_note(const char *tail, const struct bench_fio *f, const struct bench_opts *g)
{
        const char *hit = strstr(tail, "Permission denied"), *l, *flag;
        char tried[256];
        size_t len;

        if (!hit)
                hit = strstr(tail, "Operation not permitted");
        if (!hit)
                return;
        for (l = hit; l > tail && l[-1] != '\n'; l--)
                ;
        len = strcspn(l, "\n");
        snprintf(tried, sizeof(tried), "%.*s", (int)(len < sizeof(tried) ? len : sizeof(tried) - 1), l);
        if (startswith(tried, "fio: "))
                memmove(tried, tried + 5, strlen(tried + 5) + 1);
        if (strstr(tried, "socket") || strstr(tried, "connect"))
                flag = f->fence.allow_net ? "no flag allows more" : "--allow-net allows it";
        else if (strstr(tried, "ioctl") || strstr(tried, "BLK"))
                flag = "no flag allows a request that changes a device";
        else if (strstr(tried, "exec") || startswith(tried, "sh: "))
                flag = g->allow_exec ? "no flag allows more" : "--allow-exec allows it";
        else
                /* a file the job names, too, where the checks did not see the job write it */
                flag = g->allow_write ? "--allow-write allows writes only where the checks saw the job "
                                        "write" :
                                        "--allow-write allows it for a file the job names";
        fprintf(stderr, "iosched-bench: the fence stopped fio: %s; the run allows reading %zu target(s), "
                        "writing %zu, making files in %zu director%s, %s, %s; %s\n", tried,
                count(f->access.read) + count(f->access.write), count(f->access.write),
                count(f->access.create),
                count(f->access.create) == 1 ? "y" : "ies",
                g->allow_exec ? "any program" : "no program but fio",
                f->fence.allow_net ? "sockets" : "no socket", flag);
}

/*
 * fio aborted: a non-zero exit, a signal, or exit 0 with its "Aborting" (a
 * job it refused to run) or with a log it could not write (iolog.c: its
 * perror "fopen log" for a bw, lat, iops or hist log, "fopen write iolog"
 * for write_iolog=; a job's uid= that cannot write there), which fio
 * leaves at exit 0.  fio's report starts at byte notes of its output (all
 * of it when there is none).
 */
static int fio_failed(struct fio_child *c, const struct bench_fio *f, const struct bench_opts *g,
                      bool have_json, size_t notes, struct bench_error *e)
{
        int code = WIFEXITED(c->status) ? WEXITSTATUS(c->status) : 128 + WTERMSIG(c->status);
        char words[2 * FIO_ERR_KEEP + 2];
        const char *why, *hint, *log;

        fio_words(c, notes, words);
        log = strstr(words, "fopen log: ");
        if (!log)
                log = strstr(words, "fopen write iolog: ");
        if (code == 0 && have_json && log)
                return bench_error_set(e, BENCH_ERR_IO, EIO, "fio wrote no log it was asked for: %.*s",
                                       (int)strcspn(log, "\n"), log);
        if (code == 0 && have_json && !strstr(words, "Aborting"))
                return 0;
        fence_note(words, f, g);
        why = fio_reason(words);
        if (code == 0)
                return bench_error_set(e, BENCH_ERR_IO, ECANCELED, "fio ran no job: %s", why ? why : "no report");
        /* direct=1 is the bench's default where a job sets none (fiojob.c), not fio's */
        hint = why && strstr(why, "O_DIRECT") ? " (try --direct=0: direct=1 is the default where a job "
                                                "sets none)"
                                              : "";
        return bench_error_set(e, BENCH_ERR_IO, EIO, "fio failed (exit status %d)%s%s%s%s", code,
                               why ? ": " : "", why ? why : "",
                               have_json || why ? "" : " and wrote no report", hint);
}

int bench_fio_run(struct bench_fio *f, const struct bench_opts *g, struct ios_device *disk,
                  struct bench_result *res, struct bench_error *e)
{
        struct fio_child c = { .out = -1, .err = -1 };
        struct bench_cpu_snap a, b;
        struct ios_json doc;
        bool have_cpu, stopped = false, graced = false;
        uint64_t t0, stat0[11];
        char *json = NULL;
        int r;

        memset(res, 0, sizeof(*res));
        res->ncpu = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
        /* the names fio lays out: their directories held before its first run (created.c) */
        for (char **p = f->created; !f->created_held && p && *p; p++)
                if ((r = bench_created_add(*p, -1)) < 0 && r != -EEXIST)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "%s: cannot open its directory: %s", *p,
                                               ios_strerror(r));
        f->created_held = true;
        have_cpu = bench_cpu_snap_read(&a) == 0;
        res->have_disk_stat = bench_disk_stat_read(disk, stat0);
        t0 = bench_clock_gettime_ns();
        r = spawn(f, &c, e);
        if (r < 0)
                goto out;
        r = collect(&c, &stopped, &graced);
        end_group(&c, r < 0 || stopped, graced ? 0 : BENCH_FIO_GRACE_MS);
        if (r < 0)
                goto out;
        res->elapsed_ns = bench_clock_gettime_ns() - t0;
        if (have_cpu && bench_cpu_snap_read(&b) == 0)
                bench_result_machine_cpu(res, &a, &b);
        if (res->have_disk_stat) {
                memcpy(res->disk_stat_before, stat0, sizeof(stat0));
                res->have_disk_stat = bench_disk_stat_read(disk, res->disk_stat_after);
        }
        if (c.text) {
                c.text[c.len] = '\0';
                /* fio may write notes before the document: it starts at a line's '{' */
                json = c.text[0] == '{' ? c.text : strstr(c.text, "\n{");
                json = json && *json == '\n' ? json + 1 : json;
        }
        if (stopped && (!json || ios_json_parse_flags(json, c.len - (size_t)(json - c.text),
                                                      IOS_JSON_RAW_CONTROL, &doc) < 0)) {
                r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d", bench_stop_signal);
                goto out;
        }
        if (!stopped) {
                r = fio_failed(&c, f, g, json != NULL, json ? (size_t)(json - c.text) : c.len, e);
                if (r < 0)
                        goto out;
                if (ios_json_parse_flags(json, c.len - (size_t)(json - c.text), IOS_JSON_RAW_CONTROL, &doc) <
                    0) {
                        r = bench_error_set(e, BENCH_ERR_IO, EINVAL, "cannot read fio's JSON report");
                        goto out;
                }
        }
        r = bench_fio_result(f, g, &doc, res, e);
        ios_json_done(&doc);
        res->interrupted = stopped;
out:
        /* fio has ended, whatever the reason: the hints it set on the targets put back (fiohints.c); a
         * failure is the run's error, or said beside the one it already has */
        {
                struct bench_error he = { 0 };
                int hr = bench_fio_hints_restore(f, &he);

                if (hr < 0 && r >= 0) {
                        *e = he;
                        r = hr;
                } else if (hr < 0) {
                        fprintf(stderr, "iosched-bench: %s\n", he.msg);
                }
        }
        if (c.out >= 0)
                close(c.out);
        if (c.err >= 0)
                close(c.err);
        free(c.text);
        return r;
}

void bench_fio_done(struct bench_fio *f)
{
        if (f->preset)
                unlink(f->preset);
        /* the files fio laid out for the job, as our engine removes its own: by directory handle */
        bench_created_remove_fio();
        bench_fio_scratch_done(f);      /* the logs moved out, the rest removed with each directory */
        ios_strv_free(f->created);
        bench_fio_hints_done(f);
        bench_fio_access_done(&f->access);
        bench_fence_done(&f->fence);
        free(f->preset);
        free(f->exe);
        ios_strv_free(f->argv);
        free(f->grouped);
        bench_fio_view_done(f);
        *f = (struct bench_fio){ .fence.rs = -1 };
}
