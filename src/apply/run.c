/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run.c: apply, --dry-run, --check and --udev over a set of disks, and the
 * three ways of reporting it (lines, JSON, and prom.c's node_exporter textfile).  What it
 * came to is an outcome class; main.c maps it to the exit status.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

const char * const apply_mode_names[] = { "apply", "dry-run", "check" };

static const char *state_name(enum ios_change_state s)
{
        switch (s) {
        case IOS_CHANGE_OK: return "ok";
        case IOS_CHANGE_DRIFT: return "drift";
        case IOS_CHANGE_APPLIED: return "applied";
        case IOS_CHANGE_FAILED: return "failed";
        case IOS_CHANGE_SKIPPED: return "skipped";
        case IOS_CHANGE_NOT_APPLIED: return "not-applied";
        }
        return "?";
}

enum apply_outcome apply_outcome_of_errno(int e)
{
        switch (ios_errno_class(e)) {
        case IOS_ERRNO_OK: return APPLY_OK;
        case IOS_ERRNO_REFUSED: return APPLY_REFUSED;
        case IOS_ERRNO_GONE: return APPLY_VANISHED;
        case IOS_ERRNO_READONLY: return APPLY_READONLY;
        default: return APPLY_FAILED;
        }
}

/* One value of a check line: said when unknown, quoted when it has blanks ("write back"). */
static const char *word(const char *v, char *buf, size_t n)
{
        if (!v)
                return "(not known until the scheduler switch)";
        if (!strpbrk(v, " \t"))
                return v;
        snprintf(buf, n, "\"%s\"", v);
        return buf;
}

/*
 * One line of text output, control characters escaped (textsafe.c): values
 * and sources come from sysfs and file names.  A line says what was done, so
 * it does not depend on memory: it is formatted on the stack, and only a line
 * longer than that buffer is allocated (cut to the buffer if that fails).
 */
static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...)
{
        _cleanup_free_ char *line = NULL;
        char buf[2048];
        va_list ap;
        int n;

        va_start(ap, fmt);
        n = vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        if (n < 0)
                return;
        if ((size_t)n < sizeof(buf)) {
                apply_write_safe(f, buf, (size_t)n);
                return;
        }
        line = malloc((size_t)n + 1);
        if (line) {
                va_start(ap, fmt);
                n = vsnprintf(line, (size_t)n + 1, fmt, ap);
                va_end(ap);
        }
        if (line && n >= 0) {
                apply_write_safe(f, line, (size_t)n);
        } else {
                /* out of memory: the line cut to the buffer, its start kept */
                apply_write_safe(f, buf, strlen(buf));
                apply_write_safe(f, "...\n", 4);
        }
}

static void print_plan_lines(const struct apply_run_opts *o, const struct ios_plan *pl)
{
        const char *dev = pl->dev->name;
        char cq[128], wq[128], line[1024];

        for (char **n = pl->notes; !o->quiet && n && *n; n++)
                say(stderr, "%s: %s: note: %s\n", o->prog, dev, *n);
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                switch (c->state) {
                case IOS_CHANGE_DRIFT:
                        /* only --check and --dry-run leave a change in DRIFT */
                        if (o->mode == APPLY_MODE_CHECK)
                                say(stdout, "%s: %s %s, want %s: drift\n", dev, c->key,
                                    word(c->current, cq, sizeof(cq)), word(c->wanted, wq, sizeof(wq)));
                        else
                                say(stdout, "%s: would set %s\n", dev, ios_change_line(c, line, sizeof(line)));
                        break;
                case IOS_CHANGE_APPLIED:
                        if (!o->quiet)
                                say(stdout, "%s: %s\n", dev, ios_change_line(c, line, sizeof(line)));
                        break;
                case IOS_CHANGE_FAILED:
                        say(stderr, "%s: %s: %s (%s)\n", o->prog, dev, c->msg ? c->msg : "failed",
                                c->source ? c->source : "-");
                        break;
                case IOS_CHANGE_NOT_APPLIED:
                        if (!o->quiet)
                                say(stderr, "%s: %s: %s: %s\n", o->prog, dev, c->key,
                                        c->msg ? c->msg : "not applied");
                        break;
                case IOS_CHANGE_SKIPPED:
                        if (o->verbose)
                                say(stderr, "%s: %s: %s: %s\n", o->prog, dev, c->key, c->msg ? c->msg : "skipped");
                        break;
                case IOS_CHANGE_OK:
                        if (o->verbose)
                                say(stdout, "%s: %s = %s (%s)\n", dev, c->key, c->wanted, c->source);
                        break;
                }
        }
}

/* udev: the journal gets each change and each failure once, nothing else. */
static void log_plan_syslog(const struct ios_plan *pl)
{
        for (char **n = pl->notes; n && *n; n++)
                apply_log(LOG_NOTICE, "%s: %s", pl->dev->name, *n);
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                char line[1024];

                if (c->state == IOS_CHANGE_APPLIED)
                        apply_log(LOG_INFO, "%s: %s", pl->dev->name, ios_change_line(c, line, sizeof(line)));
                else if (c->state == IOS_CHANGE_FAILED)
                        apply_log(LOG_ERR, "%s: %s (%s)", pl->dev->name, c->msg ? c->msg : "failed",
                               c->source ? c->source : "-");
        }
}

bool apply_plan_compliant(const struct ios_plan *pl)
{
        return !pl->error && !ios_plan_count(pl, IOS_CHANGE_DRIFT) && !ios_plan_count(pl, IOS_CHANGE_FAILED) &&
               !ios_plan_count(pl, IOS_CHANGE_NOT_APPLIED);
}

/* apply: something was written; --dry-run/--check: something would be */
static bool plan_changed(const struct ios_plan *pl, enum apply_mode m)
{
        return ios_plan_count(pl, m == APPLY_MODE_APPLY ? IOS_CHANGE_APPLIED : IOS_CHANGE_DRIFT) > 0;
}

static void json_plan(FILE *f, const struct apply_run_opts *o, const struct ios_plan *pl, bool first)
{
        const struct ios_device *d = pl->dev;

        fprintf(f, "%s\n    {\"name\": ", first ? "" : ",");
        ios_json_string(f, d->name);
        fprintf(f, ", \"class\": ");
        ios_json_string(f, ios_class_to_string(d->cls));
        fprintf(f, ", \"scheduler\": ");
        ios_json_string(f, d->sched_current);
        fprintf(f, ", \"available\": ");
        apply_json_strv(f, d->sched_current ? d->sched_avail : NULL);
        fprintf(f, ",\n     \"changed\": %s, \"compliant\": %s, \"error\": ",
                plan_changed(pl, o->mode) ? "true" : "false", apply_plan_compliant(pl) ? "true" : "false");
        ios_json_string(f, pl->error_msg);
        fprintf(f, ",\n     \"notes\": ");
        apply_json_strv(f, pl->notes);
        fprintf(f, ",\n     \"settings\": [");
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                fprintf(f, "%s\n       {\"key\": ", i ? "," : "");
                ios_json_string(f, c->key);
                fprintf(f, ", \"before\": ");
                ios_json_string(f, c->current);
                fprintf(f, ", \"wanted\": ");
                ios_json_string(f, c->wanted);
                fprintf(f, ", \"after\": ");
                ios_json_string(f, c->after);
                fprintf(f, ", \"source\": ");
                ios_json_string(f, c->source);
                fprintf(f, ", \"state\": \"%s\"", state_name(c->state));
                if (c->msg) {
                        fprintf(f, ", \"message\": ");
                        ios_json_string(f, c->msg);
                }
                fputc('}', f);
        }
        fprintf(f, "%s]", pl->n ? "\n     " : "");
        apply_conflicts_json(f, o, pl);
        fputc('}', f);
}

/* The whole -J object of apply, --dry-run and --check (schema 1). */
static void json_run(FILE *f, const struct apply_run_opts *o, const struct ios_policy *p, struct ios_plan *pls,
                     size_t n, int exit)
{
        bool changed = false, compliant = apply_errors_count(o->out) == 0;

        for (size_t i = 0; i < n; i++) {
                changed = changed || plan_changed(&pls[i], o->mode);
                compliant = compliant && apply_plan_compliant(&pls[i]);
        }
        apply_json_header(o->out, f, NULL);
        fprintf(f, ", \"mode\": \"%s\",\n \"changed\": %s, \"compliant\": %s, \"exit\": %d,\n \"errors\": ",
                apply_mode_names[o->mode], changed ? "true" : "false", compliant ? "true" : "false", exit);
        apply_errors_json(o->out, f);
        fputs(",\n \"policy_errors\": ", f);
        apply_json_policy_errors(f, p);
        fputs(", \"warnings\": ", f);
        apply_json_strv(f, ios_policy_warnings(p));
        fputs(",\n \"devices\": [", f);
        for (size_t i = 0; i < n; i++)
                json_plan(f, o, &pls[i], i == 0);
        fprintf(f, "%s]}\n", n ? "\n  " : "");
}

enum apply_outcome apply_run(const struct apply_run_opts *o, const struct ios_policy *p,
                             struct ios_device **devs, size_t n)
{
        enum apply_outcome rc = APPLY_OK, x;
        struct ios_plan *pls;

        pls = calloc(n ? n : 1, sizeof(*pls));
        if (!pls) {
                fprintf(stderr, "%s: out of memory\n", o->prog);
                return APPLY_FAILED;
        }
        for (size_t i = 0; i < n; i++) {
                int e = ios_plan_build(p, devs[i], &pls[i]);

                pls[i].dev = devs[i];
                if (e < 0) {
                        x = o->mode == APPLY_MODE_CHECK ? APPLY_FAILED : apply_outcome_of_errno(e);
                        rc = apply_outcome_worse(x, rc);
                        pls[i].error = e;
                        if (asprintf(&pls[i].error_msg, "cannot read current settings: %s", strerror(-e)) < 0)
                                pls[i].error_msg = NULL;
                        apply_err(o->out, o->exit_of ? o->exit_of(x) : 2, devs[i]->name,
                                  "cannot read current settings: %s", strerror(-e));
                        continue;
                }
                if (o->mode == APPLY_MODE_APPLY)
                        (void)ios_plan_apply(&pls[i]);
                else
                        for (size_t k = 0; k < pls[i].n; k++)
                                if (pls[i].c[k].state == IOS_CHANGE_FAILED && !pls[i].error) {
                                        pls[i].error = pls[i].c[k].error;
                                        pls[i].error_msg = pls[i].c[k].msg ? strdup(pls[i].c[k].msg) : NULL;
                                }

                if (o->mode == APPLY_MODE_CHECK) {
                        x = pls[i].error ? APPLY_FAILED :
                            ios_plan_count(&pls[i], IOS_CHANGE_DRIFT) ? APPLY_DRIFT : APPLY_OK;
                } else
                        x = apply_outcome_of_errno(pls[i].error);
                rc = apply_outcome_worse(x, rc);
                /* a failed write (or, planning, a value that cannot be set) is an error of the run */
                for (size_t k = 0; k < pls[i].n; k++)
                        if (pls[i].c[k].state == IOS_CHANGE_FAILED)
                                apply_error_add(o->out, NULL, 0, devs[i]->name,
                                                o->exit_of ? o->exit_of(o->mode == APPLY_MODE_CHECK ? APPLY_FAILED :
                                                                        apply_outcome_of_errno(pls[i].c[k].error)) : 2,
                                                "%s: %s", pls[i].c[k].key, pls[i].c[k].msg ? pls[i].c[k].msg : "failed");

                /* a disk named that no rule is about: said, not left to silence */
                bool unmatched = !o->all_disks && !o->udev && !pls[i].error && pls[i].n == 0 && pls[i].nheld == 0;

                if (unmatched && !o->quiet && !o->json && !o->prometheus)
                        fprintf(stderr, "%s: %s: no rule matches (class %s)\n", o->prog, devs[i]->name,
                                ios_class_to_string(devs[i]->cls));
                if (unmatched && o->json)
                        (void)ios_strv_pushf(&pls[i].notes, "no rule matches (class %s)",
                                             ios_class_to_string(devs[i]->cls));
                /* -J: what a broken file holds on this disk (text says it in one line per file) */
                for (size_t h = 0; o->json && h < pls[i].nheld; h++)
                        (void)ios_strv_pushf(&pls[i].notes, "%s held: %s has an error",
                                             streq(pls[i].held[h].key, "*") ? "every setting" : pls[i].held[h].key,
                                             pls[i].held[h].source);
                if (o->udev)
                        log_plan_syslog(&pls[i]);
                else if (!o->json && !o->prometheus) {
                        print_plan_lines(o, &pls[i]);
                        /* --check and --dry-run: who else writes what the policy sets */
                        if (o->mode != APPLY_MODE_APPLY && !o->quiet) {
                                _cleanup_(ios_strv_freep) char **w = apply_conflicts_lines(o, &pls[i]);

                                for (char **l = w; l && *l; l++)
                                        fprintf(stderr, "%s: %s: note: other writer: %s\n", o->prog, devs[i]->name, *l);
                        }
                }
        }
        /* a broken file: file:line and the disks it holds */
        apply_policy_errors_report(o, p, pls, n);
        /* a rule that matches no disk is a rule that does nothing: say so when asked */
        if (o->all_disks && !o->udev && !o->quiet && (o->verbose || o->mode != APPLY_MODE_APPLY)) {
                _cleanup_(ios_strv_freep) char **unmatched = NULL;

                if (ios_policy_unmatched(p, devs, n, &unmatched) >= 0)
                        for (char **u = unmatched; u && *u; u++)
                                fprintf(stderr, "%s: note: %s: [Match] matches no disk\n", o->prog, *u);
        }
        rc = apply_outcome_worse(rc, o->base);
        if (o->json)
                json_run(stdout, o, p, pls, n, o->exit_of ? o->exit_of(rc) : (int)rc);
        else if (o->prometheus)
                apply_prom_run(stdout, o, p, pls, n, o->exit_of ? o->exit_of(rc) : (int)rc);

        for (size_t i = 0; i < n; i++)
                ios_plan_done(&pls[i]);
        free(pls);
        return rc;
}

/* explain, second half: every key the policy sets, its source and state. */
void apply_explain_plan(FILE *out, const struct ios_plan *pl)
{
        fputs("  policy:\n", out);
        if (pl->n == 0 && pl->nheld == 0)
                fputs("    (no rule sets anything: left as the kernel chose)\n", out);
        for (size_t i = 0; i < pl->n; i++) {
                const struct ios_change *c = &pl->c[i];

                fprintf(out, "    %s = %s  (%s)  [%s%s%s]\n", c->key, c->wanted, c->source,
                        state_name(c->state), c->current ? ", now " : "", c->current ? c->current : "");
                if (c->msg)
                        fprintf(out, "      %s\n", c->msg);
        }
        for (size_t i = 0; i < pl->nheld; i++)
                fprintf(out, "    %s: held (%s has an error): left as it is\n",
                        streq(pl->held[i].key, "*") ? "every setting" : pl->held[i].key, pl->held[i].source);
        for (char **n = pl->notes; n && *n; n++)
                fprintf(out, "    note: %s\n", *n);
}
