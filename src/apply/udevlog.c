/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udevlog.c: where `iosched-apply --udev` says what it did.  Run by udev,
 * its standard streams are not read, so lines go to syslog, which is the
 * journal on a running system.  In the initramfs there is no syslog socket
 * (no journald yet) and syslog(3) would drop every line silently: there they
 * go to the kernel log (/dev/kmsg), as systemd-udevd's own do, and the
 * journal picks them up with the kernel's timestamps after switch_root, so
 * the early-boot apply of the root disk can be seen and timed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/vfs.h>
#include <syslog.h>
#include <unistd.h>

#include <stdbool.h>

#include "apply.h"

static const char *log_prog;
static int kmsg_fd = -1;
static bool log_ready;

/* The initramfs: its root is the kernel's rootfs, a ramfs or tmpfs. */
static bool in_initramfs(void)
{
        struct statfs sf;

        return statfs("/", &sf) == 0 && (sf.f_type == RAMFS_MAGIC || sf.f_type == TMPFS_MAGIC);
}

/* Where lines go is looked at with the first line: a disk already in place logs none. */
void apply_log_open(const char *prog)
{
        log_prog = prog;
        log_ready = false;
}

static void log_setup(void)
{
        log_ready = true;
        openlog(log_prog, LOG_PID, LOG_DAEMON);
        if (access("/dev/log", W_OK) != 0 && in_initramfs())
                kmsg_fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC | O_NOCTTY);
}

void apply_log(int prio, const char *fmt, ...)
{
        char line[1024];
        va_list ap;
        int n;

        if (!log_ready)
                log_setup();
        va_start(ap, fmt);
        if (kmsg_fd < 0) {
                vsyslog(prio, fmt, ap);
                va_end(ap);
                return;
        }
        /* "<facility|priority>prog[pid]: message", one record per write */
        n = snprintf(line, sizeof(line), "<%d>%s[%d]: ", LOG_DAEMON | LOG_PRI(prio), log_prog, (int)getpid());
        if (n > 0 && (size_t)n < sizeof(line))
                vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
        va_end(ap);
        (void)!write(kmsg_fd, line, strlen(line));
}
