/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rwhint.c: the write hint of a file or device (RWH_WRITE_LIFE_*, Linux
 * 4.13), which its inode keeps after the descriptor that set it is closed:
 * read, and put back and read back, always on a descriptor (never a path
 * resolved again).  fiohints.c puts back what fio set after each run, the
 * guard after a kill -9.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>

#include "guard.h"
#include "macro.h"

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035      /* F_LINUX_SPECIFIC_BASE + 11 */
#define F_SET_RW_HINT 1036
#endif

int bench_rw_hint_get(int fd, uint64_t *ret)
{
        return fcntl(fd, F_GET_RW_HINT, ret) < 0 ? -errno : 0;
}

int bench_rw_hint_put(int fd, uint64_t want, uint64_t *now)
{
        *now = UINT64_MAX;
        if (fcntl(fd, F_SET_RW_HINT, &want) < 0 || fcntl(fd, F_GET_RW_HINT, now) < 0)
                return -errno;
        return *now == want ? 0 : -EIO;
}

/* fio's names for the hints, "not set" for 0 */
const char *bench_rw_hint_name(uint64_t h, char *buf, size_t size)
{
        static const char * const names[] = { "not set", "none", "short", "medium", "long", "extreme" };

        if (h < ELEMENTSOF(names))
                return names[h];
        snprintf(buf, size, "%ju", (uintmax_t)h);
        return buf;
}
