/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify-array.c: a LUN of an external storage array (FC, iSCSI, SAS).
 *
 * What the host sees as one disk is a volume the array's controllers cache,
 * stripe and schedule themselves; its rotational flag says what the array
 * reports, not a spindle the host could order requests for.  The arrays'
 * own Linux host guides ask for none (noop): the built-in policy gives it,
 * whatever rotational says.  Told by the INQUIRY vendor and product the
 * arrays return (the same strings multipath-tools' hwtable keys on), with
 * the transport the LUN is reached over as more evidence.
 */
#define _GNU_SOURCE
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "classify-internal.h"
#include "device-internal.h"

/* INQUIRY vendor glob, product glob, what it is. */
static const struct {
        const char *vendor, *model, *what;
} array_luns[] = {
        { "IBM", "2107900*", "IBM DS8000" },
        { "IBM", "2145*", "IBM SAN Volume Controller / Storwize / FlashSystem" },
        { "IBM", "2810XIV*", "IBM XIV" },
        { "IBM", "1814*", "IBM DS4000/DS5000" },
        { "IBM", "1818*", "IBM DS5000" },
        { "IBM", "FlashSystem*", "IBM FlashSystem" },
        { "NETAPP", "LUN*", "NetApp ONTAP" },
        { "NETAPP", "INF-01-00*", "NetApp E-Series" },
        { "DGC", "*", "Dell EMC CLARiiON/VNX/Unity" },
        { "EMC", "SYMMETRIX*", "Dell EMC Symmetrix/VMAX/PowerMax" },
        { "EMC", "Invista*", "EMC Invista" },
        { "XtremIO", "XtremApp*", "Dell EMC XtremIO" },
        { "3PARdata", "VV*", "HPE 3PAR/Primera/Alletra" },
        { "HP", "HSV*", "HP EVA" },
        { "HP", "MSA*", "HPE MSA" },
        { "HPE", "MSA*", "HPE MSA" },
        { "HP", "OPEN-*", "HPE XP (Hitachi OEM)" },
        { "HITACHI", "OPEN-*", "Hitachi VSP/USP" },
        { "HITACHI", "DF600F*", "Hitachi AMS/HUS" },
        { "PURE", "FlashArray*", "Pure Storage FlashArray" },
        { "DELL", "PowerStore*", "Dell PowerStore" },
        { "COMPELNT", "Compellent*", "Dell Compellent/SC" },
        { "DELL", "MD3*", "Dell PowerVault MD3" },
        { "EQLOGIC", "100E-00*", "Dell EqualLogic" },
        { "FUJITSU", "ETERNUS*", "Fujitsu ETERNUS" },
        { "HUAWEI", "XSG1*", "Huawei OceanStor" },
        { "NEXSAN", "*", "Nexsan" },
        { "Nimble", "Server*", "HPE Nimble" },
        { "DataCore", "*", "DataCore SANsymphony" },
        { "LIO-ORG", "*", "Linux LIO target" },
        { "IET", "VIRTUAL-DISK*", "iSCSI Enterprise Target" },
        { "SCST_*", "*", "Linux SCST target" },
        { "TrueNAS", "iSCSI Disk*", "TrueNAS iSCSI" },
        { "FreeNAS", "iSCSI Disk*", "FreeNAS iSCSI" },
        { "SYNOLOGY", "iSCSI Storage*", "Synology iSCSI" },
        { "Kaminari", "*", "Kaminario K2" },
        { "VIOLIN", "*", "Violin Memory" },
        { "INFINIDA", "NFINIDAT*", "Infinidat InfiniBox" },
};

/* The transport the LUN is reached over, from its device path and lsblk's TRAN. */
static const char *transport(const struct ios_device *d)
{
        const char *p = ios_scsi_path_transport(d->syspath);

        if (p)
                return streq(p, "fc") ? "fc (FC remote port in the device path)"
                                      : "iscsi (iSCSI session in the device path)";
        if (d->tran && streq(d->tran, "sas"))
                return "sas (SAS host)";
        return NULL;
}

int ios_classify_array(struct ios_device *d, bool controller_shown)
{
        const char *t;
        int e;

        if (!d->vendor || !d->model || d->scsi_type > 0)
                return 0;
        for (size_t i = 0; i < ELEMENTSOF(array_luns); i++) {
                if (!ios_cls_glob(array_luns[i].vendor, d->vendor) ||
                    !ios_cls_glob(array_luns[i].model, d->model))
                        continue;
                d->cls = IOS_CLASS_ARRAY;
                e = ios_cls_ev(d, "SCSI vendor \"%s\" model \"%s\" (%s): a LUN of an external storage array",
                               d->vendor, d->model, array_luns[i].what);
                t = transport(d);
                if (e >= 0 && t)
                        e = ios_cls_ev(d, "transport %s", t);
                if (e >= 0 && d->driver && !controller_shown)
                        e = ios_cls_ev(d, "host driver %s", d->driver);
                if (e >= 0 && !controller_shown)
                        e = ios_cls_ev_pci(d);
                if (e >= 0)
                        e = ios_cls_rotational_evidence(d, "the array caches and schedules the LUN itself");
                return e < 0 ? e : 1;
        }
        return 0;
}
