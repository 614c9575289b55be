/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Library-private parts of a disk: device.c (lifecycle, lookup, writes)
 * opens it, probe-queue.c and probe-bus.c read its facts, ctrl-cache.c
 * remembers what many disks share, enumerate.c opens every disk, and
 * faketree.c makes a captured tree answer writes as the kernel would.
 */
#ifndef IOS_DEVICE_INTERNAL_H
#define IOS_DEVICE_INTERNAL_H

#include "iosched.h"

/* ctrl-cache.c: the last few controllers, SCSI hosts and device/ dirs seen */
#define IOS_CACHE_SLOTS 8
struct ios_cache_entry {
        char *key;
        char *v[4];
        int flag;
};

struct ios_ctrl_cache {
        struct ios_cache_entry ctrl[IOS_CACHE_SLOTS];   /* PCI function: id, class, driver */
        struct ios_cache_entry host[IOS_CACHE_SLOTS];   /* SCSI host: proc_name; flag: sas */
        struct ios_cache_entry devdir[IOS_CACHE_SLOTS]; /* device/: model, serial, subtype, driver */
        unsigned next_ctrl, next_host, next_devdir;
};

void ios_ctrl_cache_done(struct ios_ctrl_cache *c);
struct ios_cache_entry *ios_cache_find(struct ios_cache_entry *slots, const char *key);
/* A fresh slot for key (round robin), or NULL without memory. */
struct ios_cache_entry *ios_cache_put(struct ios_cache_entry *slots, unsigned *next, const char *key);

/* probe-queue.c: rotational, zoned, removable/size, blk-mq, schedulers */
int ios_probe_queue(struct ios_device *d);

/* probe-bus.c: stacked subtype, controller, SCSI host and address, identity, transport */
int ios_probe_bus(struct ios_device *d, struct ios_ctrl_cache *cache);
/* "fc" or "iscsi" when the device path holds an FC remote port or an iSCSI
 * session, else NULL: TRAN (probe-bus.c) and an array LUN's evidence
 * (classify-array.c) read it from there */
const char *ios_scsi_path_transport(const char *syspath);

/*
 * multipath.c: whether a disk is a path of a dm-multipath device (holders/,
 * udev): 0, or -errno; 1 for a multipath device itself, whose paths device.c
 * then opens and classifies.  ios_mpath_done() frees what both filled.
 */
int ios_mpath_probe(struct ios_device *d);
void ios_mpath_done(struct ios_device *d);

/*
 * device.c: open the disk at path (a partition's path gives its disk when
 * maybe_part), or at a canonical path whose dev_t is known, and probe it.
 * -ENODEV when there is no such disk.  cache may be NULL.
 */
int ios_device_open(struct ios_ctx *r, const char *path, bool maybe_part,
                    struct ios_ctrl_cache *cache, struct ios_device **ret);
int ios_device_open_known(struct ios_ctx *r, const char *canon, unsigned maj, unsigned min,
                          struct ios_ctrl_cache *cache, struct ios_device **ret);

/*
 * device.c: the one write path of a disk's attributes (attr relative to its
 * directory): sysfs on the running system, else a captured tree that
 * answers as the kernel would (faketree.c).  0 or -errno.
 */
int ios_device_write(struct ios_device *d, const char *attr, const char *value);

/* faketree.c: ios_sysfs_write_string() into a captured tree, with the kernel's side effects. */
int ios_faketree_write(int dirfd, const char *attr, const char *value);

#endif
