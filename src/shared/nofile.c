/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * nofile.c: the descriptor limit.  A device keeps its sysfs directory open
 * for its lifetime, so listing many disks needs one descriptor each: a 2,000-disk JBOD passes the usual soft
 * limit of 1024.  Raise the soft limit to the hard one, as systemd's tools do.
 */
#include <errno.h>
#include <sys/resource.h>

#include "nofile.h"

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
