/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * model.c: the run model.  Every disk is planned here, once (and written,
 * when the run applies), and what it came to is recorded in one structure
 * (struct apply_model): per disk its class and evidence (the device), the
 * plan with each setting's before, wanted, after and state, what a broken
 * policy file holds on it, its drift, whether it complies, its outcome
 * class, and, for the views (explain, status, facts, --check, prometheus),
 * its validation evidence, read here once.  apply, --dry-run, --check,
 * --format prometheus, explain, status and facts only render it (run.c,
 * prom.c, explain.c, status.c, facts.c, evidence-view.c); main.c
 * turns the outcome into the exit status (struct apply_out's exit_of).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

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

const char *apply_change_state_name(enum ios_change_state s)
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

/* The plan's setting of the scheduler for the disk, or NULL when the policy sets none. */
static const struct ios_change *scheduler_change(const struct ios_plan *pl)
{
        for (size_t i = 0; i < pl->n; i++)
                if (streq(pl->c[i].key, "scheduler") && pl->c[i].state != IOS_CHANGE_SKIPPED)
                        return &pl->c[i];
        return NULL;
}

/*
 * No evidence directory under root: every disk never validated, known with
 * one call per run instead of the library's three per disk (its identity
 * read, the directory opened).  Anything else, a link included, is left
 * to the library, which refuses what it must.
 */
static bool evidence_dir_missing(const char *root)
{
        _cleanup_free_ char *path = NULL;
        struct stat st;

        if (asprintf(&path, "%s%s", root && strcmp(root, "/") ? root : "", IOS_EVIDENCE_DIR) < 0)
                return false;
        return lstat(path, &st) < 0 && errno == ENOENT;
}

/*
 * The views: the disk's validation evidence, against the rule and scheduler
 * in force.  Never validated (no directory, no document) is no error; a
 * document that cannot be read is the disk's note, not the view's failure.
 */
static void read_evidence(const char *root, struct apply_disk *d, struct ios_device *dev)
{
        int e = ios_evidence_of_disk(root, dev, d->wanted_source, d->wanted, &d->ev);

        d->ev_error = e < 0 ? e : 0;
}

/* --dry-run, --check: the first setting that cannot be set is the disk's error */
static void first_failure(struct ios_plan *pl)
{
        for (size_t k = 0; k < pl->n; k++)
                if (pl->c[k].state == IOS_CHANGE_FAILED && !pl->error) {
                        pl->error = pl->c[k].error;
                        pl->error_msg = pl->c[k].msg ? strdup(pl->c[k].msg) : NULL;
                }
}

/* What the disk came to, once planned (and written). */
static enum apply_outcome disk_outcome(const struct apply_model *m, const struct apply_disk *d)
{
        if (d->read_error)
                return m->report || m->mode == APPLY_MODE_CHECK ? APPLY_FAILED :
                                                                  apply_outcome_of_errno(d->read_error);
        if (m->report)
                return APPLY_OK;
        if (m->mode == APPLY_MODE_CHECK)
                return d->plan.error ? APPLY_FAILED : d->drift ? APPLY_DRIFT : APPLY_OK;
        return apply_outcome_of_errno(d->plan.error);
}

static void plan_disk(struct apply_model *m, const struct apply_model_opts *mo, bool evidence,
                      struct apply_disk *d, struct ios_device *dev)
{
        struct ios_plan *pl = &d->plan;
        const struct ios_change *sc;
        int e = ios_plan_build(m->policy, dev, pl);

        d->dev = pl->dev = dev;
        if (e < 0) {
                d->read_error = pl->error = e;
                if (asprintf(&pl->error_msg, "cannot read current settings: %s", ios_strerror(e)) < 0)
                        pl->error_msg = NULL;
        } else if (!m->report && m->mode == APPLY_MODE_APPLY)
                (void)ios_plan_apply(pl);
        else if (!m->report)
                first_failure(pl);
        d->drift = ios_plan_count(pl, IOS_CHANGE_DRIFT);
        d->compliant = ios_plan_compliant(pl);
        d->changed =
                ios_plan_count(pl, m->mode == APPLY_MODE_APPLY ? IOS_CHANGE_APPLIED : IOS_CHANGE_DRIFT) > 0;
        sc = scheduler_change(pl);
        d->wanted = sc ? sc->wanted : NULL;
        d->wanted_source = sc ? sc->source : NULL;
        d->outcome = disk_outcome(m, d);
        if (evidence)
                read_evidence(mo->evidence_root, d, dev);
}

int apply_model_build(struct apply_model *m, const struct apply_model_opts *mo, const struct ios_policy *p,
                      struct ios_device **devs, size_t n)
{
        bool evidence;

        *m = (struct apply_model){ .mode = mo->mode,
                                   .report = mo->report,
                                   .evidence = mo->evidence,
                                   .policy = p,
                                   .devs = devs,
                                   .ndevs = n,
                                   .outcome = mo->base,
                                   .disks_compliant = true };
        (void)ios_policy_errors(p, &m->policy_errors);
        m->disks = calloc(n ? n : 1, sizeof(*m->disks));
        if (!m->disks)
                return -ENOMEM;
        evidence = mo->evidence && n > 0 && !evidence_dir_missing(mo->evidence_root);
        for (size_t i = 0; i < n; i++) {
                struct apply_disk *d = &m->disks[m->n];

                if (mo->hide_empty && devs[i]->size == 0)
                        continue;
                m->n++;
                plan_disk(m, mo, evidence, d, devs[i]);
                m->drift += d->drift;
                m->ndrift += d->drift > 0;
                m->ndrives += ios_class_is_media_drive(devs[i]->cls);
                m->changed = m->changed || d->changed;
                m->disks_compliant = m->disks_compliant && d->compliant;
                m->outcome = apply_outcome_worse(m->outcome, d->outcome);
        }
        m->compliant = m->policy_errors == 0 && m->disks_compliant;
        return 0;
}

void apply_model_done(struct apply_model *m)
{
        for (size_t i = 0; i < m->n; i++) {
                ios_plan_done(&m->disks[i].plan);
                ios_evidence_state_done(&m->disks[i].ev);
        }
        free(m->disks);
        *m = (struct apply_model){};
}

void apply_model_disk_error(struct apply_out *out, const struct apply_disk *d, bool say)
{
        const char *name = d->dev->name;
        int code = out->exit_of(d->outcome);

        if (!d->read_error)
                return;
        if (say)
                apply_err(out, code, name, "cannot read current settings: %s", ios_strerror(d->read_error));
        else
                apply_error_add(out, NULL, 0, name, code, "cannot read current settings: %s",
                                ios_strerror(d->read_error));
}

void apply_model_disk_errors(struct apply_out *out, const struct apply_model *m, bool say)
{
        for (size_t i = 0; i < m->n; i++)
                apply_model_disk_error(out, &m->disks[i], say);
}
