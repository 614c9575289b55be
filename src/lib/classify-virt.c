/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify-virt.c: whether a disk is virtual, strongest evidence first (the
 * order and its reasons are in classify.c's list of judgment calls): a
 * paravirtual driver, the paravirtual controller's PCI id, a component of
 * the device path, and last a hypervisor's model string on an emulated
 * controller.  Every rule names what it saw in the evidence.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "macro.h"
#include "classify-internal.h"

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

/* Paravirtual SCSI controllers: INQUIRY strings tell emulated from passed through. */
static const char * const virt_scsi_drivers[] = {
        "virtio_scsi", "vmw_pvscsi", "storvsc", "hv_storvsc", "ibmvscsi",
};

/* Paravirtual controllers by PCI id (prefix), when no driver link says it. */
static const struct {
        const char *prefix, *what;
} virt_pci[] = {
        { "1af4:10", "virtio" },
        { "15ad:07c0", "VMware PVSCSI" },
        { "5853:0001", "Xen platform device" },
};

/*
 * What hypervisors call the disks they emulate (vendor glob, model glob;
 * '_' of udev's ID_MODEL is a blank).  ATA disks show vendor "ATA" and the
 * first 16 characters of the ATA model in the INQUIRY data.
 */
static const struct {
        const char *vendor, *model, *what;
} virt_models[] = {
        { "QEMU", "QEMU HARDDISK*", "QEMU's emulated SCSI disk" },
        { "*", "QEMU HARDDISK*", "QEMU's emulated ATA disk" },
        { "*", "VBOX HARDDISK*", "VirtualBox's emulated disk" },
        { "VBOX", "*", "VirtualBox's emulated disk" },
        { "VMware*", "*", "VMware's virtual disk" },
        { "*", "VMware Virtual*", "VMware's virtual disk" },
        { "*", "Virtual disk*", "VMware's virtual disk" },
        { "Msft", "Virtual Disk*", "Hyper-V's virtual disk" },
        { "Google", "PersistentDisk*", "Google Compute Engine persistent disk" },
        { "NUTANIX", "VDISK*", "Nutanix AHV virtual disk" },
        { "AIX", "VDASD*", "PowerVM virtual SCSI disk" },
        { "*", "BHYVE SATA DISK*", "bhyve's emulated disk" },
};

/* Real controllers hypervisors emulate: named when the disk's model is a hypervisor's. */
static const struct {
        const char *driver, *what;
} emulated_hbas[] = {
        { "BusLogic", "BusLogic MultiMaster, as VMware emulates it" },
        { "mptspi", "LSI53C1030 parallel SCSI, as VMware and QEMU emulate it" },
        { "mptsas", "LSI SAS1068, as VMware emulates it" },
        { "ata_piix", "Intel PIIX IDE, as QEMU, VirtualBox and Hyper-V emulate it" },
        { "ahci", "AHCI, as QEMU and VirtualBox emulate it" },
};

/* The model as a hypervisor names it ('_' of udev's ID_MODEL as blanks), or NULL. */
static const char *virt_model_what(const struct ios_device *d)
{
        char model[128];

        if (!d->model)
                return NULL;
        snprintf(model, sizeof(model), "%s", d->model);
        for (char *p = model; *p; p++)
                if (*p == '_')
                        *p = ' ';
        for (size_t i = 0; i < ELEMENTSOF(virt_models); i++)
                if (ios_cls_glob(virt_models[i].vendor, d->vendor ? d->vendor : "") &&
                    ios_cls_glob(virt_models[i].model, model))
                        return virt_models[i].what;
        return NULL;
}

/* strcasestr(s, "vmbus") != NULL, looking at each byte once (every disk's path is searched). */
static bool has_vmbus(const char *s)
{
        for (; *s; s++)
                if ((*s == 'v' || *s == 'V') && strncasecmp(s, "vmbus", 5) == 0)
                        return true;
        return false;
}

/* A component of the device path that only paravirtual buses have, or NULL. */
static const char *virt_path_what(const struct ios_device *d, char *comp, size_t n)
{
        const char *p = d->syspath;

        while (p && *p) {
                const char *c = p + 1, *e = strchr(c, '/');
                size_t len = e ? (size_t)(e - c) : strlen(c);

                /* as snprintf(comp, n, "%.*s", len, c), without formatting per component */
                memcpy(comp, c, len < n ? len : n - 1);
                comp[len < n ? len : n - 1] = '\0';
                if (startswith(comp, "virtio") && comp[6] && strspn(comp + 6, "0123456789") == len - 6)
                        return "a virtio device";
                if (has_vmbus(comp))
                        return "Hyper-V VMBus";
                if (startswith(comp, "vbd-") || startswith(comp, "xen"))
                        return "Xen";
                p = e;
        }
        if (ios_cls_name_is(d, "xvd")) {
                snprintf(comp, n, "%s", d->name);
                return "Xen";
        }
        return NULL;
}

/*
 * Returns 1 and sets the class if a paravirtual driver, PCI id or device
 * path says the disk is virtual; 0 otherwise (also for a disk passed
 * through a paravirtual SCSI controller, with that said).
 */
int ios_classify_virtual(struct ios_device *d)
{
        const char *what = NULL, *mwhat;
        char comp[256];
        bool scsi = false;
        int e;

        for (size_t i = 0; d->driver && i < ELEMENTSOF(virt_drivers); i++)
                if (streq(d->driver, virt_drivers[i].driver))
                        what = virt_drivers[i].what;
        for (size_t i = 0; what && i < ELEMENTSOF(virt_scsi_drivers); i++)
                scsi = scsi || streq(d->driver, virt_scsi_drivers[i]);
        mwhat = virt_model_what(d);
        if (what) {
                e = ios_cls_ev(d, "%s %s (%s)", d->hctl ? "host driver" : "driver", d->driver, what);
                if (e >= 0)
                        e = ios_cls_ev_pci(d);
        } else {
                for (size_t i = 0; d->pci_id && i < ELEMENTSOF(virt_pci); i++)
                        if (startswith(d->pci_id, virt_pci[i].prefix))
                                what = virt_pci[i].what;
                if (what)
                        e = ios_cls_ev(d, "PCI %s (%s)%s%s", d->pci_id, ios_cls_pci_name(d->pci_id) ?: what,
                               d->driver ? ", driver " : ", no driver link", d->driver ? d->driver : "");
                else if ((what = virt_path_what(d, comp, sizeof(comp))))
                        e = ios_cls_ev(d, "device path component %s (%s)%s", comp, what,
                                       d->driver ? "" : ", no driver link");
                else
                        return 0;
        }
        if (e < 0)
                return e;
        if (scsi && d->model && !mwhat) {
                /* scsi-block, an RDM, a pass-through disk: the hardware's own strings */
                e = ios_cls_ev_model(d, NULL);
                if (e >= 0)
                        e = ios_cls_ev(
                                d,
                                "not a hypervisor's model: a disk passed through, classed by its own facts");
                return e < 0 ? e : 0;
        }
        d->cls = IOS_CLASS_VIRTUAL;
        if (d->model)
                e = ios_cls_ev_model(d, mwhat);
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "the hypervisor decides what backs a virtual disk");
        return e < 0 ? e : 1;
}

/* An emulated disk on an emulated controller (AHCI, ata_piix, mptspi...): its model says it. */
int ios_classify_virt_model(struct ios_device *d, bool controller_shown)
{
        const char *what = virt_model_what(d);
        int e = 0;

        if (!what)
                return 0;
        d->cls = IOS_CLASS_VIRTUAL;
        if (!controller_shown && d->driver) {
                const char *hba = NULL;

                for (size_t i = 0; i < ELEMENTSOF(emulated_hbas); i++)
                        if (streq(d->driver, emulated_hbas[i].driver))
                                hba = emulated_hbas[i].what;
                e = ios_cls_ev(d, "%s %s%s%s%s", d->hctl ? "host driver" : "driver", d->driver,
                               hba ? " (" : "",
                               hba ? hba : "", hba ? ")" : "");
        }
        if (e >= 0 && !controller_shown)
                e = ios_cls_ev_pci(d);
        if (e >= 0)
                e = ios_cls_ev_model(d, what);
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "the hypervisor decides what backs a virtual disk");
        return e < 0 ? e : 1;
}
