/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ioschedd internals: the coalescing device set, logging, the inotify
 * watch on the policy directories, and the event loop.
 */
#ifndef IOSD_DAEMON_H
#define IOSD_DAEMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "iosched.h"

/* ------------------------------------------------------------------ */
/* devset.c: the set of devices waiting for (re-)application            */
/* ------------------------------------------------------------------ */

/*
 * A sorted set of device numbers with a hard cap.  Events for one device
 * coalesce into one entry however many arrive; past the cap the set
 * forgets its members and raises "all", which means "re-check every
 * disk": memory stays bounded under any event storm and nothing is lost.
 */
struct iosd_devset {
        dev_t *v;
        size_t n, cap, max;
        bool all;
};

void iosd_devset_init(struct iosd_devset *s, size_t max);
/* 1 if added, 0 if already there (or covered by "all"), -ENOMEM. */
int iosd_devset_add(struct iosd_devset *s, dev_t d);
bool iosd_devset_remove(struct iosd_devset *s, dev_t d);
bool iosd_devset_contains(const struct iosd_devset *s, dev_t d);
void iosd_devset_set_all(struct iosd_devset *s);
bool iosd_devset_empty(const struct iosd_devset *s);
/* Empty the set but keep its memory. */
void iosd_devset_clear(struct iosd_devset *s);
void iosd_devset_done(struct iosd_devset *s);

/* ------------------------------------------------------------------ */
/* log.c: stderr lines, with <N> priority prefixes under the journal     */
/* ------------------------------------------------------------------ */

void iosd_log_setup(int max_prio);
void iosd_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool iosd_log_enabled(int prio);
/* The log lines name the change; this quotes a value that may be NULL. */
const char *iosd_str(const char *s);

/* ------------------------------------------------------------------ */
/* watch.c: inotify on the policy files and directories                */
/* ------------------------------------------------------------------ */

struct iosd_watch;

/*
 * Watch what ios_policy_load(conf_root, file, ...) reads: with file, its
 * directory (for that name only); else <root>/etc (iosched.conf and
 * iosched.d), <root>/etc/iosched.d, <root>/run/iosched.d, the vendor
 * directory and their parents (so a directory created later is noticed),
 * plus the directory of every file in extra.  Only *.conf and the watched
 * names count.  Returns the inotify fd through iosd_watch_fd().
 */
int iosd_watch_new(const char *conf_root, const char *file, char * const *extra,
                   struct iosd_watch **ret);
struct iosd_watch *iosd_watch_free(struct iosd_watch *w);
int iosd_watch_fd(const struct iosd_watch *w);
/* Drain the inotify fd: >0 if a relevant change happened, 0 if not, -errno. */
int iosd_watch_process(struct iosd_watch *w);
/* Number of directories watched (for STATUS and tests). */
size_t iosd_watch_count(const struct iosd_watch *w);

/* ------------------------------------------------------------------ */
/* daemon.c: the event loop                                            */
/* ------------------------------------------------------------------ */

enum iosd_monitor {
        IOSD_MONITOR_AUTO,      /* "udev" when udevd runs, else "kernel" */
        IOSD_MONITOR_UDEV,
        IOSD_MONITOR_KERNEL,
        IOSD_MONITOR_NONE,
};

struct iosd_options {
        const char *config_file;        /* --config */
        const char *config_root;        /* --config-root */
        const char *sysroot;            /* --sysroot */
        unsigned policy_flags;          /* IOS_POLICY_* */
        bool initial_apply;
        enum iosd_monitor monitor;
        int64_t drift_override_ms;      /* --drift-interval, -1 = from the policy */
};

/* How the daemon ended; main.c maps it to the exit status (ioschedd(8)). */
enum iosd_end {
        IOSD_STOPPED,                   /* SIGTERM or SIGINT */
        IOSD_FAILED,                    /* runtime failure: event loop, uevent socket, timers */
        IOSD_BAD_START,                 /* no usable root or policy at start */
};

enum iosd_end iosd_run(const struct iosd_options *o);

#endif
