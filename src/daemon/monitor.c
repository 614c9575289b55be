/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * monitor.c: ioschedd's uevent source.  The udev monitor when udevd runs
 * (its events come with the udev database filled in), else the kernel's;
 * none on a captured tree.  A batch of uevents is drained into the pending
 * set (devset.c), one entry per device however many events it had; a
 * "remove" forgets the disk in every table.  daemon.c polls the fd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <syslog.h>
#include <unistd.h>

#include <libudev.h>

#include "state.h"
#include "macro.h"

#define UDEVD_CONTROL "/run/udev/control"

/*
 * Whether udevd runs: its control socket accepts a connection.  The file
 * alone proves nothing: udevd leaves it behind when it is stopped or
 * killed, and connect() then fails with ECONNREFUSED.  Nothing is sent (udevd
 * drops the empty connection).  Returns 1 when it runs, 0 when there is no
 * socket (a system without udev), -1 when there is one nobody answers on;
 * *why says what was found.
 */
static int udevd_running(const char **why)
{
        struct sockaddr_un sa = { .sun_family = AF_UNIX };
        int fd, r;

        memcpy(sa.sun_path, UDEVD_CONTROL, sizeof(UDEVD_CONTROL));
        fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        if (fd < 0) {
                *why = ios_strerror(errno);
                return -1;
        }
        r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
        /* EAGAIN: a full backlog, someone listens; EPROTOTYPE: a socket of another type is bound there */
        if (r == 0 || errno == EAGAIN || errno == EINPROGRESS || errno == EPROTOTYPE) {
                close(fd);
                return 1;
        }
        r = errno == ENOENT ? 0 : -1;
        *why = errno == ENOENT       ? "it does not exist" :
               errno == ECONNREFUSED ? "nobody listens on it (a stale socket: udevd stopped)" :
                                       ios_strerror(errno);
        close(fd);
        return r;
}

int iosd_monitor_open(struct iosd_daemon *d)
{
        enum iosd_monitor m = d->o->monitor;
        const char *why = NULL;
        int e;

        if (m == IOSD_MONITOR_AUTO && !ios_ctx_is_host(d->ctx))
                m = IOSD_MONITOR_NONE;  /* a captured tree has no uevents */
        /* udevd's processed events (with the udev database filled in) are the
         * ones to follow; without udevd nobody relays them: listen to the kernel */
        if (m == IOSD_MONITOR_AUTO || m == IOSD_MONITOR_UDEV) {
                int u = udevd_running(&why);

                if (u <= 0 && m == IOSD_MONITOR_UDEV)
                        iosd_log(LOG_WARNING, "--monitor udev: udevd is not running (%s: %s), so no udev "
                                 "event would ever come; listening to kernel uevents instead", UDEVD_CONTROL, why);
                else if (u < 0)
                        iosd_log(LOG_WARNING, "udevd is not running (%s: %s): listening to kernel uevents",
                                 UDEVD_CONTROL, why);
                else if (u == 0)
                        iosd_log(LOG_INFO, "no udevd (%s: %s): listening to kernel uevents", UDEVD_CONTROL, why);
                m = u > 0 ? IOSD_MONITOR_UDEV : IOSD_MONITOR_KERNEL;
        }
        if (m == IOSD_MONITOR_NONE) {
                d->monitor_name = "none";
                return 0;
        }
        d->monitor_name = m == IOSD_MONITOR_UDEV ? "udev" : "kernel";
        d->udev = udev_new();
        if (!d->udev)
                return -ENOMEM;
        d->mon = udev_monitor_new_from_netlink(d->udev, d->monitor_name);
        if (!d->mon)
                return errno ? -errno : -EIO;
        e = udev_monitor_filter_add_match_subsystem_devtype(d->mon, "block", "disk");
        if (e >= 0)
                e = udev_monitor_enable_receiving(d->mon);
        if (e < 0)
                return e;
        iosd_log(LOG_DEBUG, "listening to %s block/disk events", d->monitor_name);
        return udev_monitor_get_fd(d->mon);
}

void iosd_monitor_receive(struct iosd_daemon *d)
{
        for (int i = 0; i < RECV_BATCH; i++) {
                struct udev_device *ud;
                const char *action;
                dev_t devnum;

                errno = 0;
                ud = udev_monitor_receive_device(d->mon);
                if (!ud) {
                        if (errno == ENOBUFS) {
                                /* the kernel dropped events: we cannot know which */
                                iosd_log(LOG_WARNING, "uevents were lost (receive buffer overrun); "
                                         "re-checking every disk");
                                iosd_devset_set_all(&d->pending);
                        }
                        break;
                }
                d->n_events++;
                action = udev_device_get_action(ud);
                devnum = udev_device_get_devnum(ud);
                iosd_log(LOG_DEBUG, "uevent %s %s (%u:%u)", iosd_str(action),
                         iosd_str(udev_device_get_sysname(ud)), major(devnum), minor(devnum));
                if (major(devnum) == 0)
                        ;
                else if (action && streq(action, "remove")) {
                        const char *seq = udev_device_get_property_value(ud, "DISKSEQ");

                        iosd_seen_forget(d, devnum, seq ? strtoull(seq, NULL, 10) : 0);
                        (void)iosd_devset_remove(&d->pending, devnum);
                        (void)iosd_devset_remove(&d->quiet, devnum);
                        (void)iosd_retry_forget(&d->retries, devnum);
                        (void)iosd_yield_forget(&d->yields, devnum);
                } else if (!action || streq(action, "add") || streq(action, "change") ||
                           streq(action, "move") || streq(action, "online")) {
                        (void)iosd_devset_remove(&d->quiet, devnum);
                        (void)iosd_devset_add(&d->pending, devnum);
                }
                udev_device_unref(ud);
        }
}
