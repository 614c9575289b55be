/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run.c: apply, --dry-run, --check and --udev rendered from the run model
 * (model.c planned and wrote every disk): lines, the journal, JSON, or
 * prom.c's node_exporter textfile.  What it came to is the model's outcome
 * class; main.c maps it to the exit status.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

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

static void json_plan(FILE *f, const struct apply_run_opts *o, const struct apply_model *m,
                      const struct apply_disk *disk, bool first)
{
        const struct ios_plan *pl = &disk->plan;
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
                disk->changed ? "true" : "false", disk->compliant ? "true" : "false");
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
                fprintf(f, ", \"state\": \"%s\"", apply_change_state_name(c->state));
                if (c->msg) {
                        fprintf(f, ", \"message\": ");
                        ios_json_string(f, c->msg);
                }
                fputc('}', f);
        }
        fprintf(f, "%s]", pl->n ? "\n     " : "");
        apply_conflicts_json(f, o, pl);
        if (m->evidence)
                apply_evidence_json(f, disk);
        fputc('}', f);
}

/* The whole -J object of apply, --dry-run and --check (schema 1). */
static void json_run(FILE *f, const struct apply_run_opts *o, const struct apply_model *m, int exit)
{
        bool compliant = apply_errors_count(o->out) == 0 && m->disks_compliant;

        apply_json_header(o->out, f, NULL);
        fprintf(f, ", \"mode\": \"%s\",\n \"changed\": %s, \"compliant\": %s, \"exit\": %d,\n \"errors\": ",
                apply_mode_names[o->mode], m->changed ? "true" : "false", compliant ? "true" : "false", exit);
        apply_errors_json(o->out, f);
        fputs(",\n \"policy_errors\": ", f);
        apply_json_policy_errors(f, m->policy);
        fputs(", \"warnings\": ", f);
        apply_json_strv(f, ios_policy_warnings(m->policy));
        fputs(",\n \"devices\": [", f);
        for (size_t i = 0; i < m->n; i++)
                json_plan(f, o, m, &m->disks[i], i == 0);
        fprintf(f, "%s]}\n", m->n ? "\n  " : "");
}

/*
 * One disk, in the order planned: its read error, its failed settings (errors
 * of the run: a failed write or, planning, a value that cannot be set), and
 * its lines (text), its journal entries (--udev) or its notes (-J).
 */
static void render_disk(const struct apply_run_opts *o, struct apply_disk *d)
{
        struct ios_plan *pl = &d->plan;
        const char *name = d->dev->name;
        const char *cls = ios_class_to_string(d->dev->cls);
        bool unmatched;

        apply_model_disk_error(o->out, d, true);
        if (d->read_error)
                return;
        for (size_t k = 0; k < pl->n; k++) {
                const struct ios_change *c = &pl->c[k];
                enum apply_outcome oc;

                if (c->state != IOS_CHANGE_FAILED)
                        continue;
                oc = o->mode == APPLY_MODE_CHECK ? APPLY_FAILED : apply_outcome_of_errno(c->error);
                apply_error_add(o->out, NULL, 0, name, o->out->exit_of(oc), "%s: %s", c->key,
                                c->msg ? c->msg : "failed");
        }
        /* a disk named that no rule is about: said, not left to silence */
        unmatched = !o->all_disks && !o->udev && !pl->error && pl->n == 0 && pl->nheld == 0;
        if (unmatched && !o->quiet && !o->json && !o->prometheus)
                fprintf(stderr, "%s: %s: no rule matches (class %s)\n", o->prog, name, cls);
        if (unmatched && o->json)
                (void)ios_strv_pushf(&pl->notes, "no rule matches (class %s)", cls);
        /* -J: what a broken file holds on this disk (text says it in one line per file) */
        for (size_t h = 0; o->json && h < pl->nheld; h++)
                (void)ios_strv_pushf(&pl->notes, "%s held: %s has an error",
                                     streq(pl->held[h].key, "*") ? "every setting" : pl->held[h].key,
                                     pl->held[h].source);
        if (o->udev)
                log_plan_syslog(pl);
        else if (!o->json && !o->prometheus) {
                print_plan_lines(o, pl);
                /* --check and --dry-run: who else writes what the policy sets */
                if (o->mode != APPLY_MODE_APPLY && !o->quiet) {
                        _cleanup_(ios_strv_freep) char **w = apply_conflicts_lines(o, pl);

                        for (char **l = w; l && *l; l++)
                                fprintf(stderr, "%s: %s: note: other writer: %s\n", o->prog, name, *l);
                }
        }
}

int apply_run_render(const struct apply_view *v)
{
        const struct apply_run_opts *o = v->o;
        struct apply_model *m = v->m;

        for (size_t i = 0; i < m->n; i++)
                render_disk(o, &m->disks[i]);
        /* a broken file: file:line and the disks it holds */
        apply_policy_errors_report(o, m->policy, m);
        /* a rule that matches no disk is a rule that does nothing: said with --verbose (and by explain),
         * not on every unattended --check or --textfile run of a fleet-wide file */
        if (o->all_disks && !o->udev && !o->quiet && o->verbose) {
                _cleanup_(ios_strv_freep) char **unmatched = NULL;

                if (ios_policy_unmatched(m->policy, m->devs, m->ndevs, &unmatched) >= 0)
                        for (char **u = unmatched; u && *u; u++)
                                fprintf(stderr, "%s: note: %s: [Match] matches no disk\n", o->prog, *u);
        }
        /* --check: stale evidence, evidence against the policy said; the exit status stays the policy's */
        if (!o->json && !o->prometheus && !o->quiet)
                apply_evidence_say(o->prog, m);
        if (o->json)
                json_run(stdout, o, m, o->out->exit_of(m->outcome));
        else if (o->prometheus)
                apply_prom_run(stdout, o, m, o->out->exit_of(m->outcome));
        return m->outcome;
}

enum apply_outcome apply_run(const struct apply_run_opts *o, const struct ios_policy *p,
                             struct ios_device **devs, size_t n)
{
        struct apply_model m;
        int e;

        e = apply_model_build(&m, &(struct apply_model_opts){ .mode = o->mode, .base = o->base }, p, devs, n);
        if (e >= 0)
                e = apply_run_render(&(struct apply_view){ .o = o, .m = &m });
        apply_model_done(&m);
        if (e < 0)
                fprintf(stderr, "%s: out of memory\n", o->prog);
        return e < 0 ? APPLY_FAILED : (enum apply_outcome)e;
}
