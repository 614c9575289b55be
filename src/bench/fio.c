/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fio.c: fio as a workload backend (--backend=fio, or auto when the jobs
 * use an option the native engine lacks).  fio runs the job as written:
 * the same command-line job options and job files (a --workload preset is
 * written to a file), with --output-format=json+ so that the clat
 * histogram comes back bucket by bucket (fio's layout is ours, hist.c).
 * Before fio starts, the job is read here for what it touches: every
 * job's files (filename=, or fio's NAME.N.F under directory=) and whether
 * it writes (rw= with a write or trim, verify=, trim_*, fill_*; a value we
 * cannot read counts as a write); every existing file or device it names
 * goes through target.c's checks (--allow-write; a mounted or held device
 * refused).  fio runs in its own process group: a signal to iosched-bench
 * ends that group (SIGTERM, then SIGKILL), and the caller restores.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fio.h"
#include "jobs.h"
#include "macro.h"

/* A job as fio will see it: "key=value" settings, the last one wins. */
struct fjob {
        char *name;
        char **kv;
};

struct scan {
        char **global;
        struct fjob *jobs;
        unsigned n;
};

static const char *get(char * const *kv, const char *key)
{
        size_t kl = strlen(key);
        const char *v = NULL;

        for (char * const *p = kv; p && *p; p++)
                if (!strncmp(*p, key, kl) && ((*p)[kl] == '=' || !(*p)[kl]))
                        v = (*p)[kl] == '=' ? *p + kl + 1 : "1";
        return v;
}

static int add_job(struct scan *s, const char *name)
{
        struct fjob *j = realloc(s->jobs, (s->n + 1) * sizeof(*j));

        if (!j)
                return -ENOMEM;
        s->jobs = j;
        j = &s->jobs[s->n++];
        *j = (struct fjob){ .name = strdup(name) };
        if (!j->name)
                return -ENOMEM;
        for (char **p = s->global; p && *p; p++)
                if (ios_strv_pushf(&j->kv, "%s", *p) < 0)
                        return -ENOMEM;
        return 0;
}

/* "key=value" with ${VAR} expanded from the environment (fio's rule), spaces around '=' dropped */
static int push_setting(char ***kv, const char *line)
{
        _cleanup_free_ char *c = strdup(line);
        char *eq, *key, *val = NULL, *out = NULL;
        size_t len = 0;
        FILE *m;

        if (!c)
                return -ENOMEM;
        eq = strchr(c, '=');
        if (eq) {
                *eq = '\0';
                val = ios_strip(eq + 1);
        }
        key = ios_strip(c);
        if (!val)
                return ios_strv_pushf(kv, "%s", key);
        m = open_memstream(&out, &len);
        if (!m)
                return -ENOMEM;
        for (const char *p = val; *p; p++) {
                const char *close = p[0] == '$' && p[1] == '{' ? strchr(p, '}') : NULL;

                if (close) {
                        _cleanup_free_ char *var = strndup(p + 2, (size_t)(close - p - 2));
                        const char *x = var ? getenv(var) : NULL;

                        fputs(x ? x : "$?", m);  /* unset: unreadable, so treated as a write */
                        p = close;
                } else
                        fputc(*p, m);
        }
        fclose(m);
        if (!out)
                return -ENOMEM;
        len = (size_t)ios_strv_pushf(kv, "%s=%s", key, out);
        free(out);
        return (int)len < 0 ? (int)len : 0;
}

static int scan_file(struct scan *s, const char *path, struct bench_error *e)
{
        FILE *f = fopen(path, "re");
        char line[4096];
        char ***cur = NULL;
        int r = 0;

        if (!f)
                return bench_error_set(e, BENCH_ERR_USAGE, errno, "%s: cannot read the job file: %s", path,
                                       strerror(errno));
        while (fgets(line, sizeof(line), f)) {
                char *l = ios_strip(line), *close;

                if (!*l || *l == ';' || *l == '#')
                        continue;
                if (*l == '[' && (close = strchr(l, ']'))) {
                        *close = '\0';
                        l = ios_strip(l + 1);
                        if (streq(l, "global"))
                                cur = &s->global;
                        else {
                                r = add_job(s, l);
                                if (r < 0)
                                        break;
                                cur = &s->jobs[s->n - 1].kv;
                        }
                        continue;
                }
                if (cur && (r = push_setting(cur, l)) < 0)
                        break;
        }
        fclose(f);
        return r;
}

/* The job as written: the command line's options (global until a --name), then the job files. */
static int scan_job(const struct bench_fio *f, struct scan *s, struct bench_error *e)
{
        char ***cur = &s->global;
        int r;

        /* fio reads every option before the job files, wherever they stand */
        for (char **a = f->argv; a && *a; a++)
                if (**a != '-' && (r = scan_file(s, *a, e)) < 0)
                        return r;
        for (char **a = f->argv; a && *a; a++) {
                const char *opt = *a + strspn(*a, "-");

                if (**a != '-')
                        continue;
                if (!strncmp(opt, "name=", 5)) {
                        r = add_job(s, opt + 5);
                        if (r < 0)
                                return r;
                        cur = &s->jobs[s->n - 1].kv;
                        continue;
                }
                r = push_setting(cur, opt);
                if (r < 0)
                        return r;
        }
        return 0;
}

static bool falsy(const char *v)
{
        return v && (streq(v, "0") || streq(v, "none") || streq(v, "false") || streq(v, "off"));
}

/* Whether a job writes, trims or verifies: any of it, or a value we cannot read, needs --allow-write. */
static bool job_writes(char * const *kv)
{
        static const char * const writing[] = { "verify", "trim_percentage", "trim_backlog", "fill_device",
                                                "fill_fs", "overwrite", "experimental_verify" };
        const char *rw = get(kv, "rw") ? get(kv, "rw") : get(kv, "readwrite");
        const char *ro = get(kv, "readonly");

        if (ro && !falsy(ro))
                return false;   /* fio itself refuses every write then */
        if (rw) {
                size_t n = strcspn(rw, ":");

                if (strstr(rw, "write") || strstr(rw, "trim") || strchr(rw, '$') ||
                    (n == 2 && !strncmp(rw, "rw", 2)) || (n == 6 && !strncmp(rw, "randrw", 6)))
                        return true;
                if (strncmp(rw, "read", n) && strncmp(rw, "randread", n))
                        return true;    /* not a spelling we know: unsure */
        }
        for (size_t i = 0; i < ELEMENTSOF(writing); i++) {
                const char *v = get(kv, writing[i]);

                if (v && !falsy(v))
                        return true;
        }
        return false;
}

/* One path a job touches: checked (and the first kept as tg) when it exists. */
static int check_path(const struct bench_opts *g, const char *path, bool writes, struct ios_ctx *root,
                      struct bench_target *tg, bool *have_tg, char ***created, struct bench_error *e)
{
        struct bench_opts chk = *g;
        struct bench_target t;
        struct stat st;
        int r;

        if (stat(path, &st) < 0)
                return errno == ENOENT ? ios_strv_pushf(created, "%s", path) : 0;      /* fio lays it out, we remove it */
        if (S_ISDIR(st.st_mode))
                return 0;
        chk.engine = &bench_engine_psync;
        chk.direct = false;
        r = bench_target_open_path(&chk, path, writes, 0, root, &t, e);
        if (r < 0) {
                bench_target_close_one(&t);
                return r;
        }
        if (!*have_tg || (t.is_bdev && !tg->is_bdev)) {
                if (*have_tg)
                        bench_target_close_one(tg);
                *tg = t;
                *have_tg = true;
        } else
                bench_target_close_one(&t);
        return 0;
}

static int check_targets(const struct bench_opts *g, struct scan *s, struct ios_ctx *root, bool *writes,
                         struct bench_target *tg, char ***created, struct bench_error *e)
{
        bool have = false;
        int r;

        *writes = false;
        for (unsigned i = 0; i < s->n; i++) {
                char **kv = s->jobs[i].kv;
                const char *fn = get(kv, "filename"), *dir = get(kv, "directory"), *eng = get(kv, "ioengine");
                bool w = job_writes(kv);
                unsigned numjobs = 1, nrfiles = 1;

                *writes |= w;
                if (eng && streq(eng, "null"))
                        continue;
                if (fn) {
                        _cleanup_(ios_strv_freep) char **parts = NULL;

                        r = ios_strv_split(fn, ":", &parts);
                        for (char **p = parts; r >= 0 && p && *p; p++)
                                r = check_path(g, *p, w, root, tg, &have, created, e);
                        if (r < 0)
                                return r;
                        continue;
                }
                /* fio's own names: NAME.JOBNUM.FILENUM in directory= or here */
                if (get(kv, "numjobs"))
                        (void)bench_parse_uint(get(kv, "numjobs"), 1, 4096, &numjobs);
                if (get(kv, "nrfiles"))
                        (void)bench_parse_uint(get(kv, "nrfiles"), 1, 4096, &nrfiles);
                for (unsigned n = 0; n < numjobs; n++)
                        for (unsigned k = 0; k < nrfiles; k++) {
                                _cleanup_free_ char *p = NULL;

                                if (asprintf(&p, "%.*s%s%s.%u.%u", dir ? (int)strcspn(dir, ":") : 0, dir ? dir : "",
                                             dir ? "/" : "", s->jobs[i].name, n, k) < 0)
                                        return -ENOMEM;
                                r = check_path(g, p, w, root, tg, &have, created, e);
                                if (r < 0)
                                        return r;
                        }
                if (!have) {
                        /* nothing there yet: the disk is the directory's */
                        struct stat st;
                        _cleanup_free_ char *d = strndup(dir ? dir : ".", dir ? strcspn(dir, ":") : 1);

                        if (d && stat(d, &st) == 0) {
                                *tg = (struct bench_target){ .fd = -1, .path = strdup(d),
                                                             .major = major(st.st_dev), .minor = minor(st.st_dev) };
                                have = tg->path != NULL;
                        }
                }
        }
        return 0;
}

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

/* fio --version, first line */
static char *fio_version(const char *exe)
{
        _cleanup_free_ char *cmd = NULL;
        char buf[128] = "";
        FILE *p;

        if (asprintf(&cmd, "'%s' --version 2>/dev/null", exe) < 0 || strchr(exe, '\''))
                return strdup("fio");
        p = popen(cmd, "re");
        if (!p)
                return strdup("fio");
        if (!fgets(buf, sizeof(buf), p))
                buf[0] = '\0';
        pclose(p);
        buf[strcspn(buf, "\n")] = '\0';
        return strdup(buf[0] ? buf : "fio");
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

/* 1 if fio has job option name (fio --cmdhelp), 0 if not */
static int fio_knows(const char *exe, const char *name)
{
        _cleanup_free_ char *cmd = NULL;
        char buf[256];
        int known = 0;
        FILE *p;

        if (!*name || name[strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")] ||
            strchr(exe, '\''))
                return 0;
        if (asprintf(&cmd, "'%s' --cmdhelp=%s 2>&1", exe, name) < 0)
                return -ENOMEM;
        p = popen(cmd, "re");
        if (!p)
                return -errno;
        while (fgets(buf, sizeof(buf), p))
                if (strstr(buf, name) && !strstr(buf, "No such command"))
                        known = 1;
        pclose(p);
        return known;
}

/* Every option the native engine lacks must be fio's: a typo is an unknown option, as before. */
static int check_unsupported(const struct bench_opts *g, const char *exe, struct bench_error *e)
{
        for (char **u = g->unsupported; u && *u; u++) {
                const char *colon = strrchr(*u, ' '), *name = colon ? colon + 1 : *u + 2;
                bool prog = false;
                int k;

                for (size_t i = 0; !colon && i < ELEMENTSOF(fio_prog_refused); i++)
                        if (streq(name, fio_prog_refused[i]))
                                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                       "--%s: fio's report is iosched-bench's to read; not with iosched-bench",
                                                       name);
                for (size_t i = 0; !colon && i < ELEMENTSOF(fio_prog_ok); i++)
                        prog |= streq(name, fio_prog_ok[i]);
                if (prog)
                        continue;
                k = fio_knows(exe, name);
                if (k < 0)
                        return k;
                if (k == 0 && colon)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "%.*s: unknown option '%s' (neither iosched-bench nor fio has it)",
                                               (int)(colon - *u - 1), *u, name);
                if (k == 0)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "unknown option --%s (see --help; fio has no such option either)", name);
        }
        return 0;
}

int bench_fio_prepare(const struct bench_opts *g, struct ios_ctx *root, struct bench_fio *f,
                      struct bench_target *tg, struct bench_error *e)
{
        struct scan s = {};
        bool named = false;
        int r;

        *f = (struct bench_fio){};
        f->exe = bench_fio_find();
        if (!f->exe) {
                _cleanup_free_ char *list = ios_strv_join(g->unsupported, ", ");

                if (g->unsupported)
                        return bench_error_set(e, BENCH_ERR_USAGE, ENOENT,
                                               "the native engine does not implement %s, and fio is not installed "
                                               "(no fio in PATH) to run the job", list ? list : "some options");
                return bench_error_set(e, BENCH_ERR_USAGE, ENOENT, "--backend=fio: fio is not installed (no fio in PATH)");
        }
        f->version = fio_version(f->exe);
        if (!f->version)
                return -ENOMEM;
        r = check_unsupported(g, f->exe, e);
        if (r < 0)
                return r;
        for (char **a = g->fio_args; a && *a; a++)
                named |= !strncmp(*a + strspn(*a, "-"), "name=", 5) || **a != '-';
        /* ours first, so that the job's own settings win (a job file's, wherever it stands) */
        r = ios_strv_pushf(&f->argv, "%s", f->exe);
        if (r >= 0)
                r = ios_strv_pushf(&f->argv, "--output-format=json+");
        if (r >= 0)
                r = ios_strv_pushf(&f->argv, "--eta=never");
        if (r >= 0 && g->compare)
                r = ios_strv_pushf(&f->argv, "--ramp_time=1");  /* settle after each switch, as ours */
        if (r >= 0 && !named && !g->workload)
                r = ios_strv_pushf(&f->argv, "--name=%s", g->name ? g->name : "iosched-bench");
        for (char **a = g->fio_args; r >= 0 && a && *a; a++) {
                /* a job option alone ("--gtod_reduce"), as in a job file: fio's command line wants "=1"
                 * (its own options, "--readonly", stay as they are) */
                bool bare = **a == '-' && !strchr(*a, '=') && (!a[1] || a[1][0] == '-');

                for (size_t i = 0; bare && i < ELEMENTSOF(fio_prog_ok); i++)
                        bare = !streq(*a + strspn(*a, "-"), fio_prog_ok[i]);

                r = ios_strv_pushf(&f->argv, "%s%s", *a, bare ? "=1" : "");
        }
        if (r >= 0 && g->workload) {
                const char *text = bench_workload_text(g->workload);
                char tmpl[] = "/tmp/iosched-bench-preset-XXXXXX";
                int fd = text ? mkostemp(tmpl, O_CLOEXEC) : -1;

                if (fd < 0)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot write the preset for fio: %s",
                                               strerror(errno));
                f->preset = strdup(tmpl);
                r = write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : -EIO;
                close(fd);
                if (r >= 0)
                        r = ios_strv_pushf(&f->argv, "%s", tmpl);
        }
        if (r < 0)
                return r;

        /* what the job touches, read as fio will (the executable and our additions left out) */
        {
                char **saved = f->argv;
                _cleanup_(ios_strv_freep) char **job = NULL;

                for (char **a = saved + 3; *a; a++)    /* after fio, --output-format, --eta */
                        if ((r = ios_strv_pushf(&job, "%s", *a)) < 0)
                                return r;
                f->argv = job;
                r = scan_job(f, &s, e);
                f->argv = saved;
        }
        if (r >= 0)
                r = check_targets(g, &s, root, &f->writes, tg, &f->created, e);
        for (unsigned i = 0; i < s.n; i++) {
                free(s.jobs[i].name);
                ios_strv_free(s.jobs[i].kv);
        }
        free(s.jobs);
        ios_strv_free(s.global);
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
                        char *t = realloc(out, cap = cap ? cap * 2 : 262144);

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
        free(f->preset);
        free(f->exe);
        free(f->version);
        ios_strv_free(f->argv);
        bench_fio_view_done(f);
        *f = (struct bench_fio){};
}
