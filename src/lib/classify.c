/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify.c: one class per whole disk, with the evidence behind it.
 *
 * queue/rotational lies: RAID logical drives, virtio disks and many USB
 * bridges report 1 for flash.  So the order is: what the device *is*
 * (stacked kinds, RAM-backed ones, removable-media drives, USB, NVMe, MMC,
 * paravirtual, RAID logical drive, a hypervisor's emulated disk), and only
 * then spinning or not, where udev's ATA IDENTIFY rotation rate outranks
 * the kernel flag.
 *
 * Judgment calls, and why:
 * - optical and floppy drives are removable-media drives, not disks: the
 *   medium changes under them, and the built-in policy leaves them alone
 *   (a site rule may still name Class=optical).  They are recognised before
 *   USB and virtual: a USB DVD writer and QEMU's "QEMU DVD-ROM" are optical.
 * - ram: brd ram*, pmem*, scsi_debug are RAM-backed: calling them ssd said
 *   something false.  They get "none" like flash where they have a queue.
 * - virtual, strongest evidence first: a paravirtual driver (virtio_blk,
 *   virtio_scsi, vmw_pvscsi, hv_storvsc, xen-blkfront, ibmvscsi), else the
 *   paravirtual controller's PCI id, else a virtioN / vmbus / xen component
 *   of the device path (a missing driver link loses no class); then, on any
 *   controller (AHCI, ata_piix, BusLogic, mptspi under a hypervisor), the
 *   INQUIRY/ATA model a hypervisor gives its emulated disks.  On a
 *   paravirtual SCSI controller, INQUIRY strings that are no hypervisor's are
 *   a disk passed through (scsi-block, RDM): it keeps its own class.  A RAID
 *   logical drive is recognised before the model strings (QEMU's megasas
 *   passes "QEMU HARDDISK" through to its logical drives).
 * - multipath: a request-based dm-multipath device is its own class, so that
 *   one Class=multipath names them all; its Rotational fact is derived from
 *   its paths (1 only when every path is an hdd; RAID logical drives, flash
 *   and virtual paths give 0), so that the built-in policy, and a site rule,
 *   tell a spinning LUN (mq-deadline) from a flash one (none) with the usual
 *   Rotational= key.  Its paths keep their own class, with one more piece of
 *   evidence: the built-in rules leave them alone (policy.c), their
 *   scheduler being bypassed.
 * - s390 DASD (the dasd block driver, dasd-eckd or dasd-fba on a ccw device)
 *   is named as such, with the scheduler IBM sets for it on the kernel in
 *   use: on a blk-mq DASD driver none (s390-tools' 59-dasd.rules since
 *   commit a65bc51cf4e5 "udev/dasd: change DASD udev-rule to set none
 *   scheduler": mq-deadline gave the same throughput for up to 20% more
 *   CPU), so class ssd; on a single-queue one deadline (kernel commit
 *   a5fd8ddce2af moved the driver's deadline into s390-tools' udev rule as
 *   the recommended one), so class hdd.  Its rotational flag is not used.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "root-internal.h"
#include "classify-internal.h"
#include "strv.h"

/* Model globs of CD/DVD/BD drives (their SCSI type says it first). */
static const char * const optical_models[] = {
        "*DVD-ROM*", "*CD-ROM*", "*CDROM*", "*DVD*RW*", "*DVD*RAM*", "*BD-R*", "*BDROM*",
};

/* RAM-backed block devices: brd, persistent memory, scsi_debug. */
static int classify_ram(struct ios_device *d)
{
        int e;

        if (ios_cls_name_is(d, "ram") && strstr(d->syspath, "/virtual/")) {
                d->cls = IOS_CLASS_RAM;
                e = ios_cls_ev(d, "brd RAM disk (%s under devices/virtual, no hardware below)", d->name);
                return e < 0 ? e : 1;
        }
        if (startswith(d->name, "pmem") || (d->driver && streq(d->driver, "nd_pmem"))) {
                d->cls = IOS_CLASS_RAM;
                e = ios_cls_ev(d, "persistent memory namespace (%s%s)", d->driver ? "driver " : "name ",
                               d->driver ? d->driver : d->name);
                return e < 0 ? e : 1;
        }
        if ((d->driver && streq(d->driver, "scsi_debug")) ||
            (d->vendor && d->model && streq(d->vendor, "Linux") && streq(d->model, "scsi_debug"))) {
                d->cls = IOS_CLASS_RAM;
                e = ios_cls_ev(d, "%s%s (scsi_debug: a RAM-backed SCSI test disk)",
                               d->driver ? "host driver " : "SCSI model ", d->driver ? d->driver : d->model);
                if (e >= 0 && d->hctl)
                        e = ios_cls_ev(d, "SCSI %s%s%s", d->hctl, d->model ? ", model " : "",
                                       d->model ? d->model : "");
                return e < 0 ? e : 1;
        }
        return 0;
}

/* Optical and floppy drives, by every piece of evidence that holds. */
static int classify_media(struct ios_device *d)
{
        const char *cd = ios_props_get(&d->props, "ID_CDROM"), *type = ios_props_get(&d->props, "ID_TYPE");
        const char *fl = ios_props_get(&d->props, "ID_DRIVE_FLOPPY");
        bool optical = false, floppy = false;
        int e = 0;

        if (d->scsi_type == 5 || d->scsi_type == 7) {
                optical = true;
                e = ios_cls_ev(d, "SCSI device type %d (%s)", d->scsi_type,
                               d->scsi_type == 5 ? "CD/DVD drive" : "optical memory device");
        }
        if (e >= 0 && cd && streq(cd, "1")) {
                optical = true;
                e = ios_cls_ev(d, "udev ID_CDROM=1");
        }
        if (e >= 0 && type && streq(type, "cd")) {
                optical = true;
                e = ios_cls_ev(d, "udev ID_TYPE=cd");
        }
        if (e >= 0 && ios_cls_name_is(d, "sr")) {
                optical = true;
                e = ios_cls_ev(d, "%s: the SCSI CD-ROM driver's name (sr)", d->name);
        }
        for (size_t i = 0; e >= 0 && d->model && i < ELEMENTSOF(optical_models); i++)
                if (ios_cls_glob(optical_models[i], d->model)) {
                        optical = true;
                        e = ios_cls_ev_model(d, "an optical drive");
                        break;
                }
        if (e >= 0 && !optical) {
                if (ios_cls_name_is(d, "fd")) {
                        floppy = true;
                        e = ios_cls_ev(d, "%s: the floppy driver's name (fd)", d->name);
                }
                if (e >= 0 && d->driver && streq(d->driver, "floppy")) {
                        floppy = true;
                        e = ios_cls_ev(d, "driver floppy");
                }
                if (e >= 0 && fl && streq(fl, "1")) {
                        floppy = true;
                        e = ios_cls_ev(d, "udev ID_DRIVE_FLOPPY=1");
                }
        }
        if (e < 0)
                return e;
        if (!optical && !floppy)
                return 0;               /* nothing was said */
        d->cls = optical ? IOS_CLASS_OPTICAL : IOS_CLASS_FLOPPY;
        if (d->driver && !floppy)
                e = ios_cls_ev(d, "%s %s", d->hctl ? "host driver" : "driver", d->driver);
        if (e >= 0 && d->removable >= 0)
                e = ios_cls_ev(d, "removable=%d", d->removable);
        if (e >= 0)
                e = ios_cls_ev(d, "a removable-media drive, not a disk: the built-in policy leaves it alone");
        return e < 0 ? e : 1;
}

/* A request-based dm-multipath device: what its paths are says what it is. */
static int classify_multipath(struct ios_device *d)
{
        size_t n = ios_strv_length(d->mpath_paths);
        bool spinning = n > 0, raid = false, array = false;
        int e;

        d->cls = IOS_CLASS_MULTIPATH;
        e = ios_cls_ev(
                d, "device-mapper multipath (dm/uuid mpath-, request-based: blk-mq queue with a scheduler; "
                   "I/O to its paths is inserted below their schedulers)");
        for (size_t i = 0; e >= 0 && i < n; i++) {
                e = ios_cls_ev(d, "path %s: %s", d->mpath_paths[i],
                               ios_class_to_string(d->mpath_path_cls[i]));
                spinning = spinning && d->mpath_path_cls[i] == IOS_CLASS_HDD;
                raid = raid || d->mpath_path_cls[i] == IOS_CLASS_RAID;
                array = array || d->mpath_path_cls[i] == IOS_CLASS_ARRAY;
        }
        if (e < 0)
                return e;
        if (!n)
                return ios_cls_ev(d, "no path in slaves/: rotational as the kernel reports it");
        d->rotational = spinning ? 1 : 0;
        e = ios_cls_ev(d, "rotational=%d from its paths (%s)", d->rotational,
                       spinning ? "every path spins" :
                       array    ? "LUNs of an external array, which schedules them itself" :
                       raid     ? "RAID logical drives" :
                                  "not every path spins");
        if (e >= 0 && d->mpath_kernel_rotational >= 0 && d->mpath_kernel_rotational != d->rotational)
                e = ios_cls_ev(d, "queue/rotational=%d of the multipath device itself ignored",
                               d->mpath_kernel_rotational);
        return e;
}

static int ev_mpath_path(struct ios_device *d)
{
        if (!d->mpath_path)
                return 0;
        if (d->mpath_holder)
                return ios_cls_ev(d,
                                  "path of dm-multipath device %s (holders/%s): its scheduler is bypassed, "
                                  "the built-in policy leaves it alone",
                                  d->mpath_holder, d->mpath_holder);
        return ios_cls_ev(
                d, "udev DM_MULTIPATH_DEVICE_PATH=1, a path of a dm-multipath device: its scheduler is "
                   "bypassed, the built-in policy leaves it alone");
}

static int classify_spin(struct ios_device *d, bool controller_shown)
{
        const char *rpm = ios_props_get(&d->props, "ID_ATA_ROTATION_RATE_RPM");
        int e = 0;

        if (!controller_shown && d->driver)
                e = ios_cls_ev(d, "%s %s", d->hctl ? "host driver" : "driver", d->driver);
        if (e >= 0 && !controller_shown)
                e = ios_cls_ev_pci(d);
        if (e < 0)
                return e;
        if (rpm && *rpm) {
                if (streq(rpm, "0")) {
                        d->cls = IOS_CLASS_SSD;
                        e = ios_cls_ev(d, "ID_ATA_ROTATION_RATE_RPM=0 (ATA IDENTIFY: non-rotating medium)");
                        if (e >= 0 && d->rotational == 1)
                                e = ios_cls_ev(d, "rotational=1 ignored: the drive reports no rotation");
                } else {
                        d->cls = IOS_CLASS_HDD;
                        e = ios_cls_ev(d, "ID_ATA_ROTATION_RATE_RPM=%s", rpm);
                        if (e >= 0 && d->rotational == 0)
                                e = ios_cls_ev(d, "rotational=0 ignored: the drive reports %s rpm", rpm);
                }
                return e;
        }
        if (d->rotational == 1) {
                d->cls = IOS_CLASS_HDD;
                return ios_cls_ev(d, "rotational=1");
        }
        if (d->rotational == 0) {
                d->cls = IOS_CLASS_SSD;
                return ios_cls_ev(d, "rotational=0");
        }
        d->cls = IOS_CLASS_OTHER;
        return ios_cls_ev(d, "no rotational flag");
}

/*
 * A PCIe card reader driven as a SCSI disk (Realtek rts5208, once
 * rts_pstor): the card is flash whatever rotational says.  udev's
 * ID_DRIVE_FLASH_* / ID_DRIVE_MEDIA_FLASH_* name the slot and the medium.
 */
static int classify_card_reader(struct ios_device *d)
{
        static const char * const keys[] = {
                "ID_DRIVE_FLASH_SD", "ID_DRIVE_MEDIA_FLASH_SD", "ID_DRIVE_FLASH_SDHC", "ID_DRIVE_FLASH_MMC",
                "ID_DRIVE_FLASH_MS", "ID_DRIVE_FLASH_CF", "ID_DRIVE_FLASH_SM", "ID_DRIVE_FLASH_XD",
                "ID_DRIVE_MEDIA_FLASH_SDHC", "ID_DRIVE_MEDIA_FLASH_MS", "ID_DRIVE_MEDIA_FLASH_CF",
        };
        bool drv = d->driver && (streq(d->driver, "rts5208") || streq(d->driver, "rts_pstor"));
        const char *key = NULL;
        int e = 0;

        for (size_t i = 0; !key && i < ELEMENTSOF(keys); i++) {
                const char *v = ios_props_get(&d->props, keys[i]);

                if (v && streq(v, "1"))
                        key = keys[i];
        }
        if (!drv && !key)
                return 0;
        d->cls = IOS_CLASS_MMC;
        if (drv)
                e = ios_cls_ev(d, "host driver %s (Realtek PCIe card reader, the card driven as a SCSI disk)",
                               d->driver);
        if (e >= 0 && key)
                e = ios_cls_ev(d, "udev %s=1 (a flash card reader)", key);
        if (e >= 0)
                e = ios_cls_ev_pci(d);
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "a flash card");
        return e < 0 ? e : 1;
}

/* s390 DASD: driver dasd-eckd/dasd-fba on its ccw device, or the dasd driver's disk name */
static int classify_dasd(struct ios_device *d)
{
        const char *letters = startswith(d->name, "dasd");
        bool drv = d->driver && startswith(d->driver, "dasd-");
        int e;

        /* dasd_genhd.c names disks "dasd" and letters; their ccw devices are under css0 */
        if (!drv && !(letters && *letters >= 'a' && *letters <= 'z' && strstr(d->syspath, "/css")))
                return 0;
        e = ios_cls_ev(d, "s390 DASD (%s%s)", drv ? "driver " : "name ", drv ? d->driver : d->name);
        if (e < 0)
                return e;
        /* the single-queue block layer's schedulers (before 5.0) have names blk-mq has not */
        if (!ios_strv_contains(d->sched_avail, "noop") && !ios_strv_contains(d->sched_avail, "deadline") &&
            !ios_strv_contains(d->sched_avail, "cfq")) {
                d->cls = IOS_CLASS_SSD;
                e = ios_cls_ev(d, "IBM sets none for DASD on a blk-mq kernel (s390-tools 59-dasd.rules, "
                                  "commit a65bc51cf4e5: mq-deadline's throughput for up to 20%% more CPU): "
                                  "class ssd");
        } else {
                d->cls = IOS_CLASS_HDD;
                e = ios_cls_ev(d, "IBM recommends deadline for DASD on a single-queue kernel (kernel "
                                  "commit a5fd8ddce2af, s390-tools' udev rule): class hdd");
        }
        if (e >= 0 && d->rotational >= 0)
                e = ios_cls_ev(d, "rotational=%d not used: a DASD is a volume of the storage server",
                               d->rotational);
        return e < 0 ? e : 1;
}

static int classify_kind(struct ios_device *d)
{
        const char *bus = ios_props_get(&d->props, "ID_BUS");
        int e;

        /* stacked and RAM devices: named by their driver, no hardware below */
        /* a lookup that failed (EMFILE, ENOMEM) is an error, not "no dm/": it
         * would class the disk as other, silently */
        e = startswith(d->name, "dm-") ? ios_sysfs_present(d->fd, "dm") : 0;
        if (e < 0)
                return e;
        if (e > 0) {
                bool mpath = d->subtype && streq(d->subtype, "mpath");

                if (mpath && (d->blk_mq || d->sched_current))
                        return classify_multipath(d);
                d->cls = IOS_CLASS_DM;
                if (mpath)
                        return ios_cls_ev(
                                d, "device-mapper multipath, bio-based (queue_mode bio): no scheduler");
                return ios_cls_ev(d, "device-mapper (dm/ present%s%s)", d->subtype ? ", uuid prefix " : "",
                                  d->subtype ? d->subtype : "");
        }
        e = startswith(d->name, "md") ? ios_sysfs_present(d->fd, "md") : 0;
        if (e < 0)
                return e;
        if (e > 0) {
                d->cls = IOS_CLASS_MD;
                return ios_cls_ev(d, "md software RAID%s%s", d->subtype ? " " : "",
                                  d->subtype ? d->subtype : "");
        }
        if (ios_cls_name_is(d, "loop")) {
                d->cls = IOS_CLASS_LOOP;
                return ios_cls_ev(d, "loop device");
        }
        if (ios_cls_name_is(d, "zram")) {
                d->cls = IOS_CLASS_ZRAM;
                return ios_cls_ev(d, "zram compressed RAM disk");
        }
        if (ios_cls_name_is(d, "nbd")) {
                d->cls = IOS_CLASS_NBD;
                return ios_cls_ev(d, "network block device");
        }
        e = classify_ram(d);
        if (e == 0)
                e = classify_media(d);
        if (e != 0)
                return e < 0 ? e : 0;

        if (strstr(d->syspath, "/usb") || (bus && streq(bus, "usb"))) {
                d->cls = IOS_CLASS_USB;
                e = ios_cls_ev(d, "%s", strstr(d->syspath, "/usb") ? "USB device path" : "ID_BUS=usb");
                if (e >= 0 && d->driver)
                        e = ios_cls_ev(d, "host driver %s", d->driver);
                if (e >= 0)
                        e = ios_cls_rotational_evidence(d, "USB bridges do not pass the rotation rate on");
                return e;
        }
        if (ios_cls_name_is(d, "nvme") || strstr(d->syspath, "/nvme/") ||
            strstr(d->syspath, "/nvme-subsystem/")) {
                d->cls = IOS_CLASS_NVME;
                if (strstr(d->syspath, "/nvme-subsystem/") && !d->hidden)
                        e = ios_cls_ev(
                                d, "NVMe multipath head (bio-based; the scheduler is on its path devices)");
                else if (d->hidden)
                        e = ios_cls_ev(d, "NVMe multipath path device (hidden, holds the scheduler)");
                else
                        e = ios_cls_ev(d, "NVMe namespace");
                if (e >= 0 && d->subtype)
                        e = ios_cls_ev(d, "NVMe transport %s", d->subtype);
                if (e >= 0)
                        e = ios_cls_ev_pci(d);
                if (e >= 0 && d->zoned != IOS_ZONED_NONE)
                        e = ios_cls_ev(d, "zoned %s", ios_zoned_to_string(d->zoned));
                return e;
        }
        e = classify_card_reader(d);
        if (e != 0)
                return e < 0 ? e : 0;
        if (ios_cls_name_is(d, "mmcblk") || strstr(d->syspath, "/mmc_host/")) {
                d->cls = IOS_CLASS_MMC;
                e = ios_cls_ev(d, "MMC/SD block device%s%s", d->subtype ? ", card type " : "",
                               d->subtype ? d->subtype : "");
                if (e >= 0)
                        e = ios_cls_ev_pci(d);
                return e;
        }

        e = classify_dasd(d);
        if (e == 0)
                e = ios_classify_virtual(d);
        if (e != 0)
                return e < 0 ? e : 0;
        e = ios_classify_raid(d);
        if (e == 0)
                e = ios_classify_array(d, ios_strv_length(d->evidence) > 0);
        if (e != 0)
                return e < 0 ? e : 0;
        e = ios_classify_virt_model(d, ios_strv_length(d->evidence) > 0);
        if (e != 0)
                return e < 0 ? e : 0;
        e = classify_spin(d, ios_strv_length(d->evidence) > 0);
        if (e >= 0 && d->zoned != IOS_ZONED_NONE)
                e = ios_cls_ev(d, "zoned %s", ios_zoned_to_string(d->zoned));
        return e;
}

int ios_device_classify(struct ios_device *d)
{
        int e;

        assert(d && d->name);
        d->evidence = ios_strv_free(d->evidence);
        d->cls = IOS_CLASS_OTHER;
        e = classify_kind(d);
        if (e >= 0)
                e = ev_mpath_path(d);
        if (e >= 0 && d->no_dev)
                e = ios_cls_ev(d, "no dev file in sys/block/%s: no device number, no udev entry", d->name);
        if (e >= 0 && ios_log_current)
                for (char * const *ev = d->evidence; ev && *ev; ev++)
                        ios_log("%s: class %s: %s", d->name, ios_class_to_string(d->cls), *ev);
        IOS_TRACE("%s: class %s%s", d->name, ios_class_to_string(d->cls),
                  e < 0 ? " (classification failed)" : "");
        return e < 0 ? e : 0;
}
