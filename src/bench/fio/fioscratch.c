/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioscratch.c: the run's scratch directories, the only places where the
 * fence lets fio make and remove files (sandbox.c).  A new file a job
 * names in directory D (filename=, directory=, fio's default names, a log
 * prefix, the verify state) is made by fio as the same name in
 * D/.iosched-bench.XXXXXX, which iosched-bench makes (mode 0700) on the
 * first such file in D and fiojob.c names in fio's command line: the same
 * filesystem, so the same disk is measured; D itself gets no right, so a
 * job cannot make, truncate or remove anything else in D or beneath it.
 * At the end the logs the job asked for are moved to D under the names
 * fio would have given them, each a regular file of one link with its mode
 * cut to read and write (tame()) (a regular file of that name is replaced, as
 * fio's own open would have, or, for a log of every job of the run,
 * named without a job number (per_job_logs=0), appended to, as fio opens
 * that one for appending; anything else there is left, said once), so
 * are the blocks fio dumped on a verify failure (verify_dump=1: named by
 * fio after the target and the offset, not by the job, so none replaces
 * what D has), and
 * the directory is removed whole, by handle: D is held (O_PATH) from the
 * start and the scratch directory is removed only while it is the one
 * made.  Each is told to the guard (guard.c), which removes it after a
 * kill -9.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fio.h"
#include "guard.h"
#include "grow.h"
#include "macro.h"
#include "strv.h"

#define SCRATCH_NAME ".iosched-bench."

struct bench_fio_scratch {
        char *dir;              /* D, resolved: where fio's files would be made */
        char *path;             /* D/.iosched-bench.XXXXXX */
        int dfd;                /* D (O_PATH), held from the start */
        dev_t dev;
        ino_t ino;              /* the scratch directory made */
        char **keep;            /* moved to D at the end: "=NAME", "_PREFIX" (its logs), "." (dumps) */
};

static struct bench_fio_scratch *find(const struct bench_fio *f, const char *dir)
{
        for (size_t i = 0; i < f->nscratch; i++)
                if (f->scratch[i].dir && f->scratch[i].path &&
                    (streq(f->scratch[i].dir, dir) || streq(f->scratch[i].path, dir)))
                        return &f->scratch[i];
        return NULL;
}

bool bench_fio_scratch_is(const struct bench_fio *f, const char *path)
{
        for (size_t i = 0; i < f->nscratch; i++)
                if (f->scratch[i].path && streq(f->scratch[i].path, path))
                        return true;
        return false;
}

/* A new directory named SCRATCH_NAME and six random characters beneath dfd, made there (mode 0700). */
static int make_in(int dfd, char *name, size_t len)
{
        static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

        for (int tries = 0; tries < 100; tries++) {
                unsigned char rnd[6];
                size_t n = (size_t)snprintf(name, len, SCRATCH_NAME);

                if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
                        return -errno;
                for (size_t i = 0; i < sizeof(rnd) && n + 1 < len; i++)
                        name[n++] = set[rnd[i] % (sizeof(set) - 1)];
                name[n] = '\0';
                if (mkdirat(dfd, name, 0700) == 0)
                        return 0;
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

int bench_fio_scratch_dir(struct bench_fio *f, const char *dir, const char **ret)
{
        struct bench_fio_scratch *s = find(f, dir), *v;
        char name[32];
        struct stat st;
        int r;

        if (s) {
                *ret = s->path;
                return 0;
        }
        v = ios_grow(f->scratch, &f->capscratch, f->nscratch + 1, sizeof(*v));
        if (!v)
                return -ENOMEM;
        f->scratch = v;
        s = &f->scratch[f->nscratch];
        /* made beneath the handle of dir, so that it is made where the handle is, whatever the path */
        *s = (struct bench_fio_scratch){ .dfd = open(dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) };
        if (s->dfd < 0)
                return -errno;
        r = make_in(s->dfd, name, sizeof(name));
        if (r >= 0 && fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                r = -errno;
        if (r < 0) {
                close(s->dfd);
                return r;
        }
        s->dev = st.st_dev;
        s->ino = st.st_ino;
        s->dir = strdup(dir);
        if (asprintf(&s->path, "%s%s%s", dir, streq(dir, "/") ? "" : "/", name) < 0)
                s->path = NULL;
        f->nscratch++;
        if (!s->dir || !s->path) {
                (void)unlinkat(s->dfd, name, AT_REMOVEDIR);
                return -ENOMEM;         /* the entry is freed by bench_fio_scratch_done() */
        }
        bench_guard_file(s->path, s->dfd, s->dev, s->ino, true);
        *ret = s->path;
        return 0;
}

int bench_fio_scratch_keep(struct bench_fio *f, const char *scratch, enum bench_fio_keep kind,
                           const char *name)
{
        static const char tag[] = { [BENCH_FIO_KEEP_NAME] = '=', [BENCH_FIO_KEEP_LOGS] = '_',
                                    [BENCH_FIO_KEEP_DUMPS] = '.' };
        struct bench_fio_scratch *s = find(f, scratch);
        _cleanup_free_ char *k = NULL;

        if (!s)
                return -ENOENT;
        if (asprintf(&k, "%c%s", tag[kind], kind == BENCH_FIO_KEEP_DUMPS ? "" : name) < 0)
                return -ENOMEM;
        return ios_strv_push(&s->keep, TAKE_PTR(k));
}

/* fio's name for a block it dumps (verify.c dump_buf()): TARGET.OFFSET.received, .expected or .hdr_fail */
static bool dump_name(const char *name)
{
        static const char * const kinds[] = { "received", "expected", "hdr_fail" };
        const char *type = strrchr(name, '.'), *off;

        if (!type || type == name)
                return false;
        off = type;
        while (off > name && off[-1] >= '0' && off[-1] <= '9')
                off--;
        if (off == type || off - 1 <= name || off[-1] != '.')
                return false;
        for (size_t i = 0; i < ELEMENTSOF(kinds); i++)
                if (streq(type + 1, kinds[i]))
                        return true;
        return false;
}

/*
 * fio's name for a log of prefix p (init.c gen_log_name()): P_TYPE.N.log of job N ('_'), P_TYPE.log of
 * every job together (per_job_logs=0: '+'), .log.fz for .log with log_store_compressed; 0: no other
 * file fio makes is one (a data file named P_1.log.0.1 stays the run's, removed with the directory).
 */
static char log_name(const char *name, const char *p)
{
        static const char * const types[] = { "lat", "slat", "clat", "clat_hist", "bw", "iops" };
        size_t pl = strlen(p);

        if (!startswith(name, p) || name[pl] != '_')
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(types); i++) {
                size_t tl = strlen(types[i]);
                const char *q = name + pl + 1 + tl;
                bool job = false;

                if (strncmp(name + pl + 1, types[i], tl) != 0 || *q++ != '.')
                        continue;
                if (*q >= '0' && *q <= '9') {   /* the job's number */
                        q += strspn(q, "0123456789");
                        if (*q++ != '.')
                                continue;
                        job = true;
                }
                if (streq(q, "log") || streq(q, "log.fz"))
                        return job ? '_' : '+';
        }
        return 0;
}

/* Is name one of fio's files the job asked for (moved out: its tag, '+' a log of all jobs), or the run's
 * own (removed: 0)? */
static char kept(const struct bench_fio_scratch *s, const char *name)
{
        char l;

        for (char **k = s->keep; k && *k; k++) {
                if (**k == '=' && streq(name, *k + 1))
                        return '=';
                if (**k == '_' && (l = log_name(name, *k + 1)))
                        return l;
                if (**k == '.' && dump_name(name))
                        return '.';
        }
        return 0;
}

/* The log in the scratch directory appended to D's of its name, as fio appends to it: 0 or -errno */
static int append_log(const struct bench_fio_scratch *s, int sfd, const char *name)
{
        int in = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), out, r = 0;
        struct stat st;
        char buf[65536];
        ssize_t n;

        if (in < 0)
                return -errno;
        out = openat(s->dfd, name, O_WRONLY | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (out < 0 || fstat(out, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = -EINVAL;    /* swapped since it was looked at: not written */
        if (r < 0) {
                if (out >= 0)
                        close(out);
                close(in);
                return r;
        }
        while (r == 0 && (n = read(in, buf, sizeof(buf))) != 0) {
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        r = -errno;
                for (ssize_t o = 0; r == 0 && o < n;) {
                        ssize_t w = write(out, buf + o, (size_t)(n - o));

                        if (w < 0 && errno != EINTR)
                                r = -errno;
                        o += w > 0 ? w : 0;
                }
        }
        close(in);
        if (close(out) < 0 && r == 0)
                r = -errno;
        return r;
}

/*
 * A file made in the fence, tamed before it leaves it: a regular file of
 * one link, its mode no more than read and write (fio makes its files
 * 0644 or 0666 less the umask; a program a job runs may have made one
 * setuid, and no file root makes in D outside the run may be): 0 or
 * -errno.
 */
static int tame(int sfd, const char *name)
{
        int fd = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), r = 0;
        struct stat st;

        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode) || st.st_nlink != 1)
                r = -EPERM;
        else if ((st.st_mode & 07777 & ~0666u) && fchmod(fd, st.st_mode & 0666) < 0)
                r = -errno;
        close(fd);
        return r;
}

/*
 * A log into D: over a regular file of its name (fio opens its logs so),
 * or appended to it (a log of all jobs), never over anything else; a dump
 * only where D has nothing of its name.
 */
static bool move_out(const struct bench_fio_scratch *s, int sfd, const char *name, char kind)
{
        const char *what = kind == '.' ? "verify dump" : "log";
        struct stat st;
        int r;

        r = tame(sfd, name);
        if (r < 0) {
                fprintf(stderr, "iosched-bench: note: fio's %s %s/%s not moved to %s: %s\n", what, s->path,
                        name, s->dir, r == -EPERM ? "not a file of one link" : ios_strerror(-r));
                return false;
        }
        if (kind != '.' && fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            !S_ISREG(st.st_mode)) {
                fprintf(stderr,
                        "iosched-bench: note: fio's %s %s/%s not moved to %s: %s there is not a file\n",
                        what, s->path, name, s->dir, name);
                return false;
        }
        if (kind == '+' && fstatat(s->dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
                r = append_log(s, sfd, name);
                if (r < 0)
                        fprintf(stderr, "iosched-bench: note: fio's log %s/%s not appended to %s/%s: %s\n",
                                s->path, name, s->dir, name, ios_strerror(-r));
                return r == 0;
        }
        r = kind == '.' ? renameat2(sfd, name, s->dfd, name, RENAME_NOREPLACE)
                        : renameat(sfd, name, s->dfd, name);
        if (r < 0)
                fprintf(stderr, "iosched-bench: note: fio's %s %s/%s not moved to %s: %s\n", what, s->path,
                        name, s->dir, ios_strerror(-errno));
        return r == 0;
}

/* Logs moved out, then everything else removed with the directory: only while it is the one made. */
static void remove_one(struct bench_fio_scratch *s)
{
        const char *name = strrchr(s->path, '/') + 1;
        int sfd = openat(s->dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), r;
        struct stat st;
        unsigned dumps = 0;
        DIR *d;

        if (sfd < 0 || fstat(sfd, &st) < 0 || st.st_dev != s->dev || st.st_ino != s->ino) {
                if (sfd >= 0)
                        close(sfd);
                return;         /* not ours any more: left where it is */
        }
        d = fdopendir(sfd);
        if (!d) {
                close(sfd);
                return;
        }
        for (struct dirent *de; s->keep && (de = readdir(d));) {
                char kind = kept(s, de->d_name);

                if (kind && fstatat(sfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
                        dumps += move_out(s, sfd, de->d_name, kind) && kind == '.';
        }
        closedir(d);
        if (dumps)
                fprintf(stderr, "iosched-bench: note: fio dumped %u block%s that failed verification in %s\n",
                        dumps, dumps > 1 ? "s" : "", s->dir);
        r = bench_remove_tree(s->dfd, name, s->dev, s->ino);
        if (r < 0)
                fprintf(stderr, "iosched-bench: note: cannot remove the run's scratch directory %s: %s\n",
                        s->path, ios_strerror(r));
}

void bench_fio_scratch_done(struct bench_fio *f)
{
        for (size_t i = 0; i < f->nscratch; i++) {
                struct bench_fio_scratch *s = &f->scratch[i];

                if (s->path) {
                        remove_one(s);
                        bench_guard_file_gone(s->path);
                }
                close(s->dfd);
                free(s->dir);
                free(s->path);
                ios_strv_free(s->keep);
        }
        free(f->scratch);
        f->scratch = NULL;
        f->nscratch = f->capscratch = 0;
}
