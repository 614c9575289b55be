/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * root.c owns the root prefix: the running system ("/") or a captured tree
 * given with --sysroot.  Every path the library opens under sys/ or run/ is
 * resolved here, inside the root: openat2(RESOLVE_IN_ROOT) where the kernel
 * has it (5.6+), else a component walk that treats absolute symlink targets
 * and ".." at the top as the root itself, so a fake tree can never reach the
 * build machine's own /sys.  It also says which kernel the root runs.
 * beneath.c opens attributes below a disk's directory with the same
 * openat2-or-walk choice, made here once per process.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "root-internal.h"
#include "nodefree-internal.h"

#include "ctx-internal.h"
#include "grow.h"

void ios_ctx_set_failed_disk(struct ios_ctx *r, const char *name)
{
        snprintf(r->failed_disk, sizeof(r->failed_disk), "%s", name ? name : "");
}

const char *ios_ctx_failed_disk(const struct ios_ctx *r)
{
        return r->failed_disk[0] ? r->failed_disk : NULL;
}

void ios_ctx_set_probe(struct ios_ctx *r, unsigned flags)
{
        r->probe = flags;
}

unsigned ios_ctx_get_probe(const struct ios_ctx *r)
{
        return r->probe;
}

int ios_ctx_new(const char *prefix, struct ios_ctx **ret)
{
        struct ios_ctx *r;
        size_t l;

        r = calloc(1, sizeof(*r));
        if (!r)
                return -ENOMEM;
        r->fd = -1;
        r->hz = -1;
        r->root_nf = -1;
        for (int i = 0; i < NF_BASES; i++)
                r->base_fd[i] = r->base_nf[i] = -1;
        if (!prefix || !*prefix || streq(prefix, "/")) {
                r->host = true;
                r->prefix = strdup("");
                r->prefix_real = strdup("");
        } else {
                r->prefix = strdup(prefix);
                if (r->prefix) {
                        l = strlen(r->prefix);
                        while (l > 1 && r->prefix[l - 1] == '/')
                                r->prefix[--l] = '\0';
                }
                r->prefix_real = realpath(prefix, NULL);
                if (!r->prefix_real) {
                        int e = -errno;
                        ios_ctx_free(r);
                        return e;
                }
        }
        if (!r->prefix || !r->prefix_real) {
                ios_ctx_free(r);
                return -ENOMEM;
        }
        r->fd = open(r->host ? "/" : r->prefix_real, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (r->fd < 0) {
                int e = -errno;
                ios_ctx_free(r);
                return e;
        }
        *ret = r;
        return 0;
}

struct ios_ctx *ios_ctx_free(struct ios_ctx *r)
{
        if (!r)
                return NULL;
        if (r->fd >= 0)
                close(r->fd);
        for (int i = 0; i < NF_BASES; i++)
                if (r->base_fd[i] >= 0)
                        close(r->base_fd[i]);
        free(r->prefix);
        free(r->prefix_real);
        free(r);
        return NULL;
}

const char *ios_ctx_prefix(const struct ios_ctx *r)
{
        return r->prefix;
}

bool ios_ctx_is_host(const struct ios_ctx *r)
{
        return r->host;
}

static const char *rel(const char *path)
{
        while (*path == '/')
                path++;
        return *path ? path : ".";
}


static int fd_path(struct ios_ctx *r, int fd, const char *path, char **ret);

/* A data open: never blocks on a FIFO, never takes a controlling terminal. */
static bool is_data_open(int flags)
{
        return !(flags & (O_PATH | O_DIRECTORY));
}

static int open_in_root_once(struct ios_ctx *r, const char *path, int flags)
{
        struct open_how how = {
                .flags = (uint64_t)(flags | O_CLOEXEC),
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
        };
        int fd;

        if (!ios_openat2_missing() && !r->force_walk) {
                fd = ios_openat2_retry(r->fd, rel(path), &how);
                if (fd >= 0 || !ios_openat2_unusable()) {
                        r->n_openat2++;
                        return fd >= 0 ? fd : -errno;
                }
        }
        r->n_walk++;
        {
                _cleanup_free_ char *canon = NULL;
                int e = ios_ctx_realpath_walk(r, path, &canon);
                if (e < 0)
                        return e;
                fd = openat(r->fd, rel(canon), flags | O_CLOEXEC | O_NOFOLLOW);
                return fd < 0 ? -errno : fd;
        }
}

static int open_in_root_cb(void *arg, const char *path, int flags)
{
        return open_in_root_once(arg, path, flags);
}

/*
 * Where path can be opened on a mount without device nodes (nodefree.c):
 * below sys/ (sysfs) or run/ (a nodev tmpfs on Debian) when that is such
 * a mount, each looked at once, else the root itself when it is one (a
 * captured tree on a nodev mount).  Only mount roots are kept open: they
 * outlive ioschedd's context, where a directory below them (udev's
 * database) could be removed and made again.  Returns the base descriptor
 * with *path made relative to it and *resolve its scope, or -1.
 */
static int nf_base(struct ios_ctx *r, const char **path, uint64_t *resolve)
{
        static const char * const top[NF_BASES] = { "sys", "run" };
        const char *p = rel(*path);
        int i;

        if (r->force_walk || ios_openat2_missing())
                return -1;
        for (i = 0; i < NF_BASES; i++) {
                size_t l = strlen(top[i]);

                if (strncmp(p, top[i], l) == 0 && p[l] == '/' && p[l + 1])
                        break;
        }
        if (i < NF_BASES && r->base_nf[i] < 0) {
                int fd = open_in_root_once(r, top[i], O_PATH | O_DIRECTORY);

                r->base_nf[i] = fd >= 0 && ios_fs_node_free(fd) > 0;
                if (r->base_nf[i])
                        r->base_fd[i] = fd;
                else if (fd >= 0)
                        close(fd);
        }
        if (i < NF_BASES && r->base_nf[i] > 0) {
                *path = p + strlen(top[i]) + 1;   /* sysfs links are relative and stay in sys/ */
                *resolve = RESOLVE_BENEATH;
                return r->base_fd[i];
        }
        if (r->root_nf < 0)
                r->root_nf = ios_fs_node_free(r->fd) > 0;
        if (!r->root_nf)
                return -1;
        *path = p;
        *resolve = RESOLVE_IN_ROOT;
        return r->fd;
}

/*
 * Links inside the root are followed (sys/block/sdb, device); a file that
 * is read or written must be a regular file.  On a node-free mount it is
 * opened once (nodefree.c); elsewhere it is looked at through an O_PATH
 * descriptor first (opening a device node can have effects of its own),
 * then opened non-blocking and checked again on the descriptor that is used.
 */
/*
 * Open path with one openat2() below its node-free base (nf_base): the
 * descriptor, -ENOENT or -ENOTDIR, or -IOS_NF_SLOW for the checked path.
 */
static int open_nf(struct ios_ctx *r, const char *path, int flags, bool *ret_nf)
{
        const char *p = path;
        uint64_t resolve;
        int base = nf_base(r, &p, &resolve), fd = -IOS_NF_SLOW;

        if (base >= 0)
                fd = ios_open_node_free(base, p, flags, resolve);
        if (fd != -IOS_NF_SLOW)
                r->n_openat2++;
        *ret_nf = fd >= 0;
        return fd;
}

static int open_in_root(struct ios_ctx *r, const char *path, int flags)
{
        bool nf;
        int fd;

        if (is_data_open(flags) && (fd = open_nf(r, path, flags, &nf)) != -IOS_NF_SLOW)
                return fd;
        return ios_open_checked(open_in_root_cb, r, path, flags);
}

int ios_ctx_open_dir(struct ios_ctx *r, const char *path, char **ret_canon)
{
        bool nf = false;
        int fd, e;

        fd = open_nf(r, path, O_PATH | O_DIRECTORY, &nf);
        if (fd == -IOS_NF_SLOW)
                fd = open_in_root(r, path, O_PATH | O_DIRECTORY);
        if (fd < 0)
                return fd;
        if (ret_canon) {
                e = fd_path(r, fd, path, ret_canon);
                if (e < 0) {
                        close(fd);
                        return e;
                }
        }
        ios_dirfd_set_node_free(fd, nf);
        return fd;
}



void ios_ctx_force_walk(struct ios_ctx *r)
{
        r->force_walk = true;
}

void ios_ctx_resolver_counts(const struct ios_ctx *r, unsigned *openat2, unsigned *walk)
{
        *openat2 = r->n_openat2;
        *walk = r->n_walk;
}

int ios_ctx_open(struct ios_ctx *r, const char *path, int flags)
{
        assert(r && path);
        return open_in_root(r, path, flags);
}

int ios_ctx_realpath(struct ios_ctx *r, const char *path, char **ret)
{
        _cleanup_close_ int fd = open_in_root(r, path, O_PATH);

        if (fd < 0)
                return fd;
        return fd_path(r, fd, path, ret);
}

int ios_ctx_open_canon(struct ios_ctx *r, const char *path, int flags, char **ret_canon)
{
        _cleanup_close_ int fd = open_in_root(r, path, flags);
        int e;

        if (fd < 0)
                return fd;
        e = fd_path(r, fd, path, ret_canon);
        return e < 0 ? e : TAKE_FD(fd);
}

/* The canonical path (inside the root) of an fd that open_in_root() gave. */
static int fd_path(struct ios_ctx *r, int fd, const char *path, char **ret)
{
        char proc[64], buf[PATH_MAX];
        size_t pl;
        ssize_t n;
        snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
        n = readlink(proc, buf, sizeof(buf) - 1);
        if (n < 0 || n >= (ssize_t)sizeof(buf) - 1)
                return ios_ctx_realpath_walk(r, path, ret);   /* no /proc */
        buf[n] = '\0';
        pl = strlen(r->prefix_real);
        if (pl > 1) {
                if (strncmp(buf, r->prefix_real, pl) != 0 || (buf[pl] && buf[pl] != '/'))
                        return -EXDEV;  /* cannot happen with RESOLVE_IN_ROOT */
                *ret = strdup(buf[pl] ? buf + pl : "/");
        } else
                *ret = strdup(buf);
        return *ret ? 0 : -ENOMEM;
}

int ios_ctx_read_file(struct ios_ctx *r, const char *path, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap = 4096;

        fd = open_in_root(r, path, O_RDONLY);
        if (fd < 0)
                return fd;
        buf = malloc(cap);
        if (!buf)
                return -ENOMEM;
        for (;;) {
                ssize_t n;

                if (len + 1 >= cap) {
                        char *nb;
                        if (cap >= (1u << 24))
                                return -EFBIG;
                        nb = ios_grow(buf, &cap, cap + 1, 1);
                        if (!nb)
                                return -ENOMEM;
                        buf = nb;
                }
                size_t want = cap - len - 1;

                n = read(fd, buf + len, want);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        /* a FIFO on a node-free mount, opened once (nodefree.c) */
                        return errno == EAGAIN ? ios_fd_verify_regular(fd) ?: -EAGAIN : -errno;
                }
                len += (size_t)n;
                if (n == 0 || (size_t)n < want)
                        break;          /* short read: end of a small file */
        }
        if (len == 0) {
                int e = ios_fd_verify_regular(fd);     /* nothing read: a FIFO? */

                if (e < 0)
                        return e;
        }
        buf[len] = '\0';
        if (ret_len)
                *ret_len = len;
        *ret = TAKE_PTR(buf);
        return 0;
}
