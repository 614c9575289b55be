/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * explain.c: `iosched-apply explain [DEVICE...]` for one, several or every
 * disk: the class with its evidence, the facts, the rule behind each
 * setting and the other writers of those settings, as text or as the JSON
 * contract (schema 1).  Read only.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

static const char *state_name(enum ios_change_state s)
{
        static const char * const n[] = {
                [IOS_CHANGE_OK] = "ok", [IOS_CHANGE_DRIFT] = "drift", [IOS_CHANGE_APPLIED] = "applied",
                [IOS_CHANGE_FAILED] = "failed", [IOS_CHANGE_SKIPPED] = "skipped",
                [IOS_CHANGE_NOT_APPLIED] = "not-applied",
        };
        return (size_t)s < ELEMENTSOF(n) ? n[s] : "?";
}

static void json_device(FILE *f, const struct apply_run_opts *o, const struct ios_plan *pl, bool first)
{
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
        fprintf(f, ",\n     \"compliant\": %s, \"error\": ", apply_plan_compliant(pl) ? "true" : "false");
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
                fprintf(f, ", \"state\": \"%s\"", state_name(c->state));
                if (c->msg) {
                        fputs(", \"message\": ", f);
                        ios_json_string(f, c->msg);
                }
                fputc('}', f);
        }
        fprintf(f, "%s]", pl->n ? "\n     " : "");
        apply_conflicts_json(f, o, pl);
        fputc('}', f);
}

int apply_explain(const struct apply_run_opts *o, const struct ios_policy *p, struct ios_device **devs, size_t n,
                  int exit)
{
        struct ios_plan *pls = calloc(n ? n : 1, sizeof(*pls));
        size_t nerr = 0;

        if (!pls)
                return -ENOMEM;
        (void)ios_policy_errors(p, &nerr);
        for (size_t i = 0; i < n; i++) {
                int e = ios_plan_build(p, devs[i], &pls[i]);

                pls[i].dev = devs[i];
                if (e < 0) {
                        pls[i].error = e;
                        if (asprintf(&pls[i].error_msg, "cannot read current settings: %s", strerror(-e)) < 0)
                                pls[i].error_msg = NULL;
                        apply_err(o->out, 2, devs[i]->name, "cannot read current settings: %s", strerror(-e));
                        exit = exit ? exit : 2;
                }
        }
        if (o->json) {
                apply_json_header(o->out, stdout, "explain");
                fprintf(stdout, ", \"policy_ok\": %s, \"exit\": %d,\n \"errors\": ", nerr ? "false" : "true", exit);
                apply_errors_json(o->out, stdout);
                fputs(",\n \"policy_errors\": ", stdout);
                apply_json_policy_errors(stdout, p);
                fputs(", \"warnings\": ", stdout);
                apply_json_strv(stdout, ios_policy_warnings(p));
                fputs(",\n \"devices\": [", stdout);
                for (size_t i = 0; i < n; i++)
                        json_device(stdout, o, &pls[i], i == 0);
                printf("%s]}\n", n ? "\n  " : "");
        } else {
                /* model, serial, evidence: the disk's own strings, escaped (textsafe.c) */
                struct apply_text t;

                if (apply_text_begin(&t) < 0) {
                        for (size_t i = 0; i < n; i++)
                                ios_plan_done(&pls[i]);
                        free(pls);
                        return -ENOMEM;
                }
                for (size_t i = 0; i < n; i++) {
                        _cleanup_(ios_strv_freep) char **w = NULL;

                        if (i)
                                fputc('\n', t.f);
                        apply_list_explain(t.f, devs[i]);
                        if (pls[i].error)
                                continue;
                        apply_explain_plan(t.f, &pls[i]);
                        w = apply_conflicts_lines(o, &pls[i]);
                        if (w)
                                fputs("  other writers:\n", t.f);
                        for (char **l = w; l && *l; l++)
                                fprintf(t.f, "    - %s\n", *l);
                }
                if (apply_text_end(&t, stdout) < 0)
                        exit = exit ? exit : 2;
        }
        for (size_t i = 0; i < n; i++)
                ios_plan_done(&pls[i]);
        free(pls);
        return exit;
}
