/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply.c: ioschedd applies the policy to a disk: plan, write (the library
 * reads every value back), log each change once with its reason and source,
 * report a failure once per drift check, and a value the kernel refuses or
 * stores differently once per disk and policy load, never "restoring" it on
 * every drift check.  A failure that is not the disk being gone goes to the
 * retry table (retry.c), a disk iosched-bench holds to the yield table
 * (yield.c); this file says what those tables decided.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "state.h"
#include "macro.h"
#include "strv.h"

static const char * const reason_names[] = {
        [IOSD_R_START] = "start", [IOSD_R_EVENT] = "uevent", [IOSD_R_RESCAN] = "rescan",
        [IOSD_R_RELOAD] = "reload", [IOSD_R_DRIFT] = "drift", [IOSD_R_BENCH] = "bench-ended",
};

static bool is_gone(int e)
{
        return ios_errno_class(e) == IOS_ERRNO_GONE;
}

/* The attempt for dev failed with e, not because it is gone: retry.c says when again. */
static void retry_later(struct iosd_daemon *d, dev_t dev, const char *name, const char *what, int e)
{
        unsigned tries;
        uint64_t delay;

        switch (iosd_retry_failed(&d->retries, dev, iosd_now_ms(), &tries, &delay)) {
        case IOSD_RETRY_FULL:
                d->n_failed++;
                iosd_log(LOG_ERR, "%s: %s%s%s; too many disks to retry, the policy is "
                         "not applied until the next uevent or reload", name,
                         what ? what : "", what ? ": " : "", ios_strerror(e));
                break;
        case IOSD_RETRY_GIVE_UP:
                d->n_failed++;
                iosd_log(LOG_ERR, "%s: %s%s%s; giving up after %u attempts, the policy is not applied "
                         "until the next uevent or reload", name, what ? what : "", what ? ": " : "",
                         ios_strerror(e), tries);
                break;
        case IOSD_RETRY_LATER:
                iosd_log(LOG_WARNING, "%s: %s%s%s; retrying in %" PRIu64 " ms (attempt %u of %u)",
                         name, what ? what : "", what ? ": " : "", ios_strerror(e), delay,
                         tries + 1, RETRY_TRIES);
                break;
        }
}

static void say_bench_ended(const char *name)
{
        iosd_log(LOG_INFO, "%s: iosched-bench has ended; checking the disk against the policy", name);
}

/* Whether an iosched-bench switching its scheduler has the disk (yield.c), said once each way. */
static enum iosd_yield_state yield_check(struct iosd_daemon *d, const struct ios_device *dev)
{
        dev_t devnum = makedev(dev->major, dev->minor);
        long pid = 0;
        int e = ios_bench_lock_holder(d->ctx, dev->major, dev->minor, &pid);
        enum iosd_yield_state s;

        if (e < 0)
                iosd_log(LOG_DEBUG, "%s: cannot tell whether iosched-bench runs on it: %s", dev->name,
                         ios_strerror(e));
        s = iosd_yield_note(&d->yields, devnum, dev->name, e > 0);
        if (s == IOSD_ENDED)
                say_bench_ended(dev->name);
        if (s != IOSD_YIELDED)
                return s;
        /* what the benchmark leaves is its own: the next look at the disk is a first one (seen.c) */
        iosd_seen_forget(d, devnum, 0);
        if (e == 2)
                iosd_log(LOG_NOTICE, "%s: the guard (pid %ld) of a killed iosched-bench is putting it back; "
                         "left alone until it ends", dev->name, pid);
        else if (pid > 0)
                iosd_log(LOG_NOTICE, "%s: iosched-bench (pid %ld) is comparing schedulers on it; left alone "
                         "until it ends", dev->name, pid);
        else
                iosd_log(LOG_NOTICE, "%s: iosched-bench is comparing schedulers on it; left alone until it ends",
                         dev->name);
        return s;
}

/*
 * A read or write that failed because the disk went away while it was being
 * applied (a remove uevent follows) is not a failure of the policy: under
 * hotplug churn it would be a warning per removed disk.  Said at debug level
 * only, like a disk that vanished before it could be planned.
 */
static bool change_gone(const struct ios_change *c)
{
        return c->state == IOS_CHANGE_FAILED &&
               ios_errno_class(c->error) == IOS_ERRNO_GONE;
}

/*
 * Whether the disk was removed: its sysfs directory, still open, has lost
 * its entries (the queue goes first).  A write the kernel took but a read
 * back without the value ("kept (none)") is then the disk dying, not a
 * refusal.
 */
static bool disk_gone(const struct ios_device *dev)
{
        struct stat st;

        return fstatat(dev->fd, "queue", &st, 0) < 0 && ios_errno_class(-errno) == IOS_ERRNO_GONE;
}

/* Returns the number of failures that were not the disk going away. */
static size_t log_failures(struct iosd_daemon *d, const struct ios_plan *plan, int prio, bool gone)
{
        size_t n = 0;

        for (size_t i = 0; i < plan->n; i++) {
                const struct ios_change *c = &plan->c[i];

                if (c->state != IOS_CHANGE_FAILED)
                        continue;
                if (gone || change_gone(c)) {
                        iosd_log(LOG_DEBUG, "%s: %s (%s); the disk is going away", plan->dev->name,
                                 c->msg ? c->msg : c->key, iosd_str(c->source));
                        continue;
                }
                n++;
                d->n_failed++;
                iosd_log(prio, "%s: %s (%s)", plan->dev->name, c->msg ? c->msg : c->key,
                         iosd_str(c->source));
        }
        return n;
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
/* Changes in state `state` whose key was refused before (d->refused) are
 * skipped: said once per device and policy load. */
static void skip_refused(struct iosd_daemon *d, dev_t devnum, struct ios_plan *plan,
                         enum ios_change_state state)
{
        for (size_t i = 0; i < plan->n; i++) {
                struct ios_change *c = &plan->c[i];
                _cleanup_free_ char *k = NULL;

                if (c->state != state || !(k = refused_key(devnum, c)))
                        continue;
                if (ios_strv_contains(d->refused, k))
                        c->state = IOS_CHANGE_SKIPPED;
        }
}

/* Write what drifted and say each change: a value we had set and somebody
 * else changed (behind) is said with what was found, before the write. */
static void write_plan(struct iosd_daemon *d, struct ios_device *dev, struct ios_plan *plan,
                       enum iosd_reason why, bool behind, uint64_t seq)
{
        if (behind)
                for (size_t i = 0; i < plan->n; i++) {
                        const struct ios_change *c = &plan->c[i];

                        if (c->state == IOS_CHANGE_DRIFT && c->current) {
                                iosd_log(LOG_NOTICE, "%s: %s was changed behind our back: "
                                         "found '%s', policy wants '%s' (%s); restoring",
                                         dev->name, c->key, c->current, iosd_str(c->wanted),
                                         iosd_str(c->source));
                                iosd_fight_note(d, dev, seq, c); /* fight.c */
                        }
                }
        (void)ios_plan_apply(plan);
        for (size_t i = 0; i < plan->n; i++) {
                const struct ios_change *c = &plan->c[i];
                char line[1024];

                if (c->state != IOS_CHANGE_APPLIED)
                        continue;
                d->n_changes++;
                d->n_drift += why == IOSD_R_DRIFT;
                if (behind && c->current)
                        continue;       /* said above, with what was found */
                iosd_log(LOG_INFO, "%s: %s [%s]", dev->name, ios_change_line(c, line, sizeof(line)),
                         reason_names[why]);
        }
}

static int apply_one(struct iosd_daemon *d, struct ios_device *dev, enum iosd_reason why)
{
        dev_t devnum = makedev(dev->major, dev->minor);
        bool quiet;
        int fail_prio;
        struct ios_plan plan;
        uint64_t seq = 0;
        bool behind;
        size_t nfail;
        bool gone;
        int e;

        /* an iosched-bench switching its scheduler has it until it ends (yield.c) */
        switch (yield_check(d, dev)) {
        case IOSD_YIELDED:
        case IOSD_HELD:
                return 0;
        case IOSD_ENDED:
                why = IOSD_R_BENCH;
                break;
        case IOSD_FREE:
                break;
        }
        quiet = why == IOSD_R_DRIFT && iosd_devset_contains(&d->quiet, devnum);
        fail_prio = quiet ? LOG_DEBUG : LOG_WARNING;
        /* which disk this is (seen.c); 0 before 5.15 or when it is going away */
        if (ios_sysfs_read_u64(dev->fd, "diskseq", &seq) < 0)
                seq = 0;
        else if (seq)
                d->have_seq = true;
        /* drift on a disk planned before, not a new one under the same number
         * nor one being removed (no diskseq to read on a kernel that has them) */
        behind = why == IOSD_R_DRIFT && !(seq == 0 && d->have_seq) && iosd_seen_is(d, devnum, seq);
        e = ios_plan_build(d->policy, dev, &plan);
        if (e < 0) {
                if (ios_errno_class(e) == IOS_ERRNO_GONE)
                        iosd_log(LOG_DEBUG, "%s: vanished before it could be planned", dev->name);
                else
                        iosd_log(fail_prio, "%s: cannot plan: %s", dev->name, ios_strerror(e));
                return e;
        }
        /* the drift check does not "restore" what the kernel would refuse again */
        if (why == IOSD_R_DRIFT)
                skip_refused(d, devnum, &plan, IOS_CHANGE_DRIFT);
        if (ios_plan_count(&plan, IOS_CHANGE_DRIFT) > 0)
                write_plan(d, dev, &plan, why, behind, seq);
        /* the disk went away while it was planned or written (its remove
         * uevent follows): what failed is no failure of the policy */
        gone = ios_plan_count(&plan, IOS_CHANGE_FAILED) > 0 && disk_gone(dev);
        /* planned: only a disk whose every write went in, the value found
         * next time is then a change behind our back (seen.c) */
        if (ios_plan_count(&plan, IOS_CHANGE_FAILED) == 0 && (seq || !d->have_seq))
                iosd_seen_set(d, devnum, seq);
        else
                iosd_seen_forget(d, devnum, 0);
        /* a refused value is said once per device and policy load, whatever the reason to apply */
        for (size_t i = 0; !gone && i < plan.n; i++) {
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
        nfail = log_failures(d, &plan, fail_prio, gone);
        for (char **n = plan.notes; n && *n; n++)
                iosd_log(why == IOSD_R_DRIFT ? LOG_DEBUG : LOG_INFO, "%s: note: %s", dev->name, *n);
        /* a failure that repeats is reported once by the drift checks, until
         * an event or a reload for the disk */
        if (nfail > 0)
                (void)iosd_devset_add(&d->quiet, devnum);
        else
                (void)iosd_devset_remove(&d->quiet, devnum);
        ios_plan_done(&plan);
        return 0;
}

void iosd_apply_devnum(struct iosd_daemon *d, dev_t devnum, enum iosd_reason why)
{
        struct ios_device *dev = NULL;
        char name[32];
        int e;

        snprintf(name, sizeof(name), "%u:%u", major(devnum), minor(devnum));
        e = ios_device_new(d->ctx, name, &dev);
        if (e < 0) {
                if (is_gone(e)) {
                        iosd_log(LOG_DEBUG, "%s: not a disk here (%s), ignoring", name, ios_strerror(e));
                        iosd_retry_forget(&d->retries, devnum);
                } else
                        retry_later(d, devnum, name, "cannot look the disk up", e);
                return;
        }
        e = apply_one(d, dev, why);     /* logs a failed plan itself */
        if (e < 0 && !is_gone(e))
                retry_later(d, devnum, dev->name, NULL, e);
        else
                iosd_retry_forget(&d->retries, devnum);
        ios_device_free(dev);
}

void iosd_apply_all(struct iosd_daemon *d, enum iosd_reason why)
{
        struct ios_device **devs = NULL;
        size_t n = 0;
        int e;

        e = ios_device_enumerate(d->ctx, &devs, &n);
        if (e < 0) {
                const char *disk = ios_ctx_failed_disk(d->ctx);

                iosd_log(LOG_ERR, "cannot enumerate disks in %s/sys/block: %s%s%s", ios_ctx_prefix(d->ctx),
                         disk ? disk : "", disk ? ": " : "",
                         ios_strerror(e));
                return;
        }
        iosd_log(LOG_DEBUG, "%s: checking %zu disk(s)", reason_names[why], n);
        for (size_t i = 0; i < n; i++) {
                dev_t devnum = makedev(devs[i]->major, devs[i]->minor);

                e = apply_one(d, devs[i], why);         /* logs a failed plan itself */
                if (e < 0 && !is_gone(e) && devnum)
                        retry_later(d, devnum, devs[i]->name, NULL, e);
        }
        ios_device_list_free(devs, n);
}

void iosd_apply_bench_ended(struct iosd_daemon *d, const struct iosd_yield *y)
{
        say_bench_ended(y->name);
        iosd_apply_devnum(d, y->dev, IOSD_R_BENCH);
}
