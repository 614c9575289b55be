/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* state.h: ioschedd's event loop state, shared by daemon.c (the loop, policy, timers),
 * monitor.c (uevents), apply.c (planning and applying a disk) and the tables
 * below them.  Not an API: the daemon's own files and their unit tests only. */
#ifndef IOSD_STATE_H
#define IOSD_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include <libudev.h>

#include "daemon.h"

#define DEVSET_MAX      4096    /* distinct devices per batch before "re-check all" */
#define RECV_BATCH      4096    /* uevents read before a batch is processed */
#define DEBOUNCE_MS     150     /* quiet time after a policy edit before reloading */
#define RETRY_FIRST_MS  10      /* first retry of a transient failure; doubles each time */
#define RETRY_TRIES     10      /* attempts in all, the event's own included: retries over ~5 s */
#define RETRY_MAX       DEVSET_MAX
#define YIELD_MAX       DEVSET_MAX     /* disks left to a running iosched-bench */
#define YIELD_POLL_MS   1000    /* how often the end of a benchmark is looked for */

enum { TAG_SIGNAL = 1, TAG_MONITOR, TAG_WATCH, TAG_DEBOUNCE, TAG_DRIFT, TAG_RETRY, TAG_YIELD };

/* retry.c: a device whose event failed for a reason other than "it is gone". */
struct iosd_retry {
        dev_t dev;
        unsigned tries;         /* attempts that failed so far */
        uint64_t due_ms;        /* CLOCK_MONOTONIC */
};

struct iosd_retries {
        struct iosd_retry *v;   /* unsorted */
        size_t n, cap;
};

/* yield.c: a disk left alone while iosched-bench holds its lock. */
struct iosd_yield {
        dev_t dev;
        char name[32];
};

struct iosd_yields {
        struct iosd_yield *v;   /* unsorted */
        size_t n, cap;
};

/* A disk the daemon has planned: its number and diskseq (seen.c). */
struct iosd_seen {
        dev_t dev;
        uint64_t seq;
};

enum iosd_reason { IOSD_R_START, IOSD_R_EVENT, IOSD_R_RESCAN, IOSD_R_RELOAD, IOSD_R_DRIFT, IOSD_R_BENCH };

struct iosd_daemon {
        const struct iosd_options *o;
        struct ios_ctx *ctx;
        struct ios_policy *policy;
        struct udev *udev;
        struct udev_monitor *mon;
        struct iosd_watch *watch;
        int epfd, sigfd, debounce_fd, drift_fd;
        uint64_t drift_ms;
        const char *monitor_name;
        struct iosd_devset pending;     /* devices with uevents not yet handled */
        struct iosd_devset quiet;       /* failures already reported by a drift check */
        struct iosd_retries retries;    /* transient failures to try again */
        int retry_fd;                   /* one-shot timerfd, open only while retries is not empty */
        struct iosd_yields yields;      /* disks a benchmark holds */
        int yield_fd;                   /* periodic timerfd, open only while yields is not empty */
        struct iosd_seen *seen;         /* disks planned before, sorted by number */
        size_t n_seen, cap_seen;
        bool have_seq;                  /* the kernel has shown a diskseq */
        char **refused;                 /* "maj:min key=wanted" the kernel did not keep, this policy load */
        uint64_t n_changes, n_drift, n_failed, n_events;
        char policy_error[sizeof(((struct ios_error *)0)->file) + sizeof(((struct ios_error *)0)->msg) + 160];
        bool quit;
};

static inline uint64_t iosd_now_ms(void)
{
        struct timespec ts;

        (void)clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/*
 * Who calls whom (docs/daemon.md): main.c -> daemon.c -> monitor.c, apply.c;
 * apply.c -> fight.c; and below them all the leaves retry.c, yield.c, seen.c,
 * devset.c, watch.c, log.c, which call no file of the daemon but log.c.
 * daemon.c alone owns the epoll set and the timerfds.
 */

/* timers.c: epoll registration and timerfds */
int iosd_epoll_add(struct iosd_daemon *d, int fd, uint32_t tag);
int iosd_timer_open(struct iosd_daemon *d, int *fd, uint32_t tag);   /* 0 if already open */
void iosd_timer_close(int *fd);                 /* closes *fd (it leaves the epoll set), sets -1 */
int iosd_timer_arm(int fd, uint64_t first_ms, uint64_t interval_ms);
void iosd_timer_drain(int fd);
bool iosd_sync_timers(struct iosd_daemon *d);   /* true: retries were dropped (status changed) */

/* monitor.c: the udev or kernel uevent socket */
int iosd_monitor_open(struct iosd_daemon *d);        /* the fd to poll if d->mon is set, or -errno */
void iosd_monitor_receive(struct iosd_daemon *d);    /* drain it into d->pending */

/* apply.c: plan and apply one disk (by number) or every disk, logging what happened */
void iosd_apply_devnum(struct iosd_daemon *d, dev_t devnum, enum iosd_reason why);
void iosd_apply_all(struct iosd_daemon *d, enum iosd_reason why);
/* a disk iosched-bench held is free again (yield.c): said, then checked against the policy */
void iosd_apply_bench_ended(struct iosd_daemon *d, const struct iosd_yield *y);

/* fight.c: a value restored twice within minutes is said once, with the other writers */
void iosd_fight_note(const struct iosd_daemon *d, struct ios_device *disk, uint64_t seq, const struct ios_change *c);

/* yield.c: the disks left alone while iosched-bench switches their scheduler */
enum iosd_yield_state {
        IOSD_FREE,              /* not held, not in the table */
        IOSD_YIELDED,           /* held, seen now: in the table (unless it is full) */
        IOSD_HELD,              /* held, in the table already */
        IOSD_ENDED,             /* was in the table, not held any more: taken out */
};
enum iosd_yield_state iosd_yield_note(struct iosd_yields *t, dev_t dev, const char *name, bool held);
/* Take out every disk whose benchmark has ended (held() false) into out
 * (room for t->n); returns how many. */
size_t iosd_yield_ended(struct iosd_yields *t, bool (*held)(void *arg, dev_t dev), void *arg,
                        struct iosd_yield *out);
bool iosd_yield_forget(struct iosd_yields *t, dev_t dev);
void iosd_yield_done(struct iosd_yields *t);

/* seen.c: the diskseq each device number had when it was last planned */
bool iosd_seen_is(const struct iosd_daemon *d, dev_t dev, uint64_t seq);
void iosd_seen_set(struct iosd_daemon *d, dev_t dev, uint64_t seq);
void iosd_seen_forget(struct iosd_daemon *d, dev_t dev, uint64_t seq);

/* retry.c: transient failures and when each is due again */
enum iosd_retry_verdict {
        IOSD_RETRY_LATER,       /* due again at now + *delay_ms, attempt *tries + 1 */
        IOSD_RETRY_GIVE_UP,     /* *tries attempts failed: taken out */
        IOSD_RETRY_FULL,        /* no room (RETRY_MAX, or out of memory): not recorded */
};
enum iosd_retry_verdict iosd_retry_failed(struct iosd_retries *t, dev_t dev, uint64_t now_ms,
                                          unsigned *tries, uint64_t *delay_ms);
bool iosd_retry_forget(struct iosd_retries *t, dev_t dev);
/* The earliest due time, UINT64_MAX when the table is empty. */
uint64_t iosd_retry_next(const struct iosd_retries *t);
/* The devices due at now_ms into out (room for t->n); they stay in the table
 * until iosd_retry_failed() or iosd_retry_forget() says how their attempt went. */
size_t iosd_retry_due(const struct iosd_retries *t, uint64_t now_ms, dev_t *out);
void iosd_retry_done(struct iosd_retries *t);

#endif
