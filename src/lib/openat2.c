/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * openat2.c: openat2(2) as both resolvers use it (root.c's lookups in the
 * root, beneath.c's below a disk's directory, nodefree.c's one-open reads):
 * its EAGAIN retried, and whether it is there at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"

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
 * same guarantee.  The unit tests force the walk as well, and the loop-device
 * tests run the programs with the test shim's openat2 answering ENOSYS
 * (tests/fault/fault.c), so both paths are checked on every machine.
 */
static bool openat2_missing;

bool ios_openat2_unusable(void)
{
        if (errno != ENOSYS && errno != EPERM)
                return false;
        openat2_missing = true;
        return true;
}

bool ios_openat2_missing(void)
{
        return openat2_missing;
}
