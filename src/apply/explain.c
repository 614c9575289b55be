/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.c: `iosched-apply explain [DEVICE...]` for one, several or every
 * disk: the class with its evidence, the facts, the rule behind each
 * setting (the scheduler's with its validation evidence: evidence-view.c)
 * and the other writers of those settings, as text or as the JSON
 * contract (schema 1): a renderer of the run model (model.c).  Read only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

static void json_device(FILE *f, const struct apply_run_opts *o, const struct apply_disk *disk, bool first)
{
        const struct ios_plan *pl = &disk->plan;
        const struct ios_device *d = pl->dev;

        fprintf(f, "%s\n    {", first ? "" : ",");
        apply_json_disk_facts(f, d);
        fputs(",\n     \"syspath\": ", f);
        ios_json_string(f, d->syspath);
        fputs(", \"serial\": ", f);
        ios_json_string(f, d->serial);
        fputs(", \"wwn\": ", f);
        ios_json_string(f, d->wwn);
        fputs(", \"zoned\": ", f);
        ios_json_string(f, ios_zoned_to_string(d->zoned));
        fputs(", \"hctl\": ", f);
        ios_json_string(f, d->hctl);
        fputs(", \"subtype\": ", f);
        ios_json_string(f, d->subtype);
        fprintf(f, ", \"blk_mq\": %s, \"hw_queues\": %u", d->blk_mq ? "true" : "false", d->nr_hw_queues);
        fprintf(f, ",\n     \"compliant\": %s, \"error\": ", disk->compliant ? "true" : "false");
        ios_json_string(f, pl->error_msg);
        fputs(", \"notes\": ", f);
        apply_json_strv(f, pl->notes);
        fputs(",\n     \"settings\": [", f);
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                fprintf(f, "%s\n       {\"key\": ", i ? "," : "");
                ios_json_string(f, c->key);
                fputs(", \"before\": ", f);
                ios_json_string(f, c->current);
                fputs(", \"wanted\": ", f);
                ios_json_string(f, c->wanted);
                fputs(", \"after\": null, \"source\": ", f);
                ios_json_string(f, c->source);
                fprintf(f, ", \"state\": \"%s\"", apply_change_state_name(c->state));
                if (c->msg) {
                        fputs(", \"message\": ", f);
                        ios_json_string(f, c->msg);
                }
                fputc('}', f);
        }
        fprintf(f, "%s]", pl->n ? "\n     " : "");
        apply_conflicts_json(f, o, pl);
        apply_evidence_json(f, disk);
        fputc('}', f);
}

/* The disk's validation evidence and its warnings, at indent (evidence-view.c). */
static void text_evidence(FILE *out, const struct apply_disk *d, const char *indent)
{
        _cleanup_(ios_strv_freep) char **w = apply_evidence_warnings(d);

        if (!d->ev_error) {
                fputs(indent, out);
                apply_evidence_line(out, d);
                fputc('\n', out);
        }
        for (char **l = w; l && *l; l++) {
                fputs(indent, out);
                apply_write_field(out, *l);
                fputc('\n', out);
        }
}

/*
 * The second half of a disk's text: every key the policy sets, its source
 * and state, and under the scheduler's rule the evidence about it.
 */
static void text_plan(FILE *out, const struct apply_disk *d)
{
        const struct ios_plan *pl = &d->plan;
        bool shown = false;

        fputs("  policy:\n", out);
        if (pl->n == 0 && pl->nheld == 0)
                fputs("    (no rule sets anything: left as the kernel chose)\n", out);
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                fprintf(out, "    %s = %s  (%s)  [%s%s%s]\n", c->key, c->wanted, c->source,
                        apply_change_state_name(c->state), c->current ? ", now " : "",
                        c->current ? c->current : "");
                if (c->msg)
                        fprintf(out, "      %s\n", c->msg);
                if (c->source && c->wanted && d->wanted_source == c->source && !shown) {
                        text_evidence(out, d, "      ");
                        shown = true;
                }
        }
        for (size_t i = 0; i < pl->nheld; i++)
                fprintf(out, "    %s: held (%s has an error): left as it is\n",
                        streq(pl->held[i].key, "*") ? "every setting" : pl->held[i].key, pl->held[i].source);
        for (char **n = pl->notes; n && *n; n++)
                fprintf(out, "    note: %s\n", *n);
        /* validated while the policy set no scheduler (or another rule): still shown */
        if (!shown && (d->ev.last || d->ev_error)) {
                fputs("  validation:\n", out);
                text_evidence(out, d, "    ");
        }
}

static void json_explain(FILE *f, const struct apply_run_opts *o, const struct apply_model *m, int exit)
{
        apply_json_header(o->out, f, "explain");
        fprintf(f, ", \"policy_ok\": %s, \"exit\": %d,\n \"errors\": ", m->policy_errors ? "false" : "true",
                exit);
        apply_errors_json(o->out, f);
        fputs(",\n \"policy_errors\": ", f);
        apply_json_policy_errors(f, m->policy);
        fputs(", \"warnings\": ", f);
        apply_json_strv(f, ios_policy_warnings(m->policy));
        fputs(",\n \"devices\": [", f);
        for (size_t i = 0; i < m->n; i++)
                json_device(f, o, &m->disks[i], i == 0);
        fprintf(f, "%s]}\n", m->n ? "\n  " : "");
}

static void text_explain(FILE *f, const struct apply_run_opts *o, const struct apply_model *m)
{
        for (size_t i = 0; i < m->n; i++) {
                const struct apply_disk *d = &m->disks[i];
                _cleanup_(ios_strv_freep) char **w = NULL;

                if (i)
                        fputc('\n', f);
                apply_list_explain(f, d->dev);
                if (d->read_error)
                        continue;
                text_plan(f, d);
                w = apply_conflicts_lines(o, &d->plan);
                if (w)
                        fputs("  other writers:\n", f);
                for (char **l = w; l && *l; l++)
                        fprintf(f, "    - %s\n", *l);
        }
        /* a rule that matches none of the disks (all of them looked at): a rule that does nothing */
        if (o->all_disks) {
                _cleanup_(ios_strv_freep) char **unmatched = NULL;

                if (ios_policy_unmatched(m->policy, m->devs, m->ndevs, &unmatched) >= 0)
                        for (char **u = unmatched; u && *u; u++)
                                fprintf(f, "%snote: %s: [Match] matches no disk\n",
                                        u == unmatched ? "\n" : "", *u);
        }
}

int apply_explain_render(const struct apply_view *v)
{
        const struct apply_run_opts *o = v->o;
        const struct apply_model *m = v->m;
        struct apply_text t;

        apply_model_disk_errors(o->out, m, true);
        if (o->json) {
                json_explain(stdout, o, m, o->out->exit_of(m->outcome));
                return m->outcome;
        }
        /* model, serial, evidence: the disk's own strings, escaped (textsafe.c) */
        if (apply_text_begin(&t) < 0)
                return -ENOMEM;
        text_explain(t.f, o, m);
        if (apply_text_end(&t, stdout) < 0)
                return apply_outcome_worse(m->outcome, APPLY_FAILED);
        return m->outcome;
}
