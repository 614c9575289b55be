/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy model shared by conf.c (parser), policy.c (match, merge), policy-files.c (loading) and tunables.c. */
#ifndef IOS_POLICY_INTERNAL_H
#define IOS_POLICY_INTERNAL_H

#include "iosched.h"

enum ios_match_key {
        IOS_MK_CLASS, IOS_MK_NAME, IOS_MK_VENDOR, IOS_MK_MODEL, IOS_MK_SERIAL, IOS_MK_WWN, IOS_MK_DRIVER,
        IOS_MK_TRANSPORT, IOS_MK_PCI, IOS_MK_ROTATIONAL, IOS_MK_ZONED, IOS_MK_REMOVABLE, IOS_MK_SIZE,
        IOS_MK_PROPERTY, _IOS_MK_MAX,
};

struct ios_cond {
        enum ios_match_key key;
        bool negate;
        char **values;          /* globs, OR-ed */
        char *prop;             /* IOS_MK_PROPERTY: the property name */
        uint64_t min, max;      /* IOS_MK_SIZE, bytes, inclusive */
};

struct ios_rule {
        char *source;           /* "file:line" of the rule's first section */
        struct ios_cond *conds;
        size_t nconds, capconds;
        struct ios_wanted set;  /* its [Set], one setting per key (wanted.c) */
        /* a rule of a file with an error: holds its set[].key (values unused) on what it matches */
        bool hold;
        bool hold_every_key;    /* it names a setting that cannot be told: hold them all */
        size_t error;           /* index in the policy's errors */
};

struct ios_policy {
        struct ios_rule *rules;
        size_t nrules, caprules;        /* caprules: room in rules (amortized growth) */
        char **files;
        char **warnings;        /* "file:line: message", in reading order */
        size_t nwarnings, capwarnings;  /* for ios_strv_push_fast() */
        struct ios_error *errors;       /* files and directories skipped whole */
        size_t nerrors, caperrors;
        uint64_t drift_ms;
        bool needs_extra;
        bool hold_everything;   /* an error's holds_all: no disk is changed */
        size_t hold_error;      /* the first such error */
};

/* Fill err (if not NULL) with file, line and message; returns code. */
int ios_error_set(struct ios_error *err, const char *file, unsigned line, int code, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));
void ios_rule_done(struct ios_rule *r);
/* conf.c: one [Match] line into r (p->needs_extra set as needed); 0 or -errno with err set. */
int ios_conf_add_cond(struct ios_rule *r, const char *file, unsigned line, const char *key, char *val,
                      struct ios_policy *p, struct ios_error *err);
/* conf-values.c: cut a comment ("#" or ";" after a blank) off a value, and the blanks before it. */
void ios_conf_cut_comment(char *val);
/* conf-values.c: "4k", "100G" (binary units) -> bytes; -EINVAL, -ERANGE. */
int ios_conf_parse_size(const char *s, uint64_t *ret);
/* conf-values.c: split on blanks, "double quotes" keep blanks in one word; -EINVAL: unterminated quote. */
int ios_conf_split_words(const char *s, char ***ret);
/*
 * policy-hold.c: what the file name (text NULL: unreadable) that gave
 * p->errors[error] holds; appends hold rules to p, or sets holds_all.
 */
int ios_policy_hold(struct ios_policy *p, const char *name, const char *text, size_t error);

#endif
