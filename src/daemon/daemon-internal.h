/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* ioschedd's event loop state, shared by daemon.c (the loop, policy, event
 * sources), apply.c (planning and applying a disk) and retry.c (transient
 * failures tried again).  Not an API: the daemon's own files only. */
#ifndef IOSD_DAEMON_INTERNAL_H
#define IOSD_DAEMON_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <libudev.h>

#include "daemon.h"

#define DEVSET_MAX      4096    /* distinct devices per batch before "re-check all" */
#define RECV_BATCH      4096    /* uevents read before a batch is processed */
#define DEBOUNCE_MS     150     /* quiet time after a policy edit before reloading */
#define RETRY_FIRST_MS  10      /* first retry of a transient failure; doubles each time */
#define RETRY_TRIES     10      /* attempts in all, the event's own included: retries over ~5 s */
#define RETRY_MAX       DEVSET_MAX
#define YIELD_MAX       DEVSET_MAX     /* disks left to a running iosched-bench */

enum { TAG_SIGNAL = 1, TAG_MONITOR, TAG_WATCH, TAG_DEBOUNCE, TAG_DRIFT, TAG_RETRY, TAG_YIELD };

/* A device whose event failed for a reason other than "it is gone". */
struct retry {
        dev_t dev;
        unsigned tries;         /* attempts that failed so far */
        uint64_t due_ms;        /* CLOCK_MONOTONIC */
};

/* A disk left alone while iosched-bench holds its lock (yield.c). */
struct iosd_yield {
        dev_t dev;
        char name[32];
};

/* A disk the daemon has planned: its number and diskseq (seen.c). */
struct iosd_seen {
        dev_t dev;
        uint64_t seq;
};

enum reason { R_START, R_EVENT, R_RESCAN, R_RELOAD, R_DRIFT, R_BENCH };
extern const char * const iosd_reason_names[];

struct daemon {
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
        struct retry *retry;            /* transient failures to try again, unsorted */
        size_t n_retry, cap_retry;
        int retry_fd;                   /* one-shot timerfd, open only while retry is not empty */
        struct iosd_yield *yield;       /* disks a benchmark holds, unsorted */
        size_t n_yield, cap_yield;
        int yield_fd;                   /* periodic timerfd, open only while yield is not empty */
        struct iosd_seen *seen;         /* disks planned before, sorted by number */
        size_t n_seen, cap_seen;
        bool have_seq;                  /* the kernel has shown a diskseq */
        char **refused;                 /* "maj:min key=wanted" the kernel did not keep, this policy load */
        uint64_t n_changes, n_drift, n_failed, n_events;
        char policy_error[sizeof(((struct ios_error *)0)->file) + sizeof(((struct ios_error *)0)->msg) + 160];
        bool quit;
};

/* daemon.c */
int iosd_epoll_add(struct daemon *d, int fd, uint32_t tag);
int iosd_arm(int fd, uint64_t first_ms, uint64_t interval_ms);
void iosd_notify_status(struct daemon *d);
void iosd_drain_timer(int fd);

/* apply.c: plan and apply one disk (by number) or every disk, logging what happened */
void iosd_apply_devnum(struct daemon *d, dev_t devnum, enum reason why);
void iosd_apply_all(struct daemon *d, enum reason why);

/* fight.c: a value restored twice within minutes is said once, with the other writers */
void iosd_fight_note(const struct daemon *d, dev_t dev, uint64_t seq, const char *name,
                     const struct ios_change *c);

/* yield.c: disks left alone while iosched-bench switches their scheduler */
enum iosd_yield_state { IOSD_FREE, IOSD_HELD, IOSD_ENDED };
enum iosd_yield_state iosd_yield_check(struct daemon *d, const struct ios_device *dev);
void iosd_yield_poll(struct daemon *d);
void iosd_yield_forget(struct daemon *d, dev_t dev);

/* seen.c: the diskseq each device number had when it was last planned */
bool iosd_seen_is(const struct daemon *d, dev_t dev, uint64_t seq);
void iosd_seen_set(struct daemon *d, dev_t dev, uint64_t seq);
void iosd_seen_forget(struct daemon *d, dev_t dev, uint64_t seq);

/* retry.c */
bool iosd_is_gone(int e);
void iosd_retry_schedule(struct daemon *d, dev_t dev, const char *name, const char *what, int e);
void iosd_retry_forget(struct daemon *d, dev_t dev);
void iosd_retry_run(struct daemon *d);

#endif
