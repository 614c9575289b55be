/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fionamed.c: the files of each job as fio itself names them.  fio is run
 * once on the jobs as they will run (placed, fiojob.c), inside a fence
 * that grants no file: no read, write or make right on any target, no
 * program but fio, no socket.  Each job is given create_only=1 (fio sets
 * its files up and does no I/O) and startdelay=0, and loses what runs
 * commands (exec_prerun=, exec_postrun=; the triggers are program options
 * and not passed) and wait_for=; each is followed by a job of its own
 * whose one file is a random name, so that fio's output tells the jobs
 * apart.  fio's --debug=file prints each file as add_file() makes its name
 * (`file 0x... "NAME" added at N`, the same line since fio 1.20), after
 * directory=, filename_format, nrfiles, numjobs and opendir= are applied,
 * before any file is opened.  Jobs whose engine has no file or runs code
 * are not asked (their names are the model's).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "fioread.h"
#include "macro.h"
#include "strv.h"

/* what is dropped from a job for fio's reading: it runs commands, or it waits on a job not asked */
static const char * const dropped[] = {
        "exec_prerun", "exec_postrun", "wait_for", "startdelay", "create_only",
};

static bool asked(const struct bench_fio_def *j)
{
        const char *eng = bench_fio_kv_get(&j->kv, "ioengine");

        return !eng || (!bench_fio_engine_fileless(eng) && !bench_fio_engine_runs_code(eng));
}

/* The jobs fio is asked about, each followed by the marker job naming the file end. */
static int reading_jobs(const struct bench_fio_defs *d, const char *end, struct bench_fio_defs *q, bool *any)
{
        const char *alloc = bench_fio_kv_get(&d->prog, "alloc-size");
        int r = alloc ? bench_fio_kv_add(&q->prog, "alloc-size", alloc) : 0;

        if (r >= 0)
                r = bench_fio_kv_add(&q->prog, "debug", "file");
        for (size_t i = 0; r >= 0 && i < d->n; i++) {
                const struct bench_fio_def *j = &d->jobs[i];
                struct bench_fio_def *job, *mark;
                struct bench_fio_kvs *kv;

                if (!asked(j))
                        continue;
                *any = true;
                r = bench_fio_job_add(q, j->name, &job);
                if (r < 0)
                        break;
                kv = &job->kv;
                for (size_t s = 0; r >= 0 && s < j->kv.n; s++) {
                        bool drop = false;

                        for (size_t k = 0; k < ELEMENTSOF(dropped); k++)
                                drop |= streq(j->kv.v[s].key, dropped[k]);
                        if (!drop)
                                r = bench_fio_kv_add(kv, j->kv.v[s].key, j->kv.v[s].val);
                }
                if (r >= 0)
                        r = bench_fio_kv_add(kv, "startdelay", "0");
                if (r >= 0)
                        r = bench_fio_kv_add(kv, "create_only", "1");
                if (r >= 0)
                        r = bench_fio_job_add(q, "iosched-bench-end", &mark);
                if (r >= 0) {
                        kv = &mark->kv;
                        r = bench_fio_kv_add(kv, "ioengine", "null");
                        if (r >= 0)
                                r = bench_fio_kv_add(kv, "filename", end);
                        if (r >= 0)
                                r = bench_fio_kv_add(kv, "size", "4k");
                        if (r >= 0)
                                r = bench_fio_kv_add(kv, "create_only", "1");
                }
        }
        return r;
}

char *bench_fio_added_name(const char *line, size_t len)
{
        static const char tail[] = "\" added at ";
        const char *p = line, *end = line + len, *q;
        size_t k;

        /* "file", the process id, then the message: "file %p \"%s\" added at %d" */
        if (len < 5 || strncmp(p, "file ", 5))
                return NULL;
        p += 5;
        p += strspn(p, " ");
        k = strspn(p, "0123456789");
        if (!k || p + k >= end || p[k] != ' ')
                return NULL;
        p += k + strspn(p + k, " ");
        if (end - p < 6 || strncmp(p, "file ", 5))
                return NULL;
        p = memchr(p + 5, ' ', (size_t)(end - p - 5));
        if (!p || end - p < 2 || p[1] != '"')
                return NULL;
        p += 2;
        /* the last " added at N": a name may hold the text itself */
        for (q = end - 1; q > p && *q >= '0' && *q <= '9'; q--)
                ;
        if (q == end - 1 || (size_t)(q + 1 - p) < sizeof(tail) - 1 ||
            strncmp(q + 1 - (sizeof(tail) - 1), tail, sizeof(tail) - 1))
                return NULL;
        return strndup(p, (size_t)(q + 1 - (sizeof(tail) - 1) - p));
}

/* fio's output into n: each name to its job, the marker end closing one */
static int read_names(const char *out, const struct bench_fio_defs *d, const char *end,
                      struct bench_fio_named *n)
{
        size_t job = 0, len = 0, cap = 0;

        while (job < d->n && !asked(&d->jobs[job]))
                job++;
        for (const char *p = out; *p;) {
                size_t k = strcspn(p, "\n");
                _cleanup_free_ char *name = bench_fio_added_name(p, k);

                /* a name with a line break: fio's line is cut */
                if (!name && k > 5 && !strncmp(p, "file ", 5) && memmem(p, k, " file 0x", 8) &&
                    memchr(p, '"', k))
                        return -EILSEQ;
                p += k + (p[k] == '\n');
                if (!name)
                        continue;
                if (job >= d->n)
                        return -EBADMSG;        /* a name after the last job's end */
                if (streq(name, end)) {
                        n->asked[job] = true;
                        len = cap = 0;
                        do
                                job++;
                        while (job < d->n && !asked(&d->jobs[job]));
                        continue;
                }
                if (ios_strv_push_fast(&n->names[job], &len, &cap, TAKE_PTR(name)) < 0)
                        return -ENOMEM;
        }
        return job < d->n ? -EBADMSG : 0;
}

/*
 * fio's reason (cut in place): its first "fio: " line, the cause (what
 * follows is its consequence: "No job(s) defined"), else the last line that
 * says something, else a stand-in.
 */
static const char *reason_line(char *err)
{
        char *p = err ? err + strlen(err) : NULL;

        for (char *l = err; l && *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
                if (startswith(l, "fio: ")) {
                        l[strcspn(l, "\n")] = '\0';
                        return l + 5;
                }
        while (p && p > err && (p[-1] == '\n' || p[-1] == ' '))
                *--p = '\0';
        if (!p || p == err)
                return "fio said no reason";
        while (p > err && p[-1] != '\n')
                p--;
        return p;
}

int bench_fio_named(const struct bench_fio_defs *d, const char *exe, const struct bench_fio_access *a,
                    struct bench_fio_named *n, struct bench_error *e)
{
        /* no file of the run: fio and the system's libraries read, and what fio reads as it reads the jobs
         * (the patterns' files, the trees opendir= lists); nothing written, nothing made */
        const struct bench_fio_access none = { .input = a->input, .listed = a->listed };
        _cleanup_(bench_fio_defs_done) struct bench_fio_defs q = {};
        _cleanup_(ios_strv_freep) char **argv = NULL;
        _cleanup_free_ char *out = NULL, *err = NULL;
        struct bench_fence fc = { .rs = -1 };
        const char *step, *what;
        unsigned char rnd[8];
        char end[64];
        bool any = false;
        int r;

        *n = (struct bench_fio_named){ .names = calloc(d->n + 1, sizeof(*n->names)),
                                       .asked = calloc(d->n + 1, sizeof(*n->asked)), .n = d->n };
        if (!n->names || !n->asked)
                return -ENOMEM;
        if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot ask fio its names: getrandom: %s",
                                       ios_strerror(errno));
        snprintf(end, sizeof(end), "iosched-bench-end-%02x%02x%02x%02x%02x%02x%02x%02x", rnd[0], rnd[1],
                 rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
        r = reading_jobs(d, end, &q, &any);
        if (r < 0 || !any)
                return r;
        r = bench_fio_argv(&q, exe, &argv);
        if (r < 0)
                return r;
        free(argv[1]);
        argv[1] = strdup("--output-format=normal");
        if (!argv[1])
                return -ENOMEM;
        r = bench_fence_build(&fc, &none, NULL, exe, &step, &what);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r, "cannot fence fio with Landlock (%s%s%s: %s)",
                                       step, what ? " " : "", what ? what : "", ios_strerror(r));
        r = bench_fio_capture(&fc, argv, NULL, true, &out, &err, e);
        bench_fence_done(&fc);
        if (r < 0)
                return r;
        r = read_names(out, d, end, n);
        if (r == -EILSEQ)
                return bench_error_set(e, BENCH_ERR_REFUSED, EINVAL,
                                       "a file name the jobs give fio holds a line break: "
                                       "not with iosched-bench");
        if (r == -EBADMSG)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "fio did not read the jobs to their end: %s", reason_line(err));
        return r;
}

void bench_fio_named_done(struct bench_fio_named *n)
{
        for (size_t i = 0; n->names && i < n->n; i++)
                ios_strv_free(n->names[i]);
        free(n->names);
        free(n->asked);
        *n = (struct bench_fio_named){};
}
