/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device.c: a whole disk's life.  Looks a disk up by name, node, MAJ:MIN or
 * partition (the parent disk is returned), opens its sysfs directory, has
 * its facts read (probe-queue.c, probe-bus.c, multipath.c; a multipath
 * device's paths opened here in turn) and decided on (classify.c), writes
 * its attributes, and frees it.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "root-internal.h"
#include "nodefree-internal.h"
#include "strv.h"

struct ios_device *ios_device_free(struct ios_device *d)
{
        if (!d)
                return NULL;
        ios_dirfd_close(d->fd);
        free(d->name);
        free(d->syspath);
        free(d->tran);
        free(d->driver);
        free(d->pci_id);
        free(d->vendor);
        free(d->model);
        free(d->serial);
        free(d->wwn);
        free(d->hctl);
        free(d->subtype);
        free(d->ctrl_path);
        free(d->pci_class);
        free(d->sched_current);
        ios_strv_free(d->sched_avail);
        ios_mpath_done(d);
        ios_strv_free(d->evidence);
        ios_props_done(&d->props);
        free(d);
        return NULL;
}

/*
 * A switch of queue/scheduler or a change of queue/nr_requests takes a lock
 * that every disk of a tag set shares (one SAS HBA, one NVMe controller).
 * Kernel 7.x takes it with a try-lock and answers EBUSY while another disk
 * of the set holds it (block/elevator.c elv_iosched_store, block/blk-sysfs.c
 * queue_requests_store); 6.x waited instead.  Such an EBUSY passes: the
 * write is tried again after 10 ms, doubling to at most 320 ms a wait,
 * for up to about 2 s in all, then the kernel's EBUSY is the answer.
 */
#define IOS_BUSY_FIRST_MS 10
#define IOS_BUSY_MAX_MS 320
#define IOS_BUSY_TOTAL_MS 2000

static bool busy_may_pass(const char *attr)
{
        return streq(attr, "queue/scheduler") || streq(attr, "queue/nr_requests");
}

static int write_once(struct ios_device *d, const char *attr, const char *value)
{
        if (!ios_ctx_is_host(d->ctx))
                return ios_faketree_write(d->fd, attr, value);
        return ios_sysfs_write_string(d->fd, attr, value);
}

int ios_device_write(struct ios_device *d, const char *attr, const char *value)
{
        unsigned waited = 0, wait = IOS_BUSY_FIRST_MS;
        int e;

        assert(d && attr && value);
        while ((e = write_once(d, attr, value)) == -EBUSY && busy_may_pass(attr) &&
               waited < IOS_BUSY_TOTAL_MS) {
                struct timespec ts = { 0, (long)wait * 1000000L };

                IOS_TRACE("%s: %s busy, again in %u ms", d->name, attr, wait);
                while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
                        ;
                waited += wait;
                wait = wait * 2 > IOS_BUSY_MAX_MS ? IOS_BUSY_MAX_MS : wait * 2;
        }
        return e;
}

/* Opening a multipath device's paths never opens another multipath device's. */
static _Thread_local int mpath_depth;

/* A multipath device's paths (slaves/), each opened and classified; a path going away is skipped. */
static int mpath_open_paths(struct ios_device *d)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        size_t n = 0;
        int e = ios_sysfs_list(d->fd, "slaves", &names);

        if (e < 0)
                return e == -ENOMEM || e == -EMFILE || e == -ENFILE ? e : 0;
        d->mpath_path_cls = calloc((size_t)e + 1, sizeof(*d->mpath_path_cls));
        if (!d->mpath_path_cls)
                return -ENOMEM;
        mpath_depth++;
        e = 0;
        for (char **s = names; s && *s; s++) {
                _cleanup_free_ char *path = NULL;
                struct ios_device *p = NULL;

                if (asprintf(&path, "/sys/block/%s", *s) < 0) {
                        e = -ENOMEM;
                        break;
                }
                e = ios_device_open(d->ctx, path, false, NULL, &p);
                if (ios_errno_class(e) == IOS_ERRNO_GONE) {
                        e = 0;          /* a path going away */
                        continue;
                }
                if (e < 0)
                        break;
                d->mpath_path_cls[n] = p->cls;
                ios_device_free(p);
                e = ios_strv_push(&d->mpath_paths, strdup(*s));
                if (e < 0)
                        break;
                n++;
        }
        mpath_depth--;
        return e < 0 ? e : 0;
}

static int device_probe(struct ios_device *d, struct ios_ctrl_cache *cache)
{
        int e;

        if (!d->hidden && !d->no_dev) {
                /* no udev entry is normal; our own lack of memory or descriptors is not */
                e = ios_props_load(d->ctx, d->major, d->minor, &d->props);
                if (e == -ENOMEM || e == -EMFILE || e == -ENFILE)
                        return e;
        }
        e = ios_probe_queue(d);
        if (e >= 0)
                e = ios_probe_bus(d, cache);
        if (e >= 0)
                e = ios_mpath_probe(d);
        if (e > 0)
                e = mpath_depth == 0 ? mpath_open_paths(d) : 0;
        if (e < 0)
                return e;
        return ios_device_classify(d);
}

/*
 * 1 for a partition's directory, 0 for a disk's, else the lookup's error:
 * "partition" (its number) read, not only looked for, so nothing is opened
 * that is not read.
 */
static int is_partition(int dirfd)
{
        _cleanup_free_ char *s = NULL;
        int e = ios_sysfs_read_string(dirfd, "partition", &s);

        return e == -ENOENT || e == -ENOTDIR ? 0 : e < 0 ? e : 1;
}

int ios_device_open(struct ios_ctx *r, const char *path, bool maybe_part,
                    struct ios_ctrl_cache *cache, struct ios_device **ret)
{
        struct ios_device *d;
        _cleanup_free_ char *canon = NULL, *dev = NULL;
        char *slash;
        int e;

        d = calloc(1, sizeof(*d));
        if (!d)
                return -ENOMEM;
        d->ctx = r;
        d->fd = ios_ctx_open_dir(r, path, &canon);
        if (d->fd < 0) {
                e = d->fd == -ENOENT || d->fd == -ENOTDIR ? -ENODEV : d->fd;
                goto fail;
        }
        e = maybe_part ? is_partition(d->fd) : 0;
        if (e < 0)
                goto fail;      /* a failed lookup would take a partition for a disk */
        if (e > 0) {
                /* a partition: its directory sits inside its disk's */
                slash = strrchr(canon, '/');
                if (!slash || slash == canon) {
                        e = -ENODEV;
                        goto fail;
                }
                *slash = '\0';
                ios_dirfd_close(d->fd);
                d->fd = ios_ctx_open_dir(r, canon, NULL);
                if (d->fd < 0) {
                        e = d->fd;
                        goto fail;
                }
        }
        e = ios_sysfs_read_string(d->fd, "dev", &dev);
        if (e < 0 && e != -ENOENT)
                goto fail;      /* EMFILE, ENOMEM, EIO: an error, not a vanished disk */
        if (e < 0 || sscanf(dev, "%u:%u", &d->major, &d->minor) != 2) {
                int hidden = 0, h;

                /* NVMe multipath path devices are hidden disks: no dev_t, no
                 * node, no udev entry, but the queue and scheduler are theirs;
                 * a flag that cannot be read (EIO, EMFILE, ENOMEM) is an error,
                 * not a sign that this is no disk (which would drop it silently) */
                h = ios_sysfs_read_int(d->fd, "hidden", &hidden);
                if (h < 0 && h != -ENOENT && h != -EINVAL && h != -ERANGE) {
                        e = h;
                        goto fail;
                }
                /* likewise a "queue" lookup that failed (EMFILE, ENOMEM); a
                 * directory with a queue/ but no dev file (not hidden) is a
                 * disk whose dev_t the tree does not say: kept, and said */
                e = ios_sysfs_present(d->fd, "queue");
                if (e <= 0) {
                        e = e < 0 ? e : -ENODEV;
                        goto fail;
                }
                d->hidden = h >= 0 && hidden == 1;
                d->no_dev = !d->hidden;
                d->major = d->minor = 0;
        }
        slash = strrchr(canon, '/');
        d->name = strdup(slash + 1);
        d->syspath = TAKE_PTR(canon);
        if (!d->name) {
                e = -ENOMEM;
                goto fail;
        }

        e = device_probe(d, cache);
        if (e < 0)
                goto fail;
        *ret = d;
        return 0;
fail:
        ios_device_free(d);
        return e;
}

/*
 * Enumeration knows a disk's dev_t and canonical path from its
 * sys/dev/block link already: open the directory and probe, no lookups.
 */
int ios_device_open_known(struct ios_ctx *r, const char *canon, unsigned maj, unsigned min,
                          struct ios_ctrl_cache *cache, struct ios_device **ret)
{
        struct ios_device *d;
        int e;

        d = calloc(1, sizeof(*d));
        if (!d)
                return -ENOMEM;
        d->ctx = r;
        d->major = maj;
        d->minor = min;
        d->fd = ios_ctx_open_dir(r, canon, NULL);
        if (d->fd < 0) {
                e = d->fd == -ENOENT || d->fd == -ENOTDIR ? -ENODEV : d->fd;
                goto fail;
        }
        d->name = strdup(strrchr(canon, '/') + 1);
        d->syspath = strdup(canon);
        if (!d->name || !d->syspath) {
                e = -ENOMEM;
                goto fail;
        }
        e = device_probe(d, cache);
        if (e < 0)
                goto fail;
        *ret = d;
        return 0;
fail:
        ios_device_free(d);
        return e;
}

/* Trees without sys/dev/block (and very old kernels): scan sys/block. */
static int find_by_devno(struct ios_ctx *r, unsigned maj, unsigned min, struct ios_device **ret)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        _cleanup_close_ int fd = -1;
        int e;

        fd = ios_ctx_open(r, "/sys/block", O_PATH | O_DIRECTORY);
        if (fd < 0)
                return fd == -ENOENT ? -ENODEV : fd;
        e = ios_sysfs_list(fd, ".", &names);
        if (e < 0)
                return e;
        for (char **n = names; *n; n++) {
                _cleanup_free_ char *path = NULL, *dev = NULL;
                _cleanup_close_ int dfd = -1;
                unsigned a, b;

                if (asprintf(&path, "/sys/block/%s", *n) < 0)
                        return -ENOMEM;
                dfd = ios_ctx_open(r, path, O_PATH | O_DIRECTORY);
                if (dfd < 0 || ios_sysfs_read_string(dfd, "dev", &dev) < 0 ||
                    sscanf(dev, "%u:%u", &a, &b) != 2 || a != maj || b != min)
                        continue;
                return ios_device_open(r, path, false, NULL, ret);
        }
        return -ENODEV;
}

int ios_device_new(struct ios_ctx *r, const char *name, struct ios_device **ret)
{
        _cleanup_free_ char *path = NULL, *node = NULL;
        unsigned maj, min;
        char c;

        assert(r && ret);
        if (!name || !*name)
                return -EINVAL;
        if (startswith(name, "/dev/")) {
                /* follow /dev/disk/by-id/... inside the root when it is there */
                if (ios_ctx_realpath(r, name, &node) >= 0 && startswith(node, "/dev/"))
                        name = node + 5;
                else
                        name += 5;
        } else if (startswith(name, "/sys/"))
                return ios_device_open(r, name, true, NULL, ret);

        if (sscanf(name, "%u:%u%c", &maj, &min, &c) == 2) {
                if (asprintf(&path, "/sys/dev/block/%u:%u", maj, min) < 0)
                        return -ENOMEM;
        } else {
                char *p;

                if (strstr(name, "..") || strlen(name) > NAME_MAX)
                        return -EINVAL;
                if (asprintf(&path, "/sys/class/block/%s", name) < 0)
                        return -ENOMEM;
                for (p = path + strlen("/sys/class/block/"); *p; p++)
                        if (*p == '/')
                                *p = '!';       /* cciss/c0d0 is cciss!c0d0 in sysfs */
        }
        {
                int e = ios_device_open(r, path, true, NULL, ret);
                if (e == -ENODEV && startswith(path, "/sys/dev/block/"))
                        return find_by_devno(r, maj, min, ret);
                if (e == -ENODEV && startswith(path, "/sys/class/block/")) {
                        /* some captured trees and old kernels only have sys/block */
                        _cleanup_free_ char *alt = NULL;
                        if (asprintf(&alt, "/sys/block/%s", path + strlen("/sys/class/block/")) < 0)
                                return -ENOMEM;
                        e = ios_device_open(r, alt, true, NULL, ret);
                }
                return e;
        }
}
