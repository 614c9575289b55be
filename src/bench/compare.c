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
#include "macro.h"

struct run {
        struct bench_result res;
        bool done;
        double value;                   /* the objective */
};

struct sched_summary {
        const char *name;
        const struct bench_variant *var;
        struct run *runs;               /* loops */
        unsigned n;                     /* completed runs */
        double med, min, max, spread;   /* objective over completed runs */
        double iops, bw, p50, p99, rp99, wp99, cpu;     /* medians, for the table */
};

static bool lower_is_better(enum bench_objective o)
{
        return o == BENCH_OBJ_P99 || o == BENCH_OBJ_READ_P99;
}

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

/* Median over the completed runs of f(run). */
static double med_of(const struct sched_summary *s, unsigned loops, double (*f)(const struct bench_result *))
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

static void summarise(struct sched_summary *s, unsigned loops, const struct bench_opts *obj)
{
        double v[1000];

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
static void decide(struct sched_summary *s, unsigned n, unsigned loops, enum bench_objective obj,
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
                bench_verdict_decide(vals, counts, n, lower_is_better(obj), v);
        else
                *v = (struct bench_verdict){ .best = -1, .second = -1, .p = 1.0 };
        for (unsigned i = 0; vals && i < n; i++)
                free(vals[i]);
        free(vals);
        free(counts);
}

static const char *obj_unit(enum bench_objective o, double v, char *buf, size_t len)
{
        if (o == BENCH_OBJ_BW)
                return bench_fmt_bytes(buf, len, v);
        if (o == BENCH_OBJ_IOPS)
                return bench_fmt_num(buf, len, v);
        return bench_fmt_ns(buf, len, v);
}

static void print_text(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, struct sched_summary *s, unsigned n,
                       const struct bench_verdict *v, bool restored, const char *orig, size_t n_attrs)
{
        char b[8][32];
        bool reads = bench_rw_reads(o->rw), writes = bench_rw_writes(o->rw);

        fprintf(f, "%s: compare on %s (%s, %s): rw=%s", o->name, disk->name, ios_class_to_string(disk->cls),
                tg->path, bench_rw_to_string(o->rw));
        if (reads && writes)
                fprintf(f, " rwmixread=%u", o->rwmixread);
        fprintf(f, " bs=%s iodepth=%u numjobs=%u ioengine=%s direct=%d\n",
                bench_fmt_bytes(b[0], sizeof(b[0]), o->bs[reads ? 0 : 1]), o->iodepth, o->numjobs,
                o->engine->name, o->direct);
        fprintf(f, "  %u loops x %.1fs (+%.1fs ramp) per scheduler, interleaved; objective %s (%s is better)\n\n",
                o->loops, (double)o->runtime_ns / 1e9, (double)o->ramp_ns / 1e9,
                o->objective_label, lower_is_better(o->objective) ? "lower" : "higher");
        int w = 11;

        for (unsigned i = 0; i < n; i++)
                w = (int)strlen(s[i].name) > w ? (int)strlen(s[i].name) : w;
        fprintf(f, "  %-*s %4s %9s %19s %7s %10s %9s %9s %9s %9s\n", w + 2, w > 11 ? "VARIANT" : "SCHEDULER", "RUNS",
                o->objective == BENCH_OBJ_IOPS && o->objective_jobidx < 0 ? "IOPS" : o->objective_label,
                "[MIN - MAX]", "SPREAD", "BW/s", "CLAT-P50", reads ? "READ-P99" : "P99",
                writes ? "WRITE-P99" : "", "CPU/IO");
        for (unsigned i = 0; i < n; i++) {
                char range[64];

                if (s[i].n == 0) {
                        fprintf(f, "  %-*s %4u  (no complete run)\n", w + 2, s[i].name, 0u);
                        continue;
                }
                snprintf(range, sizeof(range), "[%s - %s]", obj_unit(o->objective, s[i].min, b[0], sizeof(b[0])),
                         obj_unit(o->objective, s[i].max, b[1], sizeof(b[1])));
                fprintf(f, "  %-*s%s %4u %9s %19s %6.1f%% %10s %9s %9s %9s %9s\n", w, s[i].name,
                        (int)i == v->best ? " *" : "  ", s[i].n, obj_unit(o->objective, s[i].med, b[2], sizeof(b[2])),
                        range, s[i].spread, bench_fmt_bytes(b[3], sizeof(b[3]), s[i].bw),
                        bench_fmt_ns(b[4], sizeof(b[4]), s[i].p50),
                        bench_fmt_ns(b[5], sizeof(b[5]), reads ? s[i].rp99 : s[i].p99),
                        writes ? bench_fmt_ns(b[6], sizeof(b[6]), s[i].wp99) : "",
                        bench_fmt_ns(b[7], sizeof(b[7]), s[i].cpu * 1e3));
        }
        fputc('\n', f);
        if (v->best >= 0 && v->second >= 0)
                fprintf(f, "  best: %s, %.1f%% better %s than %s; run-to-run noise %.1f%%; "
                        "Mann-Whitney p=%.3f: %s\n",
                        s[v->best].name, v->margin, o->objective_label, s[v->second].name,
                        v->noise, v->p,
                        v->significant ? "the win exceeds the noise" :
                        o->loops < 2 ? "one loop cannot tell a win from noise (use --loops)" :
                        "within the noise, not a significant win (more --loops or a longer --runtime may tell)");
        else if (v->best >= 0)
                fprintf(f, "  only %s completed\n", s[v->best].name);
        fprintf(f, "  %s %s: scheduler %s and %zu queue tunables as found\n",
                restored ? "restored" : "NOT restored", disk->name, orig, n_attrs);
        fprintf(f, "  (MIN-MAX and SPREAD are over loops; CPU/IO is machine-wide, kernel threads included)\n");
}

static void print_json(FILE *f, const struct bench_opts *o, const struct ios_device *disk,
                       struct sched_summary *s, unsigned n, const struct bench_verdict *v, bool restored,
                       char **bad, const char *orig)
{
        bench_report_json_begin(f, o);
        fprintf(f, "  \"compare\" : {\n    \"device\" : ");
        bench_json_string(f, disk->name);
        fprintf(f, ",\n    \"original_scheduler\" : ");
        bench_json_string(f, orig);
        fprintf(f, ",\n    \"objective\" : \"%s\",\n    \"lower_is_better\" : %s,\n    \"loops\" : %u,\n",
                o->objective_label, lower_is_better(o->objective) ? "true" : "false", o->loops);
        fprintf(f, "    \"schedulers\" : [\n");
        for (unsigned i = 0; i < n; i++) {
                fprintf(f, "      {\n        \"name\" : ");
                bench_json_string(f, s[i].name);
                fputs(",\n", f);
                bench_variant_json(f, s[i].var, "        ");
                fprintf(f, "        \"runs\" : %u,\n        \"values\" : [", s[i].n);
                for (unsigned l = 0, k = 0; l < o->loops; l++)
                        if (s[i].runs[l].done)
                                fprintf(f, "%s%f", k++ ? ", " : "", s[i].runs[l].value);
                fprintf(f, "],\n        \"median\" : %f,\n        \"min\" : %f,\n        \"max\" : %f,\n"
                        "        \"spread_pct\" : %f,\n        \"iops\" : %f,\n        \"bw_bytes\" : %f,\n"
                        "        \"clat_p50_ns\" : %f,\n        \"clat_p99_ns\" : %f,\n"
                        "        \"read_clat_p99_ns\" : %f,\n        \"write_clat_p99_ns\" : %f,\n"
                        "        \"machine_cpu_ns_per_io\" : %f\n      }%s\n",
                        s[i].med, s[i].min, s[i].max, s[i].spread, s[i].iops, s[i].bw, s[i].p50, s[i].p99,
                        s[i].rp99, s[i].wp99, s[i].cpu * 1e3, i + 1 < n ? "," : "");
        }
        fprintf(f, "    ],\n    \"best\" : ");
        bench_json_string(f, v->best >= 0 ? s[v->best].name : "");
        fprintf(f, ",\n    \"runner_up\" : ");
        bench_json_string(f, v->second >= 0 ? s[v->second].name : "");
        fprintf(f, ",\n    \"margin_pct\" : %f,\n    \"noise_pct\" : %f,\n    \"p_value\" : %f,\n"
                "    \"significant\" : %s,\n    \"restored\" : %s,\n    \"restore_errors\" : [",
                v->margin, v->noise, v->p, v->significant ? "true" : "false", restored ? "true" : "false");
        for (char **b = bad; b && *b; b++) {
                fprintf(f, "%s", b == bad ? "" : ", ");
                bench_json_string(f, *b);
        }
        fprintf(f, "]\n  },\n  \"jobs\" : [\n");
        {
                bool first = true;
                for (unsigned l = 0; l < o->loops; l++)
                        for (unsigned i = 0; i < n; i++) {
                                char name[128];

                                if (!s[i].runs[l].done)
                                        continue;
                                snprintf(name, sizeof(name), "%s.%s.%u", o->name, s[i].name, l + 1);
                                fprintf(f, "%s    {\n", first ? "" : ",\n");
                                bench_report_json_job(f, o, &s[i].runs[l].res, name, "      ");
                                fprintf(f, "    }");
                                first = false;
                        }
                fprintf(f, "\n  ],\n");
        }
        bench_report_json_disk_util(f, NULL, NULL);
        fprintf(f, "}\n");
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

int bench_compare(const struct bench_opts *o, struct bench_target *tg, struct ios_device *disk,
                  const struct bench_compare_hooks *hooks, FILE *out, struct bench_error *e)
{
        struct bench_eta_line line = { .f = stderr };
        const struct bench_progress_ops eta = { .update = bench_eta_update, .userdata = &line };
        struct bench_sched_state st;
        struct sched_summary *s = NULL;
        struct bench_variants vs = {};
        struct bench_disk_lock lock = BENCH_DISK_LOCK_INIT;
        struct bench_verdict v;
        char **bad = NULL;
        _cleanup_free_ char *orig = NULL;
        unsigned n;
        int r = 0, rr;
        bool restored, saved = false;

        if (!disk)
                return bench_error_set(e, BENCH_ERR_USAGE, ENODEV,
                                       "--compare: %s is not on a block device whose scheduler can be set", tg->path);
        if (!disk->sched_current)
                return bench_error_set(e, BENCH_ERR_USAGE, ENOTSUP,
                                       "--compare: %s has no I/O scheduler to choose", disk->name);
        r = bench_variants_resolve(o, disk, &vs, e);
        if (r < 0)
                return r;
        n = vs.n;
        orig = strdup(disk->sched_current);
        s = calloc(n, sizeof(*s));
        if (!orig || !s) {
                r = -ENOMEM;
                goto out;
        }
        for (unsigned i = 0; i < n; i++) {
                s[i].name = vs.v[i].label;
                s[i].var = &vs.v[i];
                s[i].runs = calloc(o->loops, sizeof(struct run));
                if (!s[i].runs) {
                        r = -ENOMEM;
                        goto out;
                }
        }

        r = bench_switch_begin(disk, &lock, &st, report_atexit, e);
        if (r < 0)
                goto out;
        saved = true;
        r = bench_variants_learn(&vs, disk, e);
        if (r < 0) {
                rr = bench_sched_restore(&st, &bad);
                bench_sched_kept_print(&st, stderr);
                if (rr < 0) {
                        _cleanup_free_ char *list = ios_strv_join(bad, "; ");
                        e->msg[0] = '\0';
                        r = bench_error_set(e, BENCH_ERR_SCHED, EIO, "%s: could not restore the scheduler state: %s",
                                            disk->name, list ? list : "?");
                }
                goto out;
        }

        for (unsigned l = 0; l < o->loops && r == 0; l++)
                for (unsigned i = 0; i < n && r == 0; i++) {
                        const struct ios_wanted *extra = NULL;
                        _cleanup_free_ char *why = NULL;
                        _cleanup_(ios_strv_freep) char **before = NULL;
                        char tag[96], what[112];

                        if (bench_stop_signal)
                                break;
                        if (hooks && hooks->tune) {
                                rr = hooks->tune(hooks->userdata, disk, &extra);
                                if (rr < 0) {
                                        r = bench_error_set(e, BENCH_ERR_SYSTEM, -rr, "%s: policy for %s: %s",
                                                            disk->name, s[i].name, strerror(-rr));
                                        break;
                                }
                        }
                        rr = bench_variant_switch(&vs, i, disk, extra, &why);
                        if (rr < 0) {
                                r = bench_error_set(e, BENCH_ERR_SCHED, -rr, "%s: cannot switch to %s: %s",
                                                    disk->name, s[i].name, why ? why : strerror(-rr));
                                break;
                        }
                        snprintf(tag, sizeof(tag), "%s %u/%u", s[i].name, l + 1, o->loops);
                        line.tag = tag;
                        r = bench_variant_shown(&vs, i, disk, &before, e);
                        if (r < 0)
                                break;
                        rr = bench_run(o, tg, disk, bench_eta_wanted(o, line.f) ? &eta : NULL, &s[i].runs[l].res, e);
                        if (rr < 0) {
                                r = rr;
                                break;
                        }
                        /* a run some other writer switched under us measured something else */
                        snprintf(what, sizeof(what), "%s run", tag);
                        r = bench_variant_kept(&vs, i, disk, before, what, e);
                        if (r < 0)
                                break;
                        s[i].runs[l].done = !s[i].runs[l].res.interrupted;
                }

        /* the main path's restore; the atexit one only covers an early exit */
        rr = bench_sched_restore(&st, &bad);
        bench_sched_kept_print(&st, stderr);
        restored = rr == 0;
        for (unsigned i = 0; i < n; i++)
                summarise(&s[i], o->loops, o);
        decide(s, n, o->loops, o->objective, &v);
        if (o->json)
                print_json(out, o, disk, s, n, &v, restored, bad, orig);
        else
                print_text(out, o, tg, disk, s, n, &v, restored, orig, st.n_attrs);
        if (!restored) {
                _cleanup_free_ char *list = ios_strv_join(bad, "; ");
                e->msg[0] = '\0';       /* this is the message that matters */
                r = bench_error_set(e, BENCH_ERR_SCHED, EIO, "%s: could not restore the scheduler state: %s",
                                    disk->name, list ? list : "?");
        } else if (bench_stop_signal && r == 0)
                r = bench_error_set(e, BENCH_ERR_INTERRUPTED, EINTR, "interrupted; %s restored to %s", disk->name, orig);
out:
        if (saved)
                bench_sched_state_done(&st);
        bench_disk_lock_release(&lock);
        for (unsigned i = 0; s && i < n; i++) {
                for (unsigned l = 0; s[i].runs && l < o->loops; l++)
                        bench_result_done(&s[i].runs[l].res);
                free(s[i].runs);
        }
        free(s);
        bench_variants_done(&vs);
        ios_strv_free(bad);
        return r;
}
