/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * snapshot.c: a disk's scheduler state as a list of settings, so that
 * putting it back is an ordinary plan (apply.c owns the write order and
 * the read-back).  A switch changes more than the scheduler: the kernel
 * resets nr_requests to the new elevator's default, bfq turns writeback
 * throttling (wbt_lat_usec) off and the next elevator turns it back on, the
 * old elevator's iosched/ tunables vanish and come back with defaults, and
 * writing nr_requests resets mq-deadline's async_depth.  So the snapshot
 * holds the scheduler and every readable, owner-writable regular file of
 * queue/ and queue/iosched/.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"
#include "strv.h"

static int push(struct ios_wanted *w, const char *key, char *value)
{
        int e = value ? ios_wanted_set(w, key, value, "saved") : -ENOMEM;

        free(value);
        return e;
}

static int snapshot_dir(int diskfd, const char *dir, struct ios_wanted *w)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        int e;

        e = ios_sysfs_list(diskfd, dir, &names);
        if (e < 0)
                return e == -ENOENT ? 0 : e;
        e = 0;
        for (char **n = names; e >= 0 && *n; n++) {
                _cleanup_free_ char *attr = NULL;
                char *val = NULL;
                struct stat st;

                if (streq(*n, "scheduler"))
                        continue;
                if (asprintf(&attr, "%s/%s", dir, *n) < 0)
                        return -ENOMEM;
                if (fstatat(diskfd, attr, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
                    !S_ISREG(st.st_mode) || !(st.st_mode & S_IWUSR))
                        continue;
                /* write-only or erroring attributes cannot be restored anyway */
                if (ios_sysfs_read_string(diskfd, attr, &val) < 0)
                        continue;
                e = push(w, attr, val);
        }
        return e;
}

int ios_snapshot_take(struct ios_device *d, struct ios_wanted *ret)
{
        struct ios_wanted w = {};
        int e;

        assert(d && ret);
        e = ios_device_refresh_sched(d);
        if (e < 0 && e != -ENOENT)
                return e;
        if (d->sched_current)
                e = push(&w, "scheduler", strdup(d->sched_current));
        else
                e = 0;
        if (e >= 0)
                e = snapshot_dir(d->fd, "queue", &w);
        if (e >= 0)
                e = snapshot_dir(d->fd, "queue/iosched", &w);
        if (e < 0) {
                ios_wanted_done(&w);
                return e;
        }
        *ret = w;
        return 0;
}
