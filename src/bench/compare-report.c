/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * compare-report.c: --compare's report, from the variants' summaries
 * (compare.c): the text table with the verdict and what the other jobs
 * paid for the winner, and the JSON document (also what --record keeps).
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "fio/fio.h"
#include "macro.h"

static const char *obj_unit(enum bench_objective o, double v, char *buf, size_t len)
{
        if (o == BENCH_OBJ_BW)
                return bench_fmt_bytes(buf, len, v);
        if (o == BENCH_OBJ_IOPS)
                return bench_fmt_num(buf, len, v);
        return bench_fmt_ns(buf, len, v);
}

static double pct_change(double a, double b)
{
        return b > 0 ? (a / b - 1) * 100 : 0;
}

/*
 * What the other jobs paid for the winner: each job's IOPS, bandwidth and
 * p99 on the best variant against the runner-up (with --objective=JOB:,
 * every job but that one; otherwise every job).
 */
static void paid(FILE *f, const struct bench_opts *o, const struct bench_cmp_variant *s,
                 const struct bench_verdict *v)
{
        const struct bench_cmp_variant *a, *b;
        char x[6][32];

        if (v->best < 0 || v->second < 0 || !s[v->best].jobs || !s[v->second].jobs)
                return;
        a = &s[v->best];
        b = &s[v->second];
        fprintf(f, "  %s, %s against %s:\n", o->objective_jobidx >= 0 ? "what the other jobs paid for it" :
                "per job", a->name, b->name);
        for (unsigned j = 0; j < a->njobs; j++) {
                if ((int)j == o->objective_jobidx)
                        continue;
                fprintf(f,
                        "    %s: IOPS %s against %s (%+.1f%%), BW %s against %s, "
                        "P99 %s against %s (%+.1f%%)\n",
                        o->jobs[j].name, bench_fmt_num(x[0], sizeof(x[0]), a->jobs[j].iops),
                        bench_fmt_num(x[1], sizeof(x[1]), b->jobs[j].iops),
                        pct_change(a->jobs[j].iops, b->jobs[j].iops),
                        bench_fmt_bytes(x[2], sizeof(x[2]), a->jobs[j].bw),
                        bench_fmt_bytes(x[3], sizeof(x[3]), b->jobs[j].bw),
                        bench_fmt_ns(x[4], sizeof(x[4]), a->jobs[j].p99),
                        bench_fmt_ns(x[5], sizeof(x[5]), b->jobs[j].p99),
                        pct_change(a->jobs[j].p99, b->jobs[j].p99));
        }
}

/* the fewest completions a p99 may rest on before it is no more than the slowest one or few */
#define P99_FEW 100

/*
 * How long the completed rounds measured (a round may end at its size
 * before its time), and, for a latency objective, whether a round's p99
 * rests on so few completions that it is the slowest one or few of them.
 */
static void rounds_measured(FILE *f, const struct bench_opts *o, const struct bench_cmp_variant *s,
                            unsigned n)
{
        bool lat = o->objective == BENCH_OBJ_P99 || o->objective == BENCH_OBJ_READ_P99;
        uint64_t lo = UINT64_MAX, hi = 0, fewest = UINT64_MAX;

        for (unsigned i = 0; i < n; i++)
                for (unsigned l = 0; l < o->loops; l++)
                        if (s[i].runs[l].done) {
                                const struct bench_result *r = bench_objective_result(o, &s[i].runs[l].res);
                                uint64_t t = s[i].runs[l].res.runtime_ns, c = r->d[BENCH_READ].clat.n;

                                c += o->objective == BENCH_OBJ_P99 ? r->d[BENCH_WRITE].clat.n : 0;
                                lo = t < lo ? t : lo;
                                hi = t > hi ? t : hi;
                                fewest = c < fewest ? c : fewest;
                        }
        if (hi)
                fprintf(f, "  each round measured %.2fs to %.2fs\n", (double)lo / 1e9, (double)hi / 1e9);
        if (hi && lat && fewest < P99_FEW)
                fprintf(f, "  note: a round's %s rests on as few as %" PRIu64 " completions; below %u it is "
                        "the slowest one or few of them: give the job more I/O or a longer runtime\n",
                        o->objective_label, fewest, P99_FEW);
}

/* The depth each variant's rounds ran job j at, where fio's latency_target= set it (not its iodepth=). */
static void settled_depths(FILE *f, const struct bench_opts *o, const struct bench_cmp_variant *s, unsigned n)
{
        for (unsigned j = 0; j < (o->njobs ? o->njobs : 1); j++) {
                const struct bench_opts *jo = o->njobs ? &o->jobs[j] : o;
                bool moved = false;

                for (unsigned i = 0; i < n; i++)
                        for (unsigned l = 0; l < o->loops; l++) {
                                const struct bench_result *r = &s[i].runs[l].res;

                                if (s[i].runs[l].done && j < r->njobs && r->jobs[j].depth != jo->iodepth)
                                        moved = true;
                        }
                if (!moved)
                        continue;
                fprintf(f, "  note: fio's latency_target= set the depth of job '%s' (iodepth=%u), by round:",
                        jo->name, jo->iodepth);
                for (unsigned i = 0, said = 0; i < n; i++) {
                        unsigned lo = UINT_MAX, hi = 0;

                        for (unsigned l = 0; l < o->loops; l++) {
                                const struct bench_result *r = &s[i].runs[l].res;

                                if (s[i].runs[l].done && j < r->njobs) {
                                        lo = r->jobs[j].depth < lo ? r->jobs[j].depth : lo;
                                        hi = r->jobs[j].depth > hi ? r->jobs[j].depth : hi;
                                }
                        }
                        if (hi == 0)
                                continue;
                        fprintf(f, "%s %s %u", said++ ? "," : "", s[i].name, lo);
                        if (hi > lo)
                                fprintf(f, "-%u", hi);
                }
                fputc('\n', f);
        }
}

void bench_compare_text(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, struct bench_cmp_variant *s, unsigned n,
                       const struct bench_verdict *v, bool restored, const char *restored_what,
                       const char *note)
{
        char b[8][32], round[160], label[600];
        bool reads = bench_rw_reads(o->rw), writes = bench_rw_writes(o->rw);

        /* the columns: what any job does; the header: the one job, or that there are several */
        for (unsigned j = 0; j < o->njobs; j++) {
                reads |= bench_rw_reads(o->jobs[j].rw);
                writes |= bench_rw_writes(o->jobs[j].rw);
        }
        if (o->njobs > 1)
                fprintf(f, "compare on %s (%s, %s): %u jobs, ioengine=%s direct=%d\n", disk->name,
                        ios_class_to_string(disk->cls), tg->path, o->njobs, o->engine->name, o->direct);
        else {
                fprintf(f, "%s: compare on %s (%s, %s): rw=%s", o->name, disk->name,
                        ios_class_to_string(disk->cls), tg->path, bench_rw_to_string(o->rw));
                if (bench_rw_reads(o->rw) && bench_rw_writes(o->rw))
                        fprintf(f, " rwmixread=%u", o->rwmixread);
                bench_fmt_bs(label, sizeof(label), o);
                fprintf(f, " %s iodepth=%u numjobs=%u ioengine=%s direct=%d\n", label, o->iodepth, o->numjobs,
                        o->engine->name, o->direct);
        }
        if (o->njobs > 1) {
                fprintf(f, "  jobs:");
                for (unsigned j = 0; j < o->njobs; j++) {
                        const struct bench_opts *jo = &o->jobs[j];

                        bench_fmt_bs(label, sizeof(label), jo);
                        fprintf(f, " %s (rw=%s %s iodepth=%u)%s", jo->name, bench_rw_to_string(jo->rw), label,
                                jo->iodepth, j + 1 < o->njobs ? "," : "\n");
                }
        }
        fprintf(f, "  backend: %s\n", bench_backend_name);
        bench_round_words(o, bench_target_max_region(tg), round, sizeof(round));
        fprintf(f, "  %u %s per scheduler, interleaved, each %s; objective %s (%s is better)\n", o->loops,
                o->loops == 1 ? "round" : "rounds", round, o->objective_label,
                bench_objective_lower_is_better(o->objective) ? "lower" : "higher");
        if (note)
                fprintf(f, "  note: %s\n", note);
        fputc('\n', f);
        int w = 11;

        for (unsigned i = 0; i < n; i++)
                w = (int)strlen(s[i].name) > w ? (int)strlen(s[i].name) : w;
        fprintf(f, "  %-*s %4s %9s %19s %7s %10s %9s %9s %9s %9s\n", w + 2, w > 11 ? "VARIANT" : "SCHEDULER",
                "RUNS",
                o->objective == BENCH_OBJ_IOPS && o->objective_jobidx < 0 ? "IOPS" : o->objective_label,
                "[MIN - MAX]", "SPREAD", "BW/s", "CLAT-P50", reads ? "READ-P99" : "P99",
                writes ? "WRITE-P99" : "", "CPU/IO");
        for (unsigned i = 0; i < n; i++) {
                char range[64], spread[16];

                if (s[i].n == 0) {
                        fprintf(f, "  %-*s %4u  (no complete run)\n", w + 2, s[i].name, 0u);
                        continue;
                }
                snprintf(range, sizeof(range), "[%s - %s]",
                         obj_unit(o->objective, s[i].min, b[0], sizeof(b[0])),
                         obj_unit(o->objective, s[i].max, b[1], sizeof(b[1])));
                /* one run has no spread: "-", not 0.0% */
                snprintf(spread, sizeof(spread), s[i].n > 1 ? "%.1f%%" : "-", s[i].spread);
                fprintf(f, "  %-*s%s %4u %9s %19s %7s %10s %9s %9s %9s %9s\n", w, s[i].name,
                        (int)i == v->best ? " *" : "  ", s[i].n,
                        obj_unit(o->objective, s[i].med, b[2], sizeof(b[2])), range, spread,
                        bench_fmt_bytes(b[3], sizeof(b[3]), s[i].bw),
                        bench_fmt_ns(b[4], sizeof(b[4]), s[i].p50),
                        bench_fmt_ns(b[5], sizeof(b[5]), reads ? s[i].rp99 : s[i].p99),
                        writes ? bench_fmt_ns(b[6], sizeof(b[6]), s[i].wp99) : "",
                        bench_fmt_ns(b[7], sizeof(b[7]), s[i].cpu * 1e3));
                /* every job of the run, so that what one job gains is seen beside what another pays */
                for (unsigned j = 0; s[i].jobs && j < s[i].njobs; j++)
                        fprintf(f, "  %-*s   job %-12s IOPS %-7s BW %-11s CLAT-P50 %-8s P99 %s\n", w, "",
                                o->jobs[j].name, bench_fmt_num(b[0], sizeof(b[0]), s[i].jobs[j].iops),
                                bench_fmt_bytes(b[1], sizeof(b[1]), s[i].jobs[j].bw),
                                bench_fmt_ns(b[2], sizeof(b[2]), s[i].jobs[j].p50),
                                bench_fmt_ns(b[3], sizeof(b[3]), s[i].jobs[j].p99));
        }
        rounds_measured(f, o, s, n);
        settled_depths(f, o, s, n);
        for (unsigned i = 0; i < n; i++)
                for (size_t k = 0; s[i].var && k < s[i].var->left.n; k++) {
                        const struct ios_setting *l = &s[i].var->left.s[k];

                        fprintf(f, "  %s ran with %s at %s's default: the kernel refuses the policy's %s "
                                "there: %s\n", s[i].name, l->key, s[i].var->sched, l->value, l->source);
                }
        fputc('\n', f);
        if (v->best >= 0 && v->second >= 0)
                bench_verdict_print(f, v, s[v->best].name, s[v->second].name,
                                    bench_objective_lower_is_better(o->objective), s[v->best].med,
                                    s[v->second].med, o->objective_label, "round", NULL);
        else if (v->best >= 0)
                fprintf(f, "  only %s completed\n", s[v->best].name);
        paid(f, o, s, v);
        fprintf(f, "  %s %s: %s\n", restored ? "restored" : "NOT restored", disk->name, restored_what);
        fprintf(f,
                "  (MIN-MAX and SPREAD are over loops; CPU/IO is machine-wide, kernel threads included)\n");
}

/* The completed runs' objective values of s into v (room for loops), how many. */
static unsigned values_of(const struct bench_cmp_variant *s, unsigned loops, double *v)
{
        unsigned k = 0;

        for (unsigned l = 0; l < loops; l++)
                if (s->runs[l].done)
                        v[k++] = s->runs[l].value;
        return k;
}

/*
 * "vs_best" of variant i: null for the best (or with no best), else how the
 * best beat it on the objective, by the verdict's own rule (verdict.c).
 */
static void vs_best_json(FILE *f, const struct bench_opts *o, const struct bench_cmp_variant *s, unsigned i,
                         const struct bench_verdict *v)
{
        double *a = calloc(o->loops ? o->loops : 1, sizeof(double)),
               *b = calloc(o->loops ? o->loops : 1, sizeof(double));
        struct bench_pair w;
        unsigned na, nb;

        if (!a || !b || v->best < 0 || (int)i == v->best || s[i].n == 0) {
                fprintf(f, "        \"vs_best\" : null,\n");
                goto out;
        }
        na = values_of(&s[v->best], o->loops, a);
        nb = values_of(&s[i], o->loops, b);
        bench_verdict_pair(a, na, b, nb, bench_objective_lower_is_better(o->objective), v->noise,
                           o->objective_label, &w);
        fprintf(f, "        \"vs_best\" : { \"best\" : ");
        bench_json_string(f, s[v->best].name);
        fprintf(f,
                ", \"margin_pct\" : %f, \"ratio\" : %f, \"p_value\" : %f, \"significant\" : %s, \"label\" : ",
                w.margin, w.ratio, w.p, w.significant ? "true" : "false");
        bench_json_string(f, w.label);
        fprintf(f, " },\n");
out:
        free(a);
        free(b);
}

/* ,"margin_pct" ... "label": the verdict (noise_pct null: one round, no noise figure) */
static void verdict_json(FILE *f, const struct bench_opts *o, const struct bench_cmp_variant *s,
                         const struct bench_verdict *v)
{
        char label[128] = "";

        if (v->best >= 0 && v->second >= 0)
                bench_win_label(label, sizeof(label), s[v->best].med, s[v->second].med,
                                bench_objective_lower_is_better(o->objective), o->objective_label);
        fprintf(f, ",\n    \"margin_pct\" : %f,\n    \"ratio\" : %f,\n    \"noise_pct\" : ", v->margin,
                v->ratio);
        if (v->noise_known)
                fprintf(f, "%f", v->noise);
        else
                fputs("null", f);
        fprintf(f, ",\n    \"p_value\" : %f,\n    \"significant\" : %s,\n    \"label\" : ", v->p,
                v->significant ? "true" : "false");
        bench_json_string(f, label);
        fputs(",\n", f);
}

void bench_compare_json(FILE *f, const struct bench_opts *o, const struct ios_device *disk,
                       struct bench_cmp_variant *s, unsigned n, const struct bench_verdict *v, bool restored,
                       char **bad, const char *orig, const struct bench_sched_state *st, const char *note)
{
        bench_report_json_begin(f, o);
        fprintf(f, "  \"compare\" : {\n    \"device\" : ");
        bench_json_string(f, disk->name);
        fprintf(f, ",\n    \"original_scheduler\" : ");
        bench_json_string(f, orig);
        fprintf(f, ",\n    \"objective\" : \"%s\",\n    \"lower_is_better\" : %s,\n    \"loops\" : %u,\n",
                o->objective_label, bench_objective_lower_is_better(o->objective) ? "true" : "false",
                o->loops);
        fprintf(f, "    \"objective_note\" : ");
        if (note)
                bench_json_string(f, note);
        else
                fputs("null", f);
        fprintf(f, ",\n    \"backend\" : ");
        bench_json_string(f, bench_backend_name);
        fprintf(f, ",\n    \"schedulers\" : [\n");
        for (unsigned i = 0; i < n; i++) {
                fprintf(f, "      {\n        \"name\" : ");
                bench_json_string(f, s[i].name);
                fputs(",\n", f);
                bench_variant_json(f, s[i].var, "        ");
                vs_best_json(f, o, s, i, v);
                fprintf(f, "        \"runs\" : %u,\n        \"values\" : [", s[i].n);
                for (unsigned l = 0, k = 0; l < o->loops; l++)
                        if (s[i].runs[l].done)
                                fprintf(f, "%s%f", k++ ? ", " : "", s[i].runs[l].value);
                fprintf(f, "],\n        \"median\" : %f,\n        \"min\" : %f,\n        \"max\" : %f,\n"
                        "        \"spread_pct\" : %f,\n        \"iops\" : %f,\n        \"bw_bytes\" : %f,\n"
                        "        \"clat_p50_ns\" : %f,\n        \"clat_p99_ns\" : %f,\n"
                        "        \"read_clat_p99_ns\" : %f,\n        \"write_clat_p99_ns\" : %f,\n"
                        "        \"machine_cpu_ns_per_io\" : %f,\n        \"jobs\" : [",
                        s[i].med, s[i].min, s[i].max, s[i].spread, s[i].iops, s[i].bw, s[i].p50, s[i].p99,
                        s[i].rp99, s[i].wp99, s[i].cpu * 1e3);
                for (unsigned j = 0; s[i].jobs && j < s[i].njobs; j++) {
                        fprintf(f, "%s\n          { \"name\" : ", j ? "," : "");
                        bench_json_string(f, o->jobs[j].name);
                        fprintf(f,
                                ", \"iops\" : %f, \"bw_bytes\" : %f, "
                                "\"clat_p50_ns\" : %f, \"clat_p99_ns\" : %f }",
                                s[i].jobs[j].iops, s[i].jobs[j].bw, s[i].jobs[j].p50, s[i].jobs[j].p99);
                }
                fprintf(f, "%s]\n      }%s\n", s[i].jobs ? "\n        " : "", i + 1 < n ? "," : "");
        }
        fprintf(f, "    ],\n    \"best\" : ");
        bench_json_string(f, v->best >= 0 ? s[v->best].name : "");
        fprintf(f, ",\n    \"runner_up\" : ");
        bench_json_string(f, v->second >= 0 ? s[v->second].name : "");
        verdict_json(f, o, s, v);
        fprintf(f, "    \"restored\" : %s,\n    \"restore_errors\" : [", restored ? "true" : "false");
        for (char **b = bad; b && *b; b++) {
                fprintf(f, "%s", b == bad ? "" : ", ");
                bench_json_string(f, *b);
        }
        fprintf(f, "],\n");
        bench_sched_kept_json(st, f, "    ");       /* what another program set, kept (sched-kept.c) */
        fprintf(f, "\n  },\n  \"jobs\" : [\n");
        {
                bool first = true;
                /* one entry per job (or reporting group) per variant run: JOB.VARIANT.ROUND */
                for (unsigned l = 0; l < o->loops; l++)
                        for (unsigned i = 0; i < n; i++) {
                                char suffix[128];

                                if (!s[i].runs[l].done)
                                        continue;
                                snprintf(suffix, sizeof(suffix), ".%s.%u", s[i].name, l + 1);
                                bench_report_json_units(f, o, &s[i].runs[l].res, suffix, &first);
                        }
                fprintf(f, "\n  ],\n");
        }
        bench_report_json_disk_util(f, NULL, NULL);
        fprintf(f, "}\n");
}
