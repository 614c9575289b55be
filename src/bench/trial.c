/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * trial.c: the one trial loop of --compare and --observe.  Take the disk's
 * lock, save its scheduler state and arm the restore at exit, learn each
 * variant's fresh state, then round after round switch to each variant in
 * turn (with the --policy settings), note what the kernel shows, call the
 * measurement (a run of our engine or of fio, or a window of the disk's
 * own counters: the caller's callback), and check that no other program
 * changed the state meanwhile: every file of it, against what
 * iosched-bench itself left there (sched-state.c, sched-kept.c).  A run
 * during which another program set a file has no result (it measured two
 * states); the file is kept from then on by every switch and by the
 * restore, so later runs of every variant stand on that program's value.
 * A scheduler another program switched, or a file some variant sets, stops
 * the comparison with the runs so far.  At the end restore, whatever
 * happened.
 * Before the run it warns when the rounds are too few for the verdict's
 * Mann-Whitney test to reach its significance level at all.  Also the
 * default workload of a bare --compare: one that separates schedulers.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"
#include "strv.h"

/* the verdict's significance level (verdict.c) */
#define TRIAL_ALPHA 0.05

/* job options that give a job its shape: any of them makes a --compare not bare */
static const char * const shaping[] = { "rw", "readwrite", "bs", "blocksize", "iodepth", "ioengine", "numjobs",
                                        "rwmixread", "rwmixwrite", "name", "rate", "rate_iops", "thinktime", "bssplit",
                                        "random_distribution" };

int bench_compare_default_workload(struct bench_opts *o)
{
        if (!o->compare || o->observe || o->workload || o->jobfiles || o->njobs)
                return 0;
        for (char **a = o->fio_args; a && *a; a++) {
                const char *n = *a + strspn(*a, "-");

                for (size_t i = 0; i < ELEMENTSOF(shaping); i++)
                        if (!strncmp(n, shaping[i], strlen(shaping[i])) &&
                            (n[strlen(shaping[i])] == '=' || !n[strlen(shaping[i])]))
                                return 0;
        }
        if (o->unsupported)
                return 0;
        /* a reader at depth 1 under a deep writer (or, without --allow-write, a deep streaming reader) */
        o->workload = strdup(o->allow_write ? "mixed-latency" : "mixed-read");
        if (!o->workload)
                return -ENOMEM;
        if (o->objective == BENCH_OBJ_IOPS && !o->objective_job) {
                o->objective = BENCH_OBJ_P99;
                o->objective_job = strdup("reader");
                if (!o->objective_job)
                        return -ENOMEM;
        }
        return 0;
}

/* The smallest p the exact one-sided test can give with n values a side: 1 / C(2n, n). */
static double min_p(unsigned n)
{
        double c = 1;

        for (unsigned k = 1; k <= n; k++)
                c = c * (n + k) / k;
        return 1 / c;
}

void bench_trial_warn_rounds(const struct bench_opts *o, unsigned nvariants, FILE *f)
{
        if (nvariants < 2 || min_p(o->loops) <= TRIAL_ALPHA)
                return;
        fprintf(f, "iosched-bench: warning: %u %s per variant cannot show a significant win: the smallest "
                "Mann-Whitney p with %u a side is %.3f, above %.2f; use --loops=3 or more\n", o->loops,
                o->loops == 1 ? "round" : "rounds", o->loops, min_p(o->loops), TRIAL_ALPHA);
}

static void report_atexit(const struct bench_sched_state *s, int r, char **bad)
{
        if (r < 0) {
                fprintf(stderr, "iosched-bench: %s: could not restore the scheduler state:", s->dev->name);
                for (char **b = bad; b && *b; b++)
                        fprintf(stderr, " %s;", *b);
                fputc('\n', stderr);
        }
}

int bench_trial_begin(const struct bench_opts *o, struct ios_device *d, struct bench_trial *t, struct bench_error *e)
{
        int r;

        *t = (struct bench_trial){ .disk = d, .lock = BENCH_DISK_LOCK_INIT, .upfront = t->upfront,
                                   .upfront_data = t->upfront_data };
        r = bench_variants_resolve(o, d, &t->vs, e);
        if (r < 0)
                return r;
        t->orig = strdup(d->sched_current);
        if (!t->orig)
                return -ENOMEM;
        r = bench_switch_begin(d, &t->lock, &t->st, report_atexit, e);
        if (r < 0)
                return r;
        t->saved = true;
        if (t->upfront)
                t->upfront(t->upfront_data, t->vs.n);
        bench_trial_warn_rounds(o, t->vs.n, stderr);
        return bench_variants_learn(&t->vs, d, e);
}

/*
 * A file some variant sets that another program set (sched-kept.c): it is
 * kept, so that variant cannot run as given any more; the comparison stops
 * (BENCH_ERR_SCHED) with the runs so far.
 */
static int kept_stops(const struct bench_trial *t, struct bench_error *e)
{
        for (unsigned i = 0; i < t->vs.n; i++)
                for (size_t k = 0; k < t->vs.v[i].set.n; k++) {
                        const char *key = t->vs.v[i].set.s[k].key;
                        const struct bench_sched_kept *kp = bench_sched_kept_get(&t->st, key);

                        if (kp)
                                return bench_error_set(e, BENCH_ERR_SCHED, ESTALE,
                                                       "%s: %s, which variant %s sets, was set to \"%s\" by another "
                                                       "program %s: it is kept, so that variant cannot run as given; "
                                                       "the comparison stops with the runs so far", t->disk->name, key,
                                                       t->vs.v[i].label, kp->value,
                                                       kp->when ? kp->when[ios_strv_length(kp->when) - 1] : "");
                }
        return 0;
}

/* Switch to variant i (with the --policy settings): 0, or the error that stops the rounds. */
static int trial_switch(struct bench_trial *t, unsigned i, const struct bench_compare_hooks *hooks,
                        struct bench_error *e)
{
        struct ios_device *d = t->disk;
        const struct ios_wanted *extra = NULL;
        _cleanup_free_ char *why = NULL;
        const char *name = t->vs.v[i].label;
        int rr;

        if (hooks && hooks->tune && (rr = hooks->tune(hooks->userdata, d, &extra)) < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, -rr, "%s: policy for %s: %s", d->name, name,
                                       ios_strerror(rr));
        rr = bench_variant_switch(&t->vs, i, d, extra, &why);
        if (rr < 0)
                return bench_error_set(e, BENCH_ERR_SCHED, -rr, "%s: cannot switch to %s: %s", d->name, name,
                                       why ? why : ios_strerror(rr));
        /* what another program set before the switch is kept by it: a variant's own file stops here */
        return kept_stops(t, e);
}

int bench_trial_rounds(struct bench_trial *t, const struct bench_opts *o, const struct bench_compare_hooks *hooks,
                       const char *what, bench_trial_measure_fn measure, bench_trial_keep_fn keep, void *userdata,
                       struct bench_error *e)
{
        struct ios_device *d = t->disk;
        int r = 0, rr;

        for (unsigned l = 0; l < o->loops && r == 0 && !bench_stop_signal; l++)
                for (unsigned i = 0; i < t->vs.n && r == 0 && !bench_stop_signal; i++) {
                        _cleanup_(ios_strv_freep) char **before = NULL;
                        const char *name = t->vs.v[i].label;
                        char tag[96], where[128];
                        int changed;

                        r = trial_switch(t, i, hooks, e);
                        if (r < 0)
                                break;
                        r = bench_variant_shown(&t->vs, i, d, &before, e);
                        if (r < 0)
                                break;
                        snprintf(tag, sizeof(tag), "%s %u/%u", name, l + 1, o->loops);
                        if (streq(what, "run"))
                                snprintf(where, sizeof(where), "%s run", tag);  /* "bfq 2/3 run" */
                        else
                                snprintf(where, sizeof(where), "%s %s %u/%u", name, what, l + 1, o->loops);
                        /* a change seen from now on happened while this one measured: it has no result */
                        bench_sched_phase(&t->st, "during the %s, which has no result", where);
                        rr = measure(userdata, i, l, tag, e);
                        if (rr < 0) {
                                r = rr;
                                break;
                        }
                        if (rr > 0)
                                break;  /* stopped by a signal: nothing to check */
                        /* every file of the state, against what iosched-bench left (sched-state.c) */
                        changed = bench_sched_check(&t->st);
                        /* a run some other writer switched under us measured something else */
                        r = bench_variant_kept(&t->vs, i, d, before, where, e);
                        if (r == 0)
                                r = kept_stops(t, e);
                        /* a file that moved while it ran: void (said with the file, sched-kept.c) */
                        if (r == 0 && changed == 0 && keep)
                                keep(userdata, i, l);
                        bench_sched_phase(&t->st, "after the %s", where);
                }
        return r;
}

int bench_trial_restore(struct bench_trial *t, int r, struct bench_error *e)
{
        t->restored = bench_sched_restore(&t->st, &t->bad) == 0;
        bench_sched_kept_print(&t->st, stderr);        /* what another program set, kept (sched-state.c) */
        if (!t->restored) {
                _cleanup_free_ char *list = ios_strv_join(t->bad, "; ");

                e->msg[0] = '\0';       /* this is the message that matters */
                return bench_error_set(e, BENCH_ERR_SCHED, EIO, "%s: could not restore the scheduler state: %s",
                                       t->disk->name, list ? list : "?");
        }
        if (r == 0 && bench_stop_signal)
                return bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted; %s restored to %s",
                                       t->disk->name, t->orig);
        return r;
}

void bench_trial_done(struct bench_trial *t)
{
        if (t->saved)
                bench_sched_state_done(&t->st);
        bench_disk_lock_release(&t->lock);
        bench_variants_done(&t->vs);
        ios_strv_free(t->bad);
        free(t->orig);
        *t = (struct bench_trial){ .lock = BENCH_DISK_LOCK_INIT };
}
