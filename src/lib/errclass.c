/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * errclass.c: what a negative errno means for the disk it was about, and how
 * it is said (ios_strerror), the one owner of that knowledge
 * (include/iosched.h lists the classes).  The plan's
 * writer (apply.c) stops writing to a disk on GONE and READONLY, iosched-apply
 * maps the classes to its exit codes (src/apply/run.c), ioschedd forgets a
 * GONE disk and retries the rest (src/daemon/retry.c, apply.c).
 */
#include <errno.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"

const char *ios_strerror(int e)
{
        if (e == -EBADFD)
                return "not a regular file (a FIFO, socket or device node)";
        return strerror(e < 0 ? -e : e);
}

enum ios_errno_class ios_errno_class(int e)
{
        switch (e < 0 ? -e : 0) {
        case 0:
                return IOS_ERRNO_OK;
        case ENOENT:
        case ENODEV:
        case ENXIO:
                return IOS_ERRNO_GONE;
        case EROFS:
        case EACCES:
        case EPERM:
                return IOS_ERRNO_READONLY;
        case EINVAL:
                return IOS_ERRNO_REFUSED;
        case EAGAIN:
        case EINTR:
        case EBUSY:
        case ENOMEM:
        case EMFILE:
        case ENFILE:
                return IOS_ERRNO_RETRY;
        default:
                return IOS_ERRNO_FAILED;
        }
}

const char *ios_errno_reason(int e)
{
        switch (ios_errno_class(e)) {
        case IOS_ERRNO_GONE:
                return "device vanished";
        case IOS_ERRNO_READONLY:
                return -e == EROFS ? "/sys is read-only (container?)"
                                   : "permission denied (not root, or /sys read-only)";
        default:
                return ios_strerror(e);
        }
}
