/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify-raid.c: a RAID controller's logical drives, told from the
 * pass-through (JBOD) disks on the same host the way each driver tells them
 * (drivers/scsi of the kernel): by SCSI channel, by model, or, where the
 * driver hands only logical drives to sd, by the driver alone.
 *
 *   megaraid_sas  megaraid_sas_base.c: system PDs on channels 0-1
 *                 (MEGASAS_MAX_PD_CHANNELS 2), LDs on 2-3
 *   mpt3sas       mpt3sas_scsih.c: IR volumes on RAID_CHANNEL 1; volume
 *                 members get no_uld_attach (no sd disk)
 *   aacraid       aachba.c: containers on CONTAINER_CHANNEL 0
 *   hpsa,         hpsa.c / smartpqi_init.c: a logical volume's INQUIRY
 *   smartpqi      model is "LOGICAL VOLUME"
 *   ipr           ipr.h: volume sets on IPR_VSET_VIRTUAL_BUS 2, JBOD
 *                 disks on bus 0; ipr.c ipr_slave_configure: array members
 *                 (AF DASD) get TYPE_RAID and no_uld_attach, no sd disk;
 *                 volume-set models read "IPR-0 ...", "IPR-10 ..." (RAID 0/10)
 *   pmcraid       pmcraid.h: VSETs on PMCRAID_VSET_BUS_ID 1, generic SCSI
 *                 devices on PMCRAID_PHYS_BUS_ID 0
 *   myrb, myrs    myrb.c: logical drives on myrb_logical_channel (the last);
 *                 myrs.c: on the channels from physchan_present up; the
 *                 physical devices below get no_uld_attach (slave_configure),
 *                 so every sd disk of the host is a logical drive
 *   ips           ips.c: logical drives on bus 0, answered by the driver
 *                 itself (ips_inquiry: "IBM" "SERVERAID"); an INQUIRY to a
 *                 physical bus (1 and up) that finds a disk ends in
 *                 DID_TIME_OUT (ips_map_status, "restrict access to physical
 *                 DASD"), so sd never gets a physical disk: a disk on bus 1+
 *                 is not a logical drive
 *   hptiop        hptiop.c hptiop_queuecommand_lck: only channel 0 (others get
 *                 DID_BAD_TARGET), targets the IOP firmware presents; the
 *                 driver knows no pass-through kind, so every disk
 *   stex          stex.c: the firmware's logical drives (stex_probe maps the
 *                 firmware's LUN onto the channel); the last target is the
 *                 RAID console, a processor device (console_inq_page), no disk
 *   mvumi         mvumi.c mvumi_probe_devices: the devices the firmware
 *                 reports on channel 0; the driver knows no pass-through kind
 *   esas2r        esas2r_targ_db.c: RAID partitions (esas2r_targ_db_add_raid)
 *                 and pass-through disks (esas2r_targ_db_add_pthru, TF_PASS_THRU)
 *                 share channel 0's target ids and sd sees nothing of the
 *                 flag: every disk is taken for a logical drive
 *   arcmsr        arcmsr_hba.c: every target but 16 is a volume set of the
 *                 firmware; target 16 is the adapter's own virtual device, a
 *                 processor ("Areca" "RAID controller",
 *                 arcmsr_handle_virtual_command), no disk
 *   3w-*, gdth, megaraid, cciss: every disk is taken for a logical drive: no
 *                 pass-through channel or model rule is known; cciss is a
 *                 block driver of its own (cciss.c: disks "cciss/c<ctlr>d<n>",
 *                 "cciss!c0d0" in sysfs, major 104-111; udev's
 *                 60-persistent-storage.rules sets ID_BUS=cciss), so a disk
 *                 so named is its logical drive even where no driver link says
 *   mptsas        mptsas.c: Integrated RAID volumes on MPTSAS_RAID_CHANNEL 1,
 *                 the SAS disks on 0; the IR firmware answers INQUIRY for a
 *                 volume "LSILOGIC" "Logical Volume" (the case varies with the
 *                 firmware), which tells one where the driver link is missing
 *   megaraid_mbox mega_common.h MRAID_IS_LOGICAL: logical drives on the
 *                 virtual channel (the adapter's max_channel, not in sysfs);
 *                 an unconfigured physical disk reaches sd only with
 *                 megaraid_mbox.unconf_disks=1 (megaraid_expose_unconf_disks),
 *                 array members never: every disk is taken for one
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "classify-internal.h"

/* How a RAID driver exposes logical drives next to pass-through disks. */
enum ld_rule {
        LD_ALL,                 /* every sd disk on the host is a logical drive */
        LD_CHANNEL_GE2,         /* megaraid_sas: PDs on channels 0-1, LDs on 2+ */
        LD_CHANNEL_1,           /* mpt3sas: IR volumes on RAID_CHANNEL 1; pmcraid: VSETs on 1 */
        LD_CHANNEL_0,           /* aacraid: containers on 0, physicals on 1+; ips: LDs on bus 0 */
        LD_CHANNEL_2,           /* ipr: volume sets on IPR_VSET_VIRTUAL_BUS 2, JBOD on 0 */
        LD_MODEL,               /* hpsa/smartpqi: model "LOGICAL VOLUME" */
        LD_MPT_IR,              /* mptsas: IR volumes on channel 1, or the IR INQUIRY strings */
};

static const struct {
        const char *driver;
        enum ld_rule rule;
        const char *what;
        const char *rule_text;  /* the driver's rule, for the evidence (NULL: unsaid) */
} raid_drivers[] = {
        { "megaraid_sas", LD_CHANNEL_GE2, "LSI/Broadcom MegaRAID, Dell PERC", NULL },
        { "megaraid", LD_ALL, "LSI MegaRAID (legacy)", NULL },
        { "megaraid_mbox", LD_ALL, "LSI MegaRAID (legacy)", NULL },
        { "hpsa", LD_MODEL, "HP Smart Array", NULL },
        { "cciss", LD_ALL, "HP Smart Array (cciss)", NULL },
        { "smartpqi", LD_MODEL, "HPE/Microchip SmartRAID", NULL },
        { "aacraid", LD_CHANNEL_0, "Adaptec/Microchip RAID", NULL },
        { "mpt3sas", LD_CHANNEL_1, "LSI/Broadcom SAS HBA with IR", NULL },
        { "mpt2sas", LD_CHANNEL_1, "LSI SAS2 HBA with IR", NULL },
        { "mptsas", LD_MPT_IR, "LSI Fusion-MPT SAS (SAS1064/1068) with Integrated RAID",
          "Integrated RAID volumes on SCSI channel 1 (MPTSAS_RAID_CHANNEL), INQUIRY \"LSILOGIC\" "
          "\"Logical Volume\"; SAS disks on channel 0" },
        { "ipr", LD_CHANNEL_2, "IBM Power RAID (ipr)",
          "volume sets on SCSI channel 2 (IPR_VSET_VIRTUAL_BUS), JBOD disks on 0" },
        { "pmcraid", LD_CHANNEL_1, "PMC-Sierra MaxRAID", NULL },
        { "myrb", LD_ALL, "Mylex DAC960 (myrb)", NULL },
        { "myrs", LD_ALL, "Mylex eXtremeRAID (myrs)", NULL },
        { "3w-xxxx", LD_ALL, "3ware Escalade", NULL },
        { "3w-9xxx", LD_ALL, "3ware 9000", NULL },
        { "3w-sas", LD_ALL, "3ware/LSI 9750", NULL },
        { "arcmsr", LD_ALL, "Areca",
          "every disk is a volume set of the firmware (target 16 is the adapter's own processor device)" },
        { "ips", LD_CHANNEL_0, "IBM ServeRAID",
          "logical drives on SCSI channel 0 (INQUIRY \"IBM\" \"SERVERAID\" from the driver), "
          "physical disks on channels 1 and up are kept from sd" },
        { "gdth", LD_ALL, "ICP vortex GDT", NULL },
        { "hptiop", LD_ALL, "HighPoint RocketRAID",
          "every disk on channel 0 is a device the controller's firmware presents (no pass-through kind)" },
        { "stex", LD_ALL, "Promise SuperTrak",
          "every disk is a logical drive of the firmware (its RAID console is a processor device)" },
        { "esas2r", LD_ALL, "ATTO ExpressSAS RAID",
          "RAID partitions and pass-through disks share channel 0 with nothing sd sees to tell them apart: "
          "taken for a logical drive" },
        { "mvumi", LD_ALL, "Marvell RAID",
          "every disk on channel 0 is a device the controller's firmware presents (no pass-through kind)" },
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
        { "IBM", "SERVERAID*" },        /* ips.c ips_inquiry */
        { "IBM", "IPR-[0-9]*" },
};

/* Fusion-MPT Integrated RAID volume INQUIRY strings, in any case (mptsas.c, the IR firmware) */
static bool mpt_ir_strings(const struct ios_device *d)
{
        return d->vendor && d->model && strcasecmp(d->vendor, "LSILOGIC") == 0 &&
               strncasecmp(d->model, "Logical Volume", strlen("Logical Volume")) == 0;
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
                if (ios_cls_glob(raid_strings[i].vendor, d->vendor) &&
                    ios_cls_glob(raid_strings[i].model, d->model))
                        return true;
        return false;
}

static bool is_logical_drive(const struct ios_device *d, enum ld_rule rule)
{
        int ch = scsi_channel(d);

        switch (rule) {
        case LD_CHANNEL_GE2:
                return ch >= 2 || match_raid_strings(d);
        case LD_CHANNEL_1:
                return ch == 1;
        case LD_CHANNEL_0:
                return ch == 0;
        case LD_CHANNEL_2:
                return ch == 2 || (ch < 0 && match_raid_strings(d));
        case LD_MODEL:
                return d->model && ios_cls_glob("LOGICAL VOLUME*", d->model);
        case LD_MPT_IR:
                return ch == 1 || mpt_ir_strings(d);
        default:
                return true;
        }
}

static int raid_by_driver(struct ios_device *d, size_t i)
{
        bool ld = is_logical_drive(d, raid_drivers[i].rule);
        int e;

        /* mptsas is a plain SAS HBA first (and what VMware emulates): a disk that is no IR volume
         * is no business of this file, the rest of classify.c names its controller */
        if (!ld && raid_drivers[i].rule == LD_MPT_IR)
                return 0;

        e = ios_cls_ev(d, "host driver %s (%s)", d->driver, raid_drivers[i].what);
        if (e >= 0)
                e = ios_cls_ev_pci(d);
        if (e < 0)
                return e;
        if (raid_drivers[i].rule_text)
                e = ios_cls_ev(d, "%s: %s", d->driver, raid_drivers[i].rule_text);
        if (e < 0)
                return e;
        if (!ld)
                return ios_cls_ev(d, "pass-through disk on the RAID controller (SCSI %s%s%s)",
                                  d->hctl ? d->hctl : "?", d->model ? ", model " : "",
                                  d->model ? d->model : "");
        if (d->hctl)
                e = ios_cls_ev(d, "logical drive at SCSI %s%s%s%s%s", d->hctl,
                               d->vendor ? ", vendor " : "", d->vendor ? d->vendor : "",
                               d->model ? ", model " : "", d->model ? d->model : "");
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "RAID logical drive");
        d->cls = IOS_CLASS_RAID;
        return e < 0 ? e : 1;
}

/* A cciss logical drive known by its kernel name or udev's ID_BUS, without a driver link. */
static int raid_cciss(struct ios_device *d)
{
        const char *bus = ios_props_get(&d->props, "ID_BUS");
        int e = 0;

        d->cls = IOS_CLASS_RAID;
        if (startswith(d->name, "cciss!"))
                e = ios_cls_ev(d, "kernel name %s: a logical drive of the cciss block driver "
                               "(HP Smart Array)", d->name);
        if (e >= 0 && bus && streq(bus, "cciss"))
                e = ios_cls_ev(d, "udev ID_BUS=cciss (HP Smart Array logical drive)");
        if (e >= 0)
                e = ios_cls_ev_pci(d);
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "RAID logical drive");
        return e < 0 ? e : 1;
}

int ios_classify_raid(struct ios_device *d)
{
        const char *bus = ios_props_get(&d->props, "ID_BUS");
        bool ir;
        int e;

        for (size_t i = 0; d->driver && i < ELEMENTSOF(raid_drivers); i++)
                if (streq(d->driver, raid_drivers[i].driver))
                        return raid_by_driver(d, i);
        if (startswith(d->name, "cciss!") || (bus && streq(bus, "cciss")))
                return raid_cciss(d);
        ir = mpt_ir_strings(d);
        if (!ir && !match_raid_strings(d))
                return 0;
        e = ios_cls_ev(d, "SCSI vendor \"%s\" model \"%s\" is a RAID logical drive%s", d->vendor, d->model,
                       ir ? " (a Fusion-MPT Integrated RAID volume)" : "");
        if (e >= 0 && d->driver)
                e = ios_cls_ev(d, "host driver %s", d->driver);
        if (e >= 0)
                e = ios_cls_ev_pci(d);
        if (e >= 0)
                e = ios_cls_rotational_evidence(d, "RAID logical drive");
        d->cls = IOS_CLASS_RAID;
        return e < 0 ? e : 1;
}
