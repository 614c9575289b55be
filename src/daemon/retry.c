/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * retry.c: transient failures, tried again.  Only ios_errno_class()'s GONE
 * (ENODEV, ENOENT, ENXIO) means a disk is gone; any other failure to look
 * up or plan a disk (EAGAIN from a lookup that kept racing renames, EMFILE,
 * ENOMEM) keeps its event alive in a small table, tried again from a
 * one-shot timerfd that exists only while the table is not empty.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "daemon-internal.h"
#include "macro.h"


/*
 * Only what ios_errno_class() calls GONE (ENODEV, ENOENT, ENXIO) means that
 * a device is gone.  Anything else (EAGAIN from
 * a lookup that kept racing renames, ENOMEM, EMFILE, EIO) is not a reason to
 * drop its event: the device goes into the retry table, tried again after
 * 10, 20, 40 ... ms by a one-shot timerfd, and after RETRY_TRIES attempts
 * given up on with an error line.  A "remove" uevent or a success forgets it.
 */
bool iosd_is_gone(int e)
{
        return ios_errno_class(e) == IOS_ERRNO_GONE;
}

static uint64_t now_ms(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct retry *retry_find(struct daemon *d, dev_t dev)
{
        for (size_t i = 0; i < d->n_retry; i++)
                if (d->retry[i].dev == dev)
                        return &d->retry[i];
        return NULL;
}

static void retry_drop(struct daemon *d, struct retry *r)
{
        *r = d->retry[--d->n_retry];
}

/* (Re)arm the timer for the earliest retry; close it when nothing is left. */
static void retry_arm(struct daemon *d)
{
        uint64_t first = UINT64_MAX, now;
        int e;

        if (d->n_retry == 0) {
                if (d->retry_fd >= 0) {
                        close(d->retry_fd);     /* leaves the epoll set */
                        d->retry_fd = -1;
                }
                return;
        }
        for (size_t i = 0; i < d->n_retry; i++)
                if (d->retry[i].due_ms < first)
                        first = d->retry[i].due_ms;
        if (d->retry_fd < 0) {
                d->retry_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
                if (d->retry_fd < 0) {
                        e = -errno;
                        goto fail;
                }
                e = iosd_epoll_add(d, d->retry_fd, TAG_RETRY);
                if (e < 0) {
                        close(d->retry_fd);
                        d->retry_fd = -1;
                        goto fail;
                }
        }
        now = now_ms();
        e = iosd_arm(d->retry_fd, first > now ? first - now : 1, 0);
        if (e >= 0)
                return;
fail:
        /* without a timer nothing would ever retry them: say so, once each */
        for (size_t i = 0; i < d->n_retry; i++)
                iosd_log(LOG_ERR, "%u:%u: cannot schedule a retry (%s); the policy is not applied "
                         "until the next uevent or reload", major(d->retry[i].dev),
                         minor(d->retry[i].dev), strerror(-e));
        d->n_failed += d->n_retry;
        d->n_retry = 0;
}

/* The last attempt for dev failed with e, not because it is gone. */
void iosd_retry_schedule(struct daemon *d, dev_t dev, const char *name, const char *what, int e)
{
        struct retry *r = retry_find(d, dev);
        uint64_t delay;

        if (!r) {
                if (d->n_retry == d->cap_retry) {
                        size_t cap = d->cap_retry ? d->cap_retry * 2 : 16;
                        struct retry *v = cap <= RETRY_MAX ? reallocarray(d->retry, cap, sizeof(*v)) : NULL;

                        if (!v) {
                                d->n_failed++;
                                iosd_log(LOG_ERR, "%s: %s%s%s; too many disks to retry, the policy is "
                                         "not applied until the next uevent or reload", name,
                                         what ? what : "", what ? ": " : "", strerror(-e));
                                return;
                        }
                        d->retry = v;
                        d->cap_retry = cap;
                }
                r = &d->retry[d->n_retry++];
                *r = (struct retry){ .dev = dev };
        }
        r->tries++;
        if (r->tries >= RETRY_TRIES) {
                d->n_failed++;
                iosd_log(LOG_ERR, "%s: %s%s%s; giving up after %u attempts, the policy is not applied "
                         "until the next uevent or reload", name, what ? what : "", what ? ": " : "",
                         strerror(-e), r->tries);
                retry_drop(d, r);
        } else {
                delay = (uint64_t)RETRY_FIRST_MS << (r->tries - 1);
                r->due_ms = now_ms() + delay;
                iosd_log(LOG_WARNING, "%s: %s%s%s; retrying in %" PRIu64 " ms (attempt %u of %u)",
                         name, what ? what : "", what ? ": " : "", strerror(-e), delay,
                         r->tries + 1, RETRY_TRIES);
        }
        retry_arm(d);
}

void iosd_retry_forget(struct daemon *d, dev_t dev)
{
        struct retry *r = retry_find(d, dev);

        if (r) {
                retry_drop(d, r);
                retry_arm(d);
        }
}

/* The retry timer fired: try every device that is due. */
void iosd_retry_run(struct daemon *d)
{
        uint64_t now = now_ms();
        dev_t *due;
        size_t n = 0;

        if (d->retry_fd < 0)
                return;         /* closed earlier in this epoll batch */
        iosd_drain_timer(d->retry_fd);
        due = calloc(d->n_retry ? d->n_retry : 1, sizeof(*due));
        if (!due) {
                retry_arm(d);   /* try again at the next expiry */
                return;
        }
        for (size_t i = 0; i < d->n_retry; i++)
                if (d->retry[i].due_ms <= now)
                        due[n++] = d->retry[i].dev;
        iosd_log(LOG_DEBUG, "retry: %zu device(s) due, %zu waiting", n, d->n_retry - n);
        /* iosd_apply_devnum() forgets or reschedules each, and re-arms the timer */
        for (size_t i = 0; i < n; i++)
                iosd_apply_devnum(d, due[i], R_EVENT);
        free(due);
        retry_arm(d);
        iosd_notify_status(d);
}
