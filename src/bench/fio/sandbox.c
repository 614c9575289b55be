/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.c: the kernel's fence around every fio process (Landlock, a
 * seccomp filter, no_new_privs).  What the running kernel offers is asked
 * once; IOSCHED_BENCH_LANDLOCK=0 in the environment makes iosched-bench
 * behave as on a kernel without Landlock (5.10), so that path can be tested
 * on any kernel.
 *
 * The fence is built once, in iosched-bench, from handles: each path is
 * opened once (O_PATH, no link followed at its last component, so the rule
 * is on the real file or device) and the Landlock ruleset made from those
 * descriptors; every fio process after that (--enghelp, --showcmd, each
 * round) enters the same ruleset between fork and execv, so a name swapped
 * for a link between rounds reaches only the inode that was opened.  The
 * ruleset handles every filesystem right the kernel's ABI knows, so what no
 * rule grants is denied (EACCES inside fio), whatever the job says:
 *   - read: the system's programs and libraries (/usr and the /lib and /bin
 *     directories), the few files of /etc the loader and the C library
 *     read, /proc, /sys, the harmless character devices (null, zero, full,
 *     random, urandom), and the files the run reads (the job files, a
 *     pattern's file, the targets) and the trees opendir= lists (listing
 *     only); nothing else, so fio cannot map a library from anywhere
 *     else (Landlock's execute right is checked at execve only: a probe on
 *     6.18 dlopen()ed a library with no execute right granted anywhere and
 *     its constructor ran; tests/integration/bench-fio-sandbox.sh);
 *   - write and truncate only the existing files and devices of
 *     access.write, and make, write, truncate and remove regular files only
 *     in the run's scratch directories, access.create (fioscratch.c: made
 *     by iosched-bench, nothing else in them; no directory, link, node,
 *     socket or fifo is ever made, nothing is renamed across directories);
 *   - ioctl on a device (ABI 5) on the targets, and only the requests of
 *     ioctl_allowed (the seccomp filter): a device fio only reads gets no
 *     BLKRRPART or BLKROSET, even from a program a job runs with
 *     --allow-exec;
 *   - execute only fio and its ELF interpreter; with --allow-exec read and
 *     execute anywhere (a command runs what it will), writes still fenced.
 * From ABI 6, fio and what it runs may signal only processes inside the
 * fence.  A seccomp filter denies socket() (EACCES) unless --allow-net,
 * --allow-exec or not: fio's network engines (nbd, net, http, rdma...)
 * reach devices nobody named, and a program a job runs would reach the
 * machine's daemons (systemd's, D-Bus) as root; Landlock then denies, to
 * a socket made any way (io_uring's too), TCP from ABI 4, abstract unix
 * sockets from ABI 6 and named ones from ABI 9.  What no Landlock right
 * covers (sys_denied: a
 * file's mode, owner, times and attributes, the machine's state) and
 * clone3 (CLONE_INTO_CGROUP) are denied to every fenced process.
 * The capabilities fio does not use leave the bounding set first
 * (cap_dropped), then no_new_privs; the fence cannot be left.  Files opened
 * before it (fio's stdout and stderr) are not checked again; every other
 * descriptor closes at exec.  Without Landlock only the seccomp filter
 * and no_new_privs apply.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/blkzoned.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fio.h"
#include "macro.h"
#include "strv.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif
/* newer than Debian 12's linux-libc-dev (6.1: ABI 2 at most) */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)           /* ABI 2 */
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)        /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)       /* ABI 5 */
#endif

/* ABI 9: connect() and sendmsg() to a named unix socket made outside the domain */
#define FS_RESOLVE_UNIX (1ULL << 16)
/* ABI 4: TCP bind() and connect() */
#define NET_TCP ((1ULL << 0) | (1ULL << 1))
/* ABI 6: abstract unix sockets and signals of processes outside the domain (6.1's header knows only
 * handled_access_fs) */
#define SCOPE_ABSTRACT_UNIX (1ULL << 0)
#define SCOPE_SIGNAL (1ULL << 1)
struct ruleset_attr {
        uint64_t handled_access_fs;
        uint64_t handled_access_net;    /* ABI 4 */
        uint64_t scoped;                /* ABI 6 */
};

#define FS_ABI1 ((1ULL << 13) - 1)      /* EXECUTE .. MAKE_SYM */
#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define FS_WRITE (LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)
#define FS_CREATE (FS_WRITE | LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE)
#define FS_EXEC (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE)
/* the rights a rule on a file (not a directory) may carry */
#define FS_FILE (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | \
                 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

/* What every fio process reads: the system's programs and libraries, what the loader and libc read. */
static const char * const system_read[] = {
        "/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin",
        "/etc/ld.so.cache", "/etc/ld.so.preload", "/etc/localtime", "/etc/nsswitch.conf", "/etc/passwd",
        "/etc/group", "/proc", "/sys",
};
/* The character devices where a write changes nothing: fio opens a character device O_RDWR, to read too. */
static const char * const harmless_dev[] = {
        "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom",
};

bool bench_sandbox_harmless_rdev(dev_t rdev)
{
        struct stat st;

        for (size_t i = 0; i < ELEMENTSOF(harmless_dev); i++)
                if (stat(harmless_dev[i], &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == rdev)
                        return true;
        return false;
}

int bench_sandbox_abi(void)
{
        const char *env = getenv("IOSCHED_BENCH_LANDLOCK");
        long v;

        if (env && streq(env, "0"))
                return 0;
#ifdef SYS_landlock_create_ruleset
        v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
#else
        v = -1;
#endif
        return v > 0 ? (int)v : 0;
}
/* The filesystem rights ABI abi knows. */
static uint64_t fs_rights(int abi)
{
        uint64_t m = FS_ABI1;

        if (abi >= 2)
                m |= LANDLOCK_ACCESS_FS_REFER;
        if (abi >= 3)
                m |= LANDLOCK_ACCESS_FS_TRUNCATE;
        if (abi >= 5)
                m |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
        return m;
}

int bench_sandbox_interp(const char *exe, char *buf, size_t size)
{
        _cleanup_close_ int fd = open(exe, O_RDONLY | O_CLOEXEC);
        Elf64_Ehdr eh;
        Elf64_Phdr ph;

        buf[0] = '\0';
        if (fd < 0)
                return -errno;
        if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh))
                return 0;       /* shorter than an ELF header: not ELF */
        if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
            eh.e_phentsize != sizeof(ph))
                return 0;       /* a script, or not ours to read: the kernel asks for its interpreter by path */
        for (unsigned i = 0; i < eh.e_phnum; i++) {
                if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != (ssize_t)sizeof(ph))
                        return -EIO;
                if (ph.p_type != PT_INTERP)
                        continue;
                if (ph.p_filesz == 0 || ph.p_filesz > size)
                        return -ENAMETOOLONG;
                if (pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
                        return -EIO;
                buf[ph.p_filesz - 1] = '\0';
                return 1;
        }
        return 0;
}

/*
 * One rule: rights (masked by what the ruleset handles, and to a file's
 * rights on a file) on what path names, opened once without following a
 * link at its last component (follow: the system's paths, /lib -> usr/lib);
 * a link there is refused (ELOOP): the rule is on the real file.
 */
static int add_rule(int rs, const char *path, uint64_t rights, uint64_t handled, bool follow)
{
        struct landlock_path_beneath_attr pb = {
                .parent_fd = open(path, O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW)),
        };
        struct stat st;
        int r = 0;

        if (pb.parent_fd < 0)
                return errno == ENOENT ? 0 : -errno;    /* nothing there to allow */
        if (fstat(pb.parent_fd, &st) < 0)
                r = -errno;
        else if (S_ISLNK(st.st_mode))
                r = -ELOOP;
        pb.allowed_access = rights & handled & (r == 0 && S_ISDIR(st.st_mode) ? ~0ULL : FS_FILE);
        if (r == 0 && pb.allowed_access &&
            syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
                r = -errno;
        close(pb.parent_fd);
        return r;
}

/* Whether p is dir or beneath it. */
static bool holds(const char *dir, const char *p)
{
        const char *rest = startswith(p, dir);

        return streq(dir, "/") || (rest && (*rest == '\0' || *rest == '/'));
}

/*
 * --allow-exec: reading and running everywhere but the device nodes, those
 * of nodev (/dev, every devtmpfs and devpts mount: a build chroot's
 * dev/pts is the terminals'): a device's open can act (a
 * watchdog is armed by it and reboots the machine unless fed; a serial
 * line raises its modem lines; a tape rewinds at close) and its read is no
 * file's (the kernel's log, the keyboard's events, the I/O ports).  A rule
 * grants a tree whole, so a directory holding a device tree is granted
 * entry by entry, and what is granted at that level is no device node.
 */
static int add_anywhere(int rs, char * const *nodev, const char *path, uint64_t handled)
{
        struct dirent *de;
        bool whole = true;
        DIR *d;
        int r;

        for (char * const *p = nodev; p && *p; p++) {
                if (streq(*p, path))
                        return 0;
                whole &= !holds(path, *p);
        }
        if (whole)
                return add_rule(rs, path, FS_EXEC | FS_READ, handled, false);
        d = opendir(path);
        if (!d)
                return errno == ENOENT ? 0 : -errno;
        r = add_rule(rs, path, LANDLOCK_ACCESS_FS_READ_DIR, handled, false);
        while (r >= 0 && (de = readdir(d))) {
                _cleanup_free_ char *sub = NULL;
                struct stat st;

                if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                        continue;
                if (asprintf(&sub, "%s/%s", streq(path, "/") ? "" : path, de->d_name) < 0)
                        r = -ENOMEM;
                else if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        r = errno == ENOENT ? 0 : -errno;
                else if (S_ISDIR(st.st_mode) || S_ISREG(st.st_mode))
                        r = add_anywhere(rs, nodev, sub, handled);
                /* a link leads to what is granted, or not, on its own; no node, socket or FIFO */
        }
        closedir(d);
        return r;
}

/* A program and its ELF interpreter, executable. */
static int add_program(int rs, const char *path, uint64_t handled)
{
        char interp[PATH_MAX];
        int r = add_rule(rs, path, FS_EXEC, handled, true);

        if (r >= 0 && bench_sandbox_interp(path, interp, sizeof(interp)) > 0)
                r = add_rule(rs, interp, FS_EXEC, handled, true);
        return r;
}

static int add_rules(int rs, const struct bench_fio_access *a, char * const *readable, const char *exe,
                     uint64_t handled, const char **step, const char **what)
{
        int r = 0;

        *step = "read access";
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(system_read); i++)
                if ((r = add_rule(rs, system_read[i], FS_READ, handled, true)) < 0)
                        *what = system_read[i];
        for (size_t i = 0; r >= 0 && i < ELEMENTSOF(harmless_dev); i++)
                if ((r = add_rule(rs, harmless_dev[i], FS_READ | LANDLOCK_ACCESS_FS_WRITE_FILE, handled,
                                  true)) < 0)
                        *what = harmless_dev[i];
        /* the job files as the user named them (a link to a job file is the user's choice), and the
         * files a job's settings name for fio to read */
        for (char * const *p = readable; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, LANDLOCK_ACCESS_FS_READ_FILE, handled, true)) < 0)
                        *what = *p;
        for (char **p = a->input; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, LANDLOCK_ACCESS_FS_READ_FILE, handled, true)) < 0)
                        *what = *p;
        /* the trees fio lists for opendir= (its files are targets: read by the rules below) */
        for (char **p = a->listed; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, LANDLOCK_ACCESS_FS_READ_DIR, handled, false)) < 0)
                        *what = *p;
        /* IOCTL_DEV: fio asks a block device its size (BLKGETSIZE64); which requests is the filter's */
        for (char **p = a->read; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, FS_READ | LANDLOCK_ACCESS_FS_IOCTL_DEV, handled, false)) < 0)
                        *what = *p;
        if (r < 0)
                return r;
        *step = "write access";
        for (char **p = a->write; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, FS_READ | FS_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV, handled,
                                  false)) < 0)
                        *what = *p;
        if (r < 0)
                return r;
        *step = "create access";
        for (char **p = a->create; r >= 0 && p && *p; p++)
                if ((r = add_rule(rs, *p, FS_READ | FS_CREATE, handled, false)) < 0)
                        *what = *p;
        if (r < 0)
                return r;
        *step = "execute access";
        *what = exe;
        r = add_program(rs, exe, handled);
        /* --allow-exec: the commands a job runs (exec_prerun=, trigger=, program=) run and read what
         * they will (sh runs touch, a script its interpreter); they stay inside the fence for writes */
        if (r >= 0 && a->allow_exec) {
                _cleanup_(ios_strv_freep) char **nodev = NULL;

                *what = "/";
                r = bench_mounts_typed((const char * const[]){ "devtmpfs", "devpts", NULL }, &nodev);
                if (r >= 0 && !ios_strv_contains(nodev, "/dev"))
                        r = ios_strv_pushf(&nodev, "/dev");
                if (r >= 0)
                        r = add_anywhere(rs, nodev, "/", handled);
        }
        if (r >= 0)
                *what = NULL;
        return r;
}

int bench_fence_build(struct bench_fence *fc, const struct bench_fio_access *a, char * const *readable,
                      const char *exe, const char **step, const char **what)
{
        int abi = bench_sandbox_abi(), r;
        struct ruleset_attr attr = { .handled_access_fs = fs_rights(abi), .scoped = abi >= 6 ? SCOPE_SIGNAL : 0 };

        /* without --allow-net no socket reaches beyond the run, however it was made (io_uring's
         * IORING_OP_SOCKET passes the seccomp filter): TCP, abstract and named unix sockets, with no
         * rule granting them */
        if (!a->allow_net) {
                attr.handled_access_net = abi >= 4 ? NET_TCP : 0;
                attr.scoped |= abi >= 6 ? SCOPE_ABSTRACT_UNIX : 0;
                attr.handled_access_fs |= abi >= 9 ? FS_RESOLVE_UNIX : 0;
        }
        *fc = (struct bench_fence){ .rs = -1, .allow_net = a->allow_net, .allow_hints = a->allow_hints,
                                    .allow_exec = a->allow_exec };
        *step = NULL;
        *what = NULL;
        if (abi <= 0)
                return 0;       /* no Landlock: the seccomp filter alone (the caller has said so) */
        *step = "create the ruleset";
        /* the kernel takes the struct as long as it knows it, or longer with zeros (copy_struct_from_user) */
        fc->rs = (int)syscall(SYS_landlock_create_ruleset, &attr,
                              abi >= 6 ? sizeof(attr) : abi >= 4 ? 2 * sizeof(uint64_t) : sizeof(uint64_t),
                              0);
        if (fc->rs < 0)
                return -errno;
        r = add_rules(fc->rs, a, readable, exe, attr.handled_access_fs, step, what);
        if (r < 0)
                bench_fence_done(fc);
        return r;
}

void bench_fence_done(struct bench_fence *fc)
{
        if (fc->rs >= 0)
                close(fc->rs);
        fc->rs = -1;
}

/* The architecture whose system call numbers the filter names. */
#if defined(__x86_64__)
#define FENCE_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define FENCE_ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define FENCE_ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define FENCE_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FENCE_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define FENCE_ARCH AUDIT_ARCH_S390X
#endif

#define DENY (SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA))
#define DENY_IOCTL (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

/*
 * The device requests any fenced process may make: questions (sizes,
 * geometry, zones, terminals) and the ones the kernel takes only on a
 * descriptor open for writing (discard, zero-out, zone resets), which the
 * Landlock rules give only on write targets; and BLKFLSBUF (fio drops a
 * device's cache before a run).  Everything else (BLKROSET, BLKRASET,
 * BLKRRPART, BLKPG, LOOP_*, SG_IO, NVMe admin commands...) fails with
 * EPERM, --allow-exec or not: Landlock's IOCTL_DEV is one right for every
 * request, and fio needs BLKGETSIZE64 on a device it only reads.
 */
static const unsigned int ioctl_allowed[] = {
        TCGETS, TIOCGWINSZ, TIOCGPGRP, FIONREAD, FIONBIO, FIOCLEX, FIONCLEX, FIOASYNC,
        BLKGETSIZE, BLKGETSIZE64, BLKSSZGET, BLKBSZGET, BLKPBSZGET, BLKIOMIN, BLKIOOPT, BLKALIGNOFF,
        BLKROGET, BLKRAGET, BLKFRAGET, BLKSECTGET, BLKDISCARDZEROES, BLKROTATIONAL, HDIO_GETGEO, FIGETBSZ,
        BLKFLSBUF, BLKDISCARD, BLKZEROOUT, BLKSECDISCARD,
        BLKREPORTZONE, BLKGETZONESZ, BLKGETNRZONES, BLKRESETZONE, BLKOPENZONE, BLKCLOSEZONE, BLKFINISHZONE,
};

/* newer than Debian 12's headers; numbered alike on every architecture above (since 5.1's 424) */
#ifndef __NR_fchmodat2
#define __NR_fchmodat2 452
#endif
#ifndef __NR_setxattrat
#define __NR_setxattrat 463
#endif
#ifndef __NR_removexattrat
#define __NR_removexattrat 466
#endif
#ifndef __NR_open_tree_attr
#define __NR_open_tree_attr 467
#endif
#ifndef __NR_file_setattr
#define __NR_file_setattr 469
#endif

/*
 * The system calls no fenced process makes (EPERM), --allow-exec or not:
 * a file's mode, owner, times, extended attributes and flags (file_setattr,
 * 6.17's), which no Landlock right covers (a command could chmod u+s a
 * root program, or give it file capabilities); and what changes the machine beyond any file: modules,
 * kexec, reboot, swap, mounts (Landlock denies them; the filter alone
 * where it is not there), the clocks, the host's names, process
 * accounting, BPF programs.  clone3 fails with ENOSYS, as on kernels
 * before 5.3 (the C library then uses clone): its CLONE_INTO_CGROUP would
 * start a process in a cgroup other than the run's, out of cgroup.kill's
 * reach, and the filter cannot read its arguments.
 */
static const int sys_denied[] = {
#ifdef __NR_chmod
        __NR_chmod,
#endif
#ifdef __NR_chown
        __NR_chown,
#endif
#ifdef __NR_lchown
        __NR_lchown,
#endif
#ifdef __NR_chown32
        __NR_chown32, __NR_fchown32, __NR_lchown32,
#endif
#ifdef __NR_utime
        __NR_utime,
#endif
#ifdef __NR_utimes
        __NR_utimes,
#endif
#ifdef __NR_futimesat
        __NR_futimesat,
#endif
#ifdef __NR_utimensat_time64
        __NR_utimensat_time64,
#endif
#ifdef __NR_swapon
        __NR_swapon, __NR_swapoff,
#endif
#ifdef __NR_settimeofday
        __NR_settimeofday,
#endif
#ifdef __NR_clock_settime64
        __NR_clock_settime64, __NR_clock_adjtime64,
#endif
#ifdef __NR_kexec_file_load
        __NR_kexec_file_load,
#endif
#ifdef __NR_mount
        __NR_mount,
#endif
#ifdef __NR_umount2
        __NR_umount2,
#endif
        __NR_fchmod, __NR_fchmodat, __NR_fchmodat2, __NR_fchown, __NR_fchownat, __NR_utimensat,
        __NR_setxattr, __NR_lsetxattr, __NR_fsetxattr, __NR_setxattrat,
        __NR_file_setattr,      /* 6.17: FS_IOC_FSSETXATTR's flags (append-only, nodump, noatime...) */
        __NR_removexattr, __NR_lremovexattr, __NR_fremovexattr, __NR_removexattrat,
        __NR_init_module, __NR_finit_module, __NR_delete_module, __NR_kexec_load, __NR_reboot,
        __NR_pivot_root, __NR_move_mount, __NR_open_tree, __NR_open_tree_attr, __NR_fsopen, __NR_fsmount,
        __NR_fsconfig,
        __NR_mount_setattr, __NR_clock_settime, __NR_clock_adjtime, __NR_adjtimex, __NR_sethostname,
        __NR_setdomainname, __NR_acct, __NR_bpf,
        /* root's keyrings, the kernel's log and console, quotas, a filesystem's every access watched
         * (fanotify: its permission events would hold every open there), the terminal hung up */
        __NR_add_key, __NR_keyctl, __NR_request_key, __NR_syslog, __NR_quotactl, __NR_quotactl_fd,
        __NR_fanotify_init, __NR_vhangup,
#ifdef __NR_iopl
        __NR_iopl, __NR_ioperm,         /* the machine's I/O ports: a disk controller's among them */
#endif
};

#define DENY_SYS (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))
#define NO_SYS (SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA))

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define ARG1_LOW (offsetof(struct seccomp_data, args[1]) + 4)
#else
#define ARG1_LOW offsetof(struct seccomp_data, args[1])
#endif

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036      /* F_LINUX_SPECIFIC_BASE + 12 */
#endif
#define F_SET_FILE_RW_HINT_ 1038        /* + 14, before 5.18 */

/*
 * fcntl(nr) with F_SET_RW_HINT (or the file's, before 5.18) denied: the
 * inode keeps a write hint after the run, and the kernel takes it on a
 * descriptor open for reading (a program run with --allow-exec set one on
 * a file it could only read).  Six instructions: a match of nr returns.
 */
static unsigned deny_hints(struct sock_filter *f, unsigned nr)
{
        unsigned n = 0;

        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 5);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG1_LOW);
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SET_RW_HINT, 1, 0);
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SET_FILE_RW_HINT_, 0, 1);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY_SYS);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        return n;
}

/*
 * The filter: none of sys_denied, no clone3, ioctl() only with the
 * requests above (the kernel reads the request as 32 bits: its low word is
 * compared), without allow_net no socket of any family (socket(), and
 * socketcall() where it exists), without allow_hints no write hint set
 * (only a job's write_hint= sets one, on its write targets, whose hints
 * fiohints.c puts back), and with allow_exec no io_uring: its requests are
 * no system calls, so a program a job runs set extended attributes and
 * ACLs (a mode by another name) and reached unix and UDP sockets through
 * them, past the rules above and where Landlock has none (fiojob.c
 * refuses the io_uring engines with --allow-exec, and its default engine
 * is libaio then).
 */
static int enter_filter(const struct bench_fence *fc)
{
#ifdef FENCE_ARCH
        struct sock_filter f[48 + 2 * ELEMENTSOF(sys_denied) + ELEMENTSOF(ioctl_allowed)];
        unsigned n = 0, nio = ELEMENTSOF(ioctl_allowed);
        struct sock_fprog prog;

        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FENCE_ARCH, 1, 0);
        /* another ABI's numbers (i386's on x86_64) */
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
#ifdef __x86_64__
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);        /* x32's */
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY);
#endif
        for (size_t i = 0; i < ELEMENTSOF(sys_denied); i++) {
                unsigned nr = (unsigned)sys_denied[i];

                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1);
                f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY_SYS);
        }
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 0, 1);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, NO_SYS);
        if (fc->allow_exec) {
                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1);
                f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY_SYS);
        }
        if (!fc->allow_hints) {
                n += deny_hints(f + n, __NR_fcntl);
#ifdef __NR_fcntl64
                n += deny_hints(f + n, __NR_fcntl64);
#endif
        }
        if (!fc->allow_net) {
#ifdef __NR_socketcall
                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socketcall, 0, 1);
                f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY);
#endif
                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 1);
                f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY);
        }
        f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 1, 0);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG1_LOW);
        for (unsigned i = 0; i < nio; i++)      /* a match jumps past the rest and the denial */
                f[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ioctl_allowed[i],
                                                      (unsigned char)(nio - i), 0);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, DENY_IOCTL);
        f[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        prog = (struct sock_fprog){ .len = (unsigned short)n, .filter = f };
        return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0 ? -errno : 0;
#else
        (void)fc;
        return -ENOSYS;         /* no filter for this architecture: fio is not run */
#endif
}

/*
 * Every descriptor past stderr closed at exec: what iosched-bench's caller
 * left open (a file it appends to, another program's socket), a
 * descriptor of the bench's, is opened outside the fence and never
 * checked again (Landlock checks at open).  Marked close-on-exec, not
 * closed, so that the child can still report a failed exec.
 */
static int close_inherited(void)
{
        long max;

        if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
                return 0;
        if (errno != ENOSYS && errno != EINVAL)
                return -errno;
        /* before 5.11: each one */
        max = sysconf(_SC_OPEN_MAX);
        for (int fd = 3; fd < (max > 0 && max < 1048576 ? max : 1048576); fd++)
                (void)fcntl(fd, F_SETFD, FD_CLOEXEC);
        return 0;
}

/*
 * The capabilities root holds that neither fio nor a program a job runs
 * needs, dropped from the bounding set, so that no exec gets them back:
 * the network's configuration (a command run with --allow-exec --allow-net
 * added an address), raw sockets, the kernel's log, modules, clocks,
 * device nodes, immutable files, audit, MAC policy, file capabilities,
 * ptrace, process accounting, the terminal's configuration, wake alarms,
 * BPF, performance monitoring, checkpoint and restore, leases.  Kept:
 * what fio uses (DAC override for a file it reads, SYS_ADMIN for
 * BLKFLSBUF, SYS_NICE for prioclass=, IPC_LOCK for lockmem=, SETUID and
 * SETGID for uid=, SYS_RAWIO for the sg engine, SYS_RESOURCE).
 */
static const int cap_dropped[] = {
        CAP_NET_ADMIN, CAP_NET_RAW, CAP_SYS_MODULE, CAP_SYS_PTRACE, CAP_SYS_PACCT, CAP_SYS_BOOT, CAP_SYS_TIME,
        CAP_SYS_TTY_CONFIG, CAP_MKNOD, CAP_LEASE, CAP_LINUX_IMMUTABLE, CAP_AUDIT_WRITE, CAP_AUDIT_CONTROL,
        CAP_SETFCAP, CAP_MAC_OVERRIDE, CAP_MAC_ADMIN, CAP_SYSLOG, CAP_WAKE_ALARM, CAP_BLOCK_SUSPEND,
        CAP_AUDIT_READ, CAP_PERFMON, CAP_BPF, CAP_CHECKPOINT_RESTORE,
};

static int drop_caps(void)
{
        for (size_t i = 0; i < ELEMENTSOF(cap_dropped); i++)
                /* EINVAL: a capability this kernel does not know (older than the table) */
                if (prctl(PR_CAPBSET_DROP, cap_dropped[i], 0, 0, 0) < 0 && errno != EINVAL && errno != EPERM)
                        return -errno;
        return 0;
}

int bench_fence_enter(const struct bench_fence *fc, const char **step)
{
        int r;

        *step = "drop capabilities";
        r = drop_caps();
        if (r < 0)
                return r;
        *step = "no_new_privs";
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return -errno;
        *step = "the system call filter";
        r = enter_filter(fc);
        if (r < 0)
                return r;
        *step = "restrict";
        if (fc->rs >= 0 && syscall(SYS_landlock_restrict_self, fc->rs, 0) < 0)
                return -errno;
        *step = "close the descriptors it was given";
        r = close_inherited();
        if (r < 0)
                return r;
        *step = NULL;
        return 0;
}

int bench_sandbox_enter(const struct bench_fio_access *a, const char *exe, const char **step)
{
        struct bench_fence fc;
        const char *what;
        int r = bench_fence_build(&fc, a, NULL, exe, step, &what);

        if (r >= 0)
                r = bench_fence_enter(&fc, step);
        bench_fence_done(&fc);
        return r;
}
