/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * status.c: `iosched-apply status`, one line per disk (NAME CLASS SCHED
 * WANTED STATE DRIFT CONFLICT) and the drift count, as a table, raw, or
 * the JSON contract (schema 1).  Read only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

enum { SC_NAME, SC_CLASS, SC_SCHED, SC_WANTED, SC_STATE, SC_DRIFT, SC_CONFLICT, _SC_MAX };

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

static const char *state_of(const struct ios_plan *pl)
{
        if (pl->error || ios_plan_count(pl, IOS_CHANGE_FAILED))
                return "error";
        if (ios_plan_count(pl, IOS_CHANGE_DRIFT))
                return "drift";
        if (pl->n == 0)
                return "unmanaged";
        return "ok";
}

static char *cell(const struct apply_run_opts *o, const struct ios_plan *pl, int col)
{
        const struct ios_device *d = pl->dev;
        const char *w;
        char *s = NULL;

        switch (col) {
        case SC_NAME: return strdup(d->name);
        case SC_CLASS: return strdup(ios_class_to_string(d->cls));
        case SC_SCHED: return d->sched_current ? strdup(d->sched_current) : NULL;
        case SC_WANTED: return (w = apply_plan_wanted_scheduler(pl)) ? strdup(w) : NULL;
        case SC_STATE: return strdup(state_of(pl));
        case SC_DRIFT: return asprintf(&s, "%zu", ios_plan_count(pl, IOS_CHANGE_DRIFT)) < 0 ? NULL : s;
        case SC_CONFLICT: return apply_conflicts_short(o, pl);
        }
        return NULL;
}

static void json_status_disk(FILE *f, const struct apply_run_opts *o, struct ios_plan *pl, bool first)
{
        const struct ios_device *d = pl->dev;

        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        ios_json_string(f, d->name);
        fputs(", \"class\": ", f);
        ios_json_string(f, ios_class_to_string(d->cls));
        fputs(", \"scheduler\": ", f);
        ios_json_string(f, d->sched_current);
        fputs(", \"wanted\": ", f);
        ios_json_string(f, apply_plan_wanted_scheduler(pl));
        fprintf(f, ", \"state\": \"%s\", \"drift\": %zu, \"compliant\": %s", state_of(pl),
                ios_plan_count(pl, IOS_CHANGE_DRIFT), apply_plan_compliant(pl) ? "true" : "false");
        apply_conflicts_json(f, o, pl);
        fputc('}', f);
}

static void json_status(FILE *f, const struct apply_run_opts *o, const struct ios_policy *p, struct ios_plan *pls,
                        size_t n, size_t drift, bool compliant, int exit)
{
        size_t nerr = 0;

        (void)ios_policy_errors(p, &nerr);
        apply_json_header(o->out, f, "status");
        fprintf(f, ", \"policy_ok\": %s, \"compliant\": %s, \"drift\": %zu, \"exit\": %d,\n \"errors\": ",
                nerr ? "false" : "true", compliant ? "true" : "false", drift, exit);
        apply_errors_json(o->out, f);
        fputs(",\n \"policy_errors\": ", f);
        apply_json_policy_errors(f, p);
        /* optical and floppy drives are listed apart: removable-media drives, not disks */
        for (int drives = 0; drives <= 1; drives++) {
                size_t k = 0;

                fputs(drives ? ",\n \"removable_media_drives\": [" : ",\n \"disks\": [", f);
                for (size_t i = 0; i < n; i++)
                        if (ios_class_is_media_drive(pls[i].dev->cls) == (drives == 1))
                                json_status_disk(f, o, &pls[i], k++ == 0);
                fprintf(f, "%s]", k ? "\n  " : "");
        }
        fputs("}\n", f);
}

int apply_status(const struct apply_run_opts *o, const struct apply_list_opts *lo, const char *columns,
                 const struct ios_policy *p, struct ios_device **devs, size_t n, int exit)
{
        int cols[APPLY_LIST_MAX_COLS];
        size_t ncols = 0, drift = 0, ndrift = 0, nerr = 0, nrows = 0;
        const char *bad = NULL, *headers[APPLY_LIST_MAX_COLS];
        bool right[APPLY_LIST_MAX_COLS], compliant;
        struct ios_plan *pls;
        char **cells = NULL;
        int e = 0;

        if (parse_columns(columns, cols, &ncols, &bad) < 0) {
                apply_err(o->out, 2, NULL, "unknown column: %.*s", (int)strcspn(bad, ","), bad);
                return 2;
        }
        pls = calloc(n ? n : 1, sizeof(*pls));
        if (!pls)
                return -ENOMEM;
        (void)ios_policy_errors(p, &nerr);
        compliant = nerr == 0;
        for (size_t i = 0; i < n; i++) {
                pls[i].dev = devs[i];
                if (lo->hide_empty && devs[i]->size == 0)
                        continue;
                e = ios_plan_build(p, devs[i], &pls[i]);
                pls[i].dev = devs[i];
                if (e < 0) {
                        pls[i].error = e;
                        apply_err(o->out, 2, devs[i]->name, "cannot read current settings: %s", strerror(-e));
                        exit = exit ? exit : 2;
                }
                drift += ios_plan_count(&pls[i], IOS_CHANGE_DRIFT);
                ndrift += ios_plan_count(&pls[i], IOS_CHANGE_DRIFT) > 0;
                compliant = compliant && apply_plan_compliant(&pls[i]);
                pls[nrows++] = pls[i];          /* the disks shown, in order */
                if (nrows - 1 != i)
                        pls[i] = (struct ios_plan){};
        }
        e = 0;
        if (o->json)
                json_status(stdout, o, p, pls, nrows, drift, compliant, exit);
        else {
                cells = calloc(nrows * ncols + 1, sizeof(char *));
                if (!cells) {
                        e = -ENOMEM;
                        goto out;
                }
                for (size_t c = 0; c < ncols; c++) {
                        headers[c] = scols[cols[c]].name;
                        right[c] = scols[cols[c]].right;
                }
                for (size_t i = 0; i < nrows; i++)
                        for (size_t c = 0; c < ncols; c++)
                                cells[i * ncols + c] = cell(o, &pls[i], cols[c]);
                e = apply_table_print(headers, right, ncols, cells, nrows, lo);
                if (e >= 0 && !lo->raw && !lo->noheadings) {
                        size_t ndrives = 0;

                        for (size_t i = 0; i < nrows; i++)
                                ndrives += ios_class_is_media_drive(pls[i].dev->cls);
                        printf("\n%zu disk%s", nrows - ndrives, nrows - ndrives == 1 ? "" : "s");
                        if (ndrives)
                                printf(", %zu removable-media drive%s", ndrives, ndrives == 1 ? "" : "s");
                        printf(", %zu setting%s drifting on %zu disk%s%s\n",
                               drift, drift == 1 ? "" : "s", ndrift, ndrift == 1 ? "" : "s",
                               nerr ? "; the policy has skipped files" : "");
                }
                for (size_t i = 0; i < nrows * ncols; i++)
                        free(cells[i]);
                free(cells);
        }
out:
        for (size_t i = 0; i < n; i++)
                ios_plan_done(&pls[i]);
        free(pls);
        return e < 0 ? e : exit;
}
