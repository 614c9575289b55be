/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fionames.c: fio's names for a job's files (fiojob.c): filename_format's
 * keywords, ':'-separated lists with '\\:' escapes (filename=, directory=;
 * fio's get_next_str), clone N's directory (entry N mod the count), and
 * paths joined and split.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fioread.h"
#include "macro.h"

/* fio's filename_format: $jobname, $jobnum, $filenum (any case), $clientuid (none here) */
int bench_fio_format_name(const char *fmt, const char *job, unsigned jobnum, unsigned filenum, char *out, size_t len)
{
        size_t o = 0;

        if (!fmt || !*fmt)
                return snprintf(out, len, "%s.%u.%u", job, jobnum, filenum) >= (int)len ? -ENAMETOOLONG : 0;
        for (const char *p = fmt; *p && o + 1 < len;) {
                int n = 0;

                if (!strncasecmp(p, "$jobname", 8)) {
                        n = snprintf(out + o, len - o, "%s", job);
                        p += 8;
                } else if (!strncasecmp(p, "$jobnum", 7)) {
                        n = snprintf(out + o, len - o, "%u", jobnum);
                        p += 7;
                } else if (!strncasecmp(p, "$filenum", 8)) {
                        n = snprintf(out + o, len - o, "%u", filenum);
                        p += 8;
                } else if (!strncasecmp(p, "$clientuid", 10)) {
                        p += 10;
                } else
                        out[o++] = *p++, out[o] = '\0';
                o += (size_t)n;
        }
        return o + 1 >= len ? -ENAMETOOLONG : 0;
}

/* entry k of a ':' list with '\:' escapes (fio's get_next_str), into out */
const char *bench_fio_next_part(const char *s, char *out, size_t len)
{
        size_t o = 0;

        for (; *s && *s != ':'; s++) {
                if (s[0] == '\\' && s[1] == ':')
                        s++;
                if (o + 1 < len)
                        out[o++] = *s;
        }
        out[o] = '\0';
        return *s == ':' ? s + 1 : NULL;
}

unsigned bench_fio_count_parts(const char *s)
{
        unsigned n = 1;

        for (; *s; s++)
                if (s[0] == '\\' && s[1] == ':')
                        s++;
                else if (*s == ':')
                        n++;
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

