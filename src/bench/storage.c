/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * storage.c: what a job may measure is storage.  A file on a filesystem
 * that is a kernel interface (procfs, sysfs, debugfs, tracefs,
 * securityfs, configfs, cgroupfs, binfmt_misc, bpffs, efivarfs, ...) is
 * not: writing one changes the kernel (queue/scheduler,
 * /proc/sysrq-trigger, binfmt_misc/register runs programs), and reading
 * one can consume what others wait for (/proc/kmsg).  A character device is
 * storage only when the kernel files it under a storage class: an NVMe
 * namespace's generic device, SCSI generic, bsg, a DAX device or an MTD
 * device; /dev/mem, /dev/port or /dev/watchdog are not.  Both backends
 * ask here: target.c for the native one's target, fiojob.c for each file
 * a fio job names, jobfile.c for a job file and the files it includes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "bench.h"
#include "iosched.h"
#include "macro.h"

/* linux/magic.h of older kernels lacks these */
#ifndef CONFIGFS_MAGIC
#define CONFIGFS_MAGIC 0x62656570
#endif
#ifndef FUSE_CTL_SUPER_MAGIC
#define FUSE_CTL_SUPER_MAGIC 0x65735543
#endif
#ifndef MQUEUE_MAGIC
#define MQUEUE_MAGIC 0x19800202
#endif
#ifndef PID_FS_MAGIC
#define PID_FS_MAGIC 0x50494446
#endif

static const struct {
        unsigned long magic;
        const char *name;
} kernel_fs[] = {
        { PROC_SUPER_MAGIC, "procfs" },
        { SYSFS_MAGIC, "sysfs" },
        { DEBUGFS_MAGIC, "debugfs" },
        { TRACEFS_MAGIC, "tracefs" },
        { SECURITYFS_MAGIC, "securityfs" },
        { CONFIGFS_MAGIC, "configfs" },
        { CGROUP_SUPER_MAGIC, "cgroupfs" },
        { CGROUP2_SUPER_MAGIC, "cgroup2fs" },
        { RDTGROUP_SUPER_MAGIC, "resctrl" },
        { BINFMTFS_MAGIC, "binfmt_misc" },
        { BPF_FS_MAGIC, "bpffs" },
        { EFIVARFS_MAGIC, "efivarfs" },
        { PSTOREFS_MAGIC, "pstore" },
        { SELINUX_MAGIC, "selinuxfs" },
        { SMACK_MAGIC, "smackfs" },
        { FUSE_CTL_SUPER_MAGIC, "fusectl" },
        { MQUEUE_MAGIC, "mqueue" },
        { NSFS_MAGIC, "nsfs" },
        { PID_FS_MAGIC, "pidfs" },
        { DEVPTS_SUPER_MAGIC, "devpts" },
};

static const char *kernel_fs_named(const struct statfs *sf)
{
        for (size_t i = 0; i < ELEMENTSOF(kernel_fs); i++)
                if ((unsigned long)sf->f_type == kernel_fs[i].magic)
                        return kernel_fs[i].name;
        return NULL;
}

const char *bench_storage_kernel_fs(const char *path)
{
        struct statfs sf;

        /* on failure, the open that follows fails and says why */
        return statfs(path, &sf) < 0 ? NULL : kernel_fs_named(&sf);
}

const char *bench_storage_kernel_fs_fd(int fd)
{
        struct statfs sf;

        return fstatfs(fd, &sf) < 0 ? NULL : kernel_fs_named(&sf);
}

int bench_storage_chardev(struct ios_ctx *root, dev_t rdev, char *cls, size_t len)
{
        static const char * const storage_class[] = { "nvme-generic", "scsi_generic", "bsg", "dax", "mtd" };
        _cleanup_free_ char *sub = NULL;
        _cleanup_close_ int dir = -1;
        char path[64];
        int r;

        snprintf(cls, len, "unknown");
        snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", major(rdev), minor(rdev));
        dir = ios_ctx_open(root, path, O_PATH | O_DIRECTORY);
        if (dir == -ENOENT)
                return 0;       /* no class the kernel tells: not storage */
        if (dir < 0)
                return dir;
        r = ios_sysfs_read_link_base(dir, "subsystem", &sub);
        if (r == -ENOENT)
                return 0;
        if (r < 0)
                return r;
        snprintf(cls, len, "%s", sub);
        for (size_t i = 0; i < ELEMENTSOF(storage_class); i++)
                if (streq(sub, storage_class[i]))
                        return 1;
        return 0;
}
