/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiojob.c: a job as fio will run it, read for what it touches before fio
 * starts (fio.c).  The command line's options (global until a --name),
 * then the job files ([global] over the command line's, one job per other
 * section), every "key=value" with ${VAR} expanded as fio does; per job,
 * its files (filename=, ':'-separated, or fio's NAME.N.F under
 * directory=) and whether it writes (rw= with a write or trim, verify=,
 * trim_*, fill_*, overwrite; a value we cannot read counts as a write;
 * readonly clears it).  Every existing file or device goes through
 * target.c's checks (--allow-write; a mounted or held device refused); a
 * name that does not exist yet is one fio lays out, listed for removal.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "fio.h"
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
        size_t cap;             /* room in jobs (ios_grow) */
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
        struct fjob *j = ios_grow(s->jobs, &s->cap, (size_t)s->n + 1, sizeof(*j));

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
static int scan_job(char * const *args, struct scan *s, struct bench_error *e)
{
        char ***cur = &s->global;
        int r;

        for (char * const *a = args; a && *a; a++) {
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
        /* fio reads every option before the job files, wherever they stand */
        for (char * const *a = args; a && *a; a++)
                if (**a != '-' && (r = scan_file(s, *a, e)) < 0)
                        return r;
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
        unsigned thread = 0;
        int r;

        *writes = false;
        for (unsigned i = 0; i < s->n; i++) {
                char **kv = s->jobs[i].kv;
                const char *fn = get(kv, "filename"), *dir = get(kv, "directory"), *eng = get(kv, "ioengine");
                const char *verify = get(kv, "verify"), *save = get(kv, "verify_state_save");
                bool w = job_writes(kv);
                unsigned numjobs = 1, nrfiles = 1;

                *writes |= w;
                if (get(kv, "numjobs"))
                        (void)bench_parse_uint(get(kv, "numjobs"), 1, 4096, &numjobs);
                /* a verifying job's state, which fio saves here at its end: ours to remove if new */
                for (unsigned n = 0; verify && !falsy(verify) && !(save && falsy(save)) && n < numjobs; n++) {
                        struct stat st;
                        _cleanup_free_ char *p = NULL;

                        if (asprintf(&p, "local-%s-%u-verify.state", s->jobs[i].name, thread + n) < 0)
                                return -ENOMEM;
                        if (lstat(p, &st) < 0 && errno == ENOENT && ios_strv_pushf(created, "%s", p) < 0)
                                return -ENOMEM;
                }
                thread += numjobs;
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

int bench_fio_job_check(const struct bench_opts *g, char * const *args, struct ios_ctx *root, bool *writes,
                        struct bench_target *tg, char ***created, struct bench_error *e)
{
        struct scan s = {};
        int r = scan_job(args, &s, e);

        if (r >= 0)
                r = check_targets(g, &s, root, writes, tg, created, e);
        for (unsigned i = 0; i < s.n; i++) {
                free(s.jobs[i].name);
                ios_strv_free(s.jobs[i].kv);
        }
        free(s.jobs);
        ios_strv_free(s.global);
        return r;
}
