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
 * drained first (monitor.c), then every device in the set is planned and
 * applied once, however many events it had (apply.c).  Transient failures
 * go to the retry table (retry.c) and disks an iosched-bench holds to the
 * yield table (yield.c); before each wait a timerfd is armed for each
 * table that has work and closed when it is empty (timers.c), and when one
 * fires this file applies what the table says is due.
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
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <libudev.h>
#include <systemd/sd-daemon.h>

#include "state.h"
#include "macro.h"
#include "strv.h"
#include "nofile.h"

static void notify_status(struct iosd_daemon *d)
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
static int load_policy(struct iosd_daemon *d, struct ios_policy **ret)
{
        const struct ios_error *errs;
        struct ios_error pe = {};
        size_t nerr = 0;
        int e;

        e = ios_policy_load(d->o->config_root, d->o->config_file, d->o->policy_flags, ret, &pe);
        if (e < 0) {
                if (pe.msg[0])
                        snprintf(d->policy_error, sizeof(d->policy_error), "%s: %s", pe.file, pe.msg);
                else
                        snprintf(d->policy_error, sizeof(d->policy_error), "cannot load policy: %s",
                                 ios_strerror(e));
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

static void describe_policy(struct iosd_daemon *d, const char *what)
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

static int update_drift(struct iosd_daemon *d)
{
        uint64_t ms = d->o->drift_override_ms >= 0 ? (uint64_t)d->o->drift_override_ms
                                                   : ios_policy_drift_interval_ms(d->policy);
        int e;

        if (ms == d->drift_ms && (ms == 0) == (d->drift_fd < 0))
                return 0;
        d->drift_ms = ms;
        if (ms == 0) {
                if (d->drift_fd >= 0) {
                        iosd_timer_close(&d->drift_fd);
                        iosd_log(LOG_INFO, "drift enforcement off");
                }
                return 0;
        }
        e = iosd_timer_open(d, &d->drift_fd, TAG_DRIFT);
        if (e < 0)
                return e;
        iosd_log(LOG_INFO, "drift enforcement every %" PRIu64 " ms", ms);
        return iosd_timer_arm(d->drift_fd, ms, ms);
}

static void rebuild_watch(struct iosd_daemon *d)
{
        struct iosd_watch *w = NULL;
        int e;

        e = iosd_watch_new(d->o->config_root, d->o->config_file,
                           d->policy ? ios_policy_files(d->policy) : NULL, &w);
        if (e < 0) {
                iosd_log(LOG_WARNING, "cannot watch the policy files, edits need SIGHUP: %s",
                         ios_strerror(e));
                return;
        }
        d->watch = iosd_watch_free(d->watch);   /* closing the fd leaves the epoll set */
        d->watch = w;
        e = iosd_epoll_add(d, iosd_watch_fd(w), TAG_WATCH);
        if (e < 0)
                iosd_log(LOG_WARNING, "cannot poll the policy watch: %s", ios_strerror(e));
        iosd_log(LOG_DEBUG, "watching %zu policy director%s", iosd_watch_count(w),
                 iosd_watch_count(w) == 1 ? "y" : "ies");
}

static void reload(struct iosd_daemon *d, const char *why)
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
                iosd_apply_all(d, IOSD_R_RELOAD);
        (void)sd_notify(0, "READY=1");
        notify_status(d);
}

/* ------------------------------------------------------------------ */
/* event sources                                                       */
/* ------------------------------------------------------------------ */

static void process_pending(struct iosd_daemon *d)
{
        if (iosd_devset_empty(&d->pending))
                return;
        iosd_log(LOG_DEBUG, "batch: %s%zu device(s); %" PRIu64 " uevent(s) since start",
                 d->pending.all ? "all disks, " : "", d->pending.n, d->n_events);
        if (d->pending.all) {
                iosd_devset_clear(&d->pending);
                iosd_apply_all(d, IOSD_R_RESCAN);
        } else {
                for (size_t i = 0; i < d->pending.n; i++)
                        iosd_apply_devnum(d, d->pending.v[i], IOSD_R_EVENT);
                iosd_devset_clear(&d->pending);
        }
        notify_status(d);
}

/* The retry timer fired: try every device that is due (apply.c forgets or
 * reschedules each). */
static void on_retry_timer(struct iosd_daemon *d)
{
        dev_t *due;
        size_t n;

        if (d->retry_fd < 0)
                return;
        iosd_timer_drain(d->retry_fd);
        due = calloc(d->retries.n ? d->retries.n : 1, sizeof(*due));
        if (!due)
                return;         /* tried again at the next expiry */
        n = iosd_retry_due(&d->retries, iosd_now_ms(), due);
        iosd_log(LOG_DEBUG, "retry: %zu device(s) due, %zu waiting", n, d->retries.n - n);
        for (size_t i = 0; i < n; i++)
                iosd_apply_devnum(d, due[i], IOSD_R_EVENT);
        free(due);
        notify_status(d);
}

static bool bench_holds(void *arg, dev_t dev)
{
        struct iosd_daemon *d = arg;
        long pid;

        return ios_bench_lock_holder(d->ctx, major(dev), minor(dev), &pid) > 0;
}

/* The yield timer fired: apply the policy to each disk whose benchmark has ended. */
static void on_yield_timer(struct iosd_daemon *d)
{
        struct iosd_yield *ended;
        size_t n;

        if (d->yield_fd < 0)
                return;
        iosd_timer_drain(d->yield_fd);
        ended = calloc(d->yields.n ? d->yields.n : 1, sizeof(*ended));
        if (!ended)
                return;         /* looked at again at the next tick */
        n = iosd_yield_ended(&d->yields, bench_holds, d, ended);
        for (size_t i = 0; i < n; i++)
                iosd_apply_bench_ended(d, &ended[i]);
        free(ended);
        notify_status(d);
}

static void on_signal(struct iosd_daemon *d)
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

static int loop(struct iosd_daemon *d)
{
        while (!d->quit) {
                struct epoll_event ev[8];
                int n;

                if (iosd_sync_timers(d))
                        notify_status(d);
                n = epoll_wait(d->epfd, ev, ELEMENTSOF(ev), -1);

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
                                iosd_monitor_receive(d);
                                break;
                        case TAG_WATCH:
                                if (d->watch && iosd_watch_process(d->watch) > 0)
                                        (void)iosd_timer_arm(d->debounce_fd, DEBOUNCE_MS, 0);
                                break;
                        case TAG_DEBOUNCE:
                                iosd_timer_drain(d->debounce_fd);
                                reload(d, "policy file changed");
                                break;
                        case TAG_DRIFT:
                                iosd_timer_drain(d->drift_fd);
                                iosd_apply_all(d, IOSD_R_DRIFT);
                                notify_status(d);
                                break;
                        case TAG_RETRY:
                                on_retry_timer(d);
                                break;
                        case TAG_YIELD:
                                on_yield_timer(d);
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

static int setup(struct iosd_daemon *d)
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
        return iosd_timer_open(d, &d->debounce_fd, TAG_DEBOUNCE);
}

enum iosd_end iosd_run(const struct iosd_options *o)
{
        struct iosd_daemon d = {
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
                iosd_log(LOG_ERR, "%s: %s", o->sysroot ? o->sysroot : "/", ios_strerror(e));
                rc = IOSD_BAD_START;
                goto out;
        }
        e = setup(&d);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot set up the event loop: %s", ios_strerror(e));
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
        e = iosd_monitor_open(&d);
        if (e >= 0 && d.mon)
                e = iosd_epoll_add(&d, e, TAG_MONITOR);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot listen to %s uevents: %s", d.monitor_name, ios_strerror(e));
                goto out;
        }
        e = update_drift(&d);
        if (e < 0) {
                iosd_log(LOG_ERR, "cannot arm the drift timer: %s", ios_strerror(e));
                goto out;
        }
        if (o->initial_apply)
                iosd_apply_all(&d, IOSD_R_START);
        iosd_log(LOG_INFO, "ready (monitor %s, drift enforcement %s)", d.monitor_name,
                 d.drift_ms ? "on" : "off");
        (void)sd_notify(0, "READY=1");
        notify_status(&d);

        e = loop(&d);
        (void)sd_notify(0, "STOPPING=1\nSTATUS=Stopping");
        if (e < 0) {
                iosd_log(LOG_ERR, "event loop failed: %s", ios_strerror(e));
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
        iosd_retry_done(&d.retries);
        iosd_yield_done(&d.yields);
        free(d.seen);
        iosd_devset_done(&d.pending);
        iosd_devset_done(&d.quiet);
        ios_strv_free(d.refused);
        ios_policy_free(d.policy);
        ios_ctx_free(d.ctx);
        return rc;
}
