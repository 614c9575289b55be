/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioengines.c: the engines fio loads or runs.  fio loads an engine that
 * it has not built in (a path, external:, a plugin) with dlopen() while
 * it reads the job, before any job runs, even for --showcmd; so a job
 * file is read here first for its ioengine lines (with ${VAR} expanded
 * and its includes followed by fio's rule), and its sections noted, before
 * fio is given it (fioread.c).  Built in: the engines `fio --enghelp`
 * lists, and the common ones if that fails; "exec" runs a program.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fioread.h"
#include "jobs.h"
#include "macro.h"
#include "strv.h"

/* the engines built into fio that run no program and load nothing */
static const char * const builtin_engines[] = {
        "cpuio", "mmap", "sync", "psync", "vsync", "pvsync", "pvsync2", "null", "net", "netsplice", "ftruncate",
        "filecreate", "filestat", "filedelete", "posixaio", "falloc", "e4defrag", "splice", "mtd", "sg",
        "io_uring", "io_uring_cmd", "libaio",
};

/* the engines this fio has built in (fio --enghelp: registered, none loaded from a path), "exec" aside */
static char *installed_engines;

static bool in_list(const char *list, const char *engine, size_t n)
{
        for (const char *p = list; p && *p;) {
                size_t k;

                p += strspn(p, " \t\n");
                k = strcspn(p, " \t\n");
                if (k == n && !strncmp(p, engine, n))
                        return true;
                p += k;
        }
        return false;
}

static bool is_builtin(const char *engine, size_t n)
{
        for (size_t i = 0; i < ELEMENTSOF(builtin_engines); i++)
                if (strlen(builtin_engines[i]) == n && !strncmp(engine, builtin_engines[i], n))
                        return true;
        return in_list(installed_engines, engine, n);
}

/*
 * What fio keeps of an ioengine= value (parse.c, FIO_OPT_STR_STORE): one
 * whose first part, up to a ',' or ':', is an engine of fio's is cut at
 * its first ':' ("null:x" runs null; external: hands the rest to its
 * loader); another is kept whole, a name fio loads.  The length kept.
 */
static size_t kept_len(const char *v)
{
        const char *colon = strchr(v, ':');
        size_t k = strcspn(v, ",:");

        if (!colon || (k == 8 && !strncmp(v, "external", 8)) || !is_builtin(v, k))
                return strlen(v);
        return (size_t)(colon - v);
}

char *bench_fio_engine_kept(const char *value)
{
        return strndup(value, kept_len(value));
}

int bench_fio_engine_runs_code(const char *engine)
{
        size_t n = strcspn(engine, " \t"), kept = kept_len(engine);

        if (engine[n + strspn(engine + n, " \t")])
                return 1;
        n = kept < n ? kept : n;
        if (n == 4 && !strncmp(engine, "exec", 4))
                return 1;
        /* fio: "aio..." and "linuxaio..." are libaio */
        if (!strncmp(engine, "aio", 3) || !strncmp(engine, "linuxaio", 8))
                return 0;
        return is_builtin(engine, n) ? 0 : 1;
}

bool bench_fio_engine_among(const char *engine, const char * const *names)
{
        for (const char * const *n = names; engine && *n; n++)
                if (streq(engine, *n))
                        return true;
        return false;
}

bool bench_fio_engine_fileless(const char *engine)
{
        static const char * const fileless[] = { "null", "cpuio", "net", "netsplice", "exec" };

        for (size_t i = 0; i < ELEMENTSOF(fileless); i++)
                if (streq(engine, fileless[i]))
                        return true;
        return false;
}

bool bench_fio_engine_fileops(const char *engine)
{
        static const char * const fileops[] = {
                "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete",
        };

        for (size_t i = 0; i < ELEMENTSOF(fileops); i++)
                if (streq(engine, fileops[i]))
                        return true;
        return false;
}

/* Ask fio once which engines it has built in (a job naming another makes fio load it). */
void bench_fio_read_engines(const struct bench_fence *fc, const char *exe)
{
        char *argv[] = { (char *)exe, (char *)"--enghelp", NULL }, *out = NULL, *err = NULL, *list;
        struct bench_error e = {};

        if (installed_engines || bench_fio_capture(fc, argv, NULL, false, &out, &err, &e) != 0) {
                free(out);
                free(err);
                return;
        }
        list = strstr(out ? out : "", "Available IO engines:");
        if (list)
                installed_engines = strdup(list + strlen("Available IO engines:"));
        free(out);
        free(err);
}

/* ------------------------------------------------------------------ */
/* Before fio reads a file: the engines it names (fio loads a path)    */
/* ------------------------------------------------------------------ */

/*
 * A line's ${VAR}s as fio expands them (options.c fio_option_dup_subs()):
 * into OPT_LEN_MAX bytes, a value that does not fit left out, the rest cut.
 * The text is read once: the next '}' is looked for again only when passed.
 */
static char *expand_env(const char *s)
{
        const char *close = NULL;
        char *out = NULL;
        size_t len = 0, room = BENCH_FIO_LINE_MAX + 1;
        FILE *m = open_memstream(&out, &len);

        if (!m)
                return NULL;
        while (*s && room > 0) {
                if (s[0] == '$' && s[1] == '{') {
                        if (!close || close < s + 2)
                                close = strchr(s + 2, '}') ?: s + strlen(s);    /* none: the end */
                        if (*close) {
                                _cleanup_free_ char *var = strndup(s + 2, (size_t)(close - s - 2));
                                const char *x = var ? getenv(var) : NULL;

                                if (x && strlen(x) <= room) {
                                        fputs(x, m);
                                        room -= strlen(x);
                                }
                                s = close + 1;
                                continue;
                        }
                }
                fputc(*s++, m);
                room--;
        }
        fclose(m);
        return out;
}

/*
 * fio's lines of a job file: it reads one with fgets() into a buffer of
 * OPT_LEN_MAX (8,192) bytes, so a longer line is several lines to fio
 * (the rest of a long comment line is read as settings).  A copy of text
 * cut so, or NULL.
 */
static char *fio_lines(const char *text)
{
        char *out = NULL;
        size_t len = 0, col = 0;
        FILE *m = open_memstream(&out, &len);

        if (!m)
                return NULL;
        for (const char *p = text; *p; p++) {
                if (*p != '\n' && col == BENCH_FIO_LINE_MAX) {
                        fputc('\n', m);
                        col = 0;
                }
                fputc(*p, m);
                col = *p == '\n' ? 0 : col + 1;
        }
        fclose(m);
        return out;
}

/*
 * An include line's file name as fio takes it (init.c parse_jobs_ini()),
 * else NULL: the line without blanks in front, cut at a ';' or '#' and
 * without blanks or controls at its end (strip_blank_end()); the name is
 * what follows "include" and one more character, whatever it is, blanks
 * in front of it kept.  Only the line's end is written (idempotent).
 */
static char *include_name(char *line)
{
        char *l = line, *end;

        while (isspace((unsigned char)*l))
                l++;
        if (strncmp(l, "include", 7) || !l[7])
                return NULL;
        l[strcspn(l, ";#")] = '\0';
        end = l + strlen(l);
        while (end > l && (isspace((unsigned char)end[-1]) || iscntrl((unsigned char)end[-1])))
                *--end = '\0';
        return end > l + 8 ? l + 8 : NULL;
}

/* fio's rule for an include's file: the name as written if it exists, else beside the including file */
static char *include_path(char *line, const char *path)
{
        const char *name = include_name(line), *slash = strrchr(path, '/');
        char *inc = NULL;

        if (access(name, F_OK) == 0 || !slash || name[0] == '/')
                return strdup(name);
        return asprintf(&inc, "%.*s%s", (int)(slash - path + 1), path, name) < 0 ? NULL : inc;
}

int bench_fio_includes(const char *text, const char *path, int depth, size_t *budget, char ***files,
                       char ***patterns)
{
        _cleanup_free_ char *copy = fio_lines(text);
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        if (depth > 16)
                return 0;       /* fio says so; the gate refuses it */
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                _cleanup_free_ char *inc = NULL, *itext = NULL;
                char *eq = include_name(line) ? NULL : strchr(line, '=');
                int r;

                if (eq) {
                        /* a pattern's file, which fio reads as it reads the line */
                        *eq = '\0';
                        r = bench_fio_pattern_files(ios_strip(line), ios_strip(eq + 1), patterns);
                        if (r < 0)
                                return r;
                        continue;
                }
                if (!include_name(line))
                        continue;
                inc = include_path(line, path);
                if (!inc)
                        return -ENOMEM;
                /* readable inside the fence only if it is a job file's text (never a library) */
                if (bench_jobfile_read(inc, &itext) < 0)
                        continue;       /* fio cannot read it: it says so */
                if (strlen(itext) > *budget)
                        return -EFBIG;
                *budget -= strlen(itext);
                r = ios_strv_contains(*files, inc) ? 0 : ios_strv_pushf(files, "%s", inc);
                if (r >= 0)
                        r = bench_fio_includes(itext, inc, depth + 1, budget, files, patterns);
                if (r < 0)
                        return r;
        }
        return 0;
}

int bench_fio_section_key(char *buf, size_t len, const char *name, unsigned k)
{
        int n = snprintf(buf, len, "%s\n%u", name, k);

        return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/*
 * fio works out arithmetic with its keywords by running programs
 * (options.c bc_calc(): sh -c "which bc", then sh -c "echo ... | bc"): a
 * setting with $pagesize, $mb_memory or $ncpus and an operator, unquoted.
 */
static bool runs_bc(const char *setting)
{
        return (strstr(setting, "$pagesize") || strstr(setting, "$mb_memory") || strstr(setting, "$ncpus")) &&
               strpbrk(setting, "+-*/") && !strchr(setting, '\'') && strchr(setting, '=');
}

/*
 * Every line of text and of the files it includes as fio reads them
 * (fio_lines(), include_name(); fio's rule: a relative include is beside
 * the including file): 1 with *what set when one names an engine that
 * loads or runs code, works out arithmetic with programs, or includes a
 * file iosched-bench cannot read (binary data, longer than 16 MiB) or
 * nested deeper than 16; -EFBIG with *what set when the file and its
 * includes pass 16 MiB together (st->budget, the bytes left: fio's
 * reading and the bench's are bounded whatever the includes); -EBADMSG
 * with *what set for what fio's reading would not show as it is (a
 * [global] after a job, a section's name with " -"); 0 none, < 0 error.
 */
struct gate {
        struct bench_sset *sections;    /* each [name], by bench_fio_section_key() */
        struct bench_sset names;        /* each name, counted: its next occurrence's key */
        struct bench_sset renamed;      /* the values of name= lines */
        size_t budget;                  /* the bytes the file and its includes may still have */
        bool jobs;                      /* a job section met */
};

/* *what set from fmt: r, or -ENOMEM */
static int said(int r, char **what, const char *fmt, ...)
{
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vasprintf(what, fmt, ap);
        va_end(ap);
        if (n < 0)
                *what = NULL;
        return n < 0 ? -ENOMEM : r;
}

/* A section's header [sec]: refused where fio's reading would mislead (-EBADMSG), else noted. */
static int section(const char *path, char *sec, char **what, struct gate *st)
{
        bool global = startswith(ios_strip(sec), "global");
        char key[PATH_MAX];
        unsigned k;
        int r = 0;

        /* fio's reading (--showcmd) prints a [global] after a job without a mark, and a name as it is */
        if (global && st->jobs)
                return said(-EBADMSG, what, "%s: [%s] after a job: fio's reading of the file does not say "
                            "where its settings start (put it before the jobs, or --backend=native)", path,
                            ios_strip(sec));
        if (strstr(sec, " -"))
                return said(-EBADMSG, what, "%s: [%s]: a job name with \" -\" reads as a setting in fio's "
                            "reading of the file", path, sec);
        st->jobs |= !global;
        /* the next occurrence of this name */
        r = bench_sset_count(&st->names, ios_strip(sec), &k);
        r = r < 0 ? r : bench_fio_section_key(key, sizeof(key), ios_strip(sec), k);
        r = r < 0 ? r : bench_sset_add(st->sections, key);
        return r < 0 ? r : 0;
}

static int gate(const char *text, const char *path, int depth, char **what, struct gate *st)
{
        _cleanup_free_ char *copy = fio_lines(text);
        char *save = NULL;
        size_t len = strlen(text);

        if (!copy)
                return -ENOMEM;
        if (len > st->budget)
                return -EFBIG;
        st->budget -= len;
        if (depth > 16)
                return said(1, what, "%s: includes nested deeper than 16 (one including itself?), where "
                            "iosched-bench does not look for an engine", path);
        for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                _cleanup_free_ char *x = expand_env(line);
                char *l = x ? ios_strip(x) : NULL, *eq;
                int r;

                if (!x)
                        return -ENOMEM;
                if (include_name(line)) {
                        _cleanup_free_ char *inc = include_path(line, path), *itext = NULL;

                        if (!inc)
                                return -ENOMEM;
                        r = bench_jobfile_read(inc, &itext);
                        if (r == -ENOENT || r == -ENOTDIR)
                                continue;       /* fio cannot read it either, and says so */
                        /* no job file: fio would wait on a FIFO, or take a kernel log's lines */
                        if (bench_jobfile_unread(r) && r != -EFBIG && r != -EBADMSG)
                                return said(-EBADMSG, what, "%s: include %s: not a job file (%s)", path, inc,
                                            bench_jobfile_unread(r));
                        if (r < 0)
                                return said(1, what, "%s: include %s, which iosched-bench cannot read (%s) "
                                            "to look for an engine", path, inc,
                                            bench_jobfile_unread(r) ? bench_jobfile_unread(r) :
                                            ios_strerror(r));
                        r = gate(itext, inc, depth + 1, what, st);
                        if (r != 0)
                                return r;
                        continue;
                }
                if (*l == '[' && strchr(l, ']')) {
                        _cleanup_free_ char *sec = strndup(l + 1, strcspn(l + 1, "]"));

                        r = sec ? section(path, sec, what, st) : -ENOMEM;
                        if (r != 0)
                                return r;
                        continue;
                }
                l[strcspn(l, ";#")] = '\0';
                eq = strchr(l, '=');
                if (eq) {
                        /* name=: the job renamed (checked against the sections once all are known) */
                        *eq = '\0';
                        r = streq(ios_strip(l), "name") ? bench_sset_add(&st->renamed, ios_strip(eq + 1)) : 0;
                        *eq = '=';
                        if (r < 0)
                                return r;
                }
                if (runs_bc(l))
                        return said(1, what, "%s: %s: fio works out arithmetic with $pagesize, $mb_memory or "
                                    "$ncpus by running sh, which and bc", path, ios_strip(l));
                if (!eq || !strstr(l, "ioengine"))
                        continue;
                *eq = '\0';
                if (!streq(ios_strip(l), "ioengine") || !bench_fio_engine_runs_code(ios_strip(eq + 1)))
                        continue;
                return said(1, what, "%s: ioengine=%s, an engine fio loads or runs (a program, or code from "
                            "a path)", path, ios_strip(eq + 1));
        }
        return 0;
}

int bench_fio_gate(const char *text, const char *path, char **what, struct bench_sset *sections)
{
        struct gate st = { .sections = sections, .budget = BENCH_JOBFILE_MAX };
        char key[PATH_MAX];
        int r = gate(text, path, 0, what, &st);

        if (r == -EFBIG)
                r = said(-EFBIG, what, "%s: not a job file (with the files it includes, longer than %u MiB)",
                         path, BENCH_JOBFILE_MAX >> 20);
        /* fio's reading prints name=X as it prints the section [X]: a job renamed so reads as [X] */
        for (size_t i = 0; r == 0 && i < st.renamed.cap; i++)
                if (st.renamed.v[i] && bench_fio_section_key(key, sizeof(key), st.renamed.v[i], 1) == 0 &&
                    bench_sset_has(sections, key))
                        r = said(-EBADMSG, what, "%s: name=%s renames a job to the name of a section of the "
                                 "file, which fio's reading of the file does not tell apart", path,
                                 st.renamed.v[i]);
        bench_sset_done(&st.renamed);
        bench_sset_done(&st.names);
        return r;
}

