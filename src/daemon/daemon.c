/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * daemon.c: ioschedd's event loop.  One epoll set holds a signalfd
 * (SIGTERM, SIGINT, SIGHUP), the udev monitor, the inotify watch on the
 * policy directories, a one-shot debounce timerfd armed only after a
 * policy edit, and the drift timerfd, which exists only while drift
 * enforcement is on.  With drift off and nothing happening, epoll_wait()
 * sleeps forever: there are no periodic wakeups.
 *
 * Events coalesce per device in a bounded set (devset.c): the monitor is
 * drained first, then every device in the set is planned and applied
 * once, however many events it had.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>
#include <systemd/sd-daemon.h>

#include "daemon.h"
#include "macro.h"

#define DEVSET_MAX      4096    /* distinct devices per batch before "re-check all" */
#define RECV_BATCH      4096    /* uevents read before a batch is processed */
#define DEBOUNCE_MS     150     /* quiet time after a policy edit before reloading */
#define RETRY_FIRST_MS  10      /* first retry of a transient failure; doubles each time */
#define RETRY_TRIES     10      /* attempts in all, the event's own included: retries over ~5 s */
#define RETRY_MAX       DEVSET_MAX

enum { TAG_SIGNAL = 1, TAG_MONITOR, TAG_WATCH, TAG_DEBOUNCE, TAG_DRIFT, TAG_RETRY };

/* A device whose event failed for a reason other than "it is gone". */
struct retry {
        dev_t dev;
        unsigned tries;         /* attempts that failed so far */
        uint64_t due_ms;        /* CLOCK_MONOTONIC */
};

enum reason { R_START, R_EVENT, R_RESCAN, R_RELOAD, R_DRIFT };
static const char * const reason_names[] = {
        [R_START] = "start", [R_EVENT] = "uevent", [R_RESCAN] = "rescan",
        [R_RELOAD] = "reload", [R_DRIFT] = "drift",
};

struct daemon {
        const struct iosd_options *o;
        struct ios_root *root;
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
        char **refused;                 /* "maj:min key=wanted" the kernel did not keep, this policy load */
        uint64_t n_changes, n_drift, n_failed, n_events;
        char policy_error[sizeof(((struct ios_error *)0)->file) + sizeof(((struct ios_error *)0)->msg) + 48];
        bool quit;
};

static int epoll_add(struct daemon *d, int fd, uint32_t tag)
{
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

        return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

static int arm(int fd, uint64_t first_ms, uint64_t interval_ms)
{
        struct itimerspec its = {
                .it_value = { (time_t)(first_ms / 1000), (long)(first_ms % 1000) * 1000000L },
                .it_interval = { (time_t)(interval_ms / 1000), (long)(interval_ms % 1000) * 1000000L },
        };

        return timerfd_settime(fd, 0, &its, NULL) < 0 ? -errno : 0;
}

static void notify_status(struct daemon *d)
{
        char drift[64];

        if (d->drift_ms)
                snprintf(drift, sizeof(drift), "every %" PRIu64 " ms", d->drift_ms);
        else
                snprintf(drift, sizeof(drift), "off");
        (void)sd_notifyf(0, "STATUS=%s%s%" PRIu64 " change(s) made, %" PRIu64 " drift(s) restored, "
                         "%" PRIu64 " failure(s); drift enforcement %s; monitor %s",
                         d->policy_error[0] ? d->policy_error : "",
                         d->policy_error[0] ? "; " : "",
                         d->n_changes, d->n_drift, d->n_failed, drift, d->monitor_name);
}

/* ------------------------------------------------------------------ */
/* applying                                                            */
/* ------------------------------------------------------------------ */

static void log_failures(struct daemon *d, const struct ios_plan *plan, int prio)
{
        for (size_t i = 0; i < plan->n; i++) {
                const struct ios_change *c = &plan->c[i];

                if (c->state != IOS_CHANGE_FAILED)
                        continue;
                d->n_failed++;
                iosd_log(prio, "%s: %s (%s)", plan->dev->name, c->msg ? c->msg : c->key,
                         iosd_str(c->source));
        }
}

/* A value the kernel refused or did not keep: said once per device and policy load. */
static char *refused_key(dev_t devnum, const struct ios_change *c)
{
        char *k = NULL;

        if (asprintf(&k, "%u:%u %s=%s", major(devnum), minor(devnum), c->key, iosd_str(c->wanted)) < 0)
                return NULL;
        return k;
}

/* Returns the -errno of ios_plan_build() (the plan failed, logged here), else 0. */
static int apply_one(struct daemon *d, struct ios_device *dev, enum reason why)
{
        dev_t devnum = makedev(dev->major, dev->minor);
        bool quiet = why == R_DRIFT && iosd_devset_contains(&d->quiet, devnum);
        int fail_prio = quiet ? LOG_DEBUG : LOG_WARNING;
        struct ios_plan plan;
        int e;

        e = ios_plan_build(d->policy, dev, &plan);
        if (e < 0) {
                if (e == -ENOENT || e == -ENODEV)
                        iosd_log(LOG_DEBUG, "%s: vanished before it could be planned", dev->name);
                else
                        iosd_log(fail_prio, "%s: cannot plan: %s", dev->name, strerror(-e));
                return e;
        }
        /* the drift check does not "restore" what the kernel would refuse again */
        for (size_t i = 0; why == R_DRIFT && i < plan.n; i++) {
                struct ios_change *c = &plan.c[i];
                _cleanup_free_ char *k = NULL;

                if (c->state != IOS_CHANGE_DRIFT || !(k = refused_key(devnum, c)))
                        continue;
                if (ios_strv_contains(d->refused, k))
                        c->state = IOS_CHANGE_SKIPPED;
        }
        if (ios_plan_count(&plan, IOS_CHANGE_DRIFT) > 0) {
                if (why == R_DRIFT)
                        for (size_t i = 0; i < plan.n; i++) {
                                const struct ios_change *c = &plan.c[i];

                                /* a value we had set, changed by somebody else */
                                if (c->state == IOS_CHANGE_DRIFT && c->current)
                                        iosd_log(LOG_NOTICE, "%s: %s was changed behind our back: "
                                                 "found '%s', policy wants '%s' (%s); restoring",
                                                 dev->name, c->key, c->current, iosd_str(c->wanted),
                                                 iosd_str(c->source));
                        }
                (void)ios_plan_apply(&plan);
                for (size_t i = 0; i < plan.n; i++) {
                        const struct ios_change *c = &plan.c[i];

                        if (c->state != IOS_CHANGE_APPLIED)
                                continue;
                        d->n_changes++;
                        d->n_drift += why == R_DRIFT;
                        if (why == R_DRIFT && c->current)
                                continue;       /* said above, with what was found */
                        iosd_log(LOG_INFO, "%s: %s: '%s' -> '%s' (%s, %s)", dev->name, c->key,
                                 c->current ? c->current : "(default)", iosd_str(c->wanted),
                                 reason_names[why], iosd_str(c->source));
                }
        }
        /* a refused value is said once per device and policy load, whatever the reason to apply */
        for (size_t i = 0; i < plan.n; i++) {
                struct ios_change *c = &plan.c[i];
                _cleanup_free_ char *k = NULL;

                if (c->state != IOS_CHANGE_FAILED || c->error != -EINVAL || !(k = refused_key(devnum, c)))
                        continue;
                if (ios_strv_contains(d->refused, k))
                        c->state = IOS_CHANGE_SKIPPED;  /* said before */
                else {
                        (void)ios_strv_push(&d->refused, TAKE_PTR(k));
                        d->n_failed++;
                        iosd_log(LOG_WARNING, "%s: %s (%s); reported once until the policy is reloaded",
                                 dev->name, c->msg ? c->msg : c->key, iosd_str(c->source));
                        c->state = IOS_CHANGE_SKIPPED;  /* said here */
                }
        }
        /* failures of planning (scheduler not offered) and of writing, once */
        log_failures(d, &plan, fail_prio);
        for (char **n = plan.notes; n && *n; n++)
                iosd_log(why == R_DRIFT ? LOG_DEBUG : LOG_INFO, "%s: note: %s", dev->name, *n);
        /* a failure that repeats is reported once by the drift checks, until
         * an event or a reload for the disk */
        if (ios_plan_count(&plan, IOS_CHANGE_FAILED) > 0)
                (void)iosd_devset_add(&d->quiet, devnum);
        else
                (void)iosd_devset_remove(&d->quiet, devnum);
        ios_plan_done(&plan);
        return 0;
}

/* ------------------------------------------------------------------ */
/* retrying transient failures                                         */
/* ------------------------------------------------------------------ */

static void drain_timer(int fd);

/*
 * Only ENODEV/ENOENT mean that a device is gone.  Anything else (EAGAIN from
 * a lookup that kept racing renames, ENOMEM, EMFILE, EIO) is not a reason to
 * drop its event: the device goes into the retry table, tried again after
 * 10, 20, 40 ... ms by a one-shot timerfd, and after RETRY_TRIES attempts
 * given up on with an error line.  A "remove" uevent or a success forgets it.
 */
static bool is_gone(int e)
{
        return e == -ENODEV || e == -ENOENT;
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
                e = epoll_add(d, d->retry_fd, TAG_RETRY);
                if (e < 0) {
                        close(d->retry_fd);
                        d->retry_fd = -1;
                        goto fail;
                }
        }
        now = now_ms();
        e = arm(d->retry_fd, first > now ? first - now : 1, 0);
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
static void retry_schedule(struct daemon *d, dev_t dev, const char *name, const char *what, int e)
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

static void retry_forget(struct daemon *d, dev_t dev)
{
        struct retry *r = retry_find(d, dev);

        if (r) {
                retry_drop(d, r);
                retry_arm(d);
        }
}

static void apply_devnum(struct daemon *d, dev_t devnum, enum reason why)
{
        struct ios_device *dev = NULL;
        char name[32];
        int e;

        snprintf(name, sizeof(name), "%u:%u", major(devnum), minor(devnum));
        e = ios_device_new(d->root, name, &dev);
        if (e < 0) {
                if (is_gone(e)) {
                        iosd_log(LOG_DEBUG, "%s: not a disk here (%s), ignoring", name, strerror(-e));
                        retry_forget(d, devnum);
                } else
                        retry_schedule(d, devnum, name, "cannot look the disk up", e);
                return;
        }
        e = apply_one(d, dev, why);     /* logs a failed plan itself */
        if (e < 0 && !is_gone(e))
                retry_schedule(d, devnum, dev->name, NULL, e);
        else
                retry_forget(d, devnum);
        ios_device_free(dev);
}

/* The retry timer fired: try every device that is due. */
static void on_retry(struct daemon *d)
{
        uint64_t now = now_ms();
        dev_t *due;
        size_t n = 0;

        if (d->retry_fd < 0)
                return;         /* closed earlier in this epoll batch */
        drain_timer(d->retry_fd);
        due = calloc(d->n_retry ? d->n_retry : 1, sizeof(*due));
        if (!due) {
                retry_arm(d);   /* try again at the next expiry */
                return;
        }
        for (size_t i = 0; i < d->n_retry; i++)
                if (d->retry[i].due_ms <= now)
                        due[n++] = d->retry[i].dev;
        iosd_log(LOG_DEBUG, "retry: %zu device(s) due, %zu waiting", n, d->n_retry - n);
        /* apply_devnum() forgets or reschedules each, and re-arms the timer */
        for (size_t i = 0; i < n; i++)
                apply_devnum(d, due[i], R_EVENT);
        free(due);
        retry_arm(d);
        notify_status(d);
}

static void apply_all(struct daemon *d, enum reason why)
{
        struct ios_device **devs = NULL;
        size_t n = 0;
        int e;

        e = ios_device_enumerate(d->root, &devs, &n);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot enumerate disks in %s/sys/block: %s",
                         ios_root_prefix(d->root), strerror(-e));
                return;
        }
        iosd_log(LOG_DEBUG, "%s: checking %zu disk(s)", reason_names[why], n);
        for (size_t i = 0; i < n; i++) {
                dev_t devnum = makedev(devs[i]->major, devs[i]->minor);

                e = apply_one(d, devs[i], why);         /* logs a failed plan itself */
                if (e < 0 && !is_gone(e) && devnum)
                        retry_schedule(d, devnum, devs[i]->name, NULL, e);
        }
        ios_device_list_free(devs, n);
}

/* ------------------------------------------------------------------ */
/* policy, drift timer, watches                                        */
/* ------------------------------------------------------------------ */

/*
 * Load the policy.  A file that cannot be used is skipped whole and logged
 * with file:line (LOG_ERR, and in the unit's STATUS=); the rest applies,
 * as on the udev path, so the two never disagree.
 */
static int load_policy(struct daemon *d, struct ios_policy **ret)
{
        const struct ios_error *errs;
        size_t nerr = 0;
        int e;

        e = ios_policy_load(d->o->config_root, d->o->config_file, d->o->policy_flags, ret, NULL);
        if (e < 0) {
                snprintf(d->policy_error, sizeof(d->policy_error), "cannot load policy: %s", strerror(-e));
                iosd_log(LOG_ERR, "%s", d->policy_error);
                return e;
        }
        d->policy_error[0] = '\0';
        errs = ios_policy_errors(*ret, &nerr);
        for (size_t i = 0; i < nerr; i++) {
                char where[300];

                ios_error_where(&errs[i], where, sizeof(where));
                iosd_log(LOG_ERR, "policy error: %s: %s; skipping this file, the rest of the policy applies",
                         where, errs[i].msg);
                if (i == 0)
                        snprintf(d->policy_error, sizeof(d->policy_error), "policy error: %s: %s%s", where,
                                 errs[i].msg, nerr > 1 ? " (and more)" : "");
        }
        for (char * const *w = ios_policy_warnings(*ret); w && *w; w++)
                iosd_log(LOG_WARNING, "policy: %s", *w);
        return 0;
}

static void describe_policy(struct daemon *d, const char *what)
{
        char * const *files = ios_policy_files(d->policy);
        size_t n = ios_strv_length(files);

        if (n == 0)
                iosd_log(LOG_INFO, "%s policy: built-in rules only", what);
        else {
                _cleanup_free_ char *list = ios_strv_join(files, " ");
                iosd_log(LOG_INFO, "%s policy: %zu file(s): %s", what, n, list ? list : "");
        }
}

static int update_drift(struct daemon *d)
{
        uint64_t ms = d->o->drift_override_ms >= 0 ? (uint64_t)d->o->drift_override_ms
                                                   : ios_policy_drift_interval_ms(d->policy);
        int e;

        if (ms == d->drift_ms && (ms == 0) == (d->drift_fd < 0))
                return 0;
        d->drift_ms = ms;
        if (ms == 0) {
                if (d->drift_fd >= 0) {
                        close(d->drift_fd);
                        d->drift_fd = -1;
                        iosd_log(LOG_INFO, "drift enforcement off");
                }
                return 0;
        }
        if (d->drift_fd < 0) {
                d->drift_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
                if (d->drift_fd < 0)
                        return -errno;
                e = epoll_add(d, d->drift_fd, TAG_DRIFT);
                if (e < 0)
                        return e;
        }
        iosd_log(LOG_INFO, "drift enforcement every %" PRIu64 " ms", ms);
        return arm(d->drift_fd, ms, ms);
}

static void rebuild_watch(struct daemon *d)
{
        struct iosd_watch *w = NULL;
        int e;

        e = iosd_watch_new(d->o->config_root, d->o->config_file,
                           d->policy ? ios_policy_files(d->policy) : NULL, &w);
        if (e < 0) {
                iosd_log(LOG_WARNING, "cannot watch the policy files, edits need SIGHUP: %s",
                         strerror(-e));
                return;
        }
        d->watch = iosd_watch_free(d->watch);   /* closing the fd leaves the epoll set */
        d->watch = w;
        e = epoll_add(d, iosd_watch_fd(w), TAG_WATCH);
        if (e < 0)
                iosd_log(LOG_WARNING, "cannot poll the policy watch: %s", strerror(-e));
        iosd_log(LOG_DEBUG, "watching %zu policy director%s", iosd_watch_count(w),
                 iosd_watch_count(w) == 1 ? "y" : "ies");
}

static void reload(struct daemon *d, const char *why)
{
        struct ios_policy *p = NULL;
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        (void)sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=Reloading the policy (%s)",
                         (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000,
                         why);
        iosd_log(LOG_INFO, "reloading the policy (%s)", why);
        rebuild_watch(d);       /* before reading, so an edit during the load is seen */
        if (load_policy(d, &p) < 0)
                iosd_log(LOG_WARNING, "keeping the previous policy");
        else {
                ios_policy_free(d->policy);
                d->policy = p;
                ios_root_set_probe(d->root, ios_policy_needs_extra(p) ? IOS_PROBE_EXTRA : 0);
                describe_policy(d, "new");
        }
        if (update_drift(d) < 0)
                iosd_log(LOG_WARNING, "cannot arm the drift timer: %m");
        iosd_devset_clear(&d->quiet);
        d->refused = ios_strv_free(d->refused);
        if (p)
                apply_all(d, R_RELOAD);
        (void)sd_notify(0, "READY=1");
        notify_status(d);
}

/* ------------------------------------------------------------------ */
/* event sources                                                       */
/* ------------------------------------------------------------------ */

static int open_monitor(struct daemon *d)
{
        enum iosd_monitor m = d->o->monitor;
        int e;

        if (m == IOSD_MONITOR_AUTO) {
                if (!ios_root_is_host(d->root))
                        m = IOSD_MONITOR_NONE;  /* a captured tree has no uevents */
                else
                        /* udevd's socket: its processed events (with the udev database
                         * filled in) are the ones to follow; without udevd nobody
                         * relays them, so listen to the kernel itself */
                        m = access("/run/udev/control", F_OK) == 0 ? IOSD_MONITOR_UDEV
                                                                    : IOSD_MONITOR_KERNEL;
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
        return epoll_add(d, udev_monitor_get_fd(d->mon), TAG_MONITOR);
}

static void on_monitor(struct daemon *d)
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
                        (void)iosd_devset_remove(&d->pending, devnum);
                        (void)iosd_devset_remove(&d->quiet, devnum);
                        retry_forget(d, devnum);
                } else if (!action || streq(action, "add") || streq(action, "change") ||
                           streq(action, "move") || streq(action, "online")) {
                        (void)iosd_devset_remove(&d->quiet, devnum);
                        (void)iosd_devset_add(&d->pending, devnum);
                }
                udev_device_unref(ud);
        }
}

static void process_pending(struct daemon *d)
{
        if (iosd_devset_empty(&d->pending))
                return;
        iosd_log(LOG_DEBUG, "batch: %s%zu device(s); %" PRIu64 " uevent(s) since start",
                 d->pending.all ? "all disks, " : "", d->pending.n, d->n_events);
        if (d->pending.all) {
                iosd_devset_clear(&d->pending);
                apply_all(d, R_RESCAN);
        } else {
                for (size_t i = 0; i < d->pending.n; i++)
                        apply_devnum(d, d->pending.v[i], R_EVENT);
                iosd_devset_clear(&d->pending);
        }
        notify_status(d);
}

static void drain_timer(int fd)
{
        uint64_t n;

        (void)!read(fd, &n, sizeof(n));
}

static void on_signal(struct daemon *d)
{
        struct signalfd_siginfo si;

        while (read(d->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
                switch (si.ssi_signo) {
                case SIGHUP:
                        reload(d, "SIGHUP");
                        break;
                case SIGTERM:
                case SIGINT:
                        iosd_log(LOG_INFO, "%s received, exiting", strsignal((int)si.ssi_signo));
                        d->quit = true;
                        break;
                }
        }
}

static int loop(struct daemon *d)
{
        while (!d->quit) {
                struct epoll_event ev[8];
                int n = epoll_wait(d->epfd, ev, ELEMENTSOF(ev), -1);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                for (int i = 0; i < n && !d->quit; i++) {
                        switch (ev[i].data.u32) {
                        case TAG_SIGNAL:
                                on_signal(d);
                                break;
                        case TAG_MONITOR:
                                on_monitor(d);
                                break;
                        case TAG_WATCH:
                                if (d->watch && iosd_watch_process(d->watch) > 0)
                                        (void)arm(d->debounce_fd, DEBOUNCE_MS, 0);
                                break;
                        case TAG_DEBOUNCE:
                                drain_timer(d->debounce_fd);
                                reload(d, "policy file changed");
                                break;
                        case TAG_DRIFT:
                                drain_timer(d->drift_fd);
                                apply_all(d, R_DRIFT);
                                notify_status(d);
                                break;
                        case TAG_RETRY:
                                on_retry(d);
                                break;
                        }
                }
                /* the monitor was drained above: one pass per device, however
                 * many events it had */
                if (!d->quit)
                        process_pending(d);
        }
        return 0;
}

/* ------------------------------------------------------------------ */

static int setup(struct daemon *d)
{
        sigset_t mask;
        int e;

        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        if (sigprocmask(SIG_BLOCK, &mask, NULL) < 0)
                return -errno;
        (void)signal(SIGPIPE, SIG_IGN);

        d->epfd = epoll_create1(EPOLL_CLOEXEC);
        if (d->epfd < 0)
                return -errno;
        d->sigfd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
        if (d->sigfd < 0)
                return -errno;
        e = epoll_add(d, d->sigfd, TAG_SIGNAL);
        if (e < 0)
                return e;
        d->debounce_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (d->debounce_fd < 0)
                return -errno;
        return epoll_add(d, d->debounce_fd, TAG_DEBOUNCE);
}

int iosd_run(const struct iosd_options *o)
{
        struct daemon d = {
                .o = o, .epfd = -1, .sigfd = -1, .debounce_fd = -1, .drift_fd = -1, .retry_fd = -1,
                .monitor_name = "none",
        };
        int rc = IOSD_EXIT_FAILURE, e;

        iosd_devset_init(&d.pending, DEVSET_MAX);
        iosd_devset_init(&d.quiet, DEVSET_MAX);

        (void)ios_raise_nofile();       /* a drift pass holds one fd per disk */
        e = ios_root_new(o->sysroot, &d.root);
        if (e < 0) {
                iosd_log(LOG_ERR, "%s: %s", o->sysroot ? o->sysroot : "/", strerror(-e));
                rc = IOSD_EXIT_CONFIG;
                goto out;
        }
        e = setup(&d);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot set up the event loop: %s", strerror(-e));
                goto out;
        }
        /* watch first, then load: an edit in between is not lost */
        rebuild_watch(&d);
        if (load_policy(&d, &d.policy) < 0) {
                rc = IOSD_EXIT_CONFIG;
                goto out;
        }
        ios_root_set_probe(d.root, ios_policy_needs_extra(d.policy) ? IOS_PROBE_EXTRA : 0);
        describe_policy(&d, "loaded");
        /* listen before the initial pass, so a disk added during it is not missed */
        e = open_monitor(&d);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot listen to %s uevents: %s", d.monitor_name, strerror(-e));
                goto out;
        }
        e = update_drift(&d);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot arm the drift timer: %s", strerror(-e));
                goto out;
        }
        if (o->initial_apply)
                apply_all(&d, R_START);
        iosd_log(LOG_INFO, "ready (monitor %s, drift enforcement %s)", d.monitor_name,
                 d.drift_ms ? "on" : "off");
        (void)sd_notify(0, "READY=1");
        notify_status(&d);

        e = loop(&d);
        (void)sd_notify(0, "STOPPING=1\nSTATUS=Stopping");
        if (e < 0) {
                iosd_log(LOG_ERR, "event loop failed: %s", strerror(-e));
                goto out;
        }
        rc = IOSD_EXIT_OK;
out:
        if (d.mon)
                udev_monitor_unref(d.mon);
        if (d.udev)
                udev_unref(d.udev);
        iosd_watch_free(d.watch);
        for (int *fd = (int[]){ d.retry_fd, d.drift_fd, d.debounce_fd, d.sigfd, d.epfd, -2 }; *fd != -2; fd++)
                if (*fd >= 0)
                        close(*fd);
        free(d.retry);
        iosd_devset_done(&d.pending);
        iosd_devset_done(&d.quiet);
        ios_strv_free(d.refused);
        ios_policy_free(d.policy);
        ios_root_free(d.root);
        return rc;
}
