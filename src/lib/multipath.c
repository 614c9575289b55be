/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * multipath.c: request-based dm-multipath, seen from both ends.
 *
 * A multipath device (dm/uuid "mpath-<wwid>") has a real blk-mq queue and
 * scheduler, and it is the only one that matters: dm-multipath clones each
 * request and inserts it into a path's queue below that path's scheduler
 * (blk_insert_cloned_request), so the schedulers of the paths are bypassed.
 *
 * For a multipath device, its paths (slaves/) are opened and classified (by
 * device.c, which opens disks), so that classify.c can say what the LUN is
 * (every path spinning, flash, a RAID logical drive).  For any other disk, whether it is such a path: a
 * dm-multipath device among its holders/, or udev's DM_MULTIPATH_DEVICE_PATH=1
 * (multipath-tools' 56-multipath.rules sets it on a path before the
 * multipath device exists, which is when udev runs us for a new LUN).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "strv.h"

/* A lookup that failed for our own process is an error; anything else is "not there". */
static bool fatal(int e)
{
        return e == -ENOMEM || e == -EMFILE || e == -ENFILE;
}

/* 1 if the block device name is a dm-multipath device, 0 if not, or -errno. */
static int is_mpath(struct ios_ctx *r, const char *name)
{
        _cleanup_free_ char *path = NULL, *uuid = NULL;
        _cleanup_close_ int fd = -1;
        int e;

        if (!startswith(name, "dm-") || strchr(name, '/'))
                return 0;
        if (asprintf(&path, "/sys/block/%s", name) < 0)
                return -ENOMEM;
        fd = ios_ctx_open(r, path, O_PATH | O_DIRECTORY);
        if (fd < 0)
                return fatal(fd) ? fd : 0;
        e = ios_sysfs_read_string(fd, "dm/uuid", &uuid);
        if (e < 0)
                return fatal(e) ? e : 0;
        return startswith(uuid, "mpath-") != NULL;
}

static int probe_holder(struct ios_device *d)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        const char *v = ios_props_get(&d->props, "DM_MULTIPATH_DEVICE_PATH");
        int e = ios_sysfs_list(d->fd, "holders", &names);

        if (e < 0 && fatal(e))
                return e;
        for (char **n = names; e > 0 && n && *n; n++) {
                int m = is_mpath(d->ctx, *n);

                if (m < 0)
                        return m;
                if (m) {
                        d->mpath_path = true;
                        d->mpath_holder = strdup(*n);
                        return d->mpath_holder ? 0 : -ENOMEM;
                }
        }
        d->mpath_path = v && streq(v, "1");
        return 0;
}

int ios_mpath_probe(struct ios_device *d)
{
        if (d->hidden)
                return 0;
        if (startswith(d->name, "dm-")) {
                d->mpath_kernel_rotational = d->rotational;
                return d->subtype && streq(d->subtype, "mpath");
        }
        return probe_holder(d);
}

void ios_mpath_done(struct ios_device *d)
{
        free(d->mpath_holder);
        d->mpath_holder = NULL;
        d->mpath_paths = ios_strv_free(d->mpath_paths);
        free(d->mpath_path_cls);
        d->mpath_path_cls = NULL;
}
