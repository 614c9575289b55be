/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * apply-limits.c: the bounds of a queue attribute that depend on the disk,
 * as the kernel's store() checks them (block/blk-sysfs.c, block/blk-mq.c),
 * so that --dry-run, apply and --check refuse what the kernel would refuse,
 * before anything is written on the disk:
 *
 *   queue/nr_requests  without a scheduler at most the depth of the disk's
 *                      tag set (blk_mq_tag_update_depth() cannot grow the
 *                      driver's tags: mq/N/nr_tags), with one at most
 *                      MAX_SCHED_RQ, 16 * BLKDEV_DEFAULT_RQ = 2048 (the
 *                      scheduler's tags grow); below BLKDEV_MIN_RQ the
 *                      kernel keeps 4 (tunables.c's rule, not a refusal);
 *   queue/max_sectors_kb  from the page size to queue/max_hw_sectors_kb
 *                      (queue_max_sectors_store()); newer kernels (6.18)
 *                      keep it rounded down to the logical block size
 *                      (blk_validate_limits(): a kept form, not a refusal);
 *   queue/discard_max_bytes  a multiple of discard_granularity; above
 *                      discard_max_hw_bytes the kernel keeps that
 *                      (queue_discard_max_store(): a kept form, not a refusal);
 *   queue/write_zeroes_unmap_max_bytes  0 or write_zeroes_unmap_max_hw_bytes
 *                      (6.17);
 *   queue/io_poll      from 6.11 whether the driver polls: a write changes
 *                      nothing, and is EINVAL where it does not;
 *   queue/io_poll_delay  from 6.4 always -1 (classic polling), whatever is
 *                      written;
 *   queue/async_depth  (7.2) above nr_requests the kernel keeps nr_requests
 *                      (without a scheduler it is not written: apply.c);
 *   queue/wbt_lat_usec  -1 is the default of the disk's rotational flag as
 *                      it is (blk-wbt.c wbt_default_latency_nsec()): 75000
 *                      rotational, 2000 not.
 *
 * The bounds that do not depend on the disk are the table's (tunables.c),
 * checked where the file is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"
#include "apply-internal.h"

#define IOS_MAX_SCHED_RQ 2048

/* Whether the root's kernel is maj.min or later (false when it cannot be told). */
static bool kernel_from(struct ios_device *d, unsigned maj, unsigned min)
{
        unsigned a, b;

        return ios_ctx_kernel_version(d->ctx, &a, &b) >= 0 && (a > maj || (a == maj && b >= min));
}

static bool number(const char *s, unsigned long long *ret)
{
        char *end;

        if (!s || !*s || *s == '-')
                return false;
        errno = 0;
        *ret = strtoull(s, &end, 10);
        return !errno && !*end;
}

/* The smallest mq/N/nr_tags of the disk (every hardware queue has the set's depth), 0 if none is shown. */
static unsigned long long tag_depth(struct ios_device *d)
{
        _cleanup_(ios_strv_freep) char **hw = NULL;
        unsigned long long depth = 0;

        if (ios_sysfs_list(d->fd, "mq", &hw) < 0)
                return 0;
        for (char **h = hw; h && *h; h++) {
                _cleanup_free_ char *v = NULL;
                unsigned long long n;
                char attr[300];

                snprintf(attr, sizeof(attr), "mq/%s/nr_tags", *h);
                if (ios_sysfs_read_string(d->fd, attr, &v) == 0 && number(v, &n) && n > 0 && (!depth || n < depth))
                        depth = n;
        }
        return depth;
}

int ios_tunable_refused(struct ios_device *d, const char *key, const char *value, const char *sched_after,
                        char *why, size_t whylen)
{
        unsigned long long v, max;
        _cleanup_free_ char *hw = NULL;

        if (!number(value, &v))
                return 0;
        if (streq(key, "queue/nr_requests")) {
                if (sched_after && !streq(sched_after, "none")) {
                        if (v <= IOS_MAX_SCHED_RQ)
                                return 0;
                        snprintf(why, whylen, "at most %d with a scheduler", IOS_MAX_SCHED_RQ);
                        return 1;
                }
                max = tag_depth(d);
                if (!max || v <= max)
                        return 0;
                snprintf(why, whylen, "at most %llu without a scheduler (the depth of the disk's tag set)", max);
                return 1;
        }
        if (streq(key, "queue/discard_max_bytes")) {
                /* the kernel masks with granularity - 1: a granularity of 0 (no discard) takes 0 alone */
                if (ios_sysfs_read_string(d->fd, "queue/discard_granularity", &hw) < 0 || !number(hw, &max))
                        return 0;
                if (max == 0 && v) {
                        snprintf(why, whylen, "0 only (the disk has no discard: discard_granularity 0)");
                        return 1;
                }
                if (max > 0 && v % max) {
                        snprintf(why, whylen, "a multiple of %llu (the disk's discard_granularity)", max);
                        return 1;
                }
                return 0;
        }
        if (streq(key, "queue/io_poll") && v) {
                /* from 6.11 the file shows whether the driver polls (BLK_FEAT_POLL) and a write
                 * changes nothing: EINVAL where it does not (queue_poll_store) */
                if (kernel_from(d, 6, 11) && ios_sysfs_read_string(d->fd, "queue/io_poll", &hw) == 0 &&
                    streq(hw, "0")) {
                        snprintf(why, whylen, "the disk's driver does not poll (its poll queues are a driver "
                                 "parameter)");
                        return 1;
                }
                return 0;
        }
        if (streq(key, "queue/write_zeroes_unmap_max_bytes")) {
                if (v && ios_sysfs_read_string(d->fd, "queue/write_zeroes_unmap_max_hw_bytes", &hw) == 0 &&
                    number(hw, &max) && v != max) {
                        snprintf(why, whylen, "0 or %llu (the disk's write_zeroes_unmap_max_hw_bytes)", max);
                        return 1;
                }
                return 0;
        }
        if (streq(key, "queue/max_sectors_kb")) {
                long page_kb = sysconf(_SC_PAGESIZE) / 1024;

                if (page_kb > 0 && v < (unsigned long long)page_kb) {
                        snprintf(why, whylen, "at least %ld (a page)", page_kb);
                        return 1;
                }
                if (ios_sysfs_read_string(d->fd, "queue/max_hw_sectors_kb", &hw) == 0 && number(hw, &max) &&
                    max > 0 && v > max) {
                        snprintf(why, whylen, "at most %llu (the disk's max_hw_sectors_kb)", max);
                        return 1;
                }
        }
        return 0;
}

/*
 * wbt_lat_usec=-1 where the kernel holds one of the two defaults: 1 when it
 * is the one of the disk's rotational flag now, 0 the other (a rotational
 * write since, or another program's), -1 not this rule's to say.
 */
int ios_apply_wbt_default(struct ios_device *d, const char *kernel, const char *wanted)
{
        _cleanup_free_ char *rot = NULL;
        unsigned long long k;

        if (!streq(wanted, "-1") || !number(kernel, &k) || (k != 2000 && k != 75000) ||
            ios_sysfs_read_string(d->fd, "queue/rotational", &rot) < 0 ||
            (!streq(rot, "0") && !streq(rot, "1")))
                return -1;
        return k == (streq(rot, "1") ? 75000 : 2000);
}

/* The value a disk-bound rule makes of wanted: discard_max_bytes above the
 * disk's maximum is that maximum; async_depth above nr_requests is nr_requests;
 * max_sectors_kb is a whole number of the disk's logical blocks. */
bool ios_apply_kept_by_disk(struct ios_device *d, const char *key, const char *kernel, const char *wanted)
{
        _cleanup_free_ char *lim = NULL;
        unsigned long long k, w, max;
        const char *attr = streq(key, "queue/discard_max_bytes") ? "queue/discard_max_hw_bytes" :
                           streq(key, "queue/async_depth") ? "queue/nr_requests" : NULL;

        /* hybrid polling is gone from 6.4 ("blk-mq: remove hybrid polling"): io_poll_delay
         * takes any value and shows -1, classic polling */
        if (streq(key, "queue/io_poll_delay") && streq(kernel, "-1"))
                return kernel_from(d, 6, 4);
        /* from 6.11 a write to io_poll changes nothing: a polling disk keeps 1 */
        if (streq(key, "queue/io_poll") && streq(kernel, "1") && streq(wanted, "0"))
                return kernel_from(d, 6, 11);
        if (streq(key, "queue/max_sectors_kb")) {
                unsigned long long lbs;

                return number(kernel, &k) && number(wanted, &w) &&
                       ios_sysfs_read_string(d->fd, "queue/logical_block_size", &lim) == 0 &&
                       number(lim, &lbs) && lbs > 1024 && k == w / (lbs / 1024) * (lbs / 1024);
        }
        if (!attr || !number(kernel, &k) || !number(wanted, &w) || w <= k)
                return false;
        return ios_sysfs_read_string(d->fd, attr, &lim) == 0 && number(lim, &max) && k == max;
}
