/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * yield.c: ioschedd leaves a disk alone while iosched-bench switches its
 * scheduler (the benchmark's lock, src/lib/benchlock.c).  A drift check in
 * the middle of a --compare would put the policy's scheduler back, and the
 * benchmark would measure the policy's scheduler under another name.  The
 * disk is said once when it is left alone and once when the benchmark has
 * ended (the benchmark restores what it found), seen by a one-second
 * timerfd that is open only while some disk waits, or by whatever looks at
 * the disk first; the policy is then applied to it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon-internal.h"
#include "macro.h"

#define YIELD_POLL_MS 1000

static struct iosd_yield *find(struct daemon *d, dev_t dev)
{
        for (size_t i = 0; i < d->n_yield; i++)
                if (d->yield[i].dev == dev)
                        return &d->yield[i];
        return NULL;
}

static void arm(struct daemon *d)
{
        int e;

        if (d->n_yield == 0) {
                if (d->yield_fd >= 0) {
                        close(d->yield_fd);     /* leaves the epoll set */
                        d->yield_fd = -1;
                }
                return;
        }
        if (d->yield_fd >= 0)
                return;                         /* periodic already */
        d->yield_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        e = d->yield_fd < 0 ? -errno : iosd_epoll_add(d, d->yield_fd, TAG_YIELD);
        if (e >= 0)
                e = iosd_arm(d->yield_fd, YIELD_POLL_MS, YIELD_POLL_MS);
        if (e >= 0)
                return;
        if (d->yield_fd >= 0)
                close(d->yield_fd);
        d->yield_fd = -1;
        /* without the timer only the next event, reload or drift check sees the end */
        iosd_log(LOG_WARNING, "cannot watch for the end of iosched-bench (%s); its disks get the policy "
                 "at the next event, reload or drift check", strerror(-e));
        d->n_yield = 0;
}

static void ended(struct daemon *d, struct iosd_yield *y)
{
        iosd_log(LOG_INFO, "%s: iosched-bench has ended; checking the disk against the policy", y->name);
        *y = d->yield[--d->n_yield];
        arm(d);
}

enum iosd_yield_state iosd_yield_check(struct daemon *d, const struct ios_device *dev)
{
        dev_t devnum = makedev(dev->major, dev->minor);
        struct iosd_yield *y = find(d, devnum);
        long pid = 0;
        int e = ios_bench_lock_holder(d->ctx, dev->major, dev->minor, &pid);

        if (e < 0)
                iosd_log(LOG_DEBUG, "%s: cannot tell whether iosched-bench runs on it: %s", dev->name,
                         strerror(-e));
        if (e <= 0) {
                if (!y)
                        return IOSD_FREE;
                ended(d, y);
                return IOSD_ENDED;
        }
        if (y)
                return IOSD_HELD;               /* said already */
        /* what the benchmark leaves is its own: the next look at the disk is a first one (seen.c) */
        iosd_seen_forget(d, devnum, 0);
        if (d->n_yield < YIELD_MAX) {
                struct iosd_yield *v = d->n_yield == d->cap_yield
                        ? reallocarray(d->yield, d->cap_yield ? 2 * d->cap_yield : 8, sizeof(*v)) : d->yield;

                if (v) {
                        if (d->n_yield == d->cap_yield)
                                d->cap_yield = d->cap_yield ? 2 * d->cap_yield : 8;
                        d->yield = v;
                        y = &d->yield[d->n_yield++];
                        *y = (struct iosd_yield){ .dev = devnum };
                        snprintf(y->name, sizeof(y->name), "%s", dev->name);
                }
        }
        if (pid > 0)
                iosd_log(LOG_NOTICE, "%s: iosched-bench (pid %ld) is comparing schedulers on it; left alone "
                         "until it ends", dev->name, pid);
        else
                iosd_log(LOG_NOTICE, "%s: iosched-bench is comparing schedulers on it; left alone until it ends",
                         dev->name);
        arm(d);
        return IOSD_HELD;
}

/* The poll timer fired: apply the policy to each disk whose benchmark has ended. */
void iosd_yield_poll(struct daemon *d)
{
        if (d->yield_fd < 0)
                return;                         /* closed earlier in this epoll batch */
        iosd_drain_timer(d->yield_fd);
        /* downwards: ended() moves the last entry into i, and a new benchmark is added at the end */
        for (size_t i = d->n_yield; i-- > 0;) {
                dev_t dev = d->yield[i].dev;
                long pid;

                if (ios_bench_lock_holder(d->ctx, major(dev), minor(dev), &pid) > 0)
                        continue;
                ended(d, &d->yield[i]);
                iosd_apply_devnum(d, dev, R_BENCH);
        }
        iosd_notify_status(d);
}

/* The disk was removed. */
void iosd_yield_forget(struct daemon *d, dev_t dev)
{
        struct iosd_yield *y = find(d, dev);

        if (!y)
                return;
        *y = d->yield[--d->n_yield];
        arm(d);
}
