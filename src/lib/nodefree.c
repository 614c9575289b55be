/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nodefree.c: reading the kernel cheaply without opening what must not be
 * opened.  An attribute is looked at through O_PATH and fstat() before it
 * is opened (beneath.c ios_open_checked) so that a device node in a captured
 * tree is never opened: that costs two opens, two stats and two closes per
 * read.  On a mount where no device node can be opened at all (sysfs,
 * which has neither nodes nor FIFOs, or a mount with nodev, where open()
 * of a node fails with EACCES), the lookup is kept on that mount
 * (RESOLVE_NO_XDEV) and the attribute is opened once, non-blocking, and
 * read: a FIFO there (nodev allows FIFOs) never blocks, and a read of
 * nothing is looked at with fstat() to refuse it.  Everything else (a
 * link, a mount crossed, a node refused, no openat2) takes the checked
 * path, whose answer is the precise one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <linux/magic.h>
#include <linux/openat2.h>

#include "iosched.h"
#include "root-internal.h"
#include "nodefree-internal.h"

#define NF_FDS 65536
static _Atomic uint64_t nf_bits[NF_FDS / 64];

int ios_fs_node_free(int fd)
{
        struct statfs sf;

        if (fstatfs(fd, &sf) < 0)
                return -errno;
        return sf.f_type == SYSFS_MAGIC || (sf.f_flags & ST_NODEV) ? 1 : 0;
}

void ios_dirfd_set_node_free(int fd, bool on)
{
        uint64_t bit;

        if (fd < 0 || fd >= NF_FDS)
                return;
        bit = UINT64_C(1) << (fd % 64);
        if (on)
                atomic_fetch_or(&nf_bits[fd / 64], bit);
        else
                atomic_fetch_and(&nf_bits[fd / 64], ~bit);
}

bool ios_dirfd_node_free(int fd)
{
        if (fd < 0 || fd >= NF_FDS)
                return false;
        return atomic_load(&nf_bits[fd / 64]) & (UINT64_C(1) << (fd % 64));
}

void ios_dirfd_close(int fd)
{
        if (fd < 0)
                return;
        ios_dirfd_set_node_free(fd, false);
        close(fd);
}

int ios_open_node_free(int dirfd, const char *path, int flags, uint64_t resolve)
{
        struct open_how how = {
                .flags = (uint64_t)(flags | O_CLOEXEC),
                .resolve = resolve | RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS,
        };
        int fd;

        if (ios_openat2_missing())
                return -IOS_NF_SLOW;
        if (!(flags & (O_PATH | O_DIRECTORY)))
                how.flags |= O_NONBLOCK | O_NOCTTY;
        fd = ios_openat2_retry(dirfd, path, &how);
        if (fd >= 0)
                return fd;
        if (errno == ENOENT || errno == ENOTDIR)
                return -errno;
        (void)ios_openat2_unusable();  /* ENOSYS, EPERM: the walk from now on */
        return -IOS_NF_SLOW;    /* ELOOP, EXDEV, EACCES, ENXIO, ...: ask the checked path */
}
