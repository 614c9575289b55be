/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.c: the kernel's fence around fio (Landlock).  What the running
 * kernel offers is asked once; IOSCHED_BENCH_LANDLOCK=0 in the environment
 * makes iosched-bench behave as on a kernel without Landlock (5.10), so
 * that path can be tested on any kernel.
 *
 * fio's child enters the fence between fork and execv (fio.c): a ruleset
 * that handles every filesystem right the kernel's ABI knows, so that what
 * no rule grants is denied (EACCES inside fio), whatever the job says:
 *   - read files and list directories anywhere: fio reads its libraries,
 *     /proc, /sys and the targets, and a read changes nothing;
 *   - write and truncate only the existing files and devices of access.write,
 *     and make, write, truncate and remove regular files only beneath the
 *     directories of access.create (no directory, link, node, socket or fifo
 *     is ever made, nothing is renamed across directories: REFER);
 *   - ioctl on a device (ABI 5) only on the targets (access.read and
 *     access.write): fio asks a block device its size, and no other device
 *     fio might open for reading gets an ioctl;
 *   - execute only fio and its ELF interpreter (the kernel opens both for
 *     execution), and with --allow-exec /bin/sh and access.exec.
 * From ABI 6, fio and what it runs may signal only processes inside the
 * fence (fio's own jobs), not iosched-bench, ioschedd or anyone else.
 * The fence starts with no_new_privs and cannot be left by fio or anything
 * it runs.  Files opened before it (fio's stdout and stderr pipes) are not
 * checked again.  Not fenced: reads, libraries fio maps itself (an
 * external: engine is dlopen()ed, not executed), the network, SysV IPC.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fio.h"
#include "macro.h"

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

/* ABI 6: signals to processes outside the domain (6.1's header knows only handled_access_fs) */
#define SCOPE_SIGNAL (1ULL << 1)
struct ruleset_attr {
        uint64_t handled_access_fs;
        uint64_t handled_access_net;    /* ABI 4: not handled, fio's network engines keep working */
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

/* One rule: rights (masked by what the ruleset handles, and to a file's rights on a file) beneath path. */
static int add_rule(int rs, const char *path, uint64_t rights, uint64_t handled)
{
        struct landlock_path_beneath_attr pb = { .parent_fd = open(path, O_PATH | O_CLOEXEC) };
        struct stat st;
        int r = 0;

        if (pb.parent_fd < 0)
                return errno == ENOENT ? 0 : -errno;    /* nothing there to allow */
        if (fstat(pb.parent_fd, &st) < 0)
                r = -errno;
        pb.allowed_access = rights & handled & (r == 0 && S_ISDIR(st.st_mode) ? ~0ULL : FS_FILE);
        if (r == 0 && pb.allowed_access &&
            syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
                r = -errno;
        close(pb.parent_fd);
        return r;
}

/* A program and its ELF interpreter, executable. */
static int add_program(int rs, const char *path, uint64_t handled)
{
        char interp[PATH_MAX];
        int r = add_rule(rs, path, FS_EXEC, handled);

        if (r >= 0 && bench_sandbox_interp(path, interp, sizeof(interp)) > 0)
                r = add_rule(rs, interp, FS_EXEC, handled);
        return r;
}

static int add_rules(int rs, const struct bench_fio_access *a, const char *exe, uint64_t handled, const char **step)
{
        int r;

        *step = "read access";
        r = add_rule(rs, "/", FS_READ, handled);
        for (char **p = a->read; r >= 0 && p && *p; p++)
                r = add_rule(rs, *p, FS_READ | LANDLOCK_ACCESS_FS_IOCTL_DEV, handled);
        if (r < 0)
                return r;
        *step = "write access";
        for (char **p = a->write; r >= 0 && p && *p; p++)
                r = add_rule(rs, *p, FS_READ | FS_WRITE | LANDLOCK_ACCESS_FS_IOCTL_DEV, handled);
        if (r < 0)
                return r;
        *step = "create access";
        for (char **p = a->create; r >= 0 && p && *p; p++)
                r = add_rule(rs, *p, FS_READ | FS_CREATE, handled);
        if (r < 0)
                return r;
        *step = "execute access";
        r = add_program(rs, exe, handled);
        /* --allow-exec: the commands a job runs (exec_prerun=, trigger=, program=) run what they
         * will (sh runs touch, a script its interpreter); they stay inside the fence for writes */
        if (r >= 0 && a->allow_exec)
                r = add_rule(rs, "/", FS_EXEC, handled);
        return r;
}

int bench_sandbox_enter(const struct bench_fio_access *a, const char *exe, const char **step)
{
        int abi = bench_sandbox_abi(), r;
        struct ruleset_attr attr = { .handled_access_fs = fs_rights(abi), .scoped = abi >= 6 ? SCOPE_SIGNAL : 0 };
        int rs;

        *step = NULL;
        if (abi <= 0)
                return 0;       /* unconfined: the caller has said so */
        *step = "create the ruleset";
        /* the kernel takes the struct as long as it knows it, or longer with zeros (copy_struct_from_user) */
        rs = (int)syscall(SYS_landlock_create_ruleset, &attr,
                          abi >= 6 ? sizeof(attr) : sizeof(struct landlock_ruleset_attr), 0);
        if (rs < 0)
                return -errno;
        r = add_rules(rs, a, exe, attr.handled_access_fs, step);
        if (r >= 0) {
                *step = "no_new_privs";
                r = prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ? -errno : 0;
        }
        if (r >= 0) {
                *step = "restrict";
                r = syscall(SYS_landlock_restrict_self, rs, 0) < 0 ? -errno : 0;
        }
        close(rs);
        return r;
}
