/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify.c: one class per whole disk, with the evidence behind it.
 *
 * queue/rotational lies: RAID logical drives, virtio disks and many USB
 * bridges report 1 for flash.  So the order is: what the device *is*
 * (stacked/RAM kinds, NVMe, MMC, USB, paravirtual, RAID logical drive),
 * and only then spinning or not, where udev's ATA IDENTIFY rotation rate
 * outranks the kernel flag.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"

/* How a RAID driver exposes logical drives next to pass-through disks. */
enum ld_rule {
        LD_ALL,                 /* every disk on the host is a logical drive */
        LD_CHANNEL_GE2,         /* megaraid_sas: PDs on channels 0-1, LDs on 2+ */
        LD_CHANNEL_1,           /* mpt3sas: IR volumes on RAID_CHANNEL 1 */
        LD_CHANNEL_0,           /* aacraid: containers on 0, physicals on 1+ */
        LD_MODEL,               /* hpsa/smartpqi: model "LOGICAL VOLUME" */
};

static const struct {
        const char *driver;
        enum ld_rule rule;
        const char *what;
} raid_drivers[] = {
        { "megaraid_sas", LD_CHANNEL_GE2, "LSI/Broadcom MegaRAID, Dell PERC" },
        { "megaraid", LD_ALL, "LSI MegaRAID (legacy)" },
        { "megaraid_mbox", LD_ALL, "LSI MegaRAID (legacy)" },
        { "hpsa", LD_MODEL, "HP Smart Array" },
        { "cciss", LD_ALL, "HP Smart Array (cciss)" },
        { "smartpqi", LD_MODEL, "HPE/Microchip SmartRAID" },
        { "aacraid", LD_CHANNEL_0, "Adaptec/Microchip RAID" },
        { "mpt3sas", LD_CHANNEL_1, "LSI/Broadcom SAS HBA with IR" },
        { "mpt2sas", LD_CHANNEL_1, "LSI SAS2 HBA with IR" },
        { "3w-xxxx", LD_ALL, "3ware Escalade" },
        { "3w-9xxx", LD_ALL, "3ware 9000" },
        { "3w-sas", LD_ALL, "3ware/LSI 9750" },
        { "arcmsr", LD_ALL, "Areca" },
        { "ips", LD_ALL, "IBM ServeRAID" },
        { "gdth", LD_ALL, "ICP vortex GDT" },
        { "hptiop", LD_ALL, "HighPoint RocketRAID" },
        { "stex", LD_ALL, "Promise SuperTrak" },
        { "esas2r", LD_ALL, "ATTO ExpressSAS RAID" },
        { "mvumi", LD_ALL, "Marvell RAID" },
        { "pmcraid", LD_ALL, "PMC-Sierra MaxRAID" },
};

/* Controller PCI ids worth naming in the evidence. */
static const struct {
        const char *id, *name;
} pci_names[] = {
        { "1000:0060", "LSI SAS1078, Dell PERC 6" },
        { "1000:0073", "LSI SAS2008 MegaRAID, Dell PERC H310" },
        { "1000:0079", "LSI SAS2108, Dell PERC H700/H800" },
        { "1000:005b", "LSI SAS2208, Dell PERC H710/H810" },
        { "1000:005d", "LSI SAS3108, Dell PERC H730/H830" },
        { "1000:005f", "LSI SAS3008, Dell PERC H330" },
        { "1028:0015", "Dell PERC 5" },
        { "103c:323a", "HP Smart Array G6" },
        { "103c:323b", "HP Smart Array Gen8" },
        { "103c:3239", "HP Smart Array Gen9" },
        { "1af4:1001", "virtio-blk" },
        { "1af4:1004", "virtio-scsi" },
        { "1af4:1042", "virtio-blk (modern)" },
        { "1af4:1048", "virtio-scsi (modern)" },
        { "15ad:07c0", "VMware PVSCSI" },
};

/* SCSI INQUIRY strings of logical drives (vendor glob, model glob). */
static const struct {
        const char *vendor, *model;
} raid_strings[] = {
        { "DELL", "PERC*" },
        { "LSI*", "MR*" },
        { "LSI*", "MegaRAID*" },
        { "*", "LOGICAL VOLUME*" },
        { "AMCC", "*" },
        { "3ware", "*" },
        { "Areca*", "*" },
        { "Adaptec", "*" },
        { "IBM", "ServeRAID*" },
};

/* Paravirtual controllers: the hypervisor decides what the disk is. */
static const struct {
        const char *driver, *what;
} virt_drivers[] = {
        { "virtio_blk", "virtio-blk" },
        { "virtio_scsi", "virtio-scsi" },
        { "vbd", "Xen blkfront" },
        { "xen-blkfront", "Xen blkfront" },
        { "vmw_pvscsi", "VMware PVSCSI" },
        { "storvsc", "Hyper-V storvsc" },
        { "hv_storvsc", "Hyper-V storvsc" },
        { "ibmvscsi", "IBM PowerVM vSCSI" },
};

static const char *pci_name(const char *id)
{
        for (size_t i = 0; id && i < ELEMENTSOF(pci_names); i++)
                if (streq(id, pci_names[i].id))
                        return pci_names[i].name;
        return NULL;
}

static int ev(struct ios_device *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int ev(struct ios_device *d, const char *fmt, ...)
{
        va_list ap;
        char *s;
        int r;

        va_start(ap, fmt);
        r = vasprintf(&s, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        return ios_strv_push(&d->evidence, s);
}

static int ev_pci(struct ios_device *d)
{
        const char *n = pci_name(d->pci_id);

        if (!d->pci_id)
                return 0;
        if (n)
                return ev(d, "PCI %s (%s)", d->pci_id, n);
        if (d->pci_class && startswith(d->pci_class, "0104"))
                return ev(d, "PCI %s (RAID bus controller)", d->pci_id);
        return ev(d, "PCI %s", d->pci_id);
}

static int scsi_channel(const struct ios_device *d)
{
        unsigned h, c;

        if (!d->hctl || sscanf(d->hctl, "%u:%u:", &h, &c) != 2)
                return -1;
        return (int)c;
}

static bool match_raid_strings(const struct ios_device *d)
{
        if (!d->vendor || !d->model)
                return false;
        for (size_t i = 0; i < ELEMENTSOF(raid_strings); i++)
                if (fnmatch(raid_strings[i].vendor, d->vendor, 0) == 0 &&
                    fnmatch(raid_strings[i].model, d->model, 0) == 0)
                        return true;
        return false;
}

static int name_is(const struct ios_device *d, const char *prefix)
{
        const char *rest = startswith(d->name, prefix);

        return rest && (!*rest || (*rest >= '0' && *rest <= '9'));
}

static int rotational_evidence(struct ios_device *d, const char *why)
{
        if (d->rotational == 1)
                return ev(d, "rotational=1 ignored: %s", why);
        if (d->rotational == 0)
                return ev(d, "rotational=0");
        return 0;
}

/* Returns 1 and sets the class if the disk is a RAID logical drive. */
static int classify_raid(struct ios_device *d)
{
        int ch = scsi_channel(d), e;

        for (size_t i = 0; d->driver && i < ELEMENTSOF(raid_drivers); i++) {
                bool ld;

                if (!streq(d->driver, raid_drivers[i].driver))
                        continue;
                switch (raid_drivers[i].rule) {
                case LD_CHANNEL_GE2:
                        ld = ch >= 2 || match_raid_strings(d);
                        break;
                case LD_CHANNEL_1:
                        ld = ch == 1;
                        break;
                case LD_CHANNEL_0:
                        ld = ch == 0;
                        break;
                case LD_MODEL:
                        ld = d->model && fnmatch("LOGICAL VOLUME*", d->model, 0) == 0;
                        break;
                default:
                        ld = true;
                }
                e = ev(d, "host driver %s (%s)", d->driver, raid_drivers[i].what);
                if (e >= 0)
                        e = ev_pci(d);
                if (e < 0)
                        return e;
                if (!ld)
                        return ev(d, "pass-through disk on the RAID controller (SCSI %s%s%s)",
                                  d->hctl ? d->hctl : "?", d->model ? ", model " : "",
                                  d->model ? d->model : "");
                if (d->hctl)
                        e = ev(d, "logical drive at SCSI %s%s%s%s%s", d->hctl,
                               d->vendor ? ", vendor " : "", d->vendor ? d->vendor : "",
                               d->model ? ", model " : "", d->model ? d->model : "");
                if (e >= 0)
                        e = rotational_evidence(d, "RAID logical drive");
                d->cls = IOS_CLASS_RAID;
                return e < 0 ? e : 1;
        }
        if (match_raid_strings(d)) {
                e = ev(d, "SCSI vendor \"%s\" model \"%s\" is a RAID logical drive", d->vendor, d->model);
                if (e >= 0 && d->driver)
                        e = ev(d, "host driver %s", d->driver);
                if (e >= 0)
                        e = ev_pci(d);
                if (e >= 0)
                        e = rotational_evidence(d, "RAID logical drive");
                d->cls = IOS_CLASS_RAID;
                return e < 0 ? e : 1;
        }
        return 0;
}

static int classify_virtual(struct ios_device *d)
{
        const char *what = NULL;
        int e;

        for (size_t i = 0; d->driver && i < ELEMENTSOF(virt_drivers); i++)
                if (streq(d->driver, virt_drivers[i].driver))
                        what = virt_drivers[i].what;
        if (!what && (name_is(d, "xvd") || strstr(d->syspath, "/vbd-")))
                what = "Xen blkfront";
        if (!what)
                return 0;
        d->cls = IOS_CLASS_VIRTUAL;
        e = ev(d, "%s %s (%s)", d->hctl ? "host driver" : "driver", d->driver ? d->driver : "vbd", what);
        if (e >= 0)
                e = ev_pci(d);
        if (e >= 0 && d->vendor && d->model)
                e = ev(d, "SCSI vendor \"%s\" model \"%s\"", d->vendor, d->model);
        if (e >= 0)
                e = rotational_evidence(d, "the hypervisor decides what backs a virtual disk");
        return e < 0 ? e : 1;
}

static int classify_spin(struct ios_device *d, bool controller_shown)
{
        const char *rpm = ios_props_get(&d->props, "ID_ATA_ROTATION_RATE_RPM");
        int e = 0;

        if (!controller_shown && d->driver)
                e = ev(d, "%s %s", d->hctl ? "host driver" : "driver", d->driver);
        if (e >= 0 && !controller_shown)
                e = ev_pci(d);
        if (e < 0)
                return e;
        if (rpm && *rpm) {
                if (streq(rpm, "0")) {
                        d->cls = IOS_CLASS_SSD;
                        e = ev(d, "ID_ATA_ROTATION_RATE_RPM=0 (ATA IDENTIFY: non-rotating medium)");
                        if (e >= 0 && d->rotational == 1)
                                e = ev(d, "rotational=1 ignored: the drive reports no rotation");
                } else {
                        d->cls = IOS_CLASS_HDD;
                        e = ev(d, "ID_ATA_ROTATION_RATE_RPM=%s", rpm);
                        if (e >= 0 && d->rotational == 0)
                                e = ev(d, "rotational=0 ignored: the drive reports %s rpm", rpm);
                }
                return e;
        }
        if (d->rotational == 1) {
                d->cls = IOS_CLASS_HDD;
                return ev(d, "rotational=1");
        }
        if (d->rotational == 0) {
                d->cls = IOS_CLASS_SSD;
                return ev(d, "rotational=0");
        }
        d->cls = IOS_CLASS_OTHER;
        return ev(d, "no rotational flag");
}

int ios_device_classify(struct ios_device *d)
{
        const char *bus = ios_props_get(&d->props, "ID_BUS");
        int e;

        d->evidence = ios_strv_free(d->evidence);
        d->cls = IOS_CLASS_OTHER;

        /* stacked and RAM devices: named by their driver, no hardware below */
        /* a lookup that failed (EMFILE, ENOMEM) is an error, not "no dm/": it
         * would class the disk as other, silently */
        e = startswith(d->name, "dm-") ? ios_sysfs_present(d->fd, "dm") : 0;
        if (e < 0)
                return e;
        if (e > 0) {
                d->cls = IOS_CLASS_DM;
                return ev(d, "device-mapper (dm/ present%s%s)", d->subtype ? ", uuid prefix " : "",
                          d->subtype ? d->subtype : "");
        }
        e = startswith(d->name, "md") ? ios_sysfs_present(d->fd, "md") : 0;
        if (e < 0)
                return e;
        if (e > 0) {
                d->cls = IOS_CLASS_MD;
                return ev(d, "md software RAID%s%s", d->subtype ? " " : "", d->subtype ? d->subtype : "");
        }
        if (name_is(d, "loop")) {
                d->cls = IOS_CLASS_LOOP;
                return ev(d, "loop device");
        }
        if (name_is(d, "zram")) {
                d->cls = IOS_CLASS_ZRAM;
                return ev(d, "zram compressed RAM disk");
        }
        if (name_is(d, "nbd")) {
                d->cls = IOS_CLASS_NBD;
                return ev(d, "network block device");
        }

        if (strstr(d->syspath, "/usb") || (bus && streq(bus, "usb"))) {
                d->cls = IOS_CLASS_USB;
                e = ev(d, "%s", strstr(d->syspath, "/usb") ? "USB device path" : "ID_BUS=usb");
                if (e >= 0 && d->driver)
                        e = ev(d, "host driver %s", d->driver);
                if (e >= 0)
                        e = rotational_evidence(d, "USB bridges do not pass the rotation rate on");
                return e;
        }
        if (name_is(d, "nvme") || strstr(d->syspath, "/nvme/") || strstr(d->syspath, "/nvme-subsystem/")) {
                d->cls = IOS_CLASS_NVME;
                if (strstr(d->syspath, "/nvme-subsystem/") && !d->hidden)
                        e = ev(d, "NVMe multipath head (bio-based; the scheduler is on its path devices)");
                else if (d->hidden)
                        e = ev(d, "NVMe multipath path device (hidden, holds the scheduler)");
                else
                        e = ev(d, "NVMe namespace");
                if (e >= 0 && d->subtype)
                        e = ev(d, "NVMe transport %s", d->subtype);
                if (e >= 0)
                        e = ev_pci(d);
                if (e >= 0 && d->zoned != IOS_ZONED_NONE)
                        e = ev(d, "zoned %s", ios_zoned_to_string(d->zoned));
                return e;
        }
        if (name_is(d, "mmcblk") || strstr(d->syspath, "/mmc_host/")) {
                d->cls = IOS_CLASS_MMC;
                e = ev(d, "MMC/SD block device%s%s", d->subtype ? ", card type " : "",
                       d->subtype ? d->subtype : "");
                if (e >= 0)
                        e = ev_pci(d);
                return e;
        }

        e = classify_virtual(d);
        if (e != 0)
                return e < 0 ? e : 0;
        e = classify_raid(d);
        if (e != 0)
                return e < 0 ? e : 0;
        e = classify_spin(d, ios_strv_length(d->evidence) > 0);
        if (e >= 0 && d->zoned != IOS_ZONED_NONE)
                e = ev(d, "zoned %s", ios_zoned_to_string(d->zoned));
        return e;
}
