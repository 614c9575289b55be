/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * classify-evidence.c: the evidence lines every classifier writes
 * (classify.c, classify-virt.c, classify-raid.c, classify-array.c), and the
 * controller PCI ids worth naming in them, and the model tables' glob match
 * (ios_cls_glob): one owner below them all, so that none of them imports
 * another for its wording or its matching.
 */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "classify-internal.h"
#include "strv.h"

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

const char *ios_cls_pci_name(const char *id)
{
        for (size_t i = 0; id && i < ELEMENTSOF(pci_names); i++)
                if (streq(id, pci_names[i].id))
                        return pci_names[i].name;
        return NULL;
}

int ios_cls_ev(struct ios_device *d, const char *fmt, ...)
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

int ios_cls_ev_pci(struct ios_device *d)
{
        const char *n = ios_cls_pci_name(d->pci_id);

        if (!d->pci_id)
                return 0;
        if (n)
                return ios_cls_ev(d, "PCI %s (%s)", d->pci_id, n);
        if (d->pci_class && startswith(d->pci_class, "0104"))
                return ios_cls_ev(d, "PCI %s (RAID bus controller)", d->pci_id);
        return ios_cls_ev(d, "PCI %s", d->pci_id);
}

int ios_cls_name_is(const struct ios_device *d, const char *prefix)
{
        const char *rest = startswith(d->name, prefix);

        return rest && (!*rest || (*rest >= '0' && *rest <= '9'));
}

int ios_cls_rotational_evidence(struct ios_device *d, const char *why)
{
        if (d->rotational == 1)
                return ios_cls_ev(d, "rotational=1 ignored: %s", why);
        if (d->rotational == 0)
                return ios_cls_ev(d, "rotational=0");
        return 0;
}

/* "SCSI vendor "V" model "M" (what)" or "ATA model "M" (what)" (what may be NULL). */
int ios_cls_ev_model(struct ios_device *d, const char *what)
{
        if (d->vendor && !streq(d->vendor, "ATA"))
                return ios_cls_ev(d, "SCSI vendor \"%s\" model \"%s\"%s%s%s", d->vendor, d->model,
                                 what ? " (" : "", what ? what : "", what ? ")" : "");
        return ios_cls_ev(d, "%s model \"%s\"%s%s%s", d->vendor ? "ATA" : "model", d->model,
                         what ? " (" : "", what ? what : "", what ? ")" : "");
}

bool ios_cls_glob(const char *pattern, const char *s)
{
        const char *p = pattern, *q = s;

        for (; *p && *p != '*' && *p != '?' && *p != '[' && *p != '\\'; p++, q++)
                if (*p != *q)
                        return false;
        if (!*p)
                return !*q;
        return fnmatch(pattern, s, 0) == 0;
}
