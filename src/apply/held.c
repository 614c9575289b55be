/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * held.c: the one line each broken policy file earns.  A file with an error
 * gives no rule; the disks its [Match] selects keep what it names (the
 * library's struct ios_held), and if what it matches cannot be read, no
 * disk is changed at all.  The line names file:line, the error and the
 * disks held, on stderr (the journal on the udev path) and in -J "errors".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <syslog.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"
#include "strv.h"

/* "; held: sdb sdc keep their scheduler, queue/read_ahead_kb", from the model's plans, for error i */
static char *held_text(const struct ios_error *errs, size_t nerr, size_t i, const struct apply_model *m)
{
        const struct ios_error *e = &errs[i];
        _cleanup_(ios_strv_freep) char **disks = NULL, **keys = NULL;
        _cleanup_free_ char *dl = NULL, *kl = NULL;
        size_t ndisks = 0, capdisks = 0;
        bool every = false;
        char *s = NULL;

        if (e->holds_all)
                return strdup("; no disk is changed while it stands (what it matches cannot be read)");
        for (size_t k = 0; k < nerr; k++)
                if (errs[k].holds_all) {
                        char where[300];

                        if (asprintf(&s, "; no disk is changed while %s stands", ios_error_where(&errs[k], where,
                                                                                               sizeof(where))) < 0)
                                return NULL;
                        return s;
                }
        if (!m)
                return strdup("; the disks it matches keep the settings it names");
        for (size_t d = 0; d < m->n; d++) {
                const struct ios_plan *pl = &m->disks[d].plan;
                bool named = false;     /* each plan is one disk: named once */

                for (size_t h = 0; h < pl->nheld; h++) {
                        const struct ios_held *hd = &pl->held[h];

                        if (hd->error != i)
                                continue;
                        if (!named &&
                            ios_strv_push_fast(&disks, &ndisks, &capdisks, strdup(pl->dev->name)) < 0)
                                return NULL;
                        named = true;
                        if (streq(hd->key, "*"))
                                every = true;
                        else if (!ios_strv_contains(keys, hd->key) && ios_strv_push(&keys, strdup(hd->key)) < 0)
                                return NULL;
                }
        }
        if (!disks)
                return strdup(e->holds_nothing ? "; it sets nothing: nothing held" :
                              "; it matches none of these disks: nothing held");
        dl = ios_strv_join(disks, " ");
        kl = every ? strdup("every setting") : ios_strv_join(keys, ", ");
        if (!dl || !kl || asprintf(&s, "; held: %s %s%s %s", dl, disks[1] ? "keep" : "keeps",
                                   every ? "" : disks[1] ? " their" : " its", kl) < 0)
                return NULL;
        return s;
}

void apply_policy_errors_report(const struct apply_run_opts *o, const struct ios_policy *p,
                                const struct apply_model *m)
{
        const struct ios_error *errs;
        size_t nerr = 0;

        if (o->out->policy_errors_reported)
                return;
        o->out->policy_errors_reported = true;
        errs = ios_policy_errors(p, &nerr);
        for (size_t i = 0; i < nerr; i++) {
                _cleanup_free_ char *held = held_text(errs, nerr, i, m);
                const char *h = held ? held : "";
                char where[300];

                _cleanup_free_ char *safe = NULL;

                ios_error_where(&errs[i], where, sizeof(where));
                apply_error_add(o->out, errs[i].file, errs[i].line, NULL, o->out->exit_of(APPLY_FAILED),
                                "%s%s", errs[i].msg, h);
                /* the message quotes the file (and names it): escaped for the terminal and the journal */
                if (asprintf(&safe, "%s: %s%s", where, errs[i].msg, h) < 0)
                        safe = NULL;
                {
                        _cleanup_free_ char *esc = apply_escape(safe);
                        const char *line = esc ? esc : "policy file error (out of memory)";

                        /* udev: the journal gets it once; stderr of a RUN program is not read */
                        if (o->udev)
                                apply_log(LOG_ERR, "%s", line);
                        else
                                fprintf(stderr, "%s: %s\n", o->prog, line);
                }
        }
}
