/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tunables.c: the one table of what a policy may set in the kernel: the
 * scheduler names iosched knows, the writable queue/ attributes, each
 * scheduler's queue/iosched/ files, and for every attribute its type and
 * the range the kernel's store() accepts without clamping (from the
 * kernel's block/blk-sysfs.c, mq-deadline.c, kyber-iosched.c,
 * bfq-iosched.c and, for legacy kernels, cfq/deadline-iosched.c).
 *
 * A value outside the range is refused when the policy is read, with
 * file:line; what the kernel then does with a value inside it is checked
 * by reading the attribute back after the write (apply.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "policy-internal.h"

/*
 * The schedulers iosched knows: a new one is a line here.  legacy: a
 * single-queue scheduler (kernels before 5.0); twin: the name the other
 * family gives it (kyber has none: cfq stands in on a legacy queue);
 * differs: the twin is another scheduler that only stands in for it (a
 * policy naming the legacy one is warned); last: it stands in only when no
 * preference of the list fits under its own name or twin (kyber -> cfq);
 * module: what the kernel loads when it is written unlisted (blk-mq ones
 * that can be built as modules).
 */
static const struct sched {
        const char *name;
        bool legacy;
        const char *twin;
        bool differs, last;
        const char *module;
} scheds[] = {
        { "none", false, "noop", false, false, NULL },
        { "mq-deadline", false, "deadline", false, false, "mq-deadline" },
        { "kyber", false, "cfq", true, true, "kyber-iosched" },
        { "bfq", false, "cfq", true, false, "bfq" },
        { "noop", true, "none", false, false, NULL },
        { "deadline", true, "mq-deadline", false, false, NULL },
        { "cfq", true, "bfq", true, false, NULL },
};

static const struct sched *sched_lookup(const char *name)
{
        for (size_t i = 0; name && i < ELEMENTSOF(scheds); i++)
                if (streq(name, scheds[i].name))
                        return &scheds[i];
        return NULL;
}

bool ios_sched_name_known(const char *name)
{
        return sched_lookup(name) != NULL;
}

static unsigned flags_of(const struct sched *s)
{
        return (s->legacy ? IOS_SCHED_LEGACY : 0) | (s->module ? IOS_SCHED_MODULAR : 0) |
               (s->differs ? IOS_SCHED_TWIN_DIFFERS : 0) | (s->last ? IOS_SCHED_TWIN_LAST : 0);
}

const char *ios_sched_nth(size_t i, unsigned *ret_flags)
{
        if (i >= ELEMENTSOF(scheds))
                return NULL;
        if (ret_flags)
                *ret_flags = flags_of(&scheds[i]);
        return scheds[i].name;
}

unsigned ios_sched_flags(const char *name)
{
        const struct sched *s = sched_lookup(name);

        return s ? flags_of(s) : 0;
}

const char *ios_sched_alias(const char *name, bool want_legacy)
{
        const struct sched *s = sched_lookup(name);

        return s && s->legacy != want_legacy ? s->twin : NULL;
}

const char *ios_sched_module(const char *name)
{
        const struct sched *s = sched_lookup(name);

        return s ? s->module : NULL;
}

const char *ios_sched_name_suggest(const char *name)
{
        const char *names[ELEMENTSOF(scheds)];

        for (size_t i = 0; i < ELEMENTSOF(scheds); i++)
                names[i] = scheds[i].name;
        /* the names are the table's literals: they outlive names[] */
        return ios_suggest(name, names, ELEMENTSOF(names));
}

const char *ios_sched_names_text(void)
{
        static char buf[128];

        if (!buf[0])
                for (size_t i = 0; i < ELEMENTSOF(scheds); i++) {
                        size_t l = strlen(buf);

                        snprintf(buf + l, sizeof(buf) - l, "%s%s", i ? " " : "", scheds[i].name);
                }
        return buf;
}

/* A name the kernel could offer: what elevator_find() compares, at most ELEVATOR_NAME_MAX. */
bool ios_sched_name_valid(const char *name)
{
        size_t n = strlen(name);

        if (n == 0 || n > 15)
                return false;
        for (const char *s = name; *s; s++)
                if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '-' && *s != '_')
                        return false;
        return true;
}

enum kind { K_INT, K_BOOL, K_WRITE_CACHE };

struct tunable {
        const char *name;
        enum kind kind;
        long long min, max;
        const char *what;       /* for messages: "a time in ms", "a count" */
        bool ticks;             /* a time in ms the kernel keeps in ticks (jiffies), rounded up on write */
};

#define BOOL_(n)          { n, K_BOOL, 0, 1, "0 or 1", false }
#define INT_(n, lo, hi, w) { n, K_INT, lo, hi, w, false }
/* mq-deadline's (and deadline's) expiries, bfq's timeout_sync: msecs_to_jiffies() on write,
 * jiffies_to_msecs() on read.  bfq keeps slice_idle and fifo_expire_* in ns (exact), kyber its
 * latencies in ns, cfq since 4.10 its times in ns. */
#define TICKS_(n, lo, hi, w) { n, K_INT, lo, hi, w, true }
/* A time kept in ticks is shown as a whole number of them in ms: the most that a rounding up to a tick
 * (10 ms at HZ=100, the longest) keeps in the kernel's int (mq-deadline: a larger one reads back
 * negative) or unsigned int (io_timeout: it reads back 0 past 2^32). */
#define TICKS_INT_MAX  2147483640LL
#define TICKS_UINT_MAX 4294967290LL
/* queue_var_store(): a value past UINT_MAX is EINVAL (blk-sysfs.c) */
#define QUEUE_VAR_MAX  4294967295LL
/* wbt_lat_usec: kept in ns as u64 (queue_wb_lat_store() multiplies by 1000): U64_MAX / 1000 */
#define WBT_USEC_MAX   18446744073709551LL

/* Writable queue/ attributes (Documentation/ABI/stable/sysfs-block). */
static const struct tunable queue_attrs[] = {
        BOOL_("add_random"),
        /* from 7.2 the queue's (see moved[]); before, mq-deadline's iosched/async_depth.  Every
         * scheduler uses it, none has none (EINVAL); capped at nr_requests (apply-limits.c) */
        INT_("async_depth", 1, INT_MAX, "a count, at least 1"),
        /* bytes, a multiple of discard_granularity, at most discard_max_hw_bytes (apply-limits.c) */
        INT_("discard_max_bytes", 0, QUEUE_VAR_MAX, "a size in bytes"),
        BOOL_("io_poll"),
        INT_("io_poll_delay", -1, INT_MAX, "-1 (classic polling) or a time in us"),
        /* msecs_to_jiffies() on write, jiffies_to_msecs() on read (queue_io_timeout_store) */
        TICKS_("io_timeout", 1, TICKS_UINT_MAX, "a time in ms, at least 1"),
        BOOL_("iostats"),
        BOOL_("iostats_passthrough"),   /* from 6.13: I/O statistics for passthrough commands */
        INT_("max_sectors_kb", 1, UINT_MAX, "a size in KiB, at least 1"),
        INT_("nomerges", 0, 2, "0, 1 or 2"),
        INT_("nr_requests", 1, UINT_MAX, "a count, at least 1"),
        INT_("read_ahead_kb", 0, UINT_MAX, "a size in KiB"),
        BOOL_("rotational"),
        INT_("rq_affinity", 0, 2, "0, 1 or 2"),
        BOOL_("stable_writes"),
        INT_("wbt_lat_usec", -1, WBT_USEC_MAX, "-1 (the default) or a time in us"),
        { "write_cache", K_WRITE_CACHE, 0, 0, "\"write back\" or \"write through\"", false },
        /* from 6.17: 0 (unmap off) or write_zeroes_unmap_max_hw_bytes (apply-limits.c) */
        INT_("write_zeroes_unmap_max_bytes", 0, LLONG_MAX, "0 or the disk's write_zeroes_unmap_max_hw_bytes"),
        /* from 7.2, zoned disks: writes to a zone one at a time */
        BOOL_("zoned_qd1_writes"),
};

/* queue/iosched/ files, by name; the union of the ranges of the schedulers that have one. */
static const struct tunable iosched_attrs[] = {
        TICKS_("read_expire", 0, TICKS_INT_MAX, "a time in ms"),
        TICKS_("write_expire", 0, TICKS_INT_MAX, "a time in ms"),
        TICKS_("prio_aging_expire", 0, TICKS_INT_MAX, "a time in ms"),
        INT_("writes_starved", 0, INT_MAX, "a count"),
        BOOL_("front_merges"),
        INT_("fifo_batch", 0, INT_MAX, "a count"),
        /* mq-deadline's from 5.14 to 7.1; the queue's queue/async_depth from 7.2 (moved[]) */
        INT_("async_depth", 1, INT_MAX, "a count, at least 1"),
        INT_("read_lat_nsec", 0, LLONG_MAX, "a time in ns"),
        INT_("write_lat_nsec", 0, LLONG_MAX, "a time in ns"),
        INT_("slice_idle", 0, INT_MAX, "a time in ms"),
        INT_("slice_idle_us", 0, INT_MAX, "a time in us"),
        BOOL_("low_latency"),
        TICKS_("timeout_sync", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("max_budget", 0, INT_MAX, "a count of sectors (0: automatic)"),
        BOOL_("strict_guarantees"),
        INT_("back_seek_max", 0, INT_MAX, "a size in KiB"),
        INT_("back_seek_penalty", 1, INT_MAX, "a factor, at least 1"),
        INT_("fifo_expire_sync", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("fifo_expire_async", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("quantum", 1, INT_MAX, "a count, at least 1"),
        INT_("slice_sync", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("slice_async", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("slice_async_rq", 1, INT_MAX, "a count, at least 1"),
        INT_("group_idle", 0, INT_MAX, "a time in ms"),
        INT_("target_latency", 1, INT_MAX, "a time in ms, at least 1"),
        INT_("slice_sync_us", 1, INT_MAX, "a time in us, at least 1"),
        INT_("slice_async_us", 1, INT_MAX, "a time in us, at least 1"),
        INT_("group_idle_us", 0, INT_MAX, "a time in us"),
};

/* queue/iosched/ files per scheduler (the kernel's Documentation/block). */
static const struct {
        const char *sched;
        const char *tunables[20];      /* NULL-terminated */
} sched_tunables[] = {
        { "mq-deadline", { "read_expire", "write_expire", "writes_starved", "front_merges",
                           "fifo_batch", "async_depth", "prio_aging_expire" } },
        { "deadline", { "read_expire", "write_expire", "writes_starved", "front_merges",
                        "fifo_batch" } },
        { "kyber", { "read_lat_nsec", "write_lat_nsec" } },
        { "bfq", { "slice_idle", "slice_idle_us", "low_latency", "timeout_sync", "max_budget",
                   "strict_guarantees", "back_seek_max", "back_seek_penalty",
                   "fifo_expire_sync", "fifo_expire_async" } },
        { "cfq", { "quantum", "fifo_expire_sync", "fifo_expire_async", "back_seek_max",
                   "back_seek_penalty", "slice_sync", "slice_async", "slice_async_rq",
                   "slice_idle", "group_idle", "low_latency", "target_latency",
                   "slice_idle_us", "slice_sync_us", "slice_async_us", "group_idle_us" } },
};

bool ios_iosched_tunable_of(const char *sched, const char *tunable)
{
        for (size_t i = 0; sched && i < ELEMENTSOF(sched_tunables); i++) {
                if (!streq(sched, sched_tunables[i].sched))
                        continue;
                for (const char * const *t = sched_tunables[i].tunables; *t; t++)
                        if (streq(*t, tunable))
                                return true;
        }
        return false;
}

bool ios_sched_tunables_known(const char *sched)
{
        for (size_t i = 0; sched && i < ELEMENTSOF(sched_tunables); i++)
                if (streq(sched, sched_tunables[i].sched))
                        return true;
        return sched && streq(sched, "none");
}

static const struct tunable *lookup(const char *key)
{
        const struct tunable *tab;
        const char *attr;
        size_t n;

        if ((attr = startswith(key, "queue/iosched/"))) {
                tab = iosched_attrs;
                n = ELEMENTSOF(iosched_attrs);
        } else if ((attr = startswith(key, "queue/"))) {
                tab = queue_attrs;
                n = ELEMENTSOF(queue_attrs);
        } else
                return NULL;
        for (size_t i = 0; i < n; i++)
                if (streq(attr, tab[i].name))
                        return &tab[i];
        return NULL;
}

bool ios_tunable_known(const char *key)
{
        return lookup(key) != NULL;
}

/*
 * Values the kernel moved from one file to another: before the release,
 * the first spelling; from it on, the second.  A policy may use either:
 * apply.c writes the file the running kernel has (ios_tunable_moved).
 */
static const struct moved {
        const char *before, *after;
        unsigned major, minor;          /* the release that has "after" */
} moved[] = {
        /* mq-deadline's async_depth (5.14) became the queue's,
         * queue/async_depth, next to nr_requests: on Debian sid's 7.2.13
         * (tests/vm, flavour sid) mq-deadline's iosched/ has no
         * async_depth; 6.12 and 6.18 keep it there */
        { "queue/iosched/async_depth", "queue/async_depth", 7, 2 },
};

const char *ios_tunable_moved(const char *key, unsigned *ret_major, unsigned *ret_minor)
{
        for (size_t i = 0; key && i < ELEMENTSOF(moved); i++)
                if (streq(key, moved[i].before) || streq(key, moved[i].after)) {
                        if (ret_major)
                                *ret_major = moved[i].major;
                        if (ret_minor)
                                *ret_minor = moved[i].minor;
                        return streq(key, moved[i].before) ? moved[i].after : moved[i].before;
                }
        return NULL;
}

/*
 * The writes that make the kernel recompute another value, with the
 * kernels they do it on ([from, to) as major * 1000 + minor, 0: open).
 * apply.c writes key after every "by" the plan writes; the final read-back
 * (settle) still catches what this table does not know.
 */
#define KV(ma, mi) (1000u * (ma) + (mi))
static const struct reset_rule {
        const char *key, *by;
        unsigned from, to;
} resets[] = {
        /* a new depth sets async_depth (mq-deadline's dd_depth_updated(), the queue's from 7.2) */
        { "queue/iosched/async_depth", "queue/nr_requests", 0, 0 },
        { "queue/async_depth", "queue/nr_requests", 0, 0 },
        /*
         * A queue-limits update (queue_limits_commit_update(), the bdi's
         * read-ahead from the limits) raises read_ahead_kb to what the
         * limits give (at least 128 KiB; 1024 on a loop device over ext4,
         * 128 over tmpfs).  Measured per attribute (read_ahead_kb written
         * low, the attribute written with its own value, read back; the
         * guest's KERNEL-FACT ra-reset line does the same on every kernel
         * of tests/vm): on 6.12, 6.18 and 7.2 each of these six (a loop
         * device: 64 -> 128 on 6.12, -> 1024 on 6.18, -> 2560 on 7.2; a
         * value above, 4096, kept), and not nomerges, rq_affinity,
         * wbt_lat_usec, nr_requests, io_poll or the scheduler; on 5.10
         * and 6.1 none of them.  The lower bounds are the releases that made them
         * queue-limits writes (the BLK_FEAT_* flags in 6.11, max_sectors_kb
         * through queue_limits in 6.10); writing after them costs nothing
         * where a kernel does not recompute.
         */
        { "queue/read_ahead_kb", "queue/add_random", KV(6, 11), 0 },
        { "queue/read_ahead_kb", "queue/iostats", KV(6, 11), 0 },
        { "queue/read_ahead_kb", "queue/rotational", KV(6, 11), 0 },
        { "queue/read_ahead_kb", "queue/stable_writes", KV(6, 11), 0 },
        { "queue/read_ahead_kb", "queue/write_cache", KV(6, 11), 0 },
        { "queue/read_ahead_kb", "queue/max_sectors_kb", KV(6, 10), 0 },
        /* the file is from 6.13, a queue-limits flag (BLK_FLAG_IOSTATS_PASSTHROUGH): 64 -> 128 on 6.18 */
        { "queue/read_ahead_kb", "queue/iostats_passthrough", KV(6, 13), 0 },
};

bool ios_tunable_resets(const char *key, const char *by, unsigned major, unsigned minor)
{
        unsigned kv = KV(major, minor);

        for (size_t i = 0; key && by && i < ELEMENTSOF(resets); i++)
                if (streq(key, resets[i].key) && streq(by, resets[i].by))
                        /* a kernel not known (0.0): every kernel the rule names */
                        return !kv || ((!resets[i].from || kv >= resets[i].from) &&
                                       (!resets[i].to || kv < resets[i].to));
        return false;
}

const char *ios_tunable_reset_by(const char *key)
{
        for (size_t i = 0; key && i < ELEMENTSOF(resets); i++)
                if (streq(key, resets[i].key))
                        return resets[i].by;
        return NULL;
}

const char *ios_tunable_suggest(const char *key, char *buf, size_t n)
{
        static const struct {
                const char *prefix;
                const struct tunable *tab;
                size_t n;
        } tabs[] = {
                { "queue/", queue_attrs, ELEMENTSOF(queue_attrs) },
                { "queue/iosched/", iosched_attrs, ELEMENTSOF(iosched_attrs) },
        };
        unsigned best = IOS_DISTANCE_MAX;
        char cand[96];

        if (ios_near_miss(key, "Scheduler")) {
                best = ios_edit_distance(key, "Scheduler");
                snprintf(buf, n, "Scheduler");
        }
        for (size_t t = 0; t < ELEMENTSOF(tabs); t++)
                for (size_t i = 0; i < tabs[t].n; i++) {
                        unsigned d;

                        snprintf(cand, sizeof(cand), "%s%s", tabs[t].prefix, tabs[t].tab[i].name);
                        d = ios_edit_distance(key, cand);
                        if (d < best && ios_near_miss(key, cand)) {
                                best = d;
                                snprintf(buf, n, "%s", cand);
                        }
                }
        return best == IOS_DISTANCE_MAX ? NULL : buf;
}

int ios_tunable_check(const char *key, const char *value, char *msg, size_t msglen)
{
        const struct tunable *t = lookup(key);
        const char *digits;
        long long v;
        char *end;

        if (!t)
                return -ENOENT;
        if (t->kind == K_WRITE_CACHE) {
                if (streq(value, "write back") || streq(value, "write through"))
                        return 0;
                snprintf(msg, msglen, "%s= wants %s, got \"%s\"", key, t->what, value);
                return -EINVAL;
        }
        /* decimal only, as the kernel's kstrto*(..., 10) read it */
        digits = value + (value[0] == '-');
        if (!*digits || strspn(digits, "0123456789") != strlen(digits)) {
                snprintf(msg, msglen, "%s= wants an integer (%s), got \"%s\"", key, t->what, value);
                return -EINVAL;
        }
        errno = 0;
        v = strtoll(value, &end, 10);
        if (errno == ERANGE || v < t->min || v > t->max) {
                snprintf(msg, msglen, "%s=%s is out of range: wants %s (%lld..%lld)", key, value,
                         t->what, t->min, t->max);
                return -ERANGE;
        }
        return 0;
}

/*
 * What the kernel shows for ms written to a value it keeps in ticks:
 * msecs_to_jiffies() rounds up to the next tick, jiffies_to_msecs() rounds
 * up to the next ms (HZ=250: 250 -> 63 ticks -> 252; HZ=300: 250 -> 75 -> 250).
 */
static long long ticks_shown(long long ms, unsigned hz)
{
        unsigned long long j = ((unsigned long long)ms * hz + 999) / 1000;

        return (long long)((j * 1000 + hz - 1) / hz);
}

/* The tick rates Debian's and the usual kernels are built with, when the running one cannot be read. */
static const unsigned common_hz[] = { 100, 250, 300, 1000 };

static bool numbers(const char *kernel, const char *wanted, long long *k, long long *w)
{
        char *ek, *ew;

        errno = 0;
        *k = strtoll(kernel, &ek, 10);
        *w = strtoll(wanted, &ew, 10);
        return !errno && ek != kernel && ew != wanted && !*ek && !*ew;
}

/*
 * Whether the value the kernel shows is the value that was wanted.  Numbers
 * compare as numbers ("0128" is 128), exactly, except a time the kernel
 * keeps in ticks: there the wanted value as the kernel would show it at
 * hz (the root's CONFIG_HZ, ios_ctx_hz), or at one of the usual rates
 * when hz is 0.  So bfq's slice_idle=4 is not "in place" at 8.
 */
/*
 * The queue/ attributes the kernel keeps in a form of its own (block/blk-sysfs.c):
 * read_ahead_kb in whole pages (ra_kb >> (PAGE_SHIFT - 10)), nr_requests at
 * least BLKDEV_MIN_RQ (4), wbt_lat_usec -1 as the device's default latency
 * (wbt_default_latency_nsec: 2 ms non-rotational, 75 ms rotational).  Whether
 * kernel is what the kernel shows for wanted; *why says the rule.
 */
static bool queue_kept(const char *key, long long k, long long w, const char **why)
{
        long page_kb = sysconf(_SC_PAGESIZE) / 1024;

        if (streq(key, "queue/read_ahead_kb") && page_kb > 0 && w >= 0) {
                *why = "whole pages";
                return k == w / page_kb * page_kb;
        }
        if (streq(key, "queue/nr_requests") && w >= 0 && w < 4) {
                *why = "the kernel's minimum";
                return k == 4;
        }
        if (streq(key, "queue/wbt_lat_usec") && w == -1) {
                *why = "the device's default";
                return k == 2000 || k == 75000;
        }
        return false;
}

const char *ios_tunable_kept_why(const char *key, const char *kernel, const char *wanted)
{
        const char *why = NULL;
        long long k, w;

        if (!kernel || !wanted || !numbers(kernel, wanted, &k, &w) || k == w)
                return NULL;
        if (queue_kept(key, k, w, &why))
                return why;
        return ios_tunable_same(key, kernel, wanted, 0) ? "its next tick" : NULL;
}

bool ios_tunable_same(const char *key, const char *kernel, const char *wanted, unsigned hz)
{
        const struct tunable *tu = lookup(key);
        const char *why;
        long long k, w;

        if (!kernel || !wanted)
                return false;
        if (streq(kernel, wanted))
                return true;
        if (!numbers(kernel, wanted, &k, &w))
                return false;
        if (k == w || queue_kept(key, k, w, &why))
                return true;
        if (!tu || !tu->ticks || w < 0)
                return false;
        if (hz)
                return k == ticks_shown(w, hz);
        for (size_t i = 0; i < ELEMENTSOF(common_hz); i++)
                if (k == ticks_shown(w, common_hz[i]))
                        return true;
        return false;
}

bool ios_tunable_rounded(const char *key, const char *kernel, const char *wanted)
{
        long long k, w;

        return kernel && wanted && numbers(kernel, wanted, &k, &w) && k != w &&
               ios_tunable_same(key, kernel, wanted, 0);
}
