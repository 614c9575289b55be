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
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/openat2.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"

struct ios_ctx {
        char *prefix;           /* "" for the host */
        char *prefix_real;      /* realpath(prefix), to strip /proc/self/fd answers */
        int fd;
        bool host;
        unsigned probe;
        bool force_walk;        /* tests: resolve with the walk even where openat2 works */
        unsigned n_openat2, n_walk;     /* lookups each resolver answered */
        char failed_disk[64];           /* the disk that made the last enumeration fail */
        int hz;                         /* the root's kernel's CONFIG_HZ: 0 unknown, -1 not read yet */
};

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

/*
 * The portable fallback: resolve one component at a time with readlinkat()
 * relative to the root fd.  "out" is always canonical, so the kernel never
 * follows a symlink while we ask about the next component.
 */
int ios_ctx_realpath_walk(struct ios_ctx *r, const char *path, char **ret)
{
        char out[PATH_MAX] = "", rest[PATH_MAX], link[PATH_MAX], tmp[PATH_MAX];
        unsigned links = 0;
        size_t ol = 0;

        if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
                return -ENAMETOOLONG;

        for (char *p = rest; *p;) {
                char *comp, *slash;
                ssize_t n;

                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                comp = p;
                slash = strchr(p, '/');
                if (slash) {
                        *slash = '\0';
                        p = slash + 1;
                } else
                        p += strlen(p);

                if (streq(comp, "."))
                        continue;
                if (streq(comp, "..")) {
                        char *s = strrchr(out, '/');
                        if (s)
                                *s = '\0';
                        ol = strlen(out);
                        continue;
                }
                if (ol + 1 + strlen(comp) >= sizeof(out))
                        return -ENAMETOOLONG;
                out[ol] = '/';
                strcpy(out + ol + 1, comp);

                n = readlinkat(r->fd, out + 1, link, sizeof(link) - 1);
                if (n < 0) {
                        if (errno != EINVAL)
                                return -errno;
                        ol = strlen(out);       /* not a symlink: keep it */
                        continue;
                }
                if (++links > 40)
                        return -ELOOP;
                link[n] = '\0';
                out[ol] = '\0';                 /* drop the link itself */
                if (link[0] == '/') {
                        out[0] = '\0';
                        ol = 0;
                }
                if (snprintf(tmp, sizeof(tmp), "%s/%s", link, p) >= (int)sizeof(tmp))
                        return -ENAMETOOLONG;
                strcpy(rest, tmp);
                p = rest;
        }

        *ret = strdup(ol ? out : "/");
        return *ret ? 0 : -ENOMEM;
}

static int fd_path(struct ios_ctx *r, int fd, const char *path, char **ret);

/*
 * A lookup scoped with RESOLVE_IN_ROOT fails with EAGAIN when a rename or a
 * mount anywhere on the system raced one of its ".." steps (the kernel's
 * rename_lock and mount_lock seqcounts, fs/namei.c handle_dots()), and
 * openat2(2) leaves the retry to the caller.  Every sysfs link goes through
 * "..", and udevd renames files in /run/udev on every event, so on a busy
 * machine this is common and means nothing: try again.  The bound only
 * keeps a pathological rename storm from spinning forever; after it the
 * caller sees -EAGAIN, never a missing file.
 */
#define OPENAT2_TRIES 64

int ios_openat2_retry(int dirfd, const char *path, struct open_how *how)
{
        int fd;

        for (unsigned i = 1;; i++) {
                fd = (int)syscall(SYS_openat2, dirfd, path, how, sizeof(*how));
                if (fd >= 0 || errno != EAGAIN || i >= OPENAT2_TRIES)
                        return fd;
                if (i >= OPENAT2_TRIES / 2)
                        (void)sched_yield();    /* let the renamer finish its burst */
        }
}

/*
 * Set once openat2() answered ENOSYS (kernel before 5.6, or valgrind 3.19,
 * which does not know the system call) or EPERM (a seccomp filter): from
 * then on both resolvers below use their component walk, which gives the
 * same guarantee.  The unit tests force the walk as well, so both paths are
 * checked on every machine.
 */
static bool openat2_missing;

/*
 * IOSCHED_TEST_NO_OPENAT2=1 makes the programs resolve as on a kernel
 * without openat2, so the integration tests run the walk with the real
 * binaries too.  The walk gives the same guarantees: nothing is weakened.
 */
static bool walk_forced_by_env(void)
{
        static int forced = -1;

        if (forced < 0) {
                const char *v = getenv("IOSCHED_TEST_NO_OPENAT2");
                forced = v && streq(v, "1");
        }
        return forced;
}

bool ios_openat2_unusable(void)
{
        if (errno != ENOSYS && errno != EPERM)
                return false;
        openat2_missing = true;
        return true;
}

/* The only kind of file an attribute, a udev database entry or a policy file may be. */
int ios_fd_verify_regular(int fd)
{
        struct stat st;

        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISREG(st.st_mode))
                return 0;
        if (S_ISLNK(st.st_mode))
                return -ELOOP;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        return -EBADFD;         /* a FIFO, socket or device node */
}

const char *ios_strerror(int e)
{
        if (e == -EBADFD)
                return "not a regular file (a FIFO, socket or device node)";
        return strerror(e < 0 ? -e : e);
}

/* A data open: never blocks on a FIFO, never takes a controlling terminal. */
static bool is_data_open(int flags)
{
        return !(flags & (O_PATH | O_DIRECTORY));
}

int ios_open_checked(int (*open_once)(void *arg, const char *path, int flags), void *arg,
                     const char *path, int flags)
{
        int fd, e;

        if (!is_data_open(flags))
                return open_once(arg, path, flags);
        fd = open_once(arg, path, O_PATH);
        if (fd < 0)
                return fd;
        e = ios_fd_verify_regular(fd);
        close(fd);
        if (e < 0)
                return e;
        fd = open_once(arg, path, flags | O_NONBLOCK | O_NOCTTY);
        if (fd < 0)
                return fd;
        e = ios_fd_verify_regular(fd);
        if (e < 0) {
                close(fd);
                return e;
        }
        return fd;
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
 * Links inside the root are followed (sys/block/sdb, device); a file that
 * is read or written must be a regular file: it is looked at through an
 * O_PATH descriptor first (opening a device node can have effects of its
 * own), then opened non-blocking and checked again on the descriptor that
 * is used.
 */
static int open_in_root(struct ios_ctx *r, const char *path, int flags)
{
        return ios_open_checked(open_in_root_cb, r, path, flags);
}

bool ios_openat2_missing(void)
{
        return openat2_missing || walk_forced_by_env();
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
                        return -errno;
                }
                len += (size_t)n;
                if (n == 0 || (size_t)n < want)
                        break;          /* short read: end of a small file */
        }
        buf[len] = '\0';
        if (ret_len)
                *ret_len = len;
        *ret = TAKE_PTR(buf);
        return 0;
}

/*
 * A device keeps its sysfs directory open for its lifetime, so listing many
 * disks needs one descriptor each: a 2,000-disk JBOD passes the usual soft
 * limit of 1024.  Raise the soft limit to the hard one, as systemd's tools do.
 */
int ios_raise_nofile(void)
{
        struct rlimit rl;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
                return -errno;
        if (rl.rlim_cur >= rl.rlim_max)
                return 0;
        rl.rlim_cur = rl.rlim_max;
        return setrlimit(RLIMIT_NOFILE, &rl) < 0 ? -errno : 1;
}

/* The root's kernel release into buf: a captured tree's proc/sys/kernel/osrelease, else the host's. */
static int kernel_release(struct ios_ctx *r, char *buf, size_t n)
{
        _cleanup_free_ char *file = NULL;
        struct utsname u;

        if (ios_ctx_read_file(r, "/proc/sys/kernel/osrelease", &file, NULL) >= 0)
                snprintf(buf, n, "%.*s", (int)strcspn(file, "\n"), file);
        else if (ios_ctx_is_host(r) && uname(&u) == 0)
                snprintf(buf, n, "%s", u.release);
        else
                return -ENOENT;
        return 0;
}

int ios_ctx_kernel_version(struct ios_ctx *r, unsigned *major, unsigned *minor)
{
        char rel[128];

        if (kernel_release(r, rel, sizeof(rel)) < 0)
                return -ENOENT;
        if (sscanf(rel, "%u.%u", major, minor) != 2)
                return -EINVAL;
        return 0;
}

unsigned ios_ctx_hz(struct ios_ctx *r)
{
        _cleanup_free_ char *cfg = NULL, *path = NULL;
        char rel[128];
        const char *p;
        unsigned hz;

        if (r->hz >= 0)
                return (unsigned)r->hz;
        r->hz = 0;
        /* the kernel's build configuration, as Debian installs it beside the kernel: in
         * /boot up to 6.x, in the module tree from sid's 7.x (usr/lib/modules/RELEASE/config) */
        if (kernel_release(r, rel, sizeof(rel)) < 0 || !strchr(rel, '.') || strchr(rel, '/') ||
            asprintf(&path, "/boot/config-%s", rel) < 0)
                return 0;
        if (ios_ctx_read_file(r, path, &cfg, NULL) < 0) {
                free(path);
                if (asprintf(&path, "/usr/lib/modules/%s/config", rel) < 0)
                        path = NULL;
                if (!path || ios_ctx_read_file(r, path, &cfg, NULL) < 0)
                        return 0;
        }
        for (p = cfg; p && (p = strstr(p, "CONFIG_HZ=")); p++)
                if ((p == cfg || p[-1] == '\n') && sscanf(p, "CONFIG_HZ=%u", &hz) == 1 && hz >= 24 && hz <= 10000) {
                        r->hz = (int)hz;
                        break;
                }
        return (unsigned)r->hz;
}
