/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * procs.c: what /proc says of a process that the run's end needs: its
 * stat line's fields after the name (state, process group, start time)
 * and its children (task/PID/children, Linux 3.5).  Read into the
 * caller's buffers: the guard reads them after a kill -9 and allocates
 * nothing on the way (guard.c), fioproc.c at the end of each fio.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guard.h"

/* A small /proc file into buf, NUL-terminated: 0, or -errno (the process is gone) */
static int read_small(const char *path, char *buf, size_t len)
{
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n;

        if (fd < 0)
                return -errno;
        n = read(fd, buf, len - 1);
        close(fd);
        buf[n > 0 ? n : 0] = '\0';
        return n > 0 ? 0 : -ESRCH;
}

int bench_proc_stat(pid_t pid, char *buf, size_t len)
{
        char path[64], *p;
        int r;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        r = read_small(path, buf, len);
        if (r < 0)
                return r;
        /* the name may hold ") ": the fields start after the last ')' */
        p = strrchr(buf, ')');
        if (!p || p[1] != ' ')
                return -EINVAL;
        memmove(buf, p + 2, strlen(p + 2) + 1);
        return 0;
}

unsigned long long bench_proc_start(pid_t pid)
{
        char buf[1024];
        unsigned long long t = 0;

        /* after the name: state (3) ... starttime (22) */
        if (bench_proc_stat(pid, buf, sizeof(buf)) < 0 ||
            sscanf(buf, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
                   &t) != 1)
                return 0;
        return t;
}

size_t bench_proc_children(pid_t pid, pid_t *v, size_t max)
{
        char path[64], buf[4096];
        size_t n = 0;

        snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
        if (read_small(path, buf, sizeof(buf)) < 0)
                return 0;
        for (char *t = strtok(buf, " \n"); t && n < max; t = strtok(NULL, " \n"))
                if (atoi(t) > 1)
                        v[n++] = (pid_t)atoi(t);
        return n;
}
