/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioread.c: the jobs as fio reads them, with one grammar: fio's.  The
 * command line's settings come as options.c understood them ("--filename
 * /dev/x" is filename=/dev/x); every job file (and the preset, and "-",
 * the file read once from standard input) is read by fio itself, `fio
 * --showcmd`, which prints the file as fio parsed it: includes read,
 * ${VAR} and $ncpus/$mb_memory expanded, aliases folded to fio's names.
 * Each job is then the full ordered list of what reaches it: our defaults,
 * the command line's global settings, the job files' [global] settings met
 * so far, its own (fio's rule: the last one wins); bench_fio_argv() makes
 * fio's command line of exactly that, and no job file, so what fiojob.c
 * checked is what fio runs.
 * fio loads an engine named by a path while it reads a job, so a file that
 * names one is read here first for its ioengine lines, and not given to
 * fio without --allow-exec.  A [global] section after a job reads as that
 * job's too (showcmd prints it there): that job then runs with it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fioread.h"
#include "jobs.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"

const struct bench_fio_kv *bench_fio_kv_last(const struct bench_fio_kvs *kvs, const char *key)
{
        for (size_t i = kvs->n; i > 0; i--)
                if (streq(kvs->v[i - 1].key, key))
                        return &kvs->v[i - 1];
        return NULL;
}

const char *bench_fio_kv_get(const struct bench_fio_kvs *kvs, const char *key)
{
        const struct bench_fio_kv *e = bench_fio_kv_last(kvs, key);

        return !e ? NULL : e->val ? e->val : "1";
}

bool bench_fio_falsy(const char *v)
{
        return !v || streq(v, "0") || streq(v, "false") || streq(v, "off") || streq(v, "none") ||
               streq(v, "no");
}

int bench_fio_problem(struct bench_fio_defs *d, const char *fmt, ...)
{
        char **v = ios_grow(d->problems, &d->capproblems, d->nproblems + 2, sizeof(*v));
        va_list ap;
        int r;

        if (!v)
                return -ENOMEM;
        d->problems = v;
        va_start(ap, fmt);
        r = vasprintf(&v[d->nproblems], fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        v[++d->nproblems] = NULL;
        return 0;
}

static int kv_push(struct bench_fio_kvs *kvs, const char *key, size_t keylen, const char *val)
{
        struct bench_fio_kv *v = ios_grow(kvs->v, &kvs->cap, kvs->n + 1, sizeof(*v));
        _cleanup_free_ char *k = strndup(key, keylen);

        if (!v || !k)
                return -ENOMEM;
        kvs->v = v;
        v = &kvs->v[kvs->n];
        *v = (struct bench_fio_kv){ .key = strdup(bench_fio_canonical(k)) };
        /* the engine as fio keeps it, so that every check and fio's command line name the engine fio runs */
        v->val = !val ? NULL : v->key && streq(v->key, "ioengine") ? bench_fio_engine_kept(val) : strdup(val);
        if (!v->key || (val && !v->val)) {
                free(v->key);
                free(v->val);
                return -ENOMEM;
        }
        kvs->n++;
        return 0;
}

int bench_fio_kv_add(struct bench_fio_kvs *kvs, const char *key, const char *val)
{
        return kv_push(kvs, key, strlen(key), val);
}

/* "key=value" or "key" */
static int kv_push_setting(struct bench_fio_kvs *kvs, const char *s)
{
        const char *eq = strchr(s, '=');

        return kv_push(kvs, s, eq ? (size_t)(eq - s) : strlen(s), eq ? eq + 1 : NULL);
}

static int kv_append(struct bench_fio_kvs *to, const struct bench_fio_kvs *from)
{
        for (size_t i = 0; i < from->n; i++) {
                int r = kv_push(to, from->v[i].key, strlen(from->v[i].key), from->v[i].val);

                if (r < 0)
                        return r;
        }
        return 0;
}

int bench_fio_kv_set(struct bench_fio_kvs *kvs, const char *key, const char *val)
{
        char *v;

        for (size_t i = kvs->n; i > 0; i--)
                if (streq(kvs->v[i - 1].key, key)) {
                        v = strdup(val);
                        if (!v)
                                return -ENOMEM;
                        free(kvs->v[i - 1].val);
                        kvs->v[i - 1].val = v;
                        return 0;
                }
        return kv_push(kvs, key, strlen(key), val);
}

void bench_fio_kv_drop(struct bench_fio_kvs *kvs, const char *key)
{
        size_t o = 0;

        for (size_t i = 0; i < kvs->n; i++)
                if (streq(kvs->v[i].key, key)) {
                        free(kvs->v[i].key);
                        free(kvs->v[i].val);
                } else
                        kvs->v[o++] = kvs->v[i];
        kvs->n = o;
}

static void kvs_done(struct bench_fio_kvs *kvs)
{
        for (size_t i = 0; i < kvs->n; i++) {
                free(kvs->v[i].key);
                free(kvs->v[i].val);
        }
        free(kvs->v);
        *kvs = (struct bench_fio_kvs){};
}

/* A new job: name, and the settings in base (then its own are pushed onto it). */
static int add_job(struct bench_fio_defs *d, const char *name, size_t len, const struct bench_fio_kvs *base,
                   struct bench_fio_def **ret)
{
        struct bench_fio_def *j = ios_grow(d->jobs, &d->cap, d->n + 1, sizeof(*j));

        if (!j)
                return -ENOMEM;
        d->jobs = j;
        j = &d->jobs[d->n++];
        *j = (struct bench_fio_def){ .name = strndup(name, len) };
        if (!j->name)
                return -ENOMEM;
        *ret = j;
        return kv_append(&j->kv, base);
}

int bench_fio_job_add(struct bench_fio_defs *d, const char *name, struct bench_fio_def **ret)
{
        static const struct bench_fio_kvs none;

        return add_job(d, name, strlen(name), &none, ret);
}

void bench_fio_defs_done(struct bench_fio_defs *d)
{
        for (size_t i = 0; i < d->n; i++) {
                free(d->jobs[i].name);
                kvs_done(&d->jobs[i].kv);
        }
        free(d->jobs);
        kvs_done(&d->prog);
        for (size_t i = 0; i < d->nproblems; i++)
                free(d->problems[i]);
        free(d->problems);
        *d = (struct bench_fio_defs){};
}

/* ------------------------------------------------------------------ */
/* fio --showcmd                                                       */

/* "--NAME=" or "--NAME " (NAME one of fio's options) at s: where a setting starts */
static bool at_option(const char *s)
{
        char name[64];
        size_t n;

        if (s[0] != '-' || s[1] != '-')
                return false;
        n = strcspn(s + 2, "= \n");
        if (n == 0 || n >= sizeof(name))
                return false;
        memcpy(name, s + 2, n);
        name[n] = '\0';
        return streq(name, "name") || bench_fio_option_arg(name) != 0;
}

/* 1 (and met) when the file has a section name not yet met (the next [name] of several), 0 not, -errno;
 * started counts each name met */
static int next_section(const struct bench_sset *sections, struct bench_sset *started, const char *name)
{
        char key[PATH_MAX];
        unsigned k;
        int r = bench_fio_section_key(key, sizeof(key), name, bench_sset_counted(started, name) + 1);

        if (r < 0 || !bench_sset_has(sections, key))
                return r;
        r = bench_sset_count(started, name, &k);
        return r < 0 ? r : 1;
}

/*
 * showcmd's line, "fio --global=1 --name=a --rw=read ...", into d: the
 * options before the first --name onto globals (they reach every later
 * job), then one job per --name.  A value runs to the next " --NAME" of an
 * option fio knows (fio prints values unquoted, description quoted).
 */
static int parse_showcmd(const char *text, struct bench_fio_defs *d, struct bench_fio_kvs *globals,
                         struct bench_sset *sections)
{
        const char *p = strstr(text, "fio ");
        struct bench_fio_def *job = NULL;
        struct bench_fio_kvs *cur = globals;
        _cleanup_(bench_sset_donep) struct bench_sset started = {};
        size_t len;

        if (!p)
                return -EINVAL;
        p += 4;
        len = strcspn(p, "\n");
        while (len > 0 && p[len - 1] == ' ')
                len--;
        for (const char *end = p + len; p < end;) {
                const char *key = p + 2, *q, *eq;
                _cleanup_free_ char *val = NULL;
                size_t klen;
                int r;

                if (!at_option(p))
                        return -EINVAL;
                /* the setting ends where the next one starts */
                for (q = key; q < end && !(q[0] == ' ' && at_option(q + 1)); q++)
                        ;
                eq = memchr(key, '=', (size_t)(q - key));
                klen = eq ? (size_t)(eq - key) : (size_t)(q - key);
                while (!eq && klen > 0 && key[klen - 1] == ' ')
                        klen--;
                if (eq) {
                        const char *v = eq + 1;
                        size_t vlen = (size_t)(q - v);

                        if (klen == 11 && !strncmp(key, "description", 11) && vlen >= 2 && v[0] == '"' &&
                            v[vlen - 1] == '"') {
                                v++;
                                vlen -= 2;
                        }
                        val = strndup(v, vlen);
                        if (!val)
                                return -ENOMEM;
                }
                /* --name=X starts a section only if the file has one more section [X] than met yet; else it
                 * is name= */
                if (klen == 4 && !strncmp(key, "name", 4) && val &&
                    (r = next_section(sections, &started, val)) != 0) {
                        if (r < 0)
                                return r;
                        r = add_job(d, val, strlen(val), globals, &job);
                        cur = job ? &job->kv : cur;
                } else if (klen == 4 && !strncmp(key, "name", 4)) {
                        /* name=: in [global] it names no job; in a job it renames it (on fio's command
                         * line it would start another job); a job named global* would be [global] there,
                         * its settings every later job's */
                        if (job && val && startswith(val, "global")) {
                                r = bench_fio_problem(d, "job '%s': name=%s: fio reads a job named global... "
                                                      "on its command line as [global], its settings then "
                                                      "every later job's: not with iosched-bench", job->name,
                                                      val);
                                if (r < 0)
                                        return r;
                        } else if (job && val) {
                                free(job->name);
                                job->name = TAKE_PTR(val);
                        }
                        r = 0;
                } else
                        r = kv_push(cur, key, klen, val);
                if (r < 0)
                        return r;
                p = q < end ? q + 1 : end;
        }
        return 0;
}

/* One job file (path, or text for "-" and the preset) read by fio into d. */
static int read_file(const struct bench_opts *g, const struct bench_fence *fc, const char *exe,
                     const char *path, const char *text, bool by_path,
                     const struct bench_fio_kvs *cmd_globals, struct bench_fio_kvs *globals,
                     struct bench_fio_defs *d, struct bench_error *e)
{
        _cleanup_free_ char *out = NULL, *err = NULL, *what = NULL;
        _cleanup_(ios_strv_freep) char **argv = NULL;
        struct bench_sset sections = {};
        int r;

        r = bench_fio_gate(text, path, &what, &sections);
        if ((r == -EFBIG || r == -EBADMSG) && what) {
                r = bench_error_set(e, BENCH_ERR_USAGE, -r, "%s", what);
                goto out;
        }
        if (r < 0)
                goto out;
        if (r > 0 && !g->allow_exec) {
                r = bench_fio_problem(d, "%s: needs --allow-exec; fio has not read the file", what);
                goto out;
        }
        r = ios_strv_pushf(&argv, "%s", exe);
        if (r >= 0)
                r = ios_strv_pushf(&argv, "--showcmd");
        for (size_t i = 0; r >= 0 && i < cmd_globals->n; i++)
                r = cmd_globals->v[i].val ? ios_strv_pushf(&argv, "--%s=%s", cmd_globals->v[i].key, cmd_globals->v[i].val)
                                          : ios_strv_pushf(&argv, "--%s", cmd_globals->v[i].key);
        for (size_t i = 0; r >= 0 && i < d->prog.n; i++)
                if (streq(d->prog.v[i].key, "section") && d->prog.v[i].val)
                        r = ios_strv_pushf(&argv, "--section=%s", d->prog.v[i].val);
        /* a file by its path, as fio finds an include named relative to the file's directory */
        if (r >= 0)
                r = ios_strv_pushf(&argv, "%s", by_path ? path : "-");
        if (r >= 0)
                r = bench_fio_capture(fc, argv, by_path ? NULL : text, false, &out, &err, e);
        if (r > 0) {
                err[strcspn(err, "\n")] = '\0';     /* fio's reason; "job x dropped" follows */
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: fio cannot read the job: %s", path,
                                    *err ? err : "(fio said nothing)");
        } else if (r == 0 && !out[strspn(out, " \t\n")]) {
                const char *sec = bench_fio_kv_get(&d->prog, "section");

                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: fio reads no job in it%s%s%s", path,
                                    sec ? " (--section=" : "", sec ? sec : "",
                                    sec ? " names none of its jobs)" : "");
                goto out;
        } else if (r == 0)
                r = parse_showcmd(out, d, globals, &sections);
        if (r == -EINVAL)
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: cannot read fio's reading of the job: %.200s",
                                    path, out);
out:
        bench_sset_done(&sections);
        return r;
}

/* The command line's settings: fio's program options to d->prog, the rest global until a --name. */
static int read_command_line(const struct bench_opts *g, struct bench_fio_defs *d, const struct bench_fio_kvs *base,
                             struct bench_fio_kvs *cmd_globals, bool *named)
{
        struct bench_fio_def *job = NULL;
        int r = 0;

        for (char **s = g->fio_settings; r >= 0 && s && *s; s++) {
                size_t klen = strcspn(*s, "=");
                _cleanup_free_ char *key = strndup(*s, klen);

                if (!key)
                        return -ENOMEM;
                if (bench_fio_prog_option(key))
                        r = kv_push_setting(&d->prog, *s);
                else if (streq(key, "name") && (*s)[klen]) {
                        *named = true;
                        r = add_job(d, *s + klen + 1, strlen(*s + klen + 1), base, &job);
                        if (r >= 0)
                                r = kv_append(&job->kv, cmd_globals);
                } else
                        r = kv_push_setting(job ? &job->kv : cmd_globals, *s);
        }
        return r;
}

/*
 * The native engine's time bound, where fio's default is none (a whole device read or written): a job
 * that sets no runtime= and that no amount ends (jobs.h bench_job_default_runtime) gets the default
 * runtime=; and in a --compare its settle after each switch: ramp_time= unless it sets one or ends by
 * its amount (bench_job_settles).  A value only fio reads (a form the native engine does not parse)
 * counts as set: fio's.
 */
static int native_bounds(struct bench_fio_def *j, bool compare)
{
        static const char * const keys[] = {
                "runtime", "time_based", "size", "io_size", "number_ios", "ramp_time",
        };
        struct bench_opts o;
        char val[32];
        uint64_t ns;
        bool bound, settles;
        int r = 0;

        bench_opts_init(&o);
        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                const char *v = bench_fio_kv_get(&j->kv, keys[i]);
                struct bench_error ignored = {};

                if (v && bench_jobopt_set(&o, keys[i], v, NULL, &ignored) != 0) {
                        if (streq(keys[i], "ramp_time"))
                                o.ramp_set = true;
                        else
                                o.runtime_set = true;
                }
        }
        bound = bench_job_default_runtime(&o);
        settles = bench_job_settles(&o, compare);
        ns = o.runtime_ns;
        bench_opts_done(&o);
        if (bound) {
                snprintf(val, sizeof(val), "%" PRIu64 "ms", ns / 1000000u);
                r = bench_fio_kv_add(&j->kv, "runtime", val);
        }
        if (r >= 0 && settles) {
                snprintf(val, sizeof(val), "%" PRIu64 "ms", (uint64_t)(BENCH_SWITCH_SETTLE_NS / 1000000u));
                r = bench_fio_kv_add(&j->kv, "ramp_time", val);
        }
        return r;
}

/*
 * An option that takes a value, set alone: fio refuses it ("requires an
 * argument") or calls its handler with none (a valueless cpus_allowed makes
 * fio 3.33 crash), where "=1" on its command line would be another job.
 * The logs alone are fio's own form: named after the job (bench_fio_argv()).
 */
static int valued(const struct bench_fio_def *j, struct bench_error *e)
{
        for (size_t s = 0; s < j->kv.n; s++) {
                const char *key = j->kv.v[s].key;

                if (j->kv.v[s].val || bench_fio_option_arg(key) != 'v' || bench_fio_option_job_named(key))
                        continue;
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "job '%s': %s has no value: fio takes one",
                                       j->name, key);
        }
        return 0;
}

/*
 * fio's options that turn off the latencies the reports are made of (p99 and CLAT-P50, the objective a
 * cap moves to, the ramp's check counts the I/Os measured by them), or with stats=0 every figure (fio
 * then leaves the job out of its report, and the jobs after it would be read under its name), or
 * with unified_rw_reporting=mixed the reads' and writes' (fio reports them added up, as "mixed", which
 * no report reads: 0 I/O for every variant): ignored, as the native engine ignores them (jobopts.c),
 * and said once.
 */
static int drop_unmeasured(struct bench_fio_defs *d)
{
        /* the settings, and whether a false value (not a true one) turns the figures off; or the value
         * that does */
        static const struct {
                const char *key;
                bool off_when_false;
                const char *off, *off2;
        } keys[] = {
                { "gtod_reduce", false, NULL, NULL }, { "disable_lat", false, NULL, NULL },
                { "disable_clat", false, NULL, NULL }, { "clat_percentiles", true, NULL, NULL },
                { "stats", true, NULL, NULL }, { "unified_rw_reporting", false, "mixed", "1" },
        };
        _cleanup_(ios_strv_freep) char **said = NULL;
        int r = 0;

        for (size_t i = 0; r >= 0 && i < d->n; i++)
                for (size_t k = 0; r >= 0 && k < ELEMENTSOF(keys); k++) {
                        const char *v = bench_fio_kv_get(&d->jobs[i].kv, keys[k].key);
                        _cleanup_free_ char *kv = NULL;

                        if (!v || (keys[k].off ? !streq(v, keys[k].off) && !streq(v, keys[k].off2) :
                                                 bench_fio_falsy(v) != keys[k].off_when_false))
                                continue;
                        if (asprintf(&kv, "%s=%s", keys[k].key, v) < 0)
                                return -ENOMEM;
                        if (!ios_strv_contains(said, kv)) {
                                r = ios_strv_push(&said, kv);
                                kv = NULL;
                        }
                        bench_fio_kv_drop(&d->jobs[i].kv, keys[k].key);
                }
        if (r < 0 || !said)
                return r;
        fprintf(stderr, "iosched-bench: note: ignored, they turn off fio's figures, which the reports are "
                "made of:");
        for (char **k = said; *k; k++)
                fprintf(stderr, "%s %s", k == said ? "" : ",", *k);
        fputc('\n', stderr);
        return 0;
}

/*
 * The files fio reads as it reads the job, into *files: the job files as
 * named, the files they include and the files patterns name (theirs and
 * the command line's; one fio could load is refused).
 */
static int read_files(const struct bench_opts *g, char ***files, struct bench_error *e)
{
        _cleanup_(ios_strv_freep) char **patterns = NULL;
        int r = 0;

        if (ios_strv_length(g->jobtexts) != ios_strv_length(g->jobfiles))
                return bench_error_set(e, BENCH_ERR_SYSTEM, EINVAL, "the job files were not read");
        for (size_t i = 0; r >= 0 && g->jobfiles && g->jobfiles[i]; i++) {
                if (!streq(g->jobfiles[i], "-"))
                        r = ios_strv_pushf(files, "%s", g->jobfiles[i]);
                /* and the files it includes (what this reading misses, fio cannot read: it says so) */
                if (r >= 0) {
                        size_t budget = BENCH_JOBFILE_MAX - strlen(g->jobtexts[i]);

                        r = bench_fio_includes(g->jobtexts[i], g->jobfiles[i], 0, &budget, files, &patterns);
                        if (r == -EFBIG)
                                return bench_error_set(e, BENCH_ERR_USAGE, EFBIG, "%s: not a job file (with "
                                                       "the files it includes, longer than %u MiB)",
                                                       g->jobfiles[i], BENCH_JOBFILE_MAX >> 20);
                }
        }
        /* the command line's patterns, given to fio with the job files */
        for (char **s = g->fio_settings; r >= 0 && s && *s; s++) {
                size_t klen = strcspn(*s, "=");
                _cleanup_free_ char *key = strndup(*s, klen);

                if (!key)
                        return -ENOMEM;
                if ((*s)[klen])
                        r = bench_fio_pattern_files(key, *s + klen + 1, &patterns);
        }
        /* a pattern's file is read by fio as it reads the setting: one fio could load is refused */
        for (char **p = patterns; r >= 0 && p && *p; p++) {
                const char *why;
                int c = bench_fio_pattern_check(*p, &why);

                if (c > 0)
                        return bench_error_set(e, BENCH_ERR_REFUSED, EPERM, "the pattern's file %s %s", *p,
                                               why);
                if (c == 0)
                        r = ios_strv_pushf(files, "%s", *p);
        }
        return r;
}

int bench_fio_read(const struct bench_opts *g, const char *exe, struct bench_fio_defs *d,
                   struct bench_error *e)
{
        struct bench_fio_kvs base = {}, cmd_globals = {}, globals = {};
        struct bench_fio_access a = { .allow_exec = g->allow_exec, .allow_net = g->allow_net };
        _cleanup_(ios_strv_freep) char **files = NULL;
        struct bench_fence fc;
        const char *step, *what;
        bool named = false;
        int r = 0;

        *d = (struct bench_fio_defs){};
        /* fio reads the job inside a fence of its own: the job files as named, the system's files; no
         * write, no program but fio, no socket (what an include or an engine path names beyond that, fio
         * cannot read) */
        r = read_files(g, &files, e);
        if (r < 0)
                return r;
        r = bench_fence_build(&fc, &a, files, exe, &step, &what);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -r,
                                       "cannot fence fio with Landlock (%s%s%s: %s); fio not run unconfined",
                                       step, what ? " " : "", what ? what : "", ios_strerror(r));
        bench_fio_read_engines(&fc, exe);
        /* the native engine's defaults where fio's differ, so that a job means the same on both: its engine
         * (fio's is psync; with --allow-exec libaio, as the fence closes io_uring then), its runtime= and
         * ramp_time= below, and direct=1 (fiojob.c: it knows the files) */
        r = kv_push_setting(&base, g->allow_exec ? "ioengine=libaio" : "ioengine=io_uring");
        if (r >= 0)
                r = read_command_line(g, d, &base, &cmd_globals, &named);
        if (r >= 0 && !named && !g->jobfiles && !g->workload) {
                struct bench_fio_def *job;
                const char *name = g->name ? g->name : "iosched-bench";

                r = add_job(d, name, strlen(name), &base, &job);
                if (r >= 0)
                        r = kv_append(&job->kv, &cmd_globals);
        }
        /* fio loads the command line's engine as it reads it */
        for (size_t i = 0; r >= 0 && i < cmd_globals.n; i++)
                if (streq(cmd_globals.v[i].key, "ioengine") && cmd_globals.v[i].val &&
                    bench_fio_engine_runs_code(cmd_globals.v[i].val) && !g->allow_exec && (g->jobfiles || g->workload)) {
                        r = bench_fio_problem(d, "--ioengine=%s: an engine fio loads or runs needs --allow-exec",
                                              cmd_globals.v[i].val);
                        goto out;
                }
        /* a job file's [global] reaches the jobs after it in that file only (fio reads each file anew,
         * init.c fill_def_thread()), and a stonewall comes before each later file's first job, as in
         * fio; the command line's settings reach every file's jobs (fio: the first file's only), as
         * the native engine's reading and iosched-bench(8) have it */
        if (r >= 0)
                r = kv_append(&globals, &base);
        if (r >= 0)
                r = kv_append(&globals, &cmd_globals);
        if (r >= 0 && g->workload)
                r = read_file(g, &fc, exe, g->workload, bench_workload_text(g->workload), false, &cmd_globals,
                              &globals, d, e);
        for (char **f = g->jobfiles, **text = g->jobtexts; r >= 0 && f && *f; f++, text++) {
                bool later = f != g->jobfiles;
                size_t n0 = d->n;

                if (later) {
                        kvs_done(&globals);
                        r = kv_append(&globals, &base);
                        if (r >= 0)
                                r = kv_append(&globals, &cmd_globals);
                }
                if (r < 0)
                        break;
                if (bench_stop_signal)
                        r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted by signal %d", bench_stop_signal);
                else
                        r = read_file(g, &fc, exe, *f, *text, !streq(*f, "-"), &cmd_globals, &globals, d, e);
                if (r >= 0 && later && d->n > n0)
                        r = bench_fio_kv_add(&d->jobs[n0].kv, "stonewall", NULL);
        }
        for (size_t i = 0; r >= 0 && i < d->n; i++)
                r = valued(&d->jobs[i], e);
        for (size_t i = 0; r >= 0 && i < d->n; i++)
                r = native_bounds(&d->jobs[i], g->compare);
        if (r >= 0)
                r = drop_unmeasured(d);
out:
        bench_fence_done(&fc);
        kvs_done(&base);
        kvs_done(&cmd_globals);
        kvs_done(&globals);
        return r;
}

/* "--KEY=VALUE" ("--KEY" with no value), or NULL: no memory (asprintf leaves its pointer undefined then). */
static char *opt_arg(const char *key, const char *val)
{
        char *s;

        if ((val ? asprintf(&s, "--%s=%s", key, val) : asprintf(&s, "--%s", key)) < 0)
                return NULL;
        return s;
}

int bench_fio_argv(const struct bench_fio_defs *d, const char *exe, char ***ret)
{
        size_t n = 4 + d->prog.n, k = 0;
        char **v;

        for (size_t i = 0; i < d->n; i++)
                n += 1 + d->jobs[i].kv.n;
        v = calloc(n + 1, sizeof(*v));
        if (!v)
                return -ENOMEM;
        v[k++] = strdup(exe);
        v[k++] = strdup("--output-format=json+");
        v[k++] = strdup("--eta=never");
        for (size_t i = 0; i < d->prog.n; i++)
                if (!streq(d->prog.v[i].key, "section")) /* applied already: fio reads no job file */
                        v[k++] = opt_arg(d->prog.v[i].key, d->prog.v[i].val);
        for (size_t i = 0; i < d->n; i++) {
                const struct bench_fio_def *j = &d->jobs[i];

                v[k++] = opt_arg("name", j->name);
                /* a job option alone is "=1" on fio's command line; a log alone is named after the job
                 * (fio's rule in a job file; "=1" would name it "1") */
                for (size_t s = 0; s < j->kv.n; s++) {
                        const char *key = j->kv.v[s].key, *val = j->kv.v[s].val;

                        if (!val && bench_fio_option_job_named(key))
                                val = j->name;
                        else if (!val)
                                val = "1";
                        v[k++] = opt_arg(key, val);
                }
        }
        for (size_t i = 0; i < k; i++)
                if (!v[i]) {
                        for (size_t l = 0; l < k; l++)
                                free(v[l]);
                        free(v);
                        return -ENOMEM;
                }
        *ret = v;
        return 0;
}
