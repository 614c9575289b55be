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
 * once, however many events it had (apply.c; transient failures go to
 * retry.c, whose timer joins the set while it has work).
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
#include <sys/socket.h>
#include <sys/sysmacros.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>
#include <systemd/sd-daemon.h>

#include "daemon-internal.h"
#include "macro.h"

const char * const iosd_reason_names[] = {
        [R_START] = "start", [R_EVENT] = "uevent", [R_RESCAN] = "rescan",
        [R_RELOAD] = "reload", [R_DRIFT] = "drift", [R_BENCH] = "bench-ended",
};

int iosd_epoll_add(struct daemon *d, int fd, uint32_t tag)
{
        struct epoll_event ev = { .events = EPOLLIN, .data.u32 = tag };

        return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev) < 0 ? -errno : 0;
}

int iosd_arm(int fd, uint64_t first_ms, uint64_t interval_ms)
{
        struct itimerspec its = {
                .it_value = { (time_t)(first_ms / 1000), (long)(first_ms % 1000) * 1000000L },
                .it_interval = { (time_t)(interval_ms / 1000), (long)(interval_ms % 1000) * 1000000L },
        };

        return timerfd_settime(fd, 0, &its, NULL) < 0 ? -errno : 0;
}

void iosd_notify_status(struct daemon *d)
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
/* policy, drift timer, watches                                        */
/* ------------------------------------------------------------------ */

/*
 * Load the policy.  A file with an error is logged with file:line (LOG_ERR,
 * and in the unit's STATUS=); it gives no rule, and the disks it matches
 * keep what it names (no disk changes when what it matches cannot be read),
 * as on the udev path.  On a reload, reload() keeps the policy in force
 * instead.  Returns the number of files with an error, or -errno.
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
                iosd_log(LOG_ERR, "policy error: %s: %s; %s", where, errs[i].msg,
                         errs[i].holds_all ? "no disk is changed while it stands (what it matches cannot be read)" :
                                             "the disks it matches keep the settings it names");
                if (i == 0)
                        snprintf(d->policy_error, sizeof(d->policy_error), "policy error: %s: %s%s", where,
                                 errs[i].msg, nerr > 1 ? " (and more)" : "");
        }
        for (char * const *w = ios_policy_warnings(*ret); w && *w; w++)
                iosd_log(LOG_WARNING, "policy: %s", *w);
        return (int)nerr;
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
                e = iosd_epoll_add(d, d->drift_fd, TAG_DRIFT);
                if (e < 0)
                        return e;
        }
        iosd_log(LOG_INFO, "drift enforcement every %" PRIu64 " ms", ms);
        return iosd_arm(d->drift_fd, ms, ms);
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
        e = iosd_epoll_add(d, iosd_watch_fd(w), TAG_WATCH);
        if (e < 0)
                iosd_log(LOG_WARNING, "cannot poll the policy watch: %s", strerror(-e));
        iosd_log(LOG_DEBUG, "watching %zu policy director%s", iosd_watch_count(w),
                 iosd_watch_count(w) == 1 ? "y" : "ies");
}

static void reload(struct daemon *d, const char *why)
{
        struct ios_policy *p = NULL;
        struct timespec ts;
        int e;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        (void)sd_notifyf(0, "RELOADING=1\nMONOTONIC_USEC=%llu\nSTATUS=Reloading the policy (%s)",
                         (unsigned long long)ts.tv_sec * 1000000ULL + (unsigned long long)ts.tv_nsec / 1000,
                         why);
        iosd_log(LOG_INFO, "reloading the policy (%s)", why);
        rebuild_watch(d);       /* before reading, so an edit during the load is seen */
        e = load_policy(d, &p);
        if (e > 0 && d->policy) {
                /* an edit with an error changes nothing: the fixed file is read when it is saved */
                size_t nerr = 0;
                const struct ios_error *errs = ios_policy_errors(p, &nerr);
                char where[sizeof(errs->file) + 16];

                ios_error_where(&errs[0], where, sizeof(where));
                snprintf(d->policy_error, sizeof(d->policy_error),
                         "policy error: %s: %s%s; keeping the policy in force until it is fixed", where,
                         errs[0].msg, nerr > 1 ? " (and more)" : "");
                iosd_log(LOG_ERR, "the new policy has %zu file(s) with an error: keeping the policy in force "
                         "(nothing of the edit is applied) until it is fixed", nerr);
                p = ios_policy_free(p);
        } else if (e < 0)
                iosd_log(LOG_WARNING, "keeping the previous policy");
        else {
                ios_policy_free(d->policy);
                d->policy = p;
                ios_ctx_set_probe(d->ctx, ios_policy_probe_flags(p));
                describe_policy(d, "new");
        }
        if (update_drift(d) < 0)
                iosd_log(LOG_WARNING, "cannot arm the drift timer: %m");
        iosd_devset_clear(&d->quiet);
        d->refused = ios_strv_free(d->refused);
        if (p)
                iosd_apply_all(d, R_RELOAD);
        (void)sd_notify(0, "READY=1");
        iosd_notify_status(d);
}

/* ------------------------------------------------------------------ */
/* event sources                                                       */
/* ------------------------------------------------------------------ */

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
                *why = strerror(errno);
                return -1;
        }
        r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
        /* EAGAIN: a full backlog, someone listens; EPROTOTYPE: a socket of another type is bound there */
        if (r == 0 || errno == EAGAIN || errno == EINPROGRESS || errno == EPROTOTYPE) {
                close(fd);
                return 1;
        }
        r = errno == ENOENT ? 0 : -1;
        *why = errno == ENOENT ? "it does not exist" :
               errno == ECONNREFUSED ? "nobody listens on it (a stale socket: udevd stopped)" : strerror(errno);
        close(fd);
        return r;
}

static int open_monitor(struct daemon *d)
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
        return iosd_epoll_add(d, udev_monitor_get_fd(d->mon), TAG_MONITOR);
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
                        const char *seq = udev_device_get_property_value(ud, "DISKSEQ");

                        iosd_seen_forget(d, devnum, seq ? strtoull(seq, NULL, 10) : 0);
                        (void)iosd_devset_remove(&d->pending, devnum);
                        (void)iosd_devset_remove(&d->quiet, devnum);
                        iosd_retry_forget(d, devnum);
                        iosd_yield_forget(d, devnum);
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
                iosd_apply_all(d, R_RESCAN);
        } else {
                for (size_t i = 0; i < d->pending.n; i++)
                        iosd_apply_devnum(d, d->pending.v[i], R_EVENT);
                iosd_devset_clear(&d->pending);
        }
        iosd_notify_status(d);
}

void iosd_drain_timer(int fd)
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
                                        (void)iosd_arm(d->debounce_fd, DEBOUNCE_MS, 0);
                                break;
                        case TAG_DEBOUNCE:
                                iosd_drain_timer(d->debounce_fd);
                                reload(d, "policy file changed");
                                break;
                        case TAG_DRIFT:
                                iosd_drain_timer(d->drift_fd);
                                iosd_apply_all(d, R_DRIFT);
                                iosd_notify_status(d);
                                break;
                        case TAG_RETRY:
                                iosd_retry_run(d);
                                break;
                        case TAG_YIELD:
                                iosd_yield_poll(d);
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
        e = iosd_epoll_add(d, d->sigfd, TAG_SIGNAL);
        if (e < 0)
                return e;
        d->debounce_fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
        if (d->debounce_fd < 0)
                return -errno;
        return iosd_epoll_add(d, d->debounce_fd, TAG_DEBOUNCE);
}

enum iosd_end iosd_run(const struct iosd_options *o)
{
        struct daemon d = {
                .o = o, .epfd = -1, .sigfd = -1, .debounce_fd = -1, .drift_fd = -1, .retry_fd = -1,
                .yield_fd = -1,
                .monitor_name = "none",
        };
        enum iosd_end rc = IOSD_FAILED;
        int e;

        iosd_devset_init(&d.pending, DEVSET_MAX);
        iosd_devset_init(&d.quiet, DEVSET_MAX);

        (void)ios_raise_nofile();       /* a drift pass holds one fd per disk */
        e = ios_ctx_new(o->sysroot, &d.ctx);
        if (e < 0) {
                iosd_log(LOG_ERR, "%s: %s", o->sysroot ? o->sysroot : "/", strerror(-e));
                rc = IOSD_BAD_START;
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
                rc = IOSD_BAD_START;
                goto out;
        }
        ios_ctx_set_probe(d.ctx, ios_policy_probe_flags(d.policy));
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
                iosd_apply_all(&d, R_START);
        iosd_log(LOG_INFO, "ready (monitor %s, drift enforcement %s)", d.monitor_name,
                 d.drift_ms ? "on" : "off");
        (void)sd_notify(0, "READY=1");
        iosd_notify_status(&d);

        e = loop(&d);
        (void)sd_notify(0, "STOPPING=1\nSTATUS=Stopping");
        if (e < 0) {
                iosd_log(LOG_ERR, "event loop failed: %s", strerror(-e));
                goto out;
        }
        rc = IOSD_STOPPED;
out:
        if (d.mon)
                udev_monitor_unref(d.mon);
        if (d.udev)
                udev_unref(d.udev);
        iosd_watch_free(d.watch);
        for (int *fd = (int[]){ d.yield_fd, d.retry_fd, d.drift_fd, d.debounce_fd, d.sigfd, d.epfd, -2 }; *fd != -2; fd++)
                if (*fd >= 0)
                        close(*fd);
        free(d.retry);
        free(d.yield);
        free(d.seen);
        iosd_devset_done(&d.pending);
        iosd_devset_done(&d.quiet);
        ios_strv_free(d.refused);
        ios_policy_free(d.policy);
        ios_ctx_free(d.ctx);
        return rc;
}
