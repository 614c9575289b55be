/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fionames.c: fio's names for a job's files (fiojob.c): filename_format's
 * keywords, ':'-separated lists with '\\:' escapes (filename=, directory=;
 * fio's get_next_str), clone N's directory (entry N mod the count), paths
 * joined and split, and the files a pattern names (buffer_pattern=,
 * verify_pattern=: 'FILE', read by fio as it reads the job).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fioread.h"
#include "macro.h"
#include "strv.h"

/*
 * fio's filename_format (init.c make_filename): for each keyword in turn,
 * $jobname, $jobnum, $filenum, $clientuid (empty outside client mode), its
 * first occurrence, in any case, is replaced until none is left, so a
 * keyword in the job name is replaced too.  -ENAMETOOLONG where fio would
 * cut the name: its room shrinks by what is put and what is before it at
 * each one, so a job name holding "$jobname", where fio never ends,
 * comes to it too.
 */
int bench_fio_format_name(const char *fmt, const char *job, unsigned jobnum, unsigned filenum, char *out, size_t len)
{
        static const char * const kw[] = { "$jobname", "$jobnum", "$filenum", "$clientuid" };
        char buf[PATH_MAX], next[PATH_MAX], num[16];
        size_t left = PATH_MAX - 1;

        if (!fmt || !*fmt)
                return snprintf(out, len, "%s.%u.%u", job, jobnum, filenum) >= (int)len ? -ENAMETOOLONG : 0;
        if (snprintf(buf, sizeof(buf), "%s", fmt) >= (int)sizeof(buf))
                return -ENAMETOOLONG;
        for (size_t k = 0; k < ELEMENTSOF(kw); k++)
                for (;;) {
                        char *at = strcasestr(buf, kw[k]);
                        const char *put = k == 0 ? job : k == 3 ? "" : num;
                        size_t pre, n;

                        if (!at)
                                break;
                        snprintf(num, sizeof(num), "%u", k == 1 ? jobnum : filenum);
                        pre = (size_t)(at - buf);
                        n = strlen(put);
                        if (pre + n >= left)
                                return -ENAMETOOLONG;   /* fio cuts the name */
                        at += strlen(kw[k]);
                        if (snprintf(next, sizeof(next), "%.*s%s%s", (int)pre, buf, put, at) >=
                            (int)sizeof(next))
                                return -ENAMETOOLONG;
                        left -= pre + n;
                        memcpy(buf, next, sizeof(buf));
                }
        return snprintf(out, len, "%s", buf) >= (int)len ? -ENAMETOOLONG : 0;
}

/*
 * The next entry of a ':' list with '\\:' escapes, into out, as fio's
 * get_next_str() reads it: a ':' where an entry would start is skipped, so
 * a list's empty entries are no entries (":a", "a::b"); the rest, or NULL
 * at the list's end.
 */
const char *bench_fio_next_part(const char *s, char *out, size_t len)
{
        size_t o = 0;

        while (*s == ':')
                s++;
        for (; *s && *s != ':'; s++) {
                if (s[0] == '\\' && s[1] == ':')
                        s++;
                if (o + 1 < len)
                        out[o++] = *s;
        }
        out[o] = '\0';
        return *s == ':' ? s + 1 : NULL;
}

/* fio's get_max_str_idx(): how many entries get_next_str() gives ("a:" one, ":" one, empty) */
unsigned bench_fio_count_parts(const char *s)
{
        char c;
        unsigned n = 0;

        for (const char *p = s; p && *p; n++)
                p = bench_fio_next_part(p, &c, 1);
        return n;
}

/* the files a filename= list adds (fio's str_filename_cb: an empty entry, at the end only, ends it) */
unsigned bench_fio_count_names(const char *s)
{
        char c[2];
        unsigned n = 0;

        for (const char *p = s; p && *p; n++) {
                p = bench_fio_next_part(p, c, sizeof(c));
                if (!c[0])
                        break;
        }
        return n;
}

void bench_fio_dir_entry(const char *dirs, unsigned k, char *out, size_t len)
{
        const char *p = dirs;

        k %= bench_fio_count_parts(dirs);
        for (unsigned i = 0; p && i <= k; i++)
                p = bench_fio_next_part(p, out, len);
}

int bench_fio_joined(const char *dir, const char *name, char *out, size_t len)
{
        int n = dir ? snprintf(out, len, "%s/%s", dir, name) : snprintf(out, len, "%s", name);

        return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* the directory part of path ("." for a bare name) */
void bench_fio_dir_part(const char *path, char *dir, size_t len)
{
        const char *slash = strrchr(path, '/');

        if (!slash)
                snprintf(dir, len, ".");
        else if (slash == path)
                snprintf(dir, len, "/");
        else
                snprintf(dir, len, "%.*s", (int)(slash - path), path);
}


int bench_fio_pattern_files(const char *key, const char *val, char ***files)
{
        if (!val || (strcmp(key, "buffer_pattern") && strcmp(key, "verify_pattern")))
                return 0;
        /* fio's parse_and_fill_pattern: "string" (no escape), 'file', numbers and %o between */
        for (const char *p = val; *p; p++) {
                const char *end;

                if (*p == '"') {
                        end = strchr(p + 1, '"');
                        if (!end)
                                return 0;
                        p = end;
                } else if (*p == '\'') {
                        end = strchr(p + 1, '\'');
                        if (!end)
                                return 0;       /* fio refuses the pattern */
                        if (end > p + 1 && ios_strv_pushf(files, "%.*s", (int)(end - p - 1), p + 1) < 0)
                                return -ENOMEM;
                        p = end;
                }
        }
        return 0;
}

int bench_fio_pattern_check(const char *path, const char **why)
{
        unsigned char magic[4] = "";
        struct stat st;
        int fd, r = 0;

        *why = NULL;
        if (stat(path, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode)) {
                *why = "is not a regular file";
                return 1;       /* not opened: a device's open may act (a tape rewinds) */
        }
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW);
        if (fd < 0 && errno == ELOOP)
                fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                *why = "is not a regular file";
        else if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
                *why = "is writable by another user than iosched-bench's (it must be root's, not group- or "
                       "world-writable)";
        else if (pread(fd, magic, sizeof(magic), 0) == (ssize_t)sizeof(magic) && !memcmp(magic, "\177ELF", 4))
                *why = "is a program or library (ELF), which fio could load";
        close(fd);
        return r < 0 ? r : *why ? 1 : 0;
}
