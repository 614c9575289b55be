/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * timers.c: ioschedd's epoll registrations and timerfds: arming and
 * draining one, and before each wait the retry timer at the retry table's
 * earliest entry and the yield timer ticking while a benchmark holds a
 * disk, each closed when its table is empty (daemon.c's loop calls
 * iosd_sync_timers()).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "state.h"
#include "macro.h"

int iosd_epoll_add(struct iosd_daemon *d, int fd, uint32_t tag)
{
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

        return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int iosd_timer_arm(int fd, uint64_t first_ms, uint64_t interval_ms)
{
        struct itimerspec its = {
                .it_value = { (time_t)(first_ms / 1000), (long)(first_ms % 1000) * 1000000L },
                .it_interval = { (time_t)(interval_ms / 1000), (long)(interval_ms % 1000) * 1000000L },
        };

        return timerfd_settime(fd, 0, &its, NULL) < 0 ? -errno : 0;
}

void iosd_timer_drain(int fd)
{
        uint64_t n;

        (void)!read(fd, &n, sizeof(n));
}

/* ------------------------------------------------------------------ */
/* the retry and yield timers                                          */
/* ------------------------------------------------------------------ */

/* A timerfd in *fd registered under TAG, unless *fd is open already. */
int iosd_timer_open(struct iosd_daemon *d, int *fd, uint32_t tag)
{
        int e;

        if (*fd >= 0)
                return 0;
        *fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (*fd < 0)
                return -errno;
        e = iosd_epoll_add(d, *fd, tag);
        if (e < 0) {
                close(*fd);
                *fd = -1;
        }
        return e;
}

void iosd_timer_close(int *fd)
{
        if (*fd >= 0) {
                close(*fd);     /* leaves the epoll set */
                *fd = -1;
        }
}

/* Before each wait: the retry timer at the earliest retry, the yield timer
 * ticking while a disk is held; each closed when its table is empty. */
bool iosd_sync_timers(struct iosd_daemon *d)
{
        uint64_t next = iosd_retry_next(&d->retries), now;
        bool dropped = false;
        int e;

        if (next == UINT64_MAX)
                iosd_timer_close(&d->retry_fd);
        else {
                now = iosd_now_ms();
                e = iosd_timer_open(d, &d->retry_fd, TAG_RETRY);
                if (e >= 0)
                        e = iosd_timer_arm(d->retry_fd, next > now ? next - now : 1, 0);
                if (e < 0) {
                        /* without a timer nothing would ever retry them: say so, once each */
                        for (size_t i = 0; i < d->retries.n; i++)
                                iosd_log(LOG_ERR, "%u:%u: cannot schedule a retry (%s); the policy is not "
                                         "applied until the next uevent or reload", major(d->retries.v[i].dev),
                                         minor(d->retries.v[i].dev), ios_strerror(e));
                        d->n_failed += d->retries.n;
                        d->retries.n = 0;
                        iosd_timer_close(&d->retry_fd);
                        dropped = true;
                }
        }
        if (d->yields.n == 0)
                iosd_timer_close(&d->yield_fd);
        else if (d->yield_fd < 0) {
                e = iosd_timer_open(d, &d->yield_fd, TAG_YIELD);
                if (e >= 0)
                        e = iosd_timer_arm(d->yield_fd, YIELD_POLL_MS, YIELD_POLL_MS);
                if (e < 0) {
                        iosd_timer_close(&d->yield_fd);
                        /* without the timer only the next event, reload or drift check sees the end */
                        iosd_log(LOG_WARNING, "cannot watch for the end of iosched-bench (%s); its disks get "
                                 "the policy at the next event, reload or drift check", ios_strerror(e));
                        d->yields.n = 0;
                }
        }
        return dropped;
}
