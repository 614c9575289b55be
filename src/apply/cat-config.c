/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cat-config.c: `iosched-apply cat-config`, the policy as it was read, as
 * systemd-analyze cat-config prints a configuration: the built-in rules,
 * then every file in the order read, each line prefixed with its source
 * ("built-in:5", "/etc/iosched.d/60-perc.conf:3": what explain and the
 * JSON "source" name), then the files skipped and why.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

static void print_lines(FILE *out, const char *name, const char *text)
{
        unsigned ln = 0;

        while (text && *text) {
                size_t l = strcspn(text, "\n");

                fprintf(out, "%s:%u: %.*s\n", name, ++ln, (int)l, text);
                text += l;
                if (*text == '\n')
                        text++;
        }
}

/* A file as it is now (read again: cat-config shows text, the policy is what was parsed). */
static int print_file(FILE *out, const char *path)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        size_t len = 0;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0 || fstat(fd, &st) < 0) {
                fprintf(out, "# %s: cannot read it again: %s\n", path, ios_strerror(errno));
                return 0;
        }
        if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3)) {
                fprintf(out, "# %s: masked (/dev/null)\n", path);
                return 0;
        }
        if (!S_ISREG(st.st_mode) || st.st_size > 1 << 20) {
                fprintf(out, "# %s: not a regular file of at most 1 MiB any more\n", path);
                return 0;
        }
        buf = malloc((size_t)st.st_size + 1);
        if (!buf)
                return -ENOMEM;
        while (len < (size_t)st.st_size) {
                ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;
                len += (size_t)n;
        }
        buf[len] = '\0';
        fprintf(out, "# %s\n", path);
        print_lines(out, path, buf);
        return 0;
}

static int cat_config(FILE *out, const struct ios_policy *p)
{
        const struct ios_error *errs;
        size_t nerr = 0;
        bool builtin = false;

        /* a policy without built-in rules (--no-builtin) has no built-in source */
        builtin = ios_policy_has_builtin(p);
        if (builtin) {
                fputs("# built-in (compiled into iosched)\n", out);
                print_lines(out, "built-in", ios_policy_builtin_text());
        }
        for (char * const *f = ios_policy_files(p); f && *f; f++) {
                int e;

                if (builtin || f != ios_policy_files(p))
                        fputc('\n', out);
                e = print_file(out, *f);
                if (e < 0)
                        return e;
        }
        errs = ios_policy_errors(p, &nerr);
        for (size_t i = 0; i < nerr; i++) {
                char where[300];

                fprintf(out, "\n# %s: skipped: %s\n", ios_error_where(&errs[i], where, sizeof(where)), errs[i].msg);
        }
        /* what was read with a note, and packaging leftovers beside the files */
        for (char * const *w = ios_policy_warnings(p); w && *w; w++)
                fprintf(out, "%s# warning: %s\n", w == ios_policy_warnings(p) ? "\n" : "", *w);
        return 0;
}

/* The files' text as it is, escaped: a control character in a policy file cannot drive the terminal. */
int apply_cat_config(FILE *out, const struct ios_policy *p)
{
        struct apply_text t;
        int e = apply_text_begin(&t);

        if (e < 0)
                return e;
        e = cat_config(t.f, p);
        if (apply_text_end(&t, out) < 0 && e >= 0)
                e = -ENOMEM;
        return e;
}
