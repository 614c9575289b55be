/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status.c: `iosched-apply status`, one line per disk (NAME CLASS SCHED
 * WANTED STATE DRIFT CONFLICT VALIDATED) and the drift count, as a table, raw, or
 * the JSON contract (schema 1): a renderer of the run model (model.c).
 * Read only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

enum { SC_NAME, SC_CLASS, SC_SCHED, SC_WANTED, SC_STATE, SC_DRIFT, SC_CONFLICT, SC_VALIDATED, _SC_MAX };

static const struct {
        const char *name;
        bool right;
        const char *help;
} scols[_SC_MAX] = {
        [SC_NAME] = { "NAME", false, "kernel device name" },
        [SC_CLASS] = { "CLASS", false, "iosched device class" },
        [SC_SCHED] = { "SCHED", false, "active I/O scheduler" },
        [SC_WANTED] = { "WANTED", false, "the scheduler the policy wants (empty: it sets none)" },
        [SC_STATE] = { "STATE", false, "ok, drift, error or unmanaged (the policy sets nothing)" },
        [SC_DRIFT] = { "DRIFT", true, "settings that differ from the policy" },
        [SC_CONFLICT] = { "CONFLICT", false, "other writers of what the policy sets (TuneD, udev, elevator=)" },
        [SC_VALIDATED] = { "VALIDATED", false,
                           "date of the last validation (-: never), \",stale\", \",against\" the policy" },
};

void apply_status_help_columns(FILE *out)
{
        fputs("\nColumns of status:\n", out);
        for (int i = 0; i < _SC_MAX; i++)
                fprintf(out, " %11s  %s\n", scols[i].name, scols[i].help);
}

/* "NAME,STATE", or "+CONFLICT" appended to the default (every column). */
static int parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad)
{
        size_t n = 0;

        if (!arg || *arg == '+') {
                for (int i = 0; i < _SC_MAX; i++)
                        cols[n++] = i;
                if (!arg) {
                        *ncols = n;
                        return 0;
                }
                arg++;
        }
        while (*arg) {
                size_t l = strcspn(arg, ",");
                int c = -1;

                for (int i = 0; i < _SC_MAX; i++)
                        if (strlen(scols[i].name) == l && strncasecmp(scols[i].name, arg, l) == 0)
                                c = i;
                if (c < 0 || n >= APPLY_LIST_MAX_COLS) {
                        *bad = arg;
                        return -EINVAL;
                }
                cols[n++] = c;
                arg += l;
                if (*arg == ',')
                        arg++;
        }
        *ncols = n;
        return 0;
}

static const char *state_of(const struct apply_disk *d)
{
        const struct ios_plan *pl = &d->plan;

        if (pl->error || ios_plan_count(pl, IOS_CHANGE_FAILED))
                return "error";
        if (ios_plan_count(pl, IOS_CHANGE_DRIFT))
                return "drift";
        if (pl->n == 0)
                return "unmanaged";
        return "ok";
}

static char *cell(const struct apply_run_opts *o, const struct apply_disk *disk, int col)
{
        const struct ios_device *d = disk->dev;
        char *s = NULL;

        switch (col) {
        case SC_NAME: return strdup(d->name);
        case SC_CLASS: return strdup(ios_class_to_string(d->cls));
        case SC_SCHED: return d->sched_current ? strdup(d->sched_current) : NULL;
        case SC_WANTED: return disk->wanted ? strdup(disk->wanted) : NULL;
        case SC_STATE: return strdup(state_of(disk));
        case SC_DRIFT: return asprintf(&s, "%zu", disk->drift) < 0 ? NULL : s;
        case SC_CONFLICT: return apply_conflicts_short(o, &disk->plan);
        case SC_VALIDATED: return apply_evidence_cell(disk);
        }
        return NULL;
}

static void json_status_disk(FILE *f, const struct apply_run_opts *o, const struct apply_disk *disk,
                             bool first)
{
        const struct ios_device *d = disk->dev;

        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        ios_json_string(f, d->name);
        fputs(", \"class\": ", f);
        ios_json_string(f, ios_class_to_string(d->cls));
        fputs(", \"scheduler\": ", f);
        ios_json_string(f, d->sched_current);
        fputs(", \"wanted\": ", f);
        ios_json_string(f, disk->wanted);
        fprintf(f, ", \"state\": \"%s\", \"drift\": %zu, \"compliant\": %s", state_of(disk), disk->drift,
                disk->compliant ? "true" : "false");
        apply_conflicts_json(f, o, &disk->plan);
        apply_evidence_json(f, disk);
        fputc('}', f);
}

static void json_status(FILE *f, const struct apply_run_opts *o, const struct apply_model *m, int exit)
{
        apply_json_header(o->out, f, "status");
        fprintf(f, ", \"policy_ok\": %s, \"compliant\": %s, \"drift\": %zu, \"exit\": %d,\n \"errors\": ",
                m->policy_errors ? "false" : "true", m->compliant ? "true" : "false", m->drift, exit);
        apply_errors_json(o->out, f);
        fputs(",\n \"policy_errors\": ", f);
        apply_json_policy_errors(f, m->policy);
        /* optical and floppy drives are listed apart: removable-media drives, not disks */
        for (int drives = 0; drives <= 1; drives++) {
                size_t k = 0;

                fputs(drives ? ",\n \"removable_media_drives\": [" : ",\n \"disks\": [", f);
                for (size_t i = 0; i < m->n; i++)
                        if (ios_class_is_media_drive(m->disks[i].dev->cls) == (drives == 1))
                                json_status_disk(f, o, &m->disks[i], k++ == 0);
                fprintf(f, "%s]", k ? "\n  " : "");
        }
        fputs("}\n", f);
}

/* The table, and below it the counts; -errno when it cannot be printed. */
static int text_status(const struct apply_view *v, const int *cols, size_t ncols)
{
        const struct apply_model *m = v->m;
        const struct apply_list_opts *lo = v->lo;
        const char *headers[APPLY_LIST_MAX_COLS];
        bool right[APPLY_LIST_MAX_COLS];
        char **cells = calloc(m->n * ncols + 1, sizeof(char *));
        size_t nrows = m->n, ndisks = m->n - m->ndrives;
        int e;

        if (!cells)
                return -ENOMEM;
        for (size_t c = 0; c < ncols; c++) {
                headers[c] = scols[cols[c]].name;
                right[c] = scols[cols[c]].right;
        }
        for (size_t i = 0; i < nrows; i++)
                for (size_t c = 0; c < ncols; c++)
                        cells[i * ncols + c] = cell(v->o, &m->disks[i], cols[c]);
        e = apply_table_print(headers, right, ncols, cells, nrows, lo);
        if (e >= 0 && !lo->raw && !lo->noheadings) {
                printf("\n%zu disk%s", ndisks, ndisks == 1 ? "" : "s");
                if (m->ndrives)
                        printf(", %zu removable-media drive%s", m->ndrives, m->ndrives == 1 ? "" : "s");
                printf(", %zu setting%s drifting on %zu disk%s%s\n", m->drift, m->drift == 1 ? "" : "s",
                       m->ndrift, m->ndrift == 1 ? "" : "s",
                       m->policy_errors ? "; the policy has skipped files" : "");
        }
        for (size_t i = 0; i < nrows * ncols; i++)
                free(cells[i]);
        free(cells);
        return e < 0 ? e : 0;
}

int apply_status_render(const struct apply_view *v)
{
        const struct apply_run_opts *o = v->o;
        int cols[APPLY_LIST_MAX_COLS];
        const char *bad = NULL;
        size_t ncols = 0;
        int e;

        if (parse_columns(v->columns, cols, &ncols, &bad) < 0) {
                apply_err(o->out, o->out->exit_of(APPLY_FAILED), NULL, "unknown column: %.*s",
                          (int)strcspn(bad, ","), bad);
                return APPLY_FAILED;
        }
        apply_model_disk_errors(o->out, v->m, true);
        if (o->json) {
                json_status(stdout, o, v->m, o->out->exit_of(v->m->outcome));
                return v->m->outcome;
        }
        e = text_status(v, cols, ncols);
        /* stale evidence, evidence against the policy: said, the outcome the policy's */
        if (e >= 0)
                apply_evidence_say(o->prog, v->m);
        return e < 0 ? e : (int)v->m->outcome;
}
