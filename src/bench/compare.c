/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * compare.c: --compare.  Runs the same job once per scheduler and loop,
 * interleaved (A B C A B C ...) so that drift on a noisy machine spreads
 * over every scheduler instead of biasing one, with the device's state saved
 * before the first switch and restored at the end whatever happened (see
 * sched-state.c).  It then names the best scheduler for the objective, its
 * margin over the runner-up, the run-to-run noise (the median over
 * schedulers of the loops' (max-min)/median), and whether the win is
 * significant: an exact one-sided Mann-Whitney test on the loops (p <= 0.05,
 * which with 3 loops each means every loop of the winner beat every loop of
 * the runner-up) and a margin larger than half the noise.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "runner.h"
#include "macro.h"

/* The objective of a run: of the whole run, or of the job --objective=JOB:METRIC names */
static double objective(const struct bench_opts *g, const struct bench_result *run)
{
        const struct bench_result *r = bench_objective_result(g, run);

        switch (g->objective) {
        case BENCH_OBJ_BW:
                return bench_result_bw(r, -1);
        case BENCH_OBJ_P99:
                return (double)bench_result_clat_pct(r, -1, 99);
        case BENCH_OBJ_READ_P99:
                return (double)bench_result_clat_pct(r, BENCH_READ, 99);
        default:
                return bench_result_iops(r, -1);
        }
}

/* A latency objective's completion latencies: none where fio measures none (disable_clat=, gtod_reduce=) */
static bool objective_measured(const struct bench_opts *g, const struct bench_result *run)
{
        const struct bench_result *r = bench_objective_result(g, run);

        if (g->objective != BENCH_OBJ_P99 && g->objective != BENCH_OBJ_READ_P99)
                return true;
        return r->d[BENCH_READ].clat.n > 0 || (g->objective == BENCH_OBJ_P99 && r->d[BENCH_WRITE].clat.n > 0);
}

/* The I/Os the objective's jobs did in the measured window: none is no figure to compare (0, not a "best") */
static uint64_t objective_ios(const struct bench_opts *g, const struct bench_result *run)
{
        const struct bench_result *r = bench_objective_result(g, run);

        return r->d[BENCH_READ].ios + r->d[BENCH_WRITE].ios;
}

/*
 * The bytes the disk read in a round (its stat's read sectors, 512 bytes
 * each) against those the objective's jobs read: where it read under a
 * tenth of them, the page cache answered the rest (direct=0), and no
 * scheduler saw them.  Reads alone: a buffered write reaches the disk
 * when it is written back, in the round or after it.  False when the disk
 * did its share or its stat is unknown.
 */
static bool cache_answered(const struct bench_opts *g, const struct bench_result *run, uint64_t *disk,
                           uint64_t *jobs)
{
        const uint64_t *a = run->disk_stat_before, *b = run->disk_stat_after;

        *jobs = bench_objective_result(g, run)->d[BENCH_READ].bytes;
        *disk = run->have_disk_stat ? (b[2] - a[2]) * 512 : 0;
        return run->have_disk_stat && *jobs > 0 && *disk < *jobs / 10;
}

/* Median over the completed runs of f(run). */
static double med_of(const struct bench_cmp_variant *s, unsigned loops,
                     double (*f)(const struct bench_result *))
{
        double v[1000];
        unsigned n = 0;

        for (unsigned l = 0; l < loops && n < ELEMENTSOF(v); l++)
                if (s->runs[l].done)
                        v[n++] = f(&s->runs[l].res);
        return bench_median(v, n);
}

static double f_iops(const struct bench_result *r) { return bench_result_iops(r, -1); }
static double f_bw(const struct bench_result *r) { return bench_result_bw(r, -1); }
static double f_p50(const struct bench_result *r) { return (double)bench_result_clat_pct(r, -1, 50); }
static double f_p99(const struct bench_result *r) { return (double)bench_result_clat_pct(r, -1, 99); }
static double f_rp99(const struct bench_result *r) { return (double)bench_result_clat_pct(r, BENCH_READ, 99); }
static double f_wp99(const struct bench_result *r) { return (double)bench_result_clat_pct(r, BENCH_WRITE, 99); }
static double f_cpu(const struct bench_result *r) { return bench_result_cpu_us_per_io(r, true); }

/* Median over the completed runs of job j's f(). */
static double job_med(const struct bench_cmp_variant *s, unsigned loops, unsigned j,
                      double (*f)(const struct bench_result *))
{
        double v[1000];
        unsigned n = 0;

        for (unsigned l = 0; l < loops && n < ELEMENTSOF(v); l++)
                if (s->runs[l].done && j < s->runs[l].res.njobs)
                        v[n++] = f(&s->runs[l].res.jobs[j]);
        return bench_median(v, n);
}

static void summarise(struct bench_cmp_variant *s, unsigned loops, const struct bench_opts *obj)
{
        double v[1000];

        s->njobs = obj->njobs > 1 ? obj->njobs : 0;
        s->jobs = s->njobs ? calloc(s->njobs, sizeof(*s->jobs)) : NULL;
        for (unsigned j = 0; s->jobs && j < s->njobs; j++)
                s->jobs[j] = (struct bench_cmp_job){ job_med(s, loops, j, f_iops), job_med(s, loops, j, f_bw),
                                                   job_med(s, loops, j, f_p50), job_med(s, loops, j, f_p99) };

        s->n = 0;
        for (unsigned l = 0; l < loops && s->n < ELEMENTSOF(v); l++)
                if (s->runs[l].done)
                        v[s->n++] = s->runs[l].value = objective(obj, &s->runs[l].res);
        s->med = bench_median(v, s->n);         /* sorts v */
        s->min = s->n ? v[0] : 0;
        s->max = s->n ? v[s->n - 1] : 0;
        s->spread = s->med > 0 ? (s->max - s->min) / s->med * 100 : 0;
        s->iops = med_of(s, loops, f_iops);
        s->bw = med_of(s, loops, f_bw);
        s->p50 = med_of(s, loops, f_p50);
        s->p99 = med_of(s, loops, f_p99);
        s->rp99 = med_of(s, loops, f_rp99);
        s->wp99 = med_of(s, loops, f_wp99);
        s->cpu = med_of(s, loops, f_cpu);
}

/* The verdict on the completed runs' objective values (verdict.c). */
static void decide(struct bench_cmp_variant *s, unsigned n, unsigned loops, enum bench_objective obj,
                   struct bench_verdict *v)
{
        double **vals = calloc(n, sizeof(*vals));
        unsigned *counts = calloc(n, sizeof(*counts));

        if (vals && counts)
                for (unsigned i = 0; i < n; i++) {
                        vals[i] = calloc(loops, sizeof(**vals));
                        if (!vals[i])
                                break;
                        for (unsigned l = 0; l < loops; l++)
                                if (s[i].runs[l].done)
                                        vals[i][counts[i]++] = s[i].runs[l].value;
                }
        if (vals && counts && (n == 0 || vals[n - 1]))
                bench_verdict_decide(vals, counts, n, bench_objective_lower_is_better(obj), v);
        else
                *v = (struct bench_verdict){ .best = -1, .second = -1, .p = 1.0 };
        for (unsigned i = 0; vals && i < n; i++)
                free(vals[i]);
        free(vals);
        free(counts);
}

/* The measurement of a --compare: one run of the jobs, ours or fio's. */
struct measure {
        const struct bench_opts *o;
        struct bench_target *tg;
        struct ios_device *disk;
        struct bench_runner *runner;
        struct bench_cmp_variant *s;
};

static int measure_run(void *userdata, unsigned i, unsigned l, const char *tag, struct bench_error *e)
{
        struct measure *m = userdata;
        struct bench_eta_line line = { .f = stderr, .tag = tag };
        const struct bench_progress_ops eta = { .update = bench_eta_update, .userdata = &line };
        struct bench_cmp_run *run = &m->s[i].runs[l];
        uint64_t disk, jobs;
        int r;

        r = m->runner->run(m->runner, m->o, m->tg, m->disk, bench_eta_wanted(m->o, line.f) ? &eta : NULL,
                           &run->res, e);
        if (r < 0 && bench_stop_signal) {
                *e = (struct bench_error){ 0 };         /* the restore says what happened */
                return 1;
        }
        if (r < 0)
                return r;
        if (!run->res.interrupted && !objective_measured(m->o, &run->res))
                return bench_error_set(e, BENCH_ERR_USAGE, ENODATA,
                                       "--objective=%s: the run measured no completion latency (fio's "
                                       "disable_clat=, gtod_reduce= and the like): no percentile to compare",
                                       m->o->objective_label);
        if (!run->res.interrupted && objective_ios(m->o, &run->res) == 0) {
                const char *job = m->o->objective_job, *why = "";

                if (!streq(m->runner->name, "native"))
                        why = " (fio skips a job whose exec_prerun= fails, with no error)";

                return bench_error_set(e, BENCH_ERR_IO, ENODATA,
                                       "%s%s%s did no I/O in the measured window: no figure to compare%s",
                                       job ? "job '" : "the run", job ? job : "", job ? "'" : "", why);
        }
        if (!run->res.interrupted && cache_answered(m->o, &run->res, &disk, &jobs)) {
                const char *job = m->o->objective_job;
                char a[32], b[32];

                return bench_error_set(e, BENCH_ERR_IO, ENODATA,
                                       "%s%s%s read %s in a round, %s %s: the page cache answered the rest "
                                       "(direct=0), which no scheduler sees: no figure to compare (direct=1 "
                                       "measures the disk)",
                                       job ? "job '" : "the jobs", job ? job : "", job ? "'" : "",
                                       bench_fmt_bytes(b, sizeof(b), (double)jobs), m->disk->name,
                                       bench_fmt_bytes(a, sizeof(a), (double)disk));
        }
        return run->res.interrupted ? 1 : 0;
}

static void keep_run(void *userdata, unsigned i, unsigned l)
{
        struct measure *m = userdata;

        m->s[i].runs[l].done = true;
}

struct upfront {
        const struct bench_opts *o;
        const struct ios_device *disk;
        const struct bench_target *tg;
        const char *note;
};

static void upfront(void *userdata, unsigned nvariants)
{
        const struct upfront *u = userdata;

        bench_upfront_print(stderr, u->o, u->disk, u->tg->path, u->tg->is_bdev,
                            bench_target_max_region(u->tg), nvariants, u->note);
}

int bench_compare(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
                  const struct bench_compare_hooks *hooks, struct bench_runner *runner, FILE *out,
                  struct bench_error *e)
{
        const struct bench_opts *shown;
        struct bench_trial t = { .lock = BENCH_DISK_LOCK_INIT };
        struct bench_cmp_variant *s = NULL;
        struct bench_verdict v;
        struct bench_opts ro;
        struct upfront up;
        char note[400], what[256];
        unsigned n = 0;
        bool uncapped;
        int r;

        if (!disk && !tg->path)
                return bench_error_set(e, BENCH_ERR_USAGE, ENODEV,
                                       "--compare: the jobs name no file or device, so no scheduler to "
                                       "compare");
        if (!disk)
                return bench_error_set(e, BENCH_ERR_USAGE, ENODEV,
                                       "--compare: %s is not on a block device whose scheduler can be set", tg->path);
        if (!disk->sched_current)
                return bench_error_set(e, BENCH_ERR_USAGE, ENOTSUP,
                                       "--compare: %s has no I/O scheduler to choose", disk->name);
        /* before anything switches, the lock held: which disk, for how long, what it holds (upfront.c) */
        ro = *o;
        uncapped = bench_objective_uncap(&ro, note, sizeof(note)) > 0;
        up = (struct upfront){ .o = o, .disk = disk, .tg = tg, .note = uncapped ? note : NULL };
        t.upfront = upfront;
        t.upfront_data = &up;
        r = bench_trial_begin(o, disk, &t, e);
        if (r == 0) {
                n = t.vs.n;
                s = calloc(n, sizeof(*s));
                for (unsigned i = 0; s && i < n; i++) {
                        s[i].name = t.vs.v[i].label;
                        s[i].var = &t.vs.v[i];
                        s[i].runs = calloc(o->loops, sizeof(struct bench_cmp_run));
                        if (!s[i].runs)
                                r = -ENOMEM;
                }
                if (!s)
                        r = -ENOMEM;
        }
        if (r == 0) {
                struct measure m = { .o = o, .tg = tg, .disk = disk, .runner = runner, .s = s };

                r = bench_trial_rounds(&t, o, hooks, "run", measure_run, keep_run, &m, e);
        }
        if (!t.saved)
                goto out;
        r = bench_trial_restore(&t, r, e);
        shown = s ? runner->shown(runner, o) : NULL;
        if (!shown)
                goto out;       /* nothing measured to show */
        ro = *shown;
        /* a throughput objective the jobs cap compares nothing: p99 instead, said (jobs.c) */
        uncapped = bench_objective_uncap(&ro, note, sizeof(note)) > 0;
        for (unsigned i = 0; i < n; i++)
                summarise(&s[i], ro.loops, &ro);
        decide(s, n, ro.loops, ro.objective, &v);
        if (o->json)
                bench_compare_json(out, &ro, disk, s, n, &v, t.restored, t.bad, t.orig, &t.st,
                                   uncapped ? note : NULL);
        else {
                /* fio's regions are fio's: the report shows the target's name and size, not ours */
                struct bench_target named = { .path = ro.filename, .dev_size = tg->dev_size };
                const struct bench_target *shown_tg = runner->own_regions ? tg : &named;

                bench_sched_restored_what(&t.st, what, sizeof(what));
                bench_compare_text(out, &ro, shown_tg, disk, s, n, &v, t.restored, what,
                                   uncapped ? note : NULL);
        }
        if (o->record) {        /* the record is read from the same report (record.c) */
                char *text = NULL;
                size_t len = 0;
                FILE *m = open_memstream(&text, &len);

                if (m)
                        bench_compare_json(m, &ro, disk, s, n, &v, t.restored, t.bad, t.orig, &t.st,
                                   uncapped ? note : NULL);
                if (m && fclose(m) == 0)
                        bench_record(o, disk, text, len);
                free(text);
        }
out:
        for (unsigned i = 0; s && i < n; i++) {
                for (unsigned l = 0; s[i].runs && l < o->loops; l++)
                        bench_result_done(&s[i].runs[l].res);
                free(s[i].runs);
                free(s[i].jobs);
        }
        free(s);
        bench_trial_done(&t);
        return r;
}
