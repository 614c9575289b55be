/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report-print.c: the fleet report (report.c) as text, one table per disk
 * model with one row per host, then what each older document lacks; or as
 * one -J object (schema/iosched-apply.schema.json, command "report").
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "report.h"
#include "strv.h"

static char *join(char * const *l)
{
        return l && *l ? ios_strv_join(l, ",") : strdup("-");
}

/* the EVIDENCE cell: the verdicts, how many stale and against the policy, never validated, unknown */
static char *evidence_cell(const struct report_row *w)
{
        char *s = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&s, &len);
        const char *sep = "";

        if (!f)
                return NULL;
        if (w->validated) {
                _cleanup_free_ char *v = ios_strv_join(w->verdicts, "; ");

                fprintf(f, "%s", v ? v : "");
                sep = ", ";
                if (w->stale)
                        fprintf(f, ", %zu stale", w->stale);
                if (w->against)
                        fprintf(f, ", %zu against the policy", w->against);
        }
        if (w->never) {
                fprintf(f, "%s%zu never validated", sep, w->never);
                sep = ", ";
        }
        if (w->unknown)
                fprintf(f, "%s%zu unknown (older facts)", sep, w->unknown);
        if (fclose(f) != 0) {
                free(s);
                return NULL;
        }
        return s;
}

static void model_name(FILE *f, const struct report_model *m)
{
        if (!m->vendor && !m->model)
                fputs("(no vendor or model)", f);
        else
                fprintf(f, "%s%s%s", m->vendor ? m->vendor : "", m->vendor && m->model ? " " : "",
                        m->model ? m->model : "");
}

enum { C_HOST, C_DISKS, C_CLASS, C_WANTED, C_FOUND, C_DRIFT, C_EVIDENCE, NCOLS };

static void print_model(FILE *f, const struct report_model *m)
{
        static const char * const head[NCOLS] = { "HOST",  "DISKS", "CLASS",   "WANTED",
                                                  "FOUND", "DRIFT", "EVIDENCE" };
        char *(*cells)[NCOLS] = calloc(m->n ? m->n : 1, sizeof(*cells));
        size_t w[NCOLS], disks = 0, drift = 0, validated = 0, against = 0, stale = 0;

        if (!cells)
                return;
        for (int c = 0; c < NCOLS; c++)
                w[c] = strlen(head[c]);
        for (size_t i = 0; i < m->n; i++) {
                const struct report_row *r = &m->rows[i];

                cells[i][C_HOST] = strdup(r->host);
                if (asprintf(&cells[i][C_DISKS], "%zu", r->disks) < 0)
                        cells[i][C_DISKS] = NULL;
                cells[i][C_CLASS] = join(r->classes);
                cells[i][C_WANTED] = join(r->wanted);
                cells[i][C_FOUND] = join(r->found);
                if (asprintf(&cells[i][C_DRIFT], "%zu", r->drift) < 0)
                        cells[i][C_DRIFT] = NULL;
                cells[i][C_EVIDENCE] = evidence_cell(r);
                for (int c = 0; c < NCOLS; c++)
                        if (cells[i][c] && strlen(cells[i][c]) > w[c])
                                w[c] = strlen(cells[i][c]);
                disks += r->disks;
                drift += r->drift;
                validated += r->validated;
                against += r->against;
                stale += r->stale;
        }
        model_name(f, m);
        fprintf(f,
                ": %zu host%s, %zu disk%s, %zu drifting, %zu validated (%zu stale, %zu against the policy)\n",
                m->n, m->n == 1 ? "" : "s", disks, disks == 1 ? "" : "s", drift, validated, stale, against);
        for (size_t i = 0; i <= m->n; i++) {
                fputs(" ", f);
                for (int c = 0; c < NCOLS; c++) {
                        const char *s = i == 0 ? head[c] : cells[i - 1][c] ? cells[i - 1][c] : "?";

                        if (c == NCOLS - 1)
                                fprintf(f, " %s\n", s);
                        else if (c == C_DISKS || c == C_DRIFT)
                                fprintf(f, " %*s", (int)w[c], s);
                        else
                                fprintf(f, " %-*s", (int)w[c], s);
                }
        }
        for (size_t i = 0; i < m->n; i++)
                for (int c = 0; c < NCOLS; c++)
                        free(cells[i][c]);
        free(cells);
}

void apply_report_text(FILE *f, const struct report *r)
{
        bool noted = false;

        for (size_t i = 0; i < r->n; i++) {
                if (i)
                        fputc('\n', f);
                print_model(f, &r->m[i]);
        }
        for (size_t i = 0; i < r->nh; i++) {
                const struct report_host *h = &r->h[i];
                _cleanup_free_ char *l = h->lacks ? ios_strv_join(h->lacks, ", ") : NULL;

                if (!h->lacks)
                        continue;
                if (!noted)
                        fputs("\nWhat documents lack (an older iosched-apply's facts;"
                              " shown as unknown or -):\n", f);
                noted = true;
                fprintf(f, "  %s (%s, iosched-apply %s, schema %d): no %s\n", h->host, h->file,
                        h->version ? h->version : "?", h->schema, l ? l : "?");
        }
}

static void json_row(FILE *f, const struct report_row *w)
{
        fputs("{\"host\": ", f);
        ios_json_string(f, w->host);
        fprintf(f, ", \"disks\": %zu, \"classes\": ", w->disks);
        apply_json_strv(f, w->classes);
        fputs(", \"wanted\": ", f);
        apply_json_strv(f, w->wanted);
        fputs(", \"found\": ", f);
        apply_json_strv(f, w->found);
        fprintf(f,
                ", \"drift\": %zu, \"validated\": %zu, \"stale\": %zu, \"against_policy\": %zu, "
                "\"never_validated\": %zu, \"unknown\": %zu, \"verdicts\": ",
                w->drift, w->validated, w->stale, w->against, w->never, w->unknown);
        apply_json_strv(f, w->verdicts);
        fputc('}', f);
}

void apply_report_json(FILE *f, struct apply_out *out, const struct report *r, int rc)
{
        apply_json_header(out, f, "report");
        fputs(",\n \"hosts\": [", f);
        for (size_t i = 0; i < r->nh; i++) {
                const struct report_host *h = &r->h[i];

                fprintf(f, "%s\n  {\"host\": ", i ? "," : "");
                ios_json_string(f, h->host);
                fputs(", \"file\": ", f);
                ios_json_string(f, h->file);
                fputs(", \"version\": ", f);
                ios_json_string(f, h->version);
                if (h->schema >= 0)
                        fprintf(f, ", \"schema\": %d", h->schema);
                else
                        fputs(", \"schema\": null", f);
                fputs(", \"lacks\": ", f);
                apply_json_strv(f, h->lacks);
                fputc('}', f);
        }
        fputs("],\n \"models\": [", f);
        for (size_t i = 0; i < r->n; i++) {
                const struct report_model *m = &r->m[i];

                fprintf(f, "%s\n  {\"vendor\": ", i ? "," : "");
                ios_json_string(f, m->vendor);
                fputs(", \"model\": ", f);
                ios_json_string(f, m->model);
                fputs(", \"rows\": [", f);
                for (size_t k = 0; k < m->n; k++) {
                        fputs(k ? ",\n    " : "\n    ", f);
                        json_row(f, &m->rows[k]);
                }
                fputs("]}", f);
        }
        fprintf(f, "],\n \"exit\": %d, \"errors\": ", rc);
        apply_errors_json(out, f);
        fputs("}\n", f);
}
