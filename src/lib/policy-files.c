/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * policy-files.c: where policy files come from, who may write them, and
 * what happens to one that cannot be used.  The built-in rules first, then
 * /etc/iosched.conf, then every *.conf of the vendor directory,
 * /etc/iosched.d and /run/iosched.d in file-name order (a later directory's
 * file masks an earlier one of the same name; a link to /dev/null masks
 * without replacing).  A file writable by group or others or not owned by
 * root is refused, and so is every file of such a directory.  A file that
 * cannot be read, is refused or does not parse gives no rule and is
 * recorded (ios_policy_errors); what it names is held (policy-hold.c).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "policy-internal.h"
#include "grow.h"
#include "strv.h"
#include "readfile.h"

#ifndef IOS_VENDOR_DIR
#define IOS_VENDOR_DIR "/usr/local/lib/iosched"
#endif



/*
 * Who could change a policy file: its owner, and whoever may write to a
 * directory on its path (they can rename or replace the entry below).  So
 * the file and every directory from / down to it are opened one component
 * at a time with O_NOFOLLOW, each checked on its open descriptor (fstat):
 * owned by root (unless IOS_POLICY_ANY_OWNER), not writable by group or
 * others.  A sticky directory such as /tmp may be writable by all: there
 * only an entry's owner may rename or remove it, so the entry below must
 * be root's.  A symbolic link anywhere on the path is refused, except a
 * policy file that is a link to /dev/null (it masks).  The file is read from
 * the descriptor that was checked, so it cannot be swapped in between.
 */
/* Why a directory (st) lets others change the entry (child) below it, or NULL. */
static const char *dir_unsafe(const struct stat *st, const struct stat *child, unsigned flags)
{
        if (st->st_uid != 0 && !(flags & IOS_POLICY_ANY_OWNER))
                return "is not owned by root";
        if (!(st->st_mode & (S_IWGRP | S_IWOTH)))
                return NULL;
        if (!(st->st_mode & S_ISVTX))
                return "is writable by group or others";
        if (child->st_uid != 0 && !(flags & IOS_POLICY_ANY_OWNER))
                return "is writable by others (sticky) and the entry below is not root's";
        return NULL;
}

/*
 * Open path (a file with final O_RDONLY, a directory with O_RDONLY|O_DIRECTORY)
 * through checked directories; what = "policy file" or "policy directory".
 * Returns the fd, or -errno with err set (-ENOENT unset: absent); *masked
 * when the file is a link to /dev/null (then -ENOENT too).
 */
static int open_policy_path(const char *path, int final, unsigned flags, const char *what,
                            struct ios_error *err, bool *masked, struct stat *ret_st)
{
        _cleanup_free_ char *abs = NULL;
        _cleanup_close_ int cur = -1;
        struct stat cst;
        char *p, *next;

        if (path[0] == '/')
                abs = strdup(path);
        else {
                _cleanup_free_ char *cwd = getcwd(NULL, 0);

                if (!cwd)
                        return ios_error_set(err, path, 0, -errno, "cannot know the current directory: %s",
                                             ios_strerror(errno));
                if (asprintf(&abs, "%s/%s", cwd, path) < 0)
                        abs = NULL;
        }
        if (!abs)
                return -ENOMEM;
        cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (cur < 0 || fstat(cur, &cst) < 0)
                return ios_error_set(err, path, 0, -errno, "cannot open /: %s", ios_strerror(errno));
        if (cst.st_uid != 0 && !(flags & IOS_POLICY_ANY_OWNER))
                return ios_error_set(err, path, 0, -EPERM, "refusing a %s: / is not owned by root", what);

        for (p = abs + 1; *p == '/'; p++)
                ;
        for (; *p; p = next) {
                char *slash = strchr(p, '/');
                bool last;
                struct stat st;
                const char *why;
                int fd;

                next = p + strlen(p);
                if (slash) {
                        *slash = '\0';
                        for (next = slash + 1; *next == '/'; next++)
                                ;
                }
                last = !*next;
                if (streq(p, ".")) {
                        if (slash)
                                *slash = '/';
                        continue;
                }
                if (streq(p, ".."))
                        return ios_error_set(err, path, 0, -EINVAL, "refusing a %s path with \"..\"", what);
                fd = openat(cur, p, (last ? final | O_NONBLOCK | O_NOCTTY : O_PATH | O_DIRECTORY) |
                            O_CLOEXEC | O_NOFOLLOW);
                if (fd < 0) {
                        int e = -errno;

                        if (fstatat(cur, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
                                char target[16];
                                ssize_t n = last && !(final & O_DIRECTORY) ?
                                        readlinkat(cur, p, target, sizeof(target) - 1) : -1;

                                if (n == 9 && memcmp(target, "/dev/null", 9) == 0 && !dir_unsafe(&cst, &st, flags)) {
                                        *masked = true;
                                        return -ENOENT;
                                }
                                /* abs ends at this component here */
                                return ios_error_set(err, path, 0, -ELOOP, "refusing a %s: %s is a symbolic link%s",
                                                     what, abs, last ? " (only a link to /dev/null masks a file)" : "");
                        }
                        if (e == -ENOENT || (e == -ENOTDIR && (final & O_DIRECTORY)))
                                return -ENOENT;         /* absent: not an error here */
                        return ios_error_set(err, path, 0, e, "cannot open: %s", ios_strerror(e));
                }
                if (fstat(fd, &st) < 0) {
                        int e = -errno;
                        close(fd);
                        return ios_error_set(err, path, 0, e, "cannot stat: %s", ios_strerror(e));
                }
                why = dir_unsafe(&cst, &st, flags);
                if (why) {
                        close(fd);
                        if (slash)
                                *slash = '/';
                        /* name the directory: abs up to p */
                        return ios_error_set(err, path, 0, -EPERM, "refusing a %s: directory %.*s %s (mode %04o, uid %u)",
                                             what, p == abs + 1 ? 1 : (int)(p - abs - 1), abs, why,
                                             (unsigned)(cst.st_mode & 07777), (unsigned)cst.st_uid);
                }
                if (slash)
                        *slash = '/';
                close(cur);
                cur = fd;
                cst = st;
        }
        if (ret_st)
                *ret_st = cst;          /* the descriptor's, as checked */
        return TAKE_FD(cur);
}

/*
 * Read one policy file from a checked descriptor, refusing what a non-root
 * user could have written.  *ret_text gets the text when it was read (for
 * what a file that does not parse holds), else stays NULL.
 */
static int load_file(struct ios_policy *p, const char *path, unsigned flags, struct ios_error *err,
                     char **ret_text)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        size_t len = 0;
        bool masked = false;
        int e;

        fd = open_policy_path(path, O_RDONLY, flags, "policy file", err, &masked, &st);
        if (masked)
                return 0;       /* masked with a link to /dev/null */
        if (fd == -ENOENT)
                return ios_error_set(err, path, 0, -ENOENT, "cannot open: %s", ios_strerror(ENOENT));
        if (fd < 0)
                return fd;
        if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3))
                return 0;       /* /dev/null itself */
        if (!S_ISREG(st.st_mode))
                return ios_error_set(err, path, 0, -EINVAL, "not a regular file");
        if (st.st_mode & (S_IWGRP | S_IWOTH))
                return ios_error_set(err, path, 0, -EPERM, "refusing a policy file writable by group or others (mode %04o)",
                            (unsigned)(st.st_mode & 07777));
        if (st.st_uid != 0 && !(flags & IOS_POLICY_ANY_OWNER))
                return ios_error_set(err, path, 0, -EPERM, "refusing a policy file not owned by root (uid %u)",
                            (unsigned)st.st_uid);
        if (st.st_size > IOS_POLICY_FILE_MAX)
                return ios_error_set(err, path, 0, -EFBIG, "policy file larger than %u KiB",
                                     IOS_POLICY_FILE_MAX / 1024);
        /* read to the end from this descriptor: a file that grew since fstat is still bounded */
        e = ios_read_fd_sized(fd, IOS_POLICY_FILE_MAX, st.st_size, &buf, &len);
        if (e == -EFBIG)
                return ios_error_set(err, path, 0, -EFBIG, "policy file larger than %u KiB",
                                     IOS_POLICY_FILE_MAX / 1024);
        if (e == -ENOMEM)
                return e;
        if (e < 0)
                return ios_error_set(err, path, 0, e, "cannot read: %s", ios_strerror(e));
        if (strlen(buf) != len)
                return ios_error_set(err, path, 0, -EINVAL, "policy file contains a NUL byte");
        e = ios_policy_parse(p, path, buf, err);
        if (e < 0 && e != -ENOMEM)
                *ret_text = TAKE_PTR(buf);
        return e;
}

/*
 * Remember a file (or directory) that gives no rule, and what it holds
 * (policy-hold.c): from its text when it was read, else everything.
 * ENOMEM is not such an error.
 */
static int add_error(struct ios_policy *p, int code, const struct ios_error *err, const char *text)
{
        struct ios_error *n;

        if (code == -ENOMEM)
                return code;
        n = ios_grow(p->errors, &p->caperrors, p->nerrors + 1, sizeof(*n));
        if (!n)
                return -ENOMEM;
        p->errors = n;
        p->errors[p->nerrors] = *err;
        p->errors[p->nerrors].code = code;
        p->errors[p->nerrors].holds_all = false;
        p->nerrors++;
        return ios_policy_hold(p, err->file, text, p->nerrors - 1);
}

const struct ios_error *ios_policy_errors(const struct ios_policy *p, size_t *ret_n)
{
        *ret_n = p->nerrors;
        return p->errors;
}

char * const *ios_policy_warnings(const struct ios_policy *p)
{
        return p->warnings;
}

/* A drop-in found: its name, full path, and the rank of its directory (later masks earlier). */
struct found {
        const char *name;       /* inside path */
        char *path;
        size_t dir;
};

static int cmp_found(const void *a, const void *b)
{
        const struct found *x = a, *y = b;
        int c = strcmp(x->name, y->name);

        return c ? c : x->dir < y->dir ? -1 : x->dir > y->dir;
}

/*
 * Collect *.conf from the drop-in directories; a later directory's file
 * replaces an earlier one of the same name.  Returns full paths sorted by
 * file name.  One sort over everything found, then one pass keeping the
 * last directory's file of each name: O(n log n) for n drop-ins (tens of
 * thousands are read on every udev event).
 */
/* NAME.conf.dpkg-dist and its kin: what dpkg, rpm and ucf leave beside a changed configuration file. */
static bool packaging_leftover(const char *name)
{
        static const char * const suffixes[] = { ".dpkg-dist", ".dpkg-new", ".dpkg-old", ".dpkg-bak", ".rpmnew",
                                                 ".rpmsave", ".rpmorig", ".ucf-dist", ".ucf-new", ".ucf-old" };
        const char *conf = strstr(name, ".conf.");

        for (size_t i = 0; conf && i < ELEMENTSOF(suffixes); i++)
                if (streq(conf + strlen(".conf"), suffixes[i]))
                        return true;
        return false;
}

static int collect(char * const *dirs, unsigned flags, struct ios_policy *p, char ***ret)
{
        struct ios_error err;
        _cleanup_free_ struct found *v = NULL;
        size_t nv = 0, cap = 0, rank = 0;
        char **out = NULL;
        int e = 0;

        for (char * const *dp = dirs; dp && *dp; dp++, rank++) {
                _cleanup_(ios_strv_freep) char **list = NULL;
                const char *dir = *dp;
                _cleanup_close_ int fd = -1;
                struct stat st;
                bool masked = false;

                fd = open_policy_path(dir, O_RDONLY | O_DIRECTORY, flags, "policy directory", &err, &masked,
                                      &st);
                if (fd == -ENOENT)
                        continue;
                if (fd == -ENOMEM) {
                        e = fd;
                        goto fail;
                }
                if (fd < 0) {
                        e = add_error(p, fd, &err, NULL);
                        fd = -1;
                        if (e < 0)
                                goto fail;
                        continue;
                }
                /* whoever may add or replace files here writes the policy */
                if ((st.st_mode & (S_IWGRP | S_IWOTH)) ||
                    (st.st_uid != 0 && !(flags & IOS_POLICY_ANY_OWNER))) {
                        e = add_error(p, ios_error_set(&err, dir, 0, -EPERM, "refusing a policy directory "
                                              "writable by others or not owned by root: its files are skipped"),
                                      &err, NULL);
                        if (e < 0)
                                goto fail;
                        continue;
                }
                e = ios_sysfs_list(fd, ".", &list);
                if (e < 0) {
                        e = add_error(p, ios_error_set(&err, dir, 0, e, "cannot read: %s", ios_strerror(e)),
                                      &err, NULL);
                        if (e < 0)
                                goto fail;
                        continue;
                }
                for (char **nm = list; *nm; nm++) {
                        char *full;

                        if (fnmatch(IOS_POLICY_DROPIN_GLOB, *nm, FNM_PERIOD) != 0) {
                                /* a packaged default the admin has not merged: said on every run */
                                char *w = NULL;

                                if (!packaging_leftover(*nm))
                                        continue;
                                if (asprintf(&w, "%s/%s: skipped: a packaging leftover (only %s files are read); "
                                             "merge it into the .conf file or remove it", dir, *nm,
                                             IOS_POLICY_DROPIN_GLOB) < 0 ||
                                    ios_strv_push_fast(&p->warnings, &p->nwarnings, &p->capwarnings, w) < 0) {
                                        e = -ENOMEM;
                                        goto fail;
                                }
                                continue;
                        }
                        {
                                struct found *n = ios_grow(v, &cap, nv + 1, sizeof(*n));

                                if (!n) {
                                        e = -ENOMEM;
                                        goto fail;
                                }
                                v = n;
                        }
                        if (asprintf(&full, "%s/%s", dir, *nm) < 0) {
                                e = -ENOMEM;
                                goto fail;
                        }
                        v[nv++] = (struct found){ full + strlen(dir) + 1, full, rank };
                }
        }
        if (nv)
                qsort(v, nv, sizeof(*v), cmp_found);
        out = calloc(nv + 1, sizeof(char *));
        if (!out) {
                e = -ENOMEM;
                goto fail;
        }
        for (size_t i = 0, k = 0; i < nv; i++) {
                if (i + 1 < nv && streq(v[i].name, v[i + 1].name)) {
                        free(v[i].path);        /* masked by a later directory's file */
                        continue;
                }
                out[k++] = v[i].path;
        }
        *ret = out;
        return 0;
fail:
        for (size_t i = 0; i < nv; i++)
                free(v[i].path);
        return e;
}

/* The one list of where policy files are: ios_policy_load() and ioschedd's watch read it. */
int ios_policy_search_paths(const char *conf_root, const char *file, char ***ret_files, char ***ret_dirs)
{
        static const char * const dirs[] = { IOS_VENDOR_DIR, "/etc/iosched.d", "/run/iosched.d" };
        _cleanup_(ios_strv_freep) char **f = NULL, **d = NULL;
        const char *root = conf_root ? conf_root : "";
        int rl = (int)strlen(root), e;

        while (rl > 0 && root[rl - 1] == '/')
                rl--;           /* "/" is "", "/x/" is "/x" */

        f = calloc(1, sizeof(char *));
        d = calloc(1, sizeof(char *));
        if (!f || !d)
                return -ENOMEM;
        if (file)
                e = ios_strv_push(&f, strdup(file));
        else {
                e = ios_strv_pushf(&f, "%.*s/etc/iosched.conf", rl, root);
                for (size_t i = 0; e >= 0 && i < ELEMENTSOF(dirs); i++)
                        e = ios_strv_pushf(&d, "%.*s%s", rl, root, dirs[i]);
        }
        if (e < 0)
                return e;
        *ret_files = TAKE_PTR(f);
        *ret_dirs = TAKE_PTR(d);
        return 0;
}

int ios_policy_load(const char *conf_root, const char *file, unsigned flags,
                    struct ios_policy **ret, struct ios_error *err)
{
        return ios_policy_load_dropins(conf_root, file, flags, NULL, 0, ret, err);
}

int ios_policy_load_dropins(const char *conf_root, const char *file, unsigned flags,
                            const struct ios_dropin *ov, size_t nov, struct ios_policy **ret, struct ios_error *err)
{
        _cleanup_(ios_strv_freep) char **files = NULL;
        size_t nfiles = 0, capfiles = 0, nread = 0, capread = 0;
        struct ios_policy *p;
        int e;

        if (err)
                *err = (struct ios_error){};
        /* a configuration root that is not there is a typo, never "no policy files" */
        if (conf_root && *conf_root && !file) {
                struct stat st;

                if (stat(conf_root, &st) < 0)
                        return ios_error_set(err, conf_root, 0, -errno, "cannot use the configuration root: %s",
                                             ios_strerror(errno));
                if (!S_ISDIR(st.st_mode))
                        return ios_error_set(err, conf_root, 0, -ENOTDIR,
                                             "cannot use the configuration root: not a directory");
        }
        if (flags & IOS_POLICY_NO_BUILTIN) {
                p = calloc(1, sizeof(*p));
                e = p ? 0 : -ENOMEM;
        } else
                e = ios_policy_new_builtin(&p);
        if (e < 0)
                return e;

        {
                _cleanup_(ios_strv_freep) char **named = NULL, **dirs = NULL, **dropins = NULL;

                e = ios_policy_search_paths(conf_root, file, &named, &dirs);
                /* a file asked for by name is read (or its error said); /etc/iosched.conf if there */
                for (char **f = named; e >= 0 && f && *f; f++) {
                        struct stat st;

                        if (file || stat(*f, &st) == 0)
                                e = ios_strv_push_fast(&files, &nfiles, &capfiles, strdup(*f));
                }
                if (e >= 0)
                        e = collect(dirs, flags, p, &dropins);
                if (e >= 0 && nov && !file)     /* --drop-in NAME=FILE (policy-dropin.c) */
                        e = ios_dropins_override(&dropins, ov, nov);
                for (char **f = dropins; e >= 0 && f && *f; f++)
                        e = ios_strv_push_fast(&files, &nfiles, &capfiles, strdup(*f));
        }
        /* a file that cannot be used gives no rule but holds what it names; the others still count */
        for (char **f = files; e >= 0 && f && *f; f++) {
                struct ios_error fe = {};
                _cleanup_free_ char *text = NULL;

                e = load_file(p, *f, flags, &fe, &text);
                if (e >= 0)
                        e = ios_strv_push_fast(&p->files, &nread, &capread, strdup(*f));
                else
                        e = add_error(p, e, &fe, text);
        }
        if (e < 0) {
                ios_policy_free(p);
                return e;
        }
        if (err && p->nerrors)
                *err = p->errors[0];
        *ret = p;
        return 0;
}
