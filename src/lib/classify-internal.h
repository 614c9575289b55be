/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Library-private parts of classification, shared by classify.c (the
 * order, and the other classes), classify-virt.c (virtual),
 * classify-raid.c (raid) and classify-array.c (array).
 */
#ifndef IOS_CLASSIFY_INTERNAL_H
#define IOS_CLASSIFY_INTERNAL_H

#include <stdbool.h>

#include "iosched.h"

/* classify-evidence.c: the evidence every classifier writes, called by these names. */
/* One more line of evidence (printf format); 0 or -ENOMEM. */
int ios_cls_ev(struct ios_device *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The controller's PCI id, with its name when the table knows it. */
int ios_cls_ev_pci(struct ios_device *d);
/* "SCSI vendor "V" model "M" (what)" or "ATA model "M" (what)" (what may be NULL). */
int ios_cls_ev_model(struct ios_device *d, const char *what);
/* What the rotational flag says, or why it is ignored. */
int ios_cls_rotational_evidence(struct ios_device *d, const char *why);
/* The kernel name is prefix followed by a digit or nothing ("sr0" is "sr"). */
int ios_cls_name_is(const struct ios_device *d, const char *prefix);
/* A controller PCI id's name ("1af4:1001" is "virtio-blk"), or NULL. */
const char *ios_cls_pci_name(const char *id);

/*
 * classify-virt.c: 1 with the class set if a paravirtual driver, PCI id or
 * device path says the disk is virtual; 0 if not (a disk passed through a
 * paravirtual SCSI controller, with that said); -errno.
 */
int ios_classify_virtual(struct ios_device *d);
/* 1 with the class set if the model is a hypervisor's emulated disk, else 0. */
int ios_classify_virt_model(struct ios_device *d, bool controller_shown);

/* classify-raid.c: 1 with the class set if a RAID logical drive; 0 (a
 * pass-through disk on a RAID controller says so); -errno. */
int ios_classify_raid(struct ios_device *d);
/* classify-array.c: 1 with the class set if an external array's LUN, else 0
 * (controller_shown: the driver and PCI id are in the evidence already). */
int ios_classify_array(struct ios_device *d, bool controller_shown);

/*
 * fnmatch(pattern, s, 0) == 0, answered without fnmatch() where the
 * pattern's literal start (up to its first *, ?, [ or backslash) already
 * differs from s, or the pattern is all literal: the model tables are
 * matched against every disk, and most entries differ in the first byte.
 * With flags 0 nothing but those four characters is special.
 */
bool ios_cls_glob(const char *pattern, const char *s);     /* classify-evidence.c */

#endif
