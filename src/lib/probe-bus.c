/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * probe-bus.c: what a disk hangs off and what it says it is.  Walks the
 * canonical sysfs path for the controller (PCI function), the SCSI host
 * (proc_name) and address (H:C:T:L); reads the device-level driver of
 * NVMe, virtio, MMC and Xen disks; the identity strings (INQUIRY, sysfs,
 * udev); the lsblk-style transport; and the subtype of stacked disks (dm
 * uuid prefix, md level).  classify.c decides on these facts.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "device-internal.h"
#include "nodefree-internal.h"

/*
 * The identity strings below are optional: a missing or unreadable one is
 * just unknown.  But a failure of our own process (no memory, no descriptor
 * left) must fail the whole probe, never leave a disk silently without its
 * model, driver or transport (a policy may match on them): such an error is
 * kept here while probing and returned by ios_probe_bus().
 */
static _Thread_local int probe_err;

static int keep(int e)
{
        if ((e == -ENOMEM || e == -EMFILE || e == -ENFILE) && !probe_err)
                probe_err = e;
        return e;
}

/* A copy, or NULL for NULL; a failed copy is kept as -ENOMEM. */
static char *kept_dup(const char *s)
{
        char *c = s ? strdup(s) : NULL;

        if (s && !c)
                keep(-ENOMEM);
        return c;
}

static char *kept_ndup(const char *s, size_t n)
{
        char *c = strndup(s, n);

        if (!c)
                keep(-ENOMEM);
        return c;
}

static int keep_read_string(int dirfd, const char *attr, char **ret)
{
        return keep(ios_sysfs_read_string(dirfd, attr, ret));
}

static int keep_read_link_base(int dirfd, const char *attr, char **ret)
{
        return keep(ios_sysfs_read_link_base(dirfd, attr, ret));
}

/* Read attr of the directory at path (inside the root); -errno on failure. */
static int read_at(struct ios_ctx *r, const char *dir, const char *attr, char **ret)
{
        _cleanup_dirfd_ int fd = ios_ctx_open_dir(r, dir, NULL);

        if (fd < 0)
                return keep(fd);
        return keep(ios_sysfs_read_string(fd, attr, ret));
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

/*
 * Whether c[0..n) is groups of digits (hex or decimal), one before each
 * separator in seps and one after the last: "0000:00:1f.2" for ":.",
 * "1:0:0:0" for ":::".  By hand: sscanf() cost every disk more than its
 * attribute reads.
 */
static bool digit_groups(const char *c, size_t n, bool hex, const char *seps)
{
        size_t i = 0;

        for (;; seps++) {
                size_t start = i;

                while (i < n && (hex ? isxdigit((unsigned char)c[i]) : isdigit((unsigned char)c[i])))
                        i++;
                if (i == start)
                        return false;
                if (!*seps)
                        return i == n;
                if (i >= n || c[i] != *seps)
                        return false;
                i++;
        }
}

static bool is_pci_addr(const char *c, size_t n)
{
        return digit_groups(c, n, true, "::.");
}

static bool is_hctl(const char *c, size_t n)
{
        return digit_groups(c, n, false, ":::");
}

static int dup_prefix(const char *path, const char *end, char **ret)
{
        *ret = strndup(path, (size_t)(end - path));
        return *ret ? 0 : -ENOMEM;
}

static char *dup_or_null(const char *s)
{
        return kept_dup(s);
}

/* Read the controller's PCI id, class and driver, through the cache. */
static int probe_ctrl(struct ios_device *d, struct ios_ctrl_cache *c, char **ret_driver)
{
        _cleanup_dirfd_ int fd = -1;
        _cleanup_free_ char *vendor = NULL, *device = NULL;
        struct ios_cache_entry *e = c ? ios_cache_find(c->ctrl, d->ctrl_path) : NULL;

        if (e) {
                d->pci_id = dup_or_null(e->v[0]);
                d->pci_class = dup_or_null(e->v[1]);
                *ret_driver = dup_or_null(e->v[2]);
                return 0;
        }
        fd = keep(ios_ctx_open_dir(d->ctx, d->ctrl_path, NULL));
        if (fd < 0)
                return 0;
        if (keep_read_string(fd, "vendor", &vendor) >= 0 &&
            keep_read_string(fd, "device", &device) >= 0 &&
            asprintf(&d->pci_id, "%s:%s", startswith(vendor, "0x") ?: vendor,
                     startswith(device, "0x") ?: device) < 0)
                return -ENOMEM;
        if (keep_read_string(fd, "class", &d->pci_class) >= 0 && startswith(d->pci_class, "0x"))
                memmove(d->pci_class, d->pci_class + 2, strlen(d->pci_class) - 1);
        (void)keep_read_link_base(fd, "driver", ret_driver);
        if (c && (e = ios_cache_put(c->ctrl, &c->next_ctrl, d->ctrl_path))) {
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
        fd = keep(ios_ctx_open(d->ctx, path, O_RDONLY));
        n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
        if (n >= 32) {
                /* byte 0: peripheral qualifier and device type (0 disk, 5 CD/DVD, 7 optical memory) */
                d->scsi_type = buf[0] & 0x1f;
                d->vendor = trim(kept_ndup((char *)buf + 8, 8));
                d->model = trim(kept_ndup((char *)buf + 16, 16));
                for (char *p = d->vendor; p && *p; p++)
                        if (*p < 0x20 || *p > 0x7e)
                                *p = '?';
                for (char *p = d->model; p && *p; p++)
                        if (*p < 0x20 || *p > 0x7e)
                                *p = '?';
                return 0;
        }
        /* a short or failed read (the disk going away): the attributes instead */
        if (fd >= 0)
                close(fd);
        fd = keep(ios_ctx_open(d->ctx, scsi_dir, O_PATH | O_DIRECTORY));
        if (fd >= 0) {
                int t;

                if (keep(ios_sysfs_read_int(fd, "type", &t)) >= 0)
                        d->scsi_type = t;
                (void)keep_read_string(fd, "vendor", &d->vendor);
                (void)keep_read_string(fd, "model", &d->model);
                d->vendor = trim(d->vendor);
                d->model = trim(d->model);
        }
        return 0;
}

/*
 * Walk the canonical path's components once: the last PCI function is the
 * controller, "hostN" the SCSI host, H:C:T:L the SCSI device.
 */
static int probe_path(struct ios_device *d, struct ios_ctrl_cache *cache)
{
        struct ios_ctx *r = d->ctx;
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
                struct ios_cache_entry *ce = cache ? ios_cache_find(cache->host, host_dir) : NULL;

                if (ce)
                        d->driver = dup_or_null(ce->v[0]);
                else {
                        _cleanup_free_ char *path = NULL;

                        if (asprintf(&path, "%s/scsi_host/%s", host_dir, host) < 0)
                                return -ENOMEM;
                        (void)read_at(r, path, "proc_name", &d->driver);
                        if (d->driver && streq(d->driver, "(null)"))
                                d->driver = (free(d->driver), NULL);
                        if (cache && (ce = ios_cache_put(cache->host, &cache->next_host, host_dir))) {
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
static int probe_device_dir(struct ios_device *d, struct ios_ctrl_cache *cache)
{
        _cleanup_free_ char *dev = NULL, *parent = NULL;
        char *v[4] = {};                /* model, serial, subtype, driver */
        struct ios_cache_entry *e;
        const char *slash = strrchr(d->syspath, '/');

        parent = strndup(d->syspath, (size_t)(slash - d->syspath));
        if (!parent)
                return -ENOMEM;
        e = cache ? ios_cache_find(cache->devdir, parent) : NULL;
        if (e) {
                if (e->flag)
                        return 0;               /* no device/ */
                for (size_t i = 0; i < 4; i++)
                        v[i] = dup_or_null(e->v[i]);
        } else {
                _cleanup_dirfd_ int fd = -1;
                bool nvme = strncmp(d->name, "nvme", 4) == 0, mmc = strncmp(d->name, "mmcblk", 6) == 0;

                if (asprintf(&dev, "%s/device", d->syspath) < 0)
                        return -ENOMEM;
                fd = keep(ios_ctx_open_dir(d->ctx, dev, NULL));
                if (fd >= 0) {
                        if (keep_read_string(fd, mmc ? "name" : "model", &v[0]) >= 0)
                                v[0] = trim(v[0]);
                        if (keep_read_string(fd, "serial", &v[1]) >= 0)
                                v[1] = trim(v[1]);
                        if (nvme || mmc)
                                (void)keep_read_string(fd, nvme ? "transport" : "type", &v[2]);
                        (void)keep_read_link_base(fd, "driver", &v[3]);
                }
                if (cache && (e = ios_cache_put(cache->devdir, &cache->next_devdir, parent))) {
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
        /* virtio-blk: the driver of device/ (a virtioN) is virtio_blk; xen: vbd; the
         * floppy controller (platform floppy.0), persistent memory (nd_pmem), and an s390
         * DASD's ccw device (dasd-eckd, dasd-fba) */
        if (v[3] && (streq(v[3], "virtio_blk") || streq(v[3], "vbd") || streq(v[3], "xen-blkfront") ||
                     streq(v[3], "floppy") || streq(v[3], "nd_pmem") || startswith(v[3], "dasd-"))) {
                free(d->driver);
                d->driver = TAKE_PTR(v[3]);
        }
        if (!d->driver && strncmp(d->name, "nvme", 4) == 0)
                d->driver = kept_dup("nvme");
        /* virtio-blk keeps its serial (-device virtio-blk,serial=) in the disk's own directory */
        if (!d->serial && d->driver && streq(d->driver, "virtio_blk") &&
            keep_read_string(d->fd, "serial", &d->serial) >= 0) {
                d->serial = trim(d->serial);
                if (d->serial && !*d->serial)
                        d->serial = (free(d->serial), NULL);
        }
        for (size_t i = 0; i < 4; i++)
                free(v[i]);
        return 0;
}

static bool exists(struct ios_ctx *r, const char *path)
{
        _cleanup_close_ int fd = ios_ctx_open(r, path, O_PATH);

        return fd >= 0;
}

/* The SCSI host directory in the canonical path ("/sys/.../host2"). */
static char *host_dir_of(const struct ios_device *d)
{
        const char *t = d->hctl ? strstr(d->syspath, "/target") : NULL;

        return t ? strndup(d->syspath, (size_t)(t - d->syspath)) : NULL;
}

const char *ios_scsi_path_transport(const char *syspath)
{
        if (strstr(syspath, "/rport-"))
                return "fc";
        if (strstr(syspath, "/session"))
                return "iscsi";
        return NULL;
}

static void probe_tran(struct ios_device *d, struct ios_ctrl_cache *cache)
{
        const char *t = NULL;

        if (strstr(d->syspath, "/usb"))
                t = "usb";
        else if (d->hctl && d->driver) {
                char path[64];
                unsigned h = 0;

                (void)sscanf(d->hctl, "%u:", &h);
                if (startswith(d->driver, "ahci") || startswith(d->driver, "sata"))
                        t = "sata";
                else if (strstr(d->driver, "ata"))
                        t = "ata";
                /* FC and iSCSI from the device path (the remote port, the session: no lookup),
                 * as lsblk's TRAN */
                else if (!(t = ios_scsi_path_transport(d->syspath))) {
                        _cleanup_free_ char *hd = host_dir_of(d);
                        struct ios_cache_entry *ce = cache && hd ? ios_cache_find(cache->host, hd) : NULL;
                        int sas = ce ? ce->flag : -1;

                        if (sas < 0) {
                                snprintf(path, sizeof(path), "/sys/class/sas_host/host%u", h);
                                sas = exists(d->ctx, path);
                        }
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
                d->tran = kept_dup(t);
}

static int probe_stacked(struct ios_device *d)
{
        /* the kernel names them dm-N and mdN (or md_NAME) */
        if (!startswith(d->name, "dm-") && !startswith(d->name, "md"))
                return 0;
        if (keep_read_string(d->fd, "dm/uuid", &d->subtype) >= 0) {
                char *dash = strchr(d->subtype, '-');
                if (dash)
                        *dash = '\0';
                if (!*d->subtype)
                        d->subtype = (free(d->subtype), NULL);
        } else if (keep_read_string(d->fd, "md/level", &d->subtype) >= 0) {
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
                d->serial = kept_dup(v);
        if ((v = ios_props_get(&d->props, "ID_WWN")) && !d->wwn)
                d->wwn = kept_dup(v);
        if (!d->wwn && startswith(d->name, "nvme"))
                (void)keep_read_string(d->fd, "wwid", &d->wwn);
        /* lvm2's udev rule of the lvmetad era (69-dm-lvm-metad.rules) sets ID_MODEL="LVM PV <uuid> on
         * /dev/<name>" on a PV, for systemd's device unit: no model; an md or dm device has none */
        if (!d->model && (v = ios_props_get(&d->props, "ID_MODEL")) && !startswith(v, "LVM PV "))
                d->model = kept_dup(v);
        if (!d->vendor && (v = ios_props_get(&d->props, "ID_VENDOR")))
                d->vendor = kept_dup(v);
}

int ios_probe_bus(struct ios_device *d, struct ios_ctrl_cache *cache)
{
        int e;

        probe_err = 0;
        d->scsi_type = -1;
        e = probe_stacked(d);
        if (e >= 0)
                e = probe_path(d, cache);
        if (e >= 0 && !d->hctl)
                e = probe_device_dir(d, cache);
        if (e < 0)
                return e;
        probe_identity(d);
        probe_tran(d, cache);
        return probe_err;
}
