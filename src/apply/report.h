/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.h: `iosched-apply report FILE...|-`: facts -J documents of many
 * hosts side by side, one table per disk model (report.c reads and groups
 * them, report-print.c prints the tables or -J).
 */
#ifndef APPLY_REPORT_H
#define APPLY_REPORT_H

#include "apply.h"

/* One host's disks of one model. */
struct report_row {
        char *host;
        size_t disks;
        char **classes, **wanted, **found;      /* distinct values, in order met */
        size_t drift;                   /* disks that differ from their policy */
        size_t validated, stale, against, never, unknown;
        char **verdicts;                /* "beaten 2026-11-27" per validated disk */
};
struct report_model {
        char *vendor, *model;           /* NULL: not known */
        struct report_row *rows;
        size_t n, cap;
};
/* One document read: its host and what it lacks of what the report shows. */
struct report_host {
        char *host, *file, *version;
        int schema;                     /* -1: none */
        char **lacks;                   /* "validation", "wanted_scheduler", ... */
};
struct report {
        struct report_model *m;
        size_t n, cap;
        struct report_host *h;
        size_t nh, caph;
};

/* Reads every file ("-": standard input, one or more documents), groups their disks; an exit status. */
int apply_report_read(struct apply_out *out, char **files, int n, struct report *r);
void apply_report_done(struct report *r);
void apply_report_text(FILE *f, const struct report *r);
void apply_report_json(FILE *f, struct apply_out *out, const struct report *r, int rc);
/* The verb: read, print; the exit status (0, 2 when a file could not be read). */
int apply_fleet_report(struct apply_out *out, char **files, int n, bool json);

#endif
