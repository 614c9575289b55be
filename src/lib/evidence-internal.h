/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* evidence-internal.h: what evidence*.c share and nothing else calls. */
#ifndef IOS_EVIDENCE_INTERNAL_H
#define IOS_EVIDENCE_INTERNAL_H

#include <stdbool.h>

#include "iosched-evidence.h"

/* evidence.c: the one-disk name of earlier versions for a disk with a model, "VENDOR_MODEL_WWN.json" */
char *ios_evidence_file_name_per_disk(const struct ios_evidence_id *id);
/* evidence.c: rec was measured on a disk other than id's (WWN or serial known for both and different) */
bool ios_evidence_other_disk(const struct ios_evidence *rec, const struct ios_evidence_id *id);

/* evidence.c: *ret_msg (when asked for) why, from fmt; returns err */
int ios_evidence_why(char **ret_msg, int err, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
