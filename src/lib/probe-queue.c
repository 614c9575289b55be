/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * probe-queue.c: a disk's request queue.  The flags the kernel reports
 * (rotational, zoned; removable and size when IOS_PROBE_EXTRA asks, size
 * alone when IOS_PROBE_SIZE does), whether
 * the queue is blk-mq and with how many hardware queues, and the schedulers
 * it offers and has.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "strv.h"

/*
 * A flag that is not there or not a number is unknown; any other failure
 * (no descriptor left, no memory, an I/O error, the disk going away) is an
 * error of the whole probe, never a silently unknown flag: a disk whose
 * rotational flag could not be read must not be classified as if it had none.
 */
static bool unknown(int e)
{
        return e == -ENOENT || e == -EINVAL || e == -ERANGE;
}

/*
 * The only disks the kernel hides are NVMe multipath path nodes, which it
 * names nvme<subsystem>c<controller>n<namespace> (nvme_set_disk_name());
 * a namespace (nvme0n1) never hides, so its "hidden" is not read.
 */
static bool nvme_path_node(const char *name)
{
        const char *p = startswith(name, "nvme");
        size_t n;

        if (!p || !(n = strspn(p, "0123456789")) || p[n] != 'c')
                return false;
        p += n + 1;
        return (n = strspn(p, "0123456789")) && p[n] == 'n';
}

int ios_probe_queue(struct ios_device *d)
{
        _cleanup_free_ char *s = NULL;
        struct stat st;
        uint64_t v;
        int e, i;

        e = ios_sysfs_read_int(d->fd, "queue/rotational", &i);
        if (e < 0 && !unknown(e))
                return e;
        d->rotational = e >= 0 ? i : -1;
        d->removable = -1;
        if (ios_ctx_get_probe(d->ctx) & IOS_PROBE_EXTRA) {
                e = ios_sysfs_read_int(d->fd, "removable", &i);
                if (e < 0 && !unknown(e))
                        return e;
                d->removable = e >= 0 ? i : -1;
        }
        if (ios_ctx_get_probe(d->ctx) & (IOS_PROBE_EXTRA | IOS_PROBE_SIZE)) {
                e = ios_sysfs_read_u64(d->fd, "size", &v);
                if (e < 0 && !unknown(e))
                        return e;
                if (e >= 0)
                        d->size = v * 512;
        }
        if (nvme_path_node(d->name)) {          /* only NVMe path nodes hide */
                e = ios_sysfs_read_int(d->fd, "hidden", &i);
                if (e < 0 && !unknown(e))
                        return e;
                d->hidden = e >= 0 && i == 1;
        }
        d->zoned = IOS_ZONED_NONE;
        e = ios_sysfs_read_string(d->fd, "queue/zoned", &s);
        if (e < 0 && !unknown(e))
                return e;
        if (e >= 0) {
                enum ios_zoned z = ios_zoned_from_string(s);
                if (z >= 0)
                        d->zoned = z;
        }

        /* kernfs (and most file systems) count subdirectories in st_nlink; a dm-multipath
         * map's class depends on it, other disks' only when asked for */
        if ((!(ios_ctx_get_probe(d->ctx) & IOS_PROBE_NO_HWQ) || startswith(d->name, "dm-")) &&
            fstatat(d->fd, "mq", &st, 0) == 0) {
                int n = st.st_nlink >= 2 + 1 ? (int)(st.st_nlink - 2) : ios_sysfs_list(d->fd, "mq", NULL);

                if (n == -ENOMEM)
                        return n;
                d->blk_mq = n >= 0;
                d->nr_hw_queues = n >= 0 ? (unsigned)n : 0;
        }
        e = ios_device_refresh_sched(d);
        return e < 0 && !unknown(e) ? e : 0;   /* a list that does not parse means no choice */
}

int ios_device_refresh_sched(struct ios_device *d)
{
        _cleanup_free_ char *s = NULL;
        int e;

        d->sched_current = (free(d->sched_current), NULL);
        d->sched_avail = ios_strv_free(d->sched_avail);
        e = ios_sysfs_read_string(d->fd, "queue/scheduler", &s);
        if (e == -ENOENT) {
                d->sched_avail = calloc(1, sizeof(char *));
                return d->sched_avail ? 0 : -ENOMEM;
        }
        if (e < 0)
                return e;
        return ios_sched_parse(s, &d->sched_current, &d->sched_avail);
}
