/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * device.c: whole disks.  Looks a disk up by name, node, MAJ:MIN or
 * partition (the parent disk is returned), enumerates sys/block, and reads
 * the facts classify.c decides on: queue flags, schedulers, hardware queues,
 * the SCSI address, the controller (SCSI host proc_name, NVMe/virtio/MMC
 * driver, PCI function) and identity strings.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"

static const char * const class_names[_IOS_CLASS_MAX] = {
        [IOS_CLASS_HDD] = "hdd",         [IOS_CLASS_SSD] = "ssd",
        [IOS_CLASS_NVME] = "nvme",       [IOS_CLASS_RAID] = "raid",
        [IOS_CLASS_VIRTUAL] = "virtual", [IOS_CLASS_MMC] = "mmc",
        [IOS_CLASS_USB] = "usb",         [IOS_CLASS_DM] = "dm",
        [IOS_CLASS_MD] = "md",           [IOS_CLASS_LOOP] = "loop",
        [IOS_CLASS_ZRAM] = "zram",       [IOS_CLASS_NBD] = "nbd",
        [IOS_CLASS_OTHER] = "other",
};

const char *ios_class_to_string(enum ios_class c)
{
        return c >= 0 && c < _IOS_CLASS_MAX ? class_names[c] : NULL;
}

enum ios_class ios_class_from_string(const char *s)
{
        for (int i = 0; s && i < _IOS_CLASS_MAX; i++)
                if (streq(s, class_names[i]))
                        return (enum ios_class)i;
        return _IOS_CLASS_INVALID;
}

static const char * const zoned_names[_IOS_ZONED_MAX] = {
        [IOS_ZONED_NONE] = "none",
        [IOS_ZONED_HOST_AWARE] = "host-aware",
        [IOS_ZONED_HOST_MANAGED] = "host-managed",
};

const char *ios_zoned_to_string(enum ios_zoned z)
{
        return z >= 0 && z < _IOS_ZONED_MAX ? zoned_names[z] : NULL;
}

enum ios_zoned ios_zoned_from_string(const char *s)
{
        for (int i = 0; s && i < _IOS_ZONED_MAX; i++)
                if (streq(s, zoned_names[i]))
                        return (enum ios_zoned)i;
        return _IOS_ZONED_INVALID;
}

struct ios_device *ios_device_free(struct ios_device *d)
{
        if (!d)
                return NULL;
        if (d->fd >= 0)
                close(d->fd);
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
        ios_strv_free(d->evidence);
        ios_props_done(&d->props);
        free(d);
        return NULL;
}

void ios_device_list_free(struct ios_device **l, size_t n)
{
        for (size_t i = 0; l && i < n; i++)
                ios_device_free(l[i]);
        free(l);
}

/* Read attr of the directory at path (inside the root); -errno on failure. */
static int read_at(struct ios_root *r, const char *dir, const char *attr, char **ret)
{
        _cleanup_close_ int fd = ios_root_open(r, dir, O_PATH | O_DIRECTORY);

        if (fd < 0)
                return fd;
        return ios_sysfs_read_string(fd, attr, ret);
}

/* Trim trailing blanks (SCSI INQUIRY strings are space padded). */
static char *trim(char *s)
{
        size_t l;

        if (!s)
                return NULL;
        l = strlen(s);
        while (l > 0 && isspace((unsigned char)s[l - 1]))
                s[--l] = '\0';
        if (!*s) {
                free(s);
                return NULL;
        }
        return s;
}

static bool is_pci_addr(const char *c, size_t n)
{
        unsigned a, b, d, f;
        char buf[32];
        int end = 0;

        if (n >= sizeof(buf))
                return false;
        memcpy(buf, c, n);
        buf[n] = '\0';
        return sscanf(buf, "%x:%x:%x.%x%n", &a, &b, &d, &f, &end) == 4 && (size_t)end == n;
}

static bool is_hctl(const char *c, size_t n)
{
        unsigned h, ch, t, l;
        char buf[48];
        int end = 0;

        if (n >= sizeof(buf))
                return false;
        memcpy(buf, c, n);
        buf[n] = '\0';
        return sscanf(buf, "%u:%u:%u:%u%n", &h, &ch, &t, &l, &end) == 4 && (size_t)end == n;
}

static int dup_prefix(const char *path, const char *end, char **ret)
{
        *ret = strndup(path, (size_t)(end - path));
        return *ret ? 0 : -ENOMEM;
}

/*
 * Many disks share a controller, a SCSI host or an NVMe controller: while
 * enumerating, remember the last few of each instead of reading them again
 * for every disk (every attribute read is three system calls).
 */
#define CACHE_SLOTS 8
struct cache_entry {
        char *key;
        char *v[4];
        int flag;
};

struct ctrl_cache {
        struct cache_entry ctrl[CACHE_SLOTS];   /* PCI function: id, class, driver */
        struct cache_entry host[CACHE_SLOTS];   /* SCSI host: proc_name; flag: sas */
        struct cache_entry devdir[CACHE_SLOTS]; /* device/: model, serial, subtype, driver */
        unsigned next_ctrl, next_host, next_devdir;
};

static void entry_clear(struct cache_entry *e)
{
        free(e->key);
        for (size_t i = 0; i < ELEMENTSOF(e->v); i++)
                free(e->v[i]);
        *e = (struct cache_entry){};
}

static void ctrl_cache_done(struct ctrl_cache *c)
{
        for (size_t i = 0; i < CACHE_SLOTS; i++) {
                entry_clear(&c->ctrl[i]);
                entry_clear(&c->host[i]);
                entry_clear(&c->devdir[i]);
        }
}

static struct cache_entry *cache_find(struct cache_entry *slots, const char *key)
{
        for (size_t i = 0; key && i < CACHE_SLOTS; i++)
                if (slots[i].key && streq(slots[i].key, key))
                        return &slots[i];
        return NULL;
}

/* A fresh slot for key (round robin), or NULL without memory. */
static struct cache_entry *cache_put(struct cache_entry *slots, unsigned *next, const char *key)
{
        struct cache_entry *e = &slots[(*next)++ % CACHE_SLOTS];

        entry_clear(e);
        e->key = strdup(key);
        return e->key ? e : NULL;
}

static char *dup_or_null(const char *s)
{
        return s ? strdup(s) : NULL;
}

/* Read the controller's PCI id, class and driver, through the cache. */
static int probe_ctrl(struct ios_device *d, struct ctrl_cache *c, char **ret_driver)
{
        _cleanup_close_ int fd = -1;
        _cleanup_free_ char *vendor = NULL, *device = NULL;
        struct cache_entry *e = c ? cache_find(c->ctrl, d->ctrl_path) : NULL;

        if (e) {
                d->pci_id = dup_or_null(e->v[0]);
                d->pci_class = dup_or_null(e->v[1]);
                *ret_driver = dup_or_null(e->v[2]);
                return 0;
        }
        fd = ios_root_open(d->root, d->ctrl_path, O_PATH | O_DIRECTORY);
        if (fd < 0)
                return 0;
        if (ios_sysfs_read_string(fd, "vendor", &vendor) >= 0 &&
            ios_sysfs_read_string(fd, "device", &device) >= 0 &&
            asprintf(&d->pci_id, "%s:%s", startswith(vendor, "0x") ?: vendor,
                     startswith(device, "0x") ?: device) < 0)
                return -ENOMEM;
        if (ios_sysfs_read_string(fd, "class", &d->pci_class) >= 0 && startswith(d->pci_class, "0x"))
                memmove(d->pci_class, d->pci_class + 2, strlen(d->pci_class) - 1);
        (void)ios_sysfs_read_link_base(fd, "driver", ret_driver);
        if (c && (e = cache_put(c->ctrl, &c->next_ctrl, d->ctrl_path))) {
                e->v[0] = dup_or_null(d->pci_id);
                e->v[1] = dup_or_null(d->pci_class);
                e->v[2] = dup_or_null(*ret_driver);
        }
        return 0;
}

/*
 * Vendor and model from the SCSI device: bytes 8-15 and 16-31 of the cached
 * standard INQUIRY data (one file), else the vendor and model attributes.
 */
static int read_inquiry(struct ios_device *d, const char *scsi_dir)
{
        _cleanup_free_ char *path = NULL;
        _cleanup_close_ int fd = -1;
        unsigned char buf[64];
        ssize_t n;

        if (asprintf(&path, "%s/inquiry", scsi_dir) < 0)
                return -ENOMEM;
        fd = ios_root_open(d->root, path, O_RDONLY);
        n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        if (n >= 32) {
                d->vendor = trim(strndup((char *)buf + 8, 8));
                d->model = trim(strndup((char *)buf + 16, 16));
                for (char *p = d->vendor; p && *p; p++)
                        if (*p < 0x20 || *p > 0x7e)
                                *p = '?';
                for (char *p = d->model; p && *p; p++)
                        if (*p < 0x20 || *p > 0x7e)
                                *p = '?';
                return 0;
        }
        fd = ios_root_open(d->root, scsi_dir, O_PATH | O_DIRECTORY);
        if (fd >= 0) {
                (void)ios_sysfs_read_string(fd, "vendor", &d->vendor);
                (void)ios_sysfs_read_string(fd, "model", &d->model);
                d->vendor = trim(d->vendor);
                d->model = trim(d->model);
        }
        return 0;
}

/*
 * Walk the canonical path's components once: the last PCI function is the
 * controller, "hostN" the SCSI host, H:C:T:L the SCSI device.
 */
static int probe_bus(struct ios_device *d, struct ctrl_cache *cache)
{
        struct ios_root *r = d->root;
        _cleanup_free_ char *host_dir = NULL, *host = NULL, *scsi_dir = NULL;
        const char *p = d->syspath;
        int e;

        while (*p) {
                const char *c = p + 1, *n = strchr(c, '/');
                size_t len;

                if (!n)
                        n = c + strlen(c);
                len = (size_t)(n - c);
                if (is_pci_addr(c, len)) {
                        free(d->ctrl_path);
                        e = dup_prefix(d->syspath, n, &d->ctrl_path);
                        if (e < 0)
                                return e;
                } else if (len > 4 && strncmp(c, "host", 4) == 0 &&
                           strspn(c + 4, "0123456789") == len - 4) {
                        free(host_dir);
                        free(host);
                        host = strndup(c, len);
                        e = dup_prefix(d->syspath, n, &host_dir);
                        if (e < 0 || !host)
                                return -ENOMEM;
                } else if (is_hctl(c, len) && host) {
                        free(d->hctl);
                        free(scsi_dir);
                        d->hctl = strndup(c, len);
                        e = dup_prefix(d->syspath, n, &scsi_dir);
                        if (e < 0 || !d->hctl)
                                return -ENOMEM;
                }
                p = n;
        }

        if (host_dir) {
                struct cache_entry *ce = cache ? cache_find(cache->host, host_dir) : NULL;

                if (ce)
                        d->driver = dup_or_null(ce->v[0]);
                else {
                        _cleanup_free_ char *path = NULL;

                        if (asprintf(&path, "%s/scsi_host/%s", host_dir, host) < 0)
                                return -ENOMEM;
                        (void)read_at(r, path, "proc_name", &d->driver);
                        if (d->driver && streq(d->driver, "(null)"))
                                d->driver = (free(d->driver), NULL);
                        if (cache && (ce = cache_put(cache->host, &cache->next_host, host_dir))) {
                                ce->v[0] = dup_or_null(d->driver);
                                ce->flag = -1;          /* sas_host: not looked at yet */
                        }
                }
        }
        if (scsi_dir) {
                e = read_inquiry(d, scsi_dir);
                if (e < 0)
                        return e;
        }
        if (d->ctrl_path) {
                _cleanup_free_ char *drv = NULL;

                e = probe_ctrl(d, cache, &drv);
                if (e < 0)
                        return e;
                if (!d->driver)
                        d->driver = TAKE_PTR(drv);
        }
        return 0;
}

/*
 * Device-level identity for non-SCSI disks: NVMe, virtio, MMC, xen.  Disks
 * in one directory share their device/ (the namespaces of one NVMe
 * controller), so it is cached by the parent of the disk's directory.
 */
static int probe_device_dir(struct ios_device *d, struct ctrl_cache *cache)
{
        _cleanup_free_ char *dev = NULL, *parent = NULL;
        char *v[4] = {};                /* model, serial, subtype, driver */
        struct cache_entry *e;
        const char *slash = strrchr(d->syspath, '/');

        parent = strndup(d->syspath, (size_t)(slash - d->syspath));
        if (!parent)
                return -ENOMEM;
        e = cache ? cache_find(cache->devdir, parent) : NULL;
        if (e) {
                if (e->flag)
                        return 0;               /* no device/ */
                for (size_t i = 0; i < 4; i++)
                        v[i] = dup_or_null(e->v[i]);
        } else {
                _cleanup_close_ int fd = -1;
                bool nvme = strncmp(d->name, "nvme", 4) == 0, mmc = strncmp(d->name, "mmcblk", 6) == 0;

                if (asprintf(&dev, "%s/device", d->syspath) < 0)
                        return -ENOMEM;
                fd = ios_root_open(d->root, dev, O_PATH | O_DIRECTORY);
                if (fd >= 0) {
                        if (ios_sysfs_read_string(fd, mmc ? "name" : "model", &v[0]) >= 0)
                                v[0] = trim(v[0]);
                        if (ios_sysfs_read_string(fd, "serial", &v[1]) >= 0)
                                v[1] = trim(v[1]);
                        if (nvme || mmc)
                                (void)ios_sysfs_read_string(fd, nvme ? "transport" : "type", &v[2]);
                        (void)ios_sysfs_read_link_base(fd, "driver", &v[3]);
                }
                if (cache && (e = cache_put(cache->devdir, &cache->next_devdir, parent))) {
                        e->flag = fd < 0;
                        for (size_t i = 0; i < 4; i++)
                                e->v[i] = dup_or_null(v[i]);
                }
                if (fd < 0)
                        return 0;               /* virtual devices have no device/ */
        }
        if (!d->model)
                d->model = TAKE_PTR(v[0]);
        if (!d->serial)
                d->serial = TAKE_PTR(v[1]);
        if (!d->subtype)
                d->subtype = TAKE_PTR(v[2]);
        /* virtio-blk: the driver of device/ (a virtioN) is virtio_blk; xen: vbd */
        if (v[3] && (streq(v[3], "virtio_blk") || streq(v[3], "vbd") || streq(v[3], "xen-blkfront"))) {
                free(d->driver);
                d->driver = TAKE_PTR(v[3]);
        }
        if (!d->driver && strncmp(d->name, "nvme", 4) == 0)
                d->driver = strdup("nvme");
        for (size_t i = 0; i < 4; i++)
                free(v[i]);
        return 0;
}

static bool exists(struct ios_root *r, const char *path)
{
        _cleanup_close_ int fd = ios_root_open(r, path, O_PATH);

        return fd >= 0;
}

/* The SCSI host directory in the canonical path ("/sys/.../host2"). */
static char *host_dir_of(const struct ios_device *d)
{
        const char *t = d->hctl ? strstr(d->syspath, "/target") : NULL;

        return t ? strndup(d->syspath, (size_t)(t - d->syspath)) : NULL;
}

static void probe_tran(struct ios_device *d, struct ctrl_cache *cache)
{
        const char *t = NULL;

        if (strstr(d->syspath, "/usb"))
                t = "usb";
        else if (d->hctl && d->driver) {
                _cleanup_free_ char *path = NULL;
                unsigned h = 0;

                (void)sscanf(d->hctl, "%u:", &h);
                if (startswith(d->driver, "ahci") || startswith(d->driver, "sata"))
                        t = "sata";
                else if (strstr(d->driver, "ata"))
                        t = "ata";
                else {
                        _cleanup_free_ char *hd = host_dir_of(d);
                        struct cache_entry *ce = cache && hd ? cache_find(cache->host, hd) : NULL;
                        int sas = ce ? ce->flag : -1;

                        if (sas < 0)
                                sas = asprintf(&path, "/sys/class/sas_host/host%u", h) > 0 &&
                                      exists(d->root, path);
                        if (ce)
                                ce->flag = sas;
                        if (sas)
                                t = "sas";
                }
        } else if (strncmp(d->name, "nvme", 4) == 0)
                t = "nvme";
        else if (strncmp(d->name, "vd", 2) == 0)
                t = "virtio";
        else if (strncmp(d->name, "mmcblk", 6) == 0)
                t = "mmc";
        if (t)
                d->tran = strdup(t);
}

static int probe_queue(struct ios_device *d)
{
        _cleanup_free_ char *s = NULL;
        struct stat st;
        _cleanup_close_ int mq = -1;
        uint64_t v;
        int e, i;

        d->rotational = ios_sysfs_read_int(d->fd, "queue/rotational", &i) >= 0 ? i : -1;
        d->removable = -1;
        if (ios_root_get_probe(d->root) & IOS_PROBE_EXTRA) {
                d->removable = ios_sysfs_read_int(d->fd, "removable", &i) >= 0 ? i : -1;
                if (ios_sysfs_read_u64(d->fd, "size", &v) >= 0)
                        d->size = v * 512;
        }
        if (startswith(d->name, "nvme"))        /* only NVMe path nodes hide */
                d->hidden = ios_sysfs_read_int(d->fd, "hidden", &i) >= 0 && i == 1;
        d->zoned = IOS_ZONED_NONE;
        if (ios_sysfs_read_string(d->fd, "queue/zoned", &s) >= 0) {
                enum ios_zoned z = ios_zoned_from_string(s);
                if (z >= 0)
                        d->zoned = z;
        }

        /* kernfs (and most file systems) count subdirectories in st_nlink */
        if (fstatat(d->fd, "mq", &st, 0) < 0)
                mq = -1;
        else if (st.st_nlink >= 2 + 1) {
                d->blk_mq = true;
                d->nr_hw_queues = (unsigned)st.st_nlink - 2;
                mq = -1;
        } else
                mq = openat(d->fd, "mq", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (mq >= 0) {
                DIR *dir = fdopendir(mq);
                struct dirent *de;

                if (!dir)
                        return -errno;
                mq = -1;
                d->blk_mq = true;
                while ((de = readdir(dir)))
                        if (de->d_name[0] != '.')
                                d->nr_hw_queues++;
                closedir(dir);
        }
        e = ios_device_refresh_sched(d);
        return e == -ENOMEM ? e : 0;   /* an unreadable list means no choice */
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

static int probe_stacked(struct ios_device *d)
{
        /* the kernel names them dm-N and mdN (or md_NAME) */
        if (!startswith(d->name, "dm-") && !startswith(d->name, "md"))
                return 0;
        if (ios_sysfs_read_string(d->fd, "dm/uuid", &d->subtype) >= 0) {
                char *dash = strchr(d->subtype, '-');
                if (dash)
                        *dash = '\0';
                if (!*d->subtype)
                        d->subtype = (free(d->subtype), NULL);
        } else if (ios_sysfs_read_string(d->fd, "md/level", &d->subtype) >= 0) {
                if (!*d->subtype)
                        d->subtype = (free(d->subtype), NULL);
        }
        return 0;
}

static void probe_identity(struct ios_device *d)
{
        const char *v;

        /* udev has decoded and completed these (ata_id, scsi_id, usb_id) */
        if ((v = ios_props_get(&d->props, "ID_SERIAL_SHORT")) && !d->serial)
                d->serial = strdup(v);
        if ((v = ios_props_get(&d->props, "ID_WWN")) && !d->wwn)
                d->wwn = strdup(v);
        if (!d->wwn && startswith(d->name, "nvme"))
                (void)ios_sysfs_read_string(d->fd, "wwid", &d->wwn);
        if (!d->model && (v = ios_props_get(&d->props, "ID_MODEL")))
                d->model = strdup(v);
        if (!d->vendor && (v = ios_props_get(&d->props, "ID_VENDOR")))
                d->vendor = strdup(v);
}

static int device_probe(struct ios_device *d, struct ctrl_cache *cache)
{
        int e;

        if (!d->hidden)
                (void)ios_props_load(d->root, d->major, d->minor, &d->props);
        e = probe_queue(d);
        if (e >= 0)
                e = probe_stacked(d);
        if (e >= 0)
                e = probe_bus(d, cache);
        if (e >= 0 && !d->hctl)
                e = probe_device_dir(d, cache);
        if (e < 0)
                return e;
        probe_identity(d);
        probe_tran(d, cache);
        return ios_device_classify(d);
}

static int device_open(struct ios_root *r, const char *path, bool maybe_part,
                       struct ctrl_cache *cache, struct ios_device **ret)
{
        struct ios_device *d;
        _cleanup_free_ char *canon = NULL, *dev = NULL;
        char *slash;
        int e;

        d = calloc(1, sizeof(*d));
        if (!d)
                return -ENOMEM;
        d->root = r;
        d->fd = ios_root_open_canon(r, path, O_PATH | O_DIRECTORY, &canon);
        if (d->fd < 0) {
                e = d->fd == -ENOENT || d->fd == -ENOTDIR ? -ENODEV : d->fd;
                goto fail;
        }
        if (maybe_part && ios_sysfs_exists(d->fd, "partition")) {
                /* a partition: its directory sits inside its disk's */
                slash = strrchr(canon, '/');
                if (!slash || slash == canon) {
                        e = -ENODEV;
                        goto fail;
                }
                *slash = '\0';
                close(d->fd);
                d->fd = ios_root_open(r, canon, O_PATH | O_DIRECTORY);
                if (d->fd < 0) {
                        e = d->fd;
                        goto fail;
                }
        }
        e = ios_sysfs_read_string(d->fd, "dev", &dev);
        if (e < 0 && e != -ENOENT)
                goto fail;      /* EMFILE, ENOMEM, EIO: an error, not a vanished disk */
        if (e < 0 || sscanf(dev, "%u:%u", &d->major, &d->minor) != 2) {
                int hidden = 0;

                /* NVMe multipath path devices are hidden disks: no dev_t, no
                 * node, no udev entry, but the queue and scheduler are theirs */
                if (ios_sysfs_read_int(d->fd, "hidden", &hidden) < 0 || hidden != 1 ||
                    !ios_sysfs_exists(d->fd, "queue")) {
                        e = -ENODEV;    /* not a block device directory */
                        goto fail;
                }
                d->hidden = true;
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
static int device_open_known(struct ios_root *r, char *canon, unsigned maj, unsigned min,
                             struct ctrl_cache *cache, struct ios_device **ret)
{
        struct ios_device *d;
        int e;

        d = calloc(1, sizeof(*d));
        if (!d)
                return -ENOMEM;
        d->root = r;
        d->major = maj;
        d->minor = min;
        d->fd = ios_root_open(r, canon, O_PATH | O_DIRECTORY);
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
static int find_by_devno(struct ios_root *r, unsigned maj, unsigned min, struct ios_device **ret)
{
        struct dirent *de;
        DIR *dir;
        int fd, e = -ENODEV;

        fd = ios_root_open(r, "/sys/block", O_RDONLY | O_DIRECTORY);
        if (fd < 0)
                return fd == -ENOENT ? -ENODEV : fd;
        dir = fdopendir(fd);
        if (!dir) {
                close(fd);
                return -ENOMEM;
        }
        while ((de = readdir(dir))) {
                _cleanup_free_ char *path = NULL, *dev = NULL;
                _cleanup_close_ int dfd = -1;
                unsigned a, b;

                if (de->d_name[0] == '.' || asprintf(&path, "/sys/block/%s", de->d_name) < 0)
                        continue;
                dfd = ios_root_open(r, path, O_PATH | O_DIRECTORY);
                if (dfd < 0 || ios_sysfs_read_string(dfd, "dev", &dev) < 0 ||
                    sscanf(dev, "%u:%u", &a, &b) != 2 || a != maj || b != min)
                        continue;
                e = device_open(r, path, false, NULL, ret);
                break;
        }
        closedir(dir);
        return e;
}

int ios_device_new(struct ios_root *r, const char *name, struct ios_device **ret)
{
        _cleanup_free_ char *path = NULL, *node = NULL;
        unsigned maj, min;
        char c;

        if (!name || !*name)
                return -EINVAL;
        if (startswith(name, "/dev/")) {
                /* follow /dev/disk/by-id/... inside the root when it is there */
                if (ios_root_realpath(r, name, &node) >= 0 && startswith(node, "/dev/"))
                        name = node + 5;
                else
                        name += 5;
        } else if (startswith(name, "/sys/"))
                return device_open(r, name, true, NULL, ret);

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
                int e = device_open(r, path, true, NULL, ret);
                if (e == -ENODEV && startswith(path, "/sys/dev/block/"))
                        return find_by_devno(r, maj, min, ret);
                if (e == -ENODEV && startswith(path, "/sys/class/block/")) {
                        /* some captured trees and old kernels only have sys/block */
                        _cleanup_free_ char *alt = NULL;
                        if (asprintf(&alt, "/sys/block/%s", path + strlen("/sys/class/block/")) < 0)
                                return -ENOMEM;
                        e = device_open(r, alt, true, NULL, ret);
                }
                return e;
        }
}

static int cmp_dev(const void *a, const void *b)
{
        const struct ios_device *x = *(struct ios_device * const *)a, *y = *(struct ios_device * const *)b;

        return strverscmp(x->name, y->name);
}

struct devlink {
        char *name, *canon;
        unsigned major, minor;
};

static int cmp_devlink(const void *a, const void *b)
{
        return strcmp(((const struct devlink *)a)->name, ((const struct devlink *)b)->name);
}

/* Lexically join a sysfs link's relative target to the link's directory. */
static char *join_link(const char *dir, const char *target)
{
        char *out = malloc(strlen(dir) + strlen(target) + 2);
        char *p;

        if (!out)
                return NULL;
        strcpy(out, target[0] == '/' ? "" : dir);
        p = out + strlen(out);
        for (const char *t = target; *t;) {
                size_t n = strcspn(t, "/");

                if (n == 2 && t[0] == '.' && t[1] == '.') {
                        while (p > out && *--p != '/')
                                ;
                        *p = '\0';
                } else if (n && !(n == 1 && t[0] == '.')) {
                        *p++ = '/';
                        memcpy(p, t, n);
                        p += n;
                        *p = '\0';
                }
                t += n;
                t += *t == '/';
        }
        if (!*out)
                strcpy(out, "/");
        return out;
}

/*
 * sys/dev/block names every disk and partition with a dev_t: one readlinkat
 * per entry gives both the dev_t and the canonical directory, so nothing has
 * to be looked up or read for them.  Partitions are in it too; they are
 * never asked for, since only the names in sys/block are looked up.
 */
static int read_devlinks(struct ios_root *r, struct devlink **ret, size_t *ret_n)
{
        struct devlink *l = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *dir;
        int fd;

        *ret = NULL;
        *ret_n = 0;
        fd = ios_root_open(r, "/sys/dev/block", O_RDONLY | O_DIRECTORY);
        if (fd < 0)
                return 0;       /* old kernel or a partial tree: look each disk up */
        dir = fdopendir(fd);
        if (!dir) {
                close(fd);
                return -ENOMEM;
        }
        while ((de = readdir(dir))) {
                char target[PATH_MAX], *canon, *slash;
                unsigned maj, min;
                ssize_t k;

                if (sscanf(de->d_name, "%u:%u", &maj, &min) != 2)
                        continue;
                k = readlinkat(dirfd(dir), de->d_name, target, sizeof(target) - 1);
                if (k <= 0)
                        continue;
                target[k] = '\0';
                canon = join_link("/sys/dev/block", target);
                if (!canon)
                        break;
                slash = strrchr(canon, '/');
                if (!startswith(canon, "/sys/devices/") || !slash[1]) {
                        free(canon);
                        continue;
                }
                if (n == cap) {
                        struct devlink *nl;
                        cap = cap ? cap * 2 : 64;
                        nl = realloc(l, cap * sizeof(*l));
                        if (!nl) {
                                free(canon);
                                break;
                        }
                        l = nl;
                }
                l[n] = (struct devlink){ .name = strdup(slash + 1), .canon = canon, .major = maj, .minor = min };
                if (!l[n].name) {
                        free(canon);
                        break;
                }
                n++;
        }
        closedir(dir);
        if (n)
                qsort(l, n, sizeof(*l), cmp_devlink);
        *ret = l;
        *ret_n = n;
        return 0;
}

int ios_device_enumerate(struct ios_root *r, struct ios_device ***ret, size_t *ret_n)
{
        struct ctrl_cache cache = {};
        struct ios_device **l = NULL;
        struct devlink *links = NULL;
        size_t n = 0, cap = 0, nlinks = 0;
        struct dirent *de;
        DIR *dir;
        int fd, e = 0;

        e = read_devlinks(r, &links, &nlinks);
        if (e < 0)
                return e;
        fd = ios_root_open(r, "/sys/block", O_RDONLY | O_DIRECTORY);
        if (fd < 0) {
                e = fd;
                goto out;
        }
        dir = fdopendir(fd);
        if (!dir) {
                e = -errno;
                close(fd);
                goto out;
        }
        while ((de = readdir(dir))) {
                struct devlink key = { .name = de->d_name }, *dl;
                struct ios_device *d;

                if (de->d_name[0] == '.')
                        continue;
                dl = nlinks ? bsearch(&key, links, nlinks, sizeof(*links), cmp_devlink) : NULL;
                if (dl)
                        e = device_open_known(r, dl->canon, dl->major, dl->minor, &cache, &d);
                else {
                        /* hidden disks (NVMe path devices) have no dev_t */
                        _cleanup_free_ char *path = NULL;

                        if (asprintf(&path, "/sys/block/%s", de->d_name) < 0) {
                                e = -ENOMEM;
                                break;
                        }
                        e = device_open(r, path, false, &cache, &d);
                }
                if (e == -ENODEV || e == -ENOENT) {
                        e = 0;          /* vanished while we looked */
                        continue;
                }
                if (e < 0)
                        break;
                if (n == cap) {
                        struct ios_device **nl;
                        cap = cap ? cap * 2 : 16;
                        nl = realloc(l, cap * sizeof(*l));
                        if (!nl) {
                                ios_device_free(d);
                                e = -ENOMEM;
                                break;
                        }
                        l = nl;
                }
                l[n++] = d;
        }
        closedir(dir);
out:
        ctrl_cache_done(&cache);
        for (size_t i = 0; i < nlinks; i++) {
                free(links[i].name);
                free(links[i].canon);
        }
        free(links);
        if (e < 0) {
                ios_device_list_free(l, n);
                return e;
        }
        if (n)
                qsort(l, n, sizeof(*l), cmp_dev);
        *ret = l;
        *ret_n = n;
        return (int)n;
}
