/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fault.c: an LD_PRELOAD shim that fails the N-th call of one kind, once.
 *
 *   IOS_FAULT=KIND:N[:ERRNO]   KIND: alloc (malloc, calloc, realloc, strdup,
 *                              strndup together), malloc, calloc, realloc,
 *                              strdup, open (open, openat, their 64
 *                              variants, and openat2 through syscall()),
 *                              read, write, close
 *   IOS_FAULT_HIT=FILE         created when the fault is injected, so that a
 *                              driver knows when N has passed the last call
 *   IOS_FAULT_COUNT=FILE       at exit, the number of calls of KIND written
 *                              there (IOS_FAULT=KIND:0 counts without failing)
 *
 *   IOS_FAULT_NO_OPENAT2=1     every openat2 answers ENOSYS, as on a kernel
 *                              before 5.6 (or under valgrind 3.19): the
 *                              programs resolve with their component walk
 *   IOS_FAULT_BUSY=ATTR:N[,ATTR:N]
 *                              the first N writes to each sysfs file ending
 *                              in /ATTR (queue/scheduler, queue/nr_requests)
 *                              fail with EBUSY, as kernel 7.x answers while
 *                              another disk of the tag set holds its lock;
 *                              N "always": every write
 *   IOS_FAULT_KILL=ATTR:N      the N-th write to a sysfs file ending in /ATTR
 *                              is made, then the process kills itself
 *                              (SIGKILL): a kill -9 at that very point (a
 *                              process forked before counts on its own)
 *   IOS_FAULT_NO_CGROUP=1      opening a cgroup's cgroup.procs for writing
 *                              fails with EACCES, as where cgroup v2 is not
 *                              delegated: iosched-bench's run has no cgroup
 *   IOS_FAULT_UDEV_DATA=DIR    a read of udev's database file of a device,
 *                              .../udev/data/bMAJ:MIN, reads DIR/bMAJ:MIN
 *                              instead where that exists: a loop device
 *                              gets the identity (ID_MODEL, ID_SERIAL_SHORT,
 *                              ID_WWN) a test gives it, where no udevd runs
 *   IOS_FAULT_ANY_OWNER=1      every stat (stat, lstat, fstat, fstatat and
 *                              their 64 variants) says the file is root's:
 *                              policy files unpacked from a tarball or in a
 *                              checkout pass the root-ownership check
 *
 * These stand in for test hooks the programs themselves do not have.
 * A failed allocation returns NULL with ENOMEM; open returns -1 with EMFILE,
 * read, write and close -1 with EIO (close still closes: the kernel does), or
 * with ERRNO when given (a number or EACCES, ENOSPC, EROFS, ENOENT, ENODEV,
 * EINTR, EAGAIN).  Calls are counted from the start of the process, glibc's
 * own included.  Loaded before an ASan runtime
 * (ASAN_OPTIONS=verify_asan_link_order=0), the real calls are ASan's, so its
 * leak checker still sees every allocation.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

enum kind { K_NONE, K_ALLOC, K_MALLOC, K_CALLOC, K_REALLOC, K_STRDUP, K_OPEN, K_READ, K_WRITE, K_CLOSE };

static enum kind want = K_NONE;
static unsigned long target, count;
static int fail_errno;
static bool inited, parsed, hit, no_openat2, any_owner, no_cgroup;
/* IOS_FAULT_BUSY: up to 4 attributes, each with the writes still to fail */
static struct { char attr[64]; unsigned long left; } busy[4];
static unsigned nbusy;
static const char *hit_file;

/* calloc for dlsym before the real one is known, never freed */
static char boot[8192];
static size_t boot_used;

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static char *(*real_strdup)(const char *);
static char *(*real_strndup)(const char *, size_t);
static int (*real_open)(const char *, int, ...);
static int (*real_open64)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_openat64)(int, const char *, int, ...);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static int (*real_close)(int);
static long (*real_syscall)(long, ...);

static int errno_of(const char *s, int dflt)
{
        static const struct { const char *n; int e; } names[] = {
                { "EACCES", EACCES }, { "ENOSPC", ENOSPC }, { "EROFS", EROFS }, { "ENOENT", ENOENT },
                { "ENODEV", ENODEV }, { "EINTR", EINTR }, { "EAGAIN", EAGAIN }, { "EIO", EIO },
                { "ENOMEM", ENOMEM }, { "EMFILE", EMFILE }, { "EPERM", EPERM }, { "EINVAL", EINVAL },
        };
        if (!s || !*s)
                return dflt;
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                if (!strcmp(s, names[i].n))
                        return names[i].e;
        return atoi(s) > 0 ? atoi(s) : dflt;
}

static void init(void)
{
        if (inited)
                return;
        inited = true;
        real_calloc = dlsym(RTLD_NEXT, "calloc");
        real_malloc = dlsym(RTLD_NEXT, "malloc");
        real_realloc = dlsym(RTLD_NEXT, "realloc");
        real_free = dlsym(RTLD_NEXT, "free");
        real_strdup = dlsym(RTLD_NEXT, "strdup");
        real_strndup = dlsym(RTLD_NEXT, "strndup");
        real_open = dlsym(RTLD_NEXT, "open");
        real_open64 = dlsym(RTLD_NEXT, "open64");
        real_openat = dlsym(RTLD_NEXT, "openat");
        real_openat64 = dlsym(RTLD_NEXT, "openat64");
        real_read = dlsym(RTLD_NEXT, "read");
        real_write = dlsym(RTLD_NEXT, "write");
        real_close = dlsym(RTLD_NEXT, "close");
        real_syscall = dlsym(RTLD_NEXT, "syscall");
}

/* "queue/scheduler:3,queue/nr_requests:always" into busy[] */
static void parse_busy(const char *spec)
{
        while (spec && *spec && nbusy < sizeof(busy) / sizeof(busy[0])) {
                const char *colon = strchr(spec, ':'), *end = strchr(spec, ',');
                size_t l;

                if (!colon || (end && end < colon))
                        return;
                l = (size_t)(colon - spec);
                if (l == 0 || l >= sizeof(busy[0].attr))
                        return;
                memcpy(busy[nbusy].attr, spec, l);
                busy[nbusy].attr[l] = '\0';
                if (!strncmp(colon + 1, "always", 6))
                        busy[nbusy].left = (unsigned long)-1;
                else
                        busy[nbusy].left = strtoul(colon + 1, NULL, 10);
                nbusy++;
                spec = end ? end + 1 : NULL;
        }
}

/* Whether fd is a file whose path ends in /attr. */
static bool fd_is(int fd, const char *attr)
{
        char link[64], path[4096];
        size_t la = strlen(attr);
        ssize_t n;

        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        n = readlink(link, path, sizeof(path) - 1);
        if (n <= 0)
                return false;
        path[n] = '\0';
        return (size_t)n > la && path[n - (ssize_t)la - 1] == '/' && !strcmp(path + n - la, attr);
}

/* Whether this write to fd is one IOS_FAULT_BUSY fails. */
static bool busy_now(int fd)
{
        for (unsigned i = 0; i < nbusy; i++)
                if (busy[i].left && fd_is(fd, busy[i].attr)) {
                        if (busy[i].left != (unsigned long)-1)
                                busy[i].left--;
                        return true;
                }
        return false;
}

/* IOS_FAULT_KILL: "ATTR:N" */
static struct { char attr[64]; unsigned long left; } killat;

static void parse_kill(const char *spec)
{
        const char *colon = spec ? strrchr(spec, ':') : NULL;
        size_t l = colon ? (size_t)(colon - spec) : 0;

        if (!colon || l == 0 || l >= sizeof(killat.attr))
                return;
        memcpy(killat.attr, spec, l);
        killat.attr[l] = '\0';
        killat.left = strtoul(colon + 1, NULL, 10);
}

/* The spec, once the environment is there (an ASan runtime calls us before). */
static void parse_spec(void)
{
        static const struct { const char *n; enum kind k; int e; } kinds[] = {
                { "alloc", K_ALLOC, ENOMEM }, { "malloc", K_MALLOC, ENOMEM }, { "calloc", K_CALLOC, ENOMEM },
                { "realloc", K_REALLOC, ENOMEM }, { "strdup", K_STRDUP, ENOMEM }, { "open", K_OPEN, EMFILE },
                { "read", K_READ, EIO }, { "write", K_WRITE, EIO }, { "close", K_CLOSE, EIO },
        };
        extern char **environ;
        const char *spec;

        if (parsed || !environ)
                return;
        parsed = true;
        spec = getenv("IOS_FAULT");
        hit_file = getenv("IOS_FAULT_HIT");
        no_openat2 = getenv("IOS_FAULT_NO_OPENAT2") && !strcmp(getenv("IOS_FAULT_NO_OPENAT2"), "1");
        any_owner = getenv("IOS_FAULT_ANY_OWNER") && !strcmp(getenv("IOS_FAULT_ANY_OWNER"), "1");
        no_cgroup = getenv("IOS_FAULT_NO_CGROUP") && !strcmp(getenv("IOS_FAULT_NO_CGROUP"), "1");
        parse_busy(getenv("IOS_FAULT_BUSY"));
        parse_kill(getenv("IOS_FAULT_KILL"));
        if (!spec)
                return;
        for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
                size_t l = strlen(kinds[i].n);
                if (!strncmp(spec, kinds[i].n, l) && spec[l] == ':') {
                        char *end;
                        want = kinds[i].k;
                        target = strtoul(spec + l + 1, &end, 10);
                        fail_errno = errno_of(*end == ':' ? end + 1 : NULL, kinds[i].e);
                }
        }
}

__attribute__((destructor)) static void write_count(void)
{
        const char *f = getenv("IOS_FAULT_COUNT");
        char buf[32];
        int n = 0;
        long fd;

        if (!f || want == K_NONE)
                return;
        for (unsigned long c = count; ; c /= 10) {
                buf[sizeof(buf) - 2 - n++] = (char)('0' + c % 10);
                if (c < 10)
                        break;
        }
        buf[sizeof(buf) - 1] = '\n';
        fd = syscall(SYS_openat, AT_FDCWD, f, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd >= 0) {
                syscall(SYS_write, fd, buf + sizeof(buf) - 1 - n, (size_t)n + 1);
                syscall(SYS_close, fd);
        }
}

/* Whether this call of kind k is the one to fail. */
static bool fail(enum kind k)
{
        bool alloc = k == K_MALLOC || k == K_CALLOC || k == K_REALLOC || k == K_STRDUP;

        if (!inited)
                init();
        if (!parsed)
                parse_spec();
        if (hit || want == K_NONE || !(want == k || (want == K_ALLOC && alloc)))
                return false;
        if (++count != target || target == 0)
                return false;
        hit = true;
        if (hit_file) {
                long fd = syscall(SYS_openat, AT_FDCWD, hit_file, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
                if (fd >= 0)
                        syscall(SYS_close, fd);
        }
        return true;
}

void *malloc(size_t n)
{
        if (fail(K_MALLOC)) {
                errno = ENOMEM;
                return NULL;
        }
        return real_malloc(n);
}

void *calloc(size_t n, size_t m)
{
        if (!real_calloc) {
                /* dlsym's own calloc, before we know the real one */
                size_t want_b = (n * m + 15) & ~(size_t)15;
                if (inited && !real_calloc && boot_used + want_b <= sizeof(boot)) {
                        void *p = boot + boot_used;
                        boot_used += want_b;
                        return p;
                }
                init();
                if (!real_calloc)
                        return NULL;
        }
        if (fail(K_CALLOC)) {
                errno = ENOMEM;
                return NULL;
        }
        return real_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
        if (fail(K_REALLOC)) {
                errno = ENOMEM;
                return NULL;
        }
        return real_realloc(p, n);
}

void free(void *p)
{
        if ((char *)p >= boot && (char *)p < boot + sizeof(boot))
                return;
        if (!inited)
                init();
        real_free(p);
}

char *strdup(const char *s)
{
        if (fail(K_STRDUP)) {
                errno = ENOMEM;
                return NULL;
        }
        return real_strdup(s);
}

char *strndup(const char *s, size_t n)
{
        if (fail(K_STRDUP)) {
                errno = ENOMEM;
                return NULL;
        }
        return real_strndup(s, n);
}

#define OPEN_MODE(flags, mode) do {                                     \
                va_list ap;                                             \
                va_start(ap, flags);                                    \
                if ((flags) & (O_CREAT | O_TMPFILE))                    \
                        mode = va_arg(ap, int);                         \
                va_end(ap);                                             \
        } while (0)

/* IOS_FAULT_UDEV_DATA: the test's file for a read of udev/data/bM:N, or -1 (no such file: the real open) */
static int udev_data(const char *path, int flags)
{
        const char *dir = getenv("IOS_FAULT_UDEV_DATA"), *p = path ? strstr(path, "udev/data/b") : NULL;
        char alt[4096];

        if (!inited)
                init();
        if (!dir || !p || (flags & O_ACCMODE) != O_RDONLY || strchr(p + 10, '/') ||
            (p != path && p[-1] != '/'))
                return -1;
        if ((size_t)snprintf(alt, sizeof(alt), "%s/%s", dir, p + 10) >= sizeof(alt))
                return -1;
        return (int)real_syscall(SYS_openat, AT_FDCWD, alt, O_RDONLY | O_CLOEXEC, 0, 0, 0);
}

/* IOS_FAULT_NO_CGROUP: a write open of a cgroup's cgroup.procs */
static bool cgroup_refused(const char *path, int flags)
{
        size_t n = path ? strlen(path) : 0;

        parse_spec();
        return no_cgroup && (flags & O_ACCMODE) != O_RDONLY && n >= 13 &&
               !strcmp(path + n - 13, "/cgroup.procs");
}

int open(const char *path, int flags, ...)
{
        int mode = 0;

        OPEN_MODE(flags, mode);
        if (cgroup_refused(path, flags)) {
                errno = EACCES;
                return -1;
        }
        if (fail(K_OPEN)) {
                errno = fail_errno;
                return -1;
        }
        return real_open(path, flags, mode);
}

int open64(const char *path, int flags, ...)
{
        int mode = 0;

        OPEN_MODE(flags, mode);
        if (cgroup_refused(path, flags)) {
                errno = EACCES;
                return -1;
        }
        if (fail(K_OPEN)) {
                errno = fail_errno;
                return -1;
        }
        return real_open64(path, flags, mode);
}

int openat(int dfd, const char *path, int flags, ...)
{
        int mode = 0, fd;

        OPEN_MODE(flags, mode);
        if ((fd = udev_data(path, flags)) >= 0)
                return fd;
        if (cgroup_refused(path, flags)) {
                errno = EACCES;
                return -1;
        }
        if (fail(K_OPEN)) {
                errno = fail_errno;
                return -1;
        }
        return real_openat(dfd, path, flags, mode);
}

int openat64(int dfd, const char *path, int flags, ...)
{
        int mode = 0, fd;

        OPEN_MODE(flags, mode);
        if ((fd = udev_data(path, flags)) >= 0)
                return fd;
        if (cgroup_refused(path, flags)) {
                errno = EACCES;
                return -1;
        }
        if (fail(K_OPEN)) {
                errno = fail_errno;
                return -1;
        }
        return real_openat64(dfd, path, flags, mode);
}

ssize_t read(int fd, void *buf, size_t n)
{
        if (fail(K_READ)) {
                errno = fail_errno;
                return -1;
        }
        return real_read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
        if (!inited)
                init();
        if (!parsed)
                parse_spec();
        if (busy_now(fd)) {
                errno = EBUSY;
                return -1;
        }
        if (fail(K_WRITE)) {
                errno = fail_errno;
                return -1;
        }
        if (killat.left && fd_is(fd, killat.attr) && --killat.left == 0) {
                ssize_t w = real_write(fd, buf, n);

                kill(getpid(), SIGKILL);
                return w;
        }
        return real_write(fd, buf, n);
}

int close(int fd)
{
        if (fail(K_CLOSE)) {
                real_close(fd);
                errno = fail_errno;
                return -1;
        }
        return real_close(fd);
}

/* openat2 has no glibc wrapper: the library calls syscall(SYS_openat2, ...) */
long syscall(long nr, ...)
{
        va_list ap;
        long a[6];

        va_start(ap, nr);
        for (int i = 0; i < 6; i++)
                a[i] = va_arg(ap, long);
        va_end(ap);
#ifdef SYS_openat2
        if (nr == SYS_openat2 && fail(K_OPEN)) {
                errno = fail_errno;
                return -1;
        }
        if (nr == SYS_openat2 && no_openat2) {
                errno = ENOSYS;
                return -1;
        }
        if (nr == SYS_openat2 && a[2]) {
                const struct { uint64_t flags, mode, resolve; } *how = (const void *)a[2];
                int fd = udev_data((const char *)a[1], (int)how->flags);

                if (fd >= 0)
                        return fd;
        }
#endif
        if (!inited)
                init();
        return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* IOS_FAULT_ANY_OWNER=1: the file is root's (the stat itself is real). */
static int owned(int r, uid_t *uid)
{
        if (!parsed)
                parse_spec();
        if (r == 0 && any_owner)
                *uid = 0;
        return r;
}

/* the next definition of the function being defined (libc's, or an ASan runtime's) */
#define REAL(name) \
        static __typeof__(name) *real_##name; \
        if (!real_##name) \
                *(void **)&real_##name = dlsym(RTLD_NEXT, #name)

int stat(const char *path, struct stat *st)
{
        REAL(stat);
        return owned(real_stat(path, st), &st->st_uid);
}

int stat64(const char *path, struct stat64 *st)
{
        REAL(stat64);
        return owned(real_stat64(path, st), &st->st_uid);
}

int lstat(const char *path, struct stat *st)
{
        REAL(lstat);
        return owned(real_lstat(path, st), &st->st_uid);
}

int lstat64(const char *path, struct stat64 *st)
{
        REAL(lstat64);
        return owned(real_lstat64(path, st), &st->st_uid);
}

int fstat(int fd, struct stat *st)
{
        REAL(fstat);
        return owned(real_fstat(fd, st), &st->st_uid);
}

int fstat64(int fd, struct stat64 *st)
{
        REAL(fstat64);
        return owned(real_fstat64(fd, st), &st->st_uid);
}

int fstatat(int dfd, const char *path, struct stat *st, int flags)
{
        REAL(fstatat);
        return owned(real_fstatat(dfd, path, st, flags), &st->st_uid);
}

int fstatat64(int dfd, const char *path, struct stat64 *st, int flags)
{
        REAL(fstatat64);
        return owned(real_fstatat64(dfd, path, st, flags), &st->st_uid);
}
