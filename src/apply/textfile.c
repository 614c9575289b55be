/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * textfile.c: --textfile FILE, the node_exporter textfile written in place.
 * Standard output goes to a new file of a random name in FILE's directory
 * (".FILE.XXXXXX", created O_EXCL, mode 0644: node_exporter reads only
 * *.prom, so it never sees a half-written one), which is renamed over FILE
 * at the end, whatever the exit status: a broken policy (exit 2,
 * iosched_policy_ok 0) must reach Prometheus like a compliant run.
 *
 * The directory is opened once, from / one component at a time with no
 * symbolic link followed, and every step is relative to that descriptor.  It must be root's and writable by no one else: in a directory
 * the prometheus user (or anyone) may write, the metrics could be replaced
 * between two runs and an alert silenced, and with a path it controls, a
 * root-run rename could be steered elsewhere.  A sticky world-writable
 * directory (/tmp) is refused too, for the first reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

const char *apply_textfile_requested(int argc, char **argv)
{
        const char *path = NULL;

        for (int i = 1; i < argc && !streq(argv[i], "--"); i++) {
                if (startswith(argv[i], "--textfile="))
                        path = argv[i] + strlen("--textfile=");
                else if (streq(argv[i], "--textfile") && i + 1 < argc)
                        path = argv[++i];
        }
        return path;
}

static int fail(char **ret_msg, int e, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char **ret_msg, int e, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        if (vasprintf(ret_msg, fmt, ap) < 0)
                *ret_msg = NULL;
        va_end(ap);
        return e;
}

/*
 * Open dir from / one component at a time, following no symbolic link (as
 * systemd's chase does): a link on the way is refused, so the directory
 * checked below is the one written in, whoever can swap a component
 * (/var/lib/prometheus is the prometheus user's on Debian).
 */
static int open_dir_nofollow(const char *path, const char *dir, char **ret_msg)
{
        _cleanup_free_ char *abs = NULL;
        int cur;

        if (dir[0] == '/')
                abs = strdup(dir);
        else {
                _cleanup_free_ char *cwd = getcwd(NULL, 0);

                if (!cwd)
                        return fail(ret_msg, -errno, "--textfile %s: cannot know the current directory: %s", path,
                                    ios_strerror(errno));
                if (asprintf(&abs, "%s/%s", cwd, dir) < 0)
                        abs = NULL;
        }
        if (!abs)
                return -ENOMEM;
        cur = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cur < 0)
                return fail(ret_msg, -errno, "--textfile %s: cannot open /: %s", path, ios_strerror(errno));
        for (char *p = abs, *next; *p; p = next) {
                struct stat st;
                int fd;

                while (*p == '/')
                        p++;
                next = p + strcspn(p, "/");
                if (*next)
                        *next++ = '\0';
                if (!*p || streq(p, "."))
                        continue;
                if (streq(p, "..")) {
                        close(cur);
                        return fail(ret_msg, -EINVAL, "--textfile %s: refused: a path with \"..\"", path);
                }
                fd = openat(cur, p, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                        int e = errno;
                        bool link = fstatat(cur, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);

                        close(cur);
                        if (link)
                                return fail(ret_msg, -ELOOP, "--textfile %s: refused: %s (in %s) is a symbolic link; "
                                            "the textfile's directory is opened without following links", path, p, dir);
                        return fail(ret_msg, -e, "--textfile %s: cannot open %s: %s", path, dir,
                                    ios_strerror(e));
                }
                close(cur);
                cur = fd;
        }
        return cur;
}

int apply_textfile_open(const char *path, struct apply_textfile *t, char **ret_msg)
{
        _cleanup_free_ char *dir = NULL;
        const char *base = strrchr(path, '/');
        struct stat st;
        int fd = -1;

        *t = (struct apply_textfile){ .dirfd = -1, .out = -1, .path = path };
        *ret_msg = NULL;
        base = base ? base + 1 : path;
        if (!*base || streq(base, ".") || streq(base, ".."))
                return fail(ret_msg, -EINVAL, "--textfile %s: not a file name", path);
        dir = base == path ? strdup(".") : base - 1 == path ? strdup("/") : strndup(path, (size_t)(base - 1 - path));
        if (!dir)
                return -ENOMEM;
        t->dirfd = open_dir_nofollow(path, dir, ret_msg);
        if (t->dirfd < 0)
                return t->dirfd;
        if (fstat(t->dirfd, &st) < 0)
                return fail(ret_msg, -errno, "--textfile %s: %s: %s", path, dir, ios_strerror(errno));
        if (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))
                return fail(ret_msg, -EPERM,
                            "--textfile %s: refused: %s is %s (mode %04o, owner uid %u); "
                            "the textfile goes in a directory only root can write",
                            path, dir, st.st_uid != 0 ? "not root's" : "writable by others",
                            (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
        t->base = strdup(base);
        if (!t->base)
                return -ENOMEM;
        for (int tries = 0; fd < 0 && tries < 100; tries++) {
                static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
                unsigned char rnd[6];
                char suffix[7];

                if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
                        return fail(ret_msg, -errno, "--textfile %s: getrandom: %s", path,
                                    ios_strerror(errno));
                for (size_t i = 0; i < sizeof(rnd); i++)
                        suffix[i] = chars[rnd[i] % (sizeof(chars) - 1)];
                suffix[6] = '\0';
                free(t->tmp);
                if (asprintf(&t->tmp, ".%s.%s", base, suffix) < 0) {
                        t->tmp = NULL;
                        return -ENOMEM;
                }
                fd = openat(t->dirfd, t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
                if (fd < 0 && errno != EEXIST)
                        return fail(ret_msg, -errno, "--textfile %s: cannot create %s/%s: %s", path, dir, t->tmp,
                                    ios_strerror(errno));
        }
        if (fd < 0)
                return fail(ret_msg, -EEXIST, "--textfile %s: no free temporary name in %s", path, dir);
        t->created = true;
        /* readable by node_exporter whatever the umask */
        if (fchmod(fd, 0644) < 0 || fflush(stdout) != 0 || (t->out = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)) < 0 ||
            dup2(fd, STDOUT_FILENO) < 0) {
                int e = errno;

                close(fd);
                return fail(ret_msg, -e, "--textfile %s: %s", path, ios_strerror(e));
        }
        close(fd);
        return 0;
}

/* What was no textfile (--help, --version) goes where standard output went. */
static void copy_out(struct apply_textfile *t)
{
        _cleanup_close_ int fd = openat(t->dirfd, t->tmp, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        char buf[4096];
        ssize_t n;

        while (fd >= 0 && t->out >= 0 && (n = read(fd, buf, sizeof(buf))) > 0)
                if (write(t->out, buf, (size_t)n) != n)
                        break;
}

int apply_textfile_commit(struct apply_textfile *t, bool keep, char **ret_msg)
{
        int e = 0;

        *ret_msg = NULL;
        if (!t->created)
                return 0;
        if (fflush(stdout) != 0 || ferror(stdout))
                e = fail(ret_msg, -EIO, "--textfile %s: write error", t->path);
        else if (keep && fsync(STDOUT_FILENO) < 0)
                e = fail(ret_msg, -errno, "--textfile %s: fsync: %s", t->path, ios_strerror(errno));
        else if (keep && renameat(t->dirfd, t->tmp, t->dirfd, t->base) < 0)
                e = fail(ret_msg, -errno, "--textfile %s: cannot rename %s over it: %s", t->path, t->tmp,
                         ios_strerror(errno));
        if (e == 0 && !keep)
                copy_out(t);
        if (e < 0 || !keep)
                (void)unlinkat(t->dirfd, t->tmp, 0);
        else
                (void)fsync(t->dirfd);
        t->created = false;
        /* standard output is standard output again */
        if (t->out >= 0 && dup2(t->out, STDOUT_FILENO) >= 0) {
                close(t->out);
                t->out = -1;
        }
        return e;
}

void apply_textfile_done(struct apply_textfile *t)
{
        if (t->created)
                (void)unlinkat(t->dirfd, t->tmp, 0);
        if (t->dirfd >= 0)
                close(t->dirfd);
        free(t->tmp);
        free(t->base);
        if (t->out >= 0)
                close(t->out);
        *t = (struct apply_textfile){ .dirfd = -1, .out = -1 };
}
