/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobfile.c: fio's job file format.  "[global]" sections set defaults for
 * the job sections after them (on top of the command line's global
 * options), every other "[name]" section is a job named after it, lines are
 * "option=value" or a boolean "option" alone, lines starting with ';' or '#'
 * are comments, and ${VAR} is replaced by the environment variable as fio
 * does.  The options are the job options of jobopts.c.  An fio option (or
 * value) the native engine lacks is recorded in g->unsupported and parsing
 * goes on (jobs.h); a name fio does not know either is an error naming
 * FILE:LINE and the option.  name= in [global] is accepted and, as in fio,
 * names no job (the section names it).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobs.h"
#include "macro.h"
#include "readfile.h"
#include "strv.h"

/*
 * ${VAR} from the environment; an unset variable is an error (*ret_var
 * names it), and so is a result longer than fio takes (-E2BIG).  The text
 * is read once: the next '}' is looked for again only when passed.
 */
static int expand_env(const char *s, char **ret, char **ret_var)
{
        const char *close = NULL;
        char *buf = NULL;
        size_t len = 0, out = 0;
        FILE *m = open_memstream(&buf, &len);
        int r = 0;

        if (!m)
                return -ENOMEM;
        while (*s && r == 0) {
                if (s[0] == '$' && s[1] == '{') {
                        if (!close || close < s + 2)
                                close = strchr(s + 2, '}') ?: s + strlen(s);    /* none: the end */
                        if (*close) {
                                _cleanup_free_ char *var = strndup(s + 2, (size_t)(close - s - 2));
                                const char *val = var ? getenv(var) : NULL;

                                r = !var ? -ENOMEM : !val ? -ENOENT : 0;
                                if (r == 0 && out + strlen(val) > BENCH_FIO_LINE_MAX)
                                        r = -E2BIG;
                                if (r == -ENOENT)
                                        *ret_var = TAKE_PTR(var);
                                if (r == 0) {
                                        fputs(val, m);
                                        out += strlen(val);
                                }
                                s = close + 1;
                                continue;
                        }
                }
                r = ++out > BENCH_FIO_LINE_MAX ? -E2BIG : 0;
                fputc(*s++, m);
        }
        if (fclose(m) != 0 && r == 0)
                r = -ENOMEM;
        if (r < 0) {
                free(buf);
                return r;
        }
        *ret = buf;
        return 0;
}

/* A setting's value with its ${VAR}s expanded (expand_env()), or an error said at where. */
static int expand_setting(const char *val, const char *where, const char *key, char **ret,
                          struct bench_error *e)
{
        _cleanup_free_ char *var = NULL;
        int r = expand_env(val, ret, &var);

        if (r == -ENOENT)
                return bench_error_set(e, BENCH_ERR_USAGE, ENOENT,
                                       "%s: option '%s': environment variable %s is not set", where, key,
                                       var);
        if (r == -E2BIG)
                return bench_error_set(e, BENCH_ERR_USAGE, E2BIG,
                                       "%s: option '%s': longer than fio takes with its ${VARIABLE}s "
                                       "(%u bytes)", where, key, BENCH_FIO_LINE_MAX);
        return r;
}

int bench_jobfile_parse_text(struct bench_opts *g, const char *text, const char *path, struct bench_error *e)
{
        _cleanup_free_ char *copy = strdup(text);
        struct bench_opts fglobal, *cur = NULL;
        bool in_global = false;
        unsigned lineno = 0, njobs_before = g->njobs;
        char *save = NULL, *line;
        int r = 0;

        if (!copy)
                return -ENOMEM;
        r = bench_opts_copy_job(&fglobal, g);
        if (r < 0) {
                bench_opts_done_job(&fglobal);
                return r;
        }
        /* strtok_r would skip empty lines and lose the count: split by hand */
        for (line = copy; line && r == 0; line = save) {
                char where[4200], *nl = strchr(line, '\n'), *s, *eq, *key, *val = NULL;
                _cleanup_free_ char *expanded = NULL;

                save = nl ? nl + 1 : NULL;
                if (nl)
                        *nl = '\0';
                lineno++;
                /* fio: a ';' or '#' after a blank ends the line ("size=100k ; the rest") */
                for (char *c = line; *c; c++)
                        if ((*c == ';' || *c == '#') && c > line && (c[-1] == ' ' || c[-1] == '\t')) {
                                *c = '\0';
                                break;
                        }
                s = ios_strip(line);
                if (!*s || *s == ';' || *s == '#')
                        continue;
                snprintf(where, sizeof(where), "%s:%u", path, lineno);
                /* fio would read it as several lines (each job would take a copy of so long a value) */
                if (strlen(s) > BENCH_FIO_LINE_MAX) {
                        r = bench_error_set(e, BENCH_ERR_USAGE, E2BIG,
                                            "%s: a line of %zu bytes: fio reads at most %u as one", where,
                                            strlen(s), BENCH_FIO_LINE_MAX);
                        break;
                }
                if (*s == '[') {
                        char *close = strchr(s, ']');

                        if (!close || close[1] || close == s + 1) {
                                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: invalid section '%s' (expected [name])",
                                                    where, s);
                                break;
                        }
                        *close = '\0';
                        s = ios_strip(s + 1);
                        if (!*s) {
                                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: a section needs a name", where);
                                break;
                        }
                        in_global = streq(s, "global");
                        cur = NULL;
                        if (!in_global)
                                r = bench_jobs_add(g, &fglobal, s, &cur);
                        if (r == -E2BIG)
                                r = bench_error_set(e, BENCH_ERR_USAGE, E2BIG, "%s: [%s]: more than %d jobs",
                                                    where, s, BENCH_JOBS_MAX);
                        continue;
                }
                if (!strncmp(s, "include", 7) && (s[7] == ' ' || s[7] == '\t')) {
                        /* fio's include: fio reads the file (fioread.c), so the job is fio's */
                        r = bench_jobs_record(g, -EOPNOTSUPP, where, "include", ios_strip(s + 8));
                        continue;
                }
                eq = strchr(s, '=');
                if (eq) {
                        *eq = '\0';
                        val = ios_strip(eq + 1);
                }
                key = ios_strip(s);
                if (!in_global && !cur) {
                        r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                            "%s: option '%s' outside a section (start with [global] or [jobname])",
                                            where, key);
                        break;
                }
                if (val) {
                        r = expand_setting(val, where, key, &expanded, e);
                        if (r < 0)
                                break;
                        val = expanded;
                }
                if (streq(key, "name")) {
                        if (!val || !*val) {
                                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: 'name' needs a value", where);
                                break;
                        }
                        if (in_global)
                                continue;       /* fio: the section's name still names each job */
                        free(cur->name);
                        cur->name = strdup(val);
                        r = cur->name ? 0 : -ENOMEM;
                        continue;
                }
                r = bench_jobopt_set(in_global ? &fglobal : cur, key, val, where, e);
                if (r < 0 && r != -ENOMEM && r != -ENOENT && r != -EOPNOTSUPP && g->backend == BENCH_BACKEND_FIO) {
                        /* --backend=fio: fio, not we, judges the values (listed, the job goes to fio) */
                        *e = (struct bench_error){ 0 };
                        r = -EOPNOTSUPP;
                }
                if (r == -ENOENT)
                        r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                            "%s: unknown option '%s' (neither iosched-bench nor fio knows it)",
                                            where, key);
                else
                        r = bench_jobs_record(g, r, where, key, val);
        }
        bench_opts_done_job(&fglobal);
        if (r == 0 && g->njobs == njobs_before)
                r = bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s: no job section (a [name] other than [global])", path);
        return r;
}

/* All of fd by the bounded reader (readfile.c), as a job file's text: a NUL byte is no text (a library),
 * nor is a control character but blanks' (a terminal's escape, which fio and the reports would echo):
 * C0, DEL, or C1 in UTF-8 (U+009B is CSI); a lone byte 0x80..0x9f is another charset's letter */
static int read_text(int fd, char **buf)
{
        size_t len = 0;
        int r = ios_read_fd_max(fd, BENCH_JOBFILE_MAX, buf, &len);

        if (r < 0)
                return r;
        r = memchr(*buf, '\0', len) ? -EBADMSG : 0;
        for (size_t i = 0; r == 0 && i < len; i++) {
                unsigned char c = (unsigned char)(*buf)[i];

                if ((c < 0x20 && !strchr("\t\n\v\f\r", c)) || c == 0x7f ||
                    (c == 0xc2 && i + 1 < len && (unsigned char)(*buf)[i + 1] <= 0x9f &&
                     (unsigned char)(*buf)[i + 1] >= 0x80))
                        r = -EILSEQ;
        }
        if (r < 0) {
                free(*buf);
                *buf = NULL;
        }
        return r;
}

int bench_jobfile_read(const char *path, char **ret)
{
        _cleanup_close_ int pfd = open(path, O_PATH | O_CLOEXEC), fd = -1;
        char self[64];
        struct stat st;

        /* a regular file only, looked at before it is opened: a FIFO would hold the bench, and opening a
         * device can act (a watchdog is armed by its open); then that inode, opened again to read */
        if (pfd < 0 || fstat(pfd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        /* nor a kernel interface's: reading /proc/kmsg takes the log from who waits for it, and waits */
        if (bench_storage_kernel_fs_fd(pfd))
                return -EMEDIUMTYPE;
        snprintf(self, sizeof(self), "/proc/self/fd/%d", pfd);
        fd = open(self, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        return read_text(fd, ret);
}

const char *bench_jobfile_unread(int r)
{
        if (r == -EMEDIUMTYPE)
                return "a kernel interface's file, on procfs, sysfs or the like: reading it can act";
        if (r == -EILSEQ)
                return "a control character, as a terminal's escapes start";
        return r == -EFBIG ? "longer than 16 MiB" : r == -EBADMSG ? "binary data" :
               r == -EINVAL ? "not a regular file" : NULL;
}

int bench_jobfile_load(const char *path, char **ret, struct bench_error *e)
{
        int r = streq(path, "-") ? read_text(STDIN_FILENO, ret) : bench_jobfile_read(path, ret);

        if (bench_jobfile_unread(r))
                return bench_error_set(e, BENCH_ERR_USAGE, -r, "%s: not a job file (%s)", path,
                                       bench_jobfile_unread(r));
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_USAGE, -r, "%s: cannot read the job file: %s", path,
                                       ios_strerror(r));
        return 0;
}

int bench_jobfile_parse(struct bench_opts *g, const char *path, struct bench_error *e)
{
        size_t n = ios_strv_length(g->jobtexts);
        char *text = NULL;
        int r;

        /* each job file read once and kept, in order, for the fio backend (fioread.c); fio's "-", the job
         * file on standard input, is read where first named and is that text wherever named again */
        for (size_t i = 0; i < n && !text; i++)
                if (streq(path, "-") && streq(g->jobfiles[i], "-") && !(text = strdup(g->jobtexts[i])))
                        return -ENOMEM;
        if (!text) {
                r = bench_jobfile_load(path, &text, e);
                if (r < 0)
                        return r;
        }
        if (strlen(text) > BENCH_JOBFILE_MAX - g->jobtexts_len) {
                free(text);
                return bench_error_set(e, BENCH_ERR_USAGE, EFBIG,
                                       "%s: the job files together are longer than %u MiB", path,
                                       BENCH_JOBFILE_MAX >> 20);
        }
        g->jobtexts_len += strlen(text);
        r = ios_strv_push(&g->jobtexts, text);
        if (r < 0)
                return r;
        return bench_jobfile_parse_text(g, text, path, e);
}
