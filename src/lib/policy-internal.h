/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy model shared by conf.c (parser), policy.c (match, merge), policy-files.c (loading) and tunables.c. */
#ifndef IOS_POLICY_INTERNAL_H
#define IOS_POLICY_INTERNAL_H

#include "iosched.h"

enum match_key {
        MK_CLASS, MK_NAME, MK_VENDOR, MK_MODEL, MK_SERIAL, MK_WWN, MK_DRIVER,
        MK_TRANSPORT, MK_PCI, MK_ROTATIONAL, MK_ZONED, MK_REMOVABLE, MK_SIZE,
        MK_PROPERTY, _MK_MAX,
};

struct cond {
        enum match_key key;
        bool negate;
        char **values;          /* globs, OR-ed */
        char *prop;             /* MK_PROPERTY: the property name */
        uint64_t min, max;      /* MK_SIZE, bytes, inclusive */
};

struct rule {
        char *source;           /* "file:line" of the rule's first section */
        struct cond *conds;
        size_t nconds;
        struct ios_setting *set;
        size_t nset;
};

struct ios_policy {
        struct rule *rules;
        size_t nrules, caprules;        /* caprules: room in rules (amortized growth) */
        char **files;
        char **warnings;        /* "file:line: message", in reading order */
        size_t nwarnings, capwarnings;  /* for ios_strv_push_fast() */
        struct ios_error *errors;       /* files and directories skipped whole */
        size_t nerrors;
        uint64_t drift_ms;
        bool needs_extra;
};

const char *ios_match_key_name(enum match_key k);
/* Fill err (if not NULL) with file, line and message; returns code. */
int ios_error_set(struct ios_error *err, const char *file, unsigned line, int code, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));
void ios_rule_done(struct rule *r);

#endif
