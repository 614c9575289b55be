/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * observe.c: --observe, an A/B trial on the workload the disk already has.
 * No I/O of its own (the target is never opened: it only names the disk):
 * with the lock held and the state saved, it puts the disk in each
 * --compare variant in turn, interleaved over --loops rounds, lets it
 * settle for --ramp_time and then reads the disk's own counters
 * (sys/block/DEV/stat, through the disk's directory fd) at the start and
 * end of a --runtime window, as iostat does: IOPS and bytes per second,
 * average wait per read and per write (delta ticks / delta I/Os), the
 * time-averaged queue (delta time_in_queue / delta t), the sampled number
 * in flight, utilisation (delta io_ticks / delta t) and merges.  Then the
 * table of medians and spreads per variant, the verdict (verdict.c), and a
 * warning when the load itself changed too much between rounds to judge.
 * The state is restored at the end, and on a signal by the main path (the
 * handlers only set a flag) or by the atexit handler (sched-state.c).
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"

/* the load-change rule (iosched-bench(8)): a variant's IOPS spread over rounds above this */
#define LOAD_SPREAD_MAX 50.0
#define SAMPLE_NS 100000000ull  /* in-flight sampled every 100 ms */

enum { M_IOPS, M_RIOPS, M_WIOPS, M_BW, M_RBW, M_WBW, M_AWAIT, M_RAWAIT, M_WAWAIT, M_AQU, M_INFLIGHT,
       M_UTIL, M_RMRG, M_WMRG, M_N };

static const char * const m_json[M_N] = {
        "iops", "read_iops", "write_iops", "bw_bytes", "read_bw_bytes", "write_bw_bytes",
        "await_ms", "read_await_ms", "write_await_ms", "aqu_sz", "in_flight", "util_pct",
        "read_merges_per_s", "write_merges_per_s",
};

struct window {
        double m[M_N];                  /* NAN: no I/O of that kind to average over */
        bool done;
};

struct vsum {
        const char *name;
        const struct bench_variant *var;
        struct window *w;               /* per round */
        double med[M_N], spread[M_N];
        unsigned n;                     /* complete windows */
};

int bench_observe_check_opts(const struct bench_opts *o, struct bench_error *e)
{
        bool wants_await = o->objective == BENCH_OBJ_AWAIT || o->objective == BENCH_OBJ_READ_AWAIT;

        if (!o->observe)
                return wants_await ? bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                     "--objective=%s needs --observe (the disk's own counters)",
                                                     bench_objective_to_string(o->objective)) : 0;
        if (!o->compare)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "--observe needs --compare (the variants to alternate)");
        if (!o->filename)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--observe needs --filename (the device to watch)");
        if (o->objective_job)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "--objective=%s:... names a job, and --observe runs none: use iops, bw, await or read-await",
                                       o->objective_job);
        if (o->objective == BENCH_OBJ_P99 || o->objective == BENCH_OBJ_READ_P99)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "--objective=%s is not in the disk's counters: with --observe use iops, bw, await or read-await",
                                       bench_objective_to_string(o->objective));
        return 0;
}

static int objective_metric(enum bench_objective o)
{
        return o == BENCH_OBJ_BW ? M_BW : o == BENCH_OBJ_AWAIT ? M_AWAIT : o == BENCH_OBJ_READ_AWAIT ? M_RAWAIT : M_IOPS;
}

/* Sleep until deadline (CLOCK_MONOTONIC ns); false if a signal stopped it.  Sums in_flight samples. */
static bool wait_until(struct ios_device *d, uint64_t deadline, double *inflight_sum, unsigned *inflight_n)
{
        for (;;) {
                uint64_t now = bench_clock_gettime_ns(), step;
                struct timespec ts;
                uint64_t st[11];

                if (bench_stop_signal)
                        return false;
                if (now >= deadline)
                        return true;
                step = deadline - now < SAMPLE_NS ? deadline - now : SAMPLE_NS;
                ts = (struct timespec){ .tv_sec = (time_t)(step / 1000000000ull), .tv_nsec = (long)(step % 1000000000ull) };
                nanosleep(&ts, NULL);   /* a signal ends it early (no SA_RESTART) */
                if (inflight_sum && bench_disk_stat_read(d, st)) {
                        *inflight_sum += (double)st[8];
                        (*inflight_n)++;
                }
        }
}

static void window_from(struct window *w, const uint64_t a[11], const uint64_t b[11], double dt,
                        double inflight)
{
        double d[11];

        for (int i = 0; i < 11; i++)
                d[i] = b[i] >= a[i] ? (double)(b[i] - a[i]) : 0;        /* in_flight (8) is not a counter */
        w->m[M_RIOPS] = d[0] / dt;
        w->m[M_WIOPS] = d[4] / dt;
        w->m[M_IOPS] = (d[0] + d[4]) / dt;
        w->m[M_RBW] = d[2] * 512 / dt;
        w->m[M_WBW] = d[6] * 512 / dt;
        w->m[M_BW] = (d[2] + d[6]) * 512 / dt;
        w->m[M_RAWAIT] = d[0] > 0 ? d[3] / d[0] : NAN;
        w->m[M_WAWAIT] = d[4] > 0 ? d[7] / d[4] : NAN;
        w->m[M_AWAIT] = d[0] + d[4] > 0 ? (d[3] + d[7]) / (d[0] + d[4]) : NAN;
        w->m[M_AQU] = d[10] / (dt * 1000);
        w->m[M_INFLIGHT] = inflight;
        w->m[M_UTIL] = fmin(d[9] / (dt * 1000) * 100, 100);
        w->m[M_RMRG] = d[1] / dt;
        w->m[M_WMRG] = d[5] / dt;
        w->done = true;
}

static void summarise(struct vsum *s, unsigned rounds)
{
        double *v = calloc(rounds ? rounds : 1, sizeof(*v));

        s->n = 0;
        for (unsigned r = 0; r < rounds; r++)
                s->n += s->w[r].done;
        for (int m = 0; m < M_N; m++) {
                unsigned k = 0;

                for (unsigned r = 0; v && r < rounds; r++)
                        if (s->w[r].done && !isnan(s->w[r].m[m]))
                                v[k++] = s->w[r].m[m];
                if (k == 0) {
                        s->med[m] = NAN;
                        s->spread[m] = NAN;
                } else
                        bench_spread(v, k, &s->med[m], NULL, NULL, &s->spread[m]);
        }
        free(v);
}

static void decide(struct vsum *s, unsigned n, unsigned rounds, int metric, bool low, struct bench_verdict *v)
{
        double **vals = calloc(n ? n : 1, sizeof(*vals));
        unsigned *counts = calloc(n ? n : 1, sizeof(*counts));
        bool ok = vals && counts;

        for (unsigned i = 0; ok && i < n; i++) {
                vals[i] = calloc(rounds, sizeof(**vals));
                ok = vals[i] != NULL;
                for (unsigned r = 0; ok && r < rounds; r++)
                        if (s[i].w[r].done && !isnan(s[i].w[r].m[metric]))
                                vals[i][counts[i]++] = s[i].w[r].m[metric];
        }
        if (ok)
                bench_verdict_decide(vals, counts, n, low, v);
        else
                *v = (struct bench_verdict){ .best = -1, .second = -1, .p = 1.0 };
        for (unsigned i = 0; vals && i < n; i++)
                free(vals[i]);
        free(vals);
        free(counts);
}

/*
 * The load-change warning: the variant whose IOPS moved most between its
 * rounds, if (max - min) is above LOAD_SPREAD_MAX % of its median (a median
 * of 0 with I/O in some round counts as above); -1 if none.
 */
static int load_changed(const struct vsum *s, unsigned n, unsigned rounds, double *ret_pct)
{
        double worst_pct = 0;
        int worst = -1;

        for (unsigned i = 0; i < n; i++) {
                double mn = INFINITY, mx = 0, med = s[i].med[M_IOPS], pct;

                if (s[i].n < 2)
                        continue;
                for (unsigned r = 0; r < rounds; r++)
                        if (s[i].w[r].done) {
                                mn = fmin(mn, s[i].w[r].m[M_IOPS]);
                                mx = fmax(mx, s[i].w[r].m[M_IOPS]);
                        }
                pct = med > 0 ? (mx - mn) / med * 100 : mx > 0 ? INFINITY : 0;
                if (pct > LOAD_SPREAD_MAX && (worst < 0 || pct > worst_pct)) {
                        worst = (int)i;
                        worst_pct = pct;
                }
        }
        *ret_pct = worst_pct;
        return worst;
}

/* Not one I/O in any complete round: nothing to judge. */
/* Idle: not one complete round of any variant saw I/O (a median of 0 with some rounds busy is a load
 * that changed, not an idle disk). */
static bool idle(const struct vsum *s, unsigned n, unsigned loops)
{
        for (unsigned i = 0; i < n; i++)
                for (unsigned r = 0; s[i].n > 0 && r < loops; r++)
                        if (s[i].w[r].done && s[i].w[r].m[M_IOPS] > 0)
                                return false;
        return true;
}

static const char *fmt_metric(int m, double v, char *buf, size_t len)
{
        if (isnan(v))
                return "-";
        switch (m) {
        case M_BW: case M_RBW: case M_WBW:
                return bench_fmt_bytes(buf, len, v);
        case M_AWAIT: case M_RAWAIT: case M_WAWAIT:
                return bench_fmt_ns(buf, len, v * 1e6);
        case M_AQU: case M_INFLIGHT:
                snprintf(buf, len, "%.2f", v);
                return buf;
        case M_UTIL:
                snprintf(buf, len, "%.1f%%", v);
                return buf;
        default:
                return bench_fmt_num(buf, len, v);
        }
}

static void print_text(FILE *f, const struct bench_opts *o, const struct ios_device *d, const struct vsum *s,
                       unsigned n, const struct bench_verdict *v, int metric, int changed, double changed_pct,
                       bool restored, const char *restored_what)
{
        int w = 11;
        char b[12][32];

        for (unsigned i = 0; i < n; i++)
                w = (int)strlen(s[i].name) > w ? (int)strlen(s[i].name) : w;
        fprintf(f, "iosched-bench: observe %s (%s, %s): no I/O of its own, the disk's counters (stat)\n", d->name,
                ios_class_to_string(d->cls), o->filename);
        fprintf(f,
                "  %u rounds x %.1fs (+%.1fs settle) per variant, interleaved; "
                "objective %s (%s is better)\n\n",
                o->loops, (double)o->runtime_ns / 1e9, (double)o->ramp_ns / 1e9,
                bench_objective_to_string(o->objective),
                bench_objective_lower_is_better(o->objective) ? "lower" : "higher");
        fprintf(f, "  %-*s %6s %9s %19s %7s %9s %10s %9s %9s %7s %8s %6s %9s\n", w + 2,
                w > 11 ? "VARIANT" : "SCHEDULER", "ROUNDS", o->objective == BENCH_OBJ_IOPS ? "IOPS" :
                bench_objective_to_string(o->objective), "[MIN - MAX]", "SPREAD", "IOPS", "BW/s", "R-AWAIT",
                "W-AWAIT", "AQU-SZ", "INFLIGHT", "UTIL", "MERGES/s");
        for (unsigned i = 0; i < n; i++) {
                double mn = NAN, mx = NAN;
                char range[64];

                if (s[i].n == 0) {
                        fprintf(f, "  %-*s %6u  (no complete round)\n", w + 2, s[i].name, 0u);
                        continue;
                }
                for (unsigned r = 0; r < o->loops; r++) {
                        double x = s[i].w[r].m[metric];

                        if (!s[i].w[r].done || isnan(x))
                                continue;
                        mn = isnan(mn) || x < mn ? x : mn;
                        mx = isnan(mx) || x > mx ? x : mx;
                }
                snprintf(range, sizeof(range), "[%s - %s]", fmt_metric(metric, mn, b[0], 32),
                         fmt_metric(metric, mx, b[1], 32));
                fprintf(f, "  %-*s%s %6u %9s %19s %6.1f%% %9s %10s %9s %9s %7s %8s %6s %9s\n", w,
                        s[i].name, (int)i == v->best ? " *" : "  ", s[i].n, fmt_metric(metric, s[i].med[metric], b[2], 32),
                        range, isnan(s[i].spread[metric]) ? 0 : s[i].spread[metric],
                        fmt_metric(M_IOPS, s[i].med[M_IOPS], b[3], 32), fmt_metric(M_BW, s[i].med[M_BW], b[4], 32),
                        fmt_metric(M_RAWAIT, s[i].med[M_RAWAIT], b[5], 32),
                        fmt_metric(M_WAWAIT, s[i].med[M_WAWAIT], b[6], 32),
                        fmt_metric(M_AQU, s[i].med[M_AQU], b[7], 32),
                        fmt_metric(M_INFLIGHT, s[i].med[M_INFLIGHT], b[8], 32),
                        fmt_metric(M_UTIL, s[i].med[M_UTIL], b[9], 32),
                        fmt_metric(M_IOPS, s[i].med[M_RMRG] + s[i].med[M_WMRG], b[10], 32));
        }
        fputc('\n', f);
        if (idle(s, n, o->loops))
                fprintf(f, "  no round saw I/O to judge by: the disk was idle\n");
        else if (v->best >= 0 && v->second >= 0)
                bench_verdict_print(f, v, s[v->best].name, s[v->second].name,
                                    bench_objective_lower_is_better(o->objective), s[v->best].med[metric],
                                    s[v->second].med[metric], bench_objective_to_string(o->objective),
                                    "round",
                                    changed >= 0 ? "not judged, the load changed (see below)" : NULL);
        else if (v->best >= 0)
                fprintf(f, "  only %s has a complete round\n", s[v->best].name);
        if (changed >= 0 && isinf(changed_pct))
                fprintf(f, "  WARNING: the load changed between rounds: %s saw no I/O in most rounds and some in "
                        "others; the comparison cannot be trusted\n", s[changed].name);
        else if (changed >= 0)
                fprintf(f, "  WARNING: the load changed between rounds: the IOPS of %s varied by %.0f%% of its median "
                        "(more than %.0f%%); the comparison cannot be trusted, observe a steadier period or "
                        "shorter rounds\n", s[changed].name, changed_pct, LOAD_SPREAD_MAX);
        fprintf(f, "  %s %s: %s\n", restored ? "restored" : "NOT restored", d->name, restored_what);
        fprintf(f, "  (medians over rounds; AWAIT = delta ticks / delta I/Os per direction, AQU-SZ = delta time_in_queue / "
                "delta t, INFLIGHT sampled every 0.1s, UTIL = delta io_ticks / delta t, as iostat)\n");
}

static void json_num(FILE *f, double v)
{
        if (isnan(v) || isinf(v))
                fputs("null", f);
        else
                fprintf(f, "%f", v);
}

static void print_json(FILE *f, const struct bench_opts *o, const struct ios_device *d, const struct vsum *s,
                       unsigned n, const struct bench_verdict *v, int changed, bool restored, char **bad,
                       const char *orig)
{
        fprintf(f, "{\n  \"iosched-bench version\" : \"iosched-bench-%s\",\n  \"timestamp\" : %lld,\n",
                IOS_VERSION, (long long)time(NULL));
        fprintf(f, "  \"observe\" : {\n    \"device\" : ");
        bench_json_string(f, d->name);
        fprintf(f, ",\n    \"original_scheduler\" : ");
        bench_json_string(f, orig);
        fprintf(f,
                ",\n    \"objective\" : \"%s\",\n    \"lower_is_better\" : %s,\n    \"rounds\" : %u,\n"
                "    \"runtime_ms\" : %.0f,\n    \"settle_ms\" : %.0f,\n    \"variants\" : [\n",
                bench_objective_to_string(o->objective),
                bench_objective_lower_is_better(o->objective) ? "true" : "false", o->loops,
                (double)o->runtime_ns / 1e6, (double)o->ramp_ns / 1e6);
        for (unsigned i = 0; i < n; i++) {
                fprintf(f, "      {\n        \"name\" : ");
                bench_json_string(f, s[i].name);
                fputs(",\n", f);
                bench_variant_json(f, s[i].var, "        ");
                fprintf(f, "        \"rounds\" : %u,\n        \"windows\" : [", s[i].n);
                for (unsigned r = 0, k = 0; r < o->loops; r++) {
                        if (!s[i].w[r].done)
                                continue;
                        fprintf(f, "%s\n          { \"round\" : %u", k++ ? "," : "", r + 1);
                        for (int m = 0; m < M_N; m++) {
                                fprintf(f, ", \"%s\" : ", m_json[m]);
                                json_num(f, s[i].w[r].m[m]);
                        }
                        fputs(" }", f);
                }
                fprintf(f, "\n        ],\n        \"median\" : {");
                for (int m = 0; m < M_N; m++) {
                        fprintf(f, "%s\"%s\" : ", m ? ", " : " ", m_json[m]);
                        json_num(f, s[i].med[m]);
                }
                fprintf(f, " },\n        \"spread_pct\" : {");
                for (int m = 0; m < M_N; m++) {
                        fprintf(f, "%s\"%s\" : ", m ? ", " : " ", m_json[m]);
                        json_num(f, s[i].spread[m]);
                }
                fprintf(f, " }\n      }%s\n", i + 1 < n ? "," : "");
        }
        fprintf(f, "    ],\n    \"best\" : ");
        bench_json_string(f, v->best >= 0 ? s[v->best].name : "");
        fprintf(f, ",\n    \"runner_up\" : ");
        bench_json_string(f, v->second >= 0 ? s[v->second].name : "");
        fprintf(f, ",\n    \"margin_pct\" : %f,\n    \"noise_pct\" : ", v->margin);
        json_num(f, v->noise_known ? v->noise : NAN);
        fprintf(f, ",\n    \"p_value\" : %f,\n"
                "    \"significant\" : %s,\n    \"idle\" : %s,\n    \"load_changed\" : %s,\n    \"load_spread_max_pct\" : %.0f,\n"
                "    \"restored\" : %s,\n    \"restore_errors\" : [",
                v->p, v->significant && changed < 0 && !idle(s, n, o->loops) ? "true" : "false",
                idle(s, n, o->loops) ? "true" : "false", changed >= 0 ? "true" : "false", LOAD_SPREAD_MAX, restored ? "true" : "false");
        for (char **b = bad; b && *b; b++) {
                fprintf(f, "%s", b == bad ? "" : ", ");
                bench_json_string(f, *b);
        }
        fprintf(f, "]\n  }\n}\n");
}

/* The whole disk behind path, found without opening path: a block device or a file on one. */
static int find_disk(struct ios_ctx *root, const char *path, struct ios_device **ret, struct bench_error *e)
{
        struct stat st;
        dev_t dev;
        char name[32];
        int r;

        if (stat(path, &st) < 0)
                return bench_error_set(e, BENCH_ERR_USAGE, errno, "--observe: %s: %s", path,
                                       ios_strerror(errno));
        dev = S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev;
        if (!S_ISBLK(st.st_mode) && major(dev) == 0)
                return bench_error_set(e, BENCH_ERR_USAGE, ENODEV, "--observe: %s is not on a block device", path);
        snprintf(name, sizeof(name), "%u:%u", major(dev), minor(dev));
        r = ios_device_new(root, name, ret);
        if (r < 0)
                return bench_error_set(e, BENCH_ERR_USAGE, -r, "--observe: no disk behind %s (%s): %s", path, name,
                                       ios_strerror(r));
        return 0;
}

/* The measurement of --observe: settle, then one window of the disk's counters. */
struct window_ctx {
        const struct bench_opts *o;
        struct ios_device *d;
        struct vsum *s;
        bool progress;
        struct window w;                /* the last window, kept once the state is known to have held */
};

static int measure_window(void *userdata, unsigned i, unsigned l, const char *tag, struct bench_error *e)
{
        struct window_ctx *m = userdata;
        struct ios_device *d = m->d;
        uint64_t a[11], b[11], t0, t1;
        double inflight = 0;
        unsigned ninflight = 0;

        if (!wait_until(d, bench_clock_gettime_ns() + m->o->ramp_ns, NULL, NULL))
                return 1;
        t0 = bench_clock_gettime_ns();
        if (!bench_disk_stat_read(d, a))
                return bench_error_set(e, BENCH_ERR_SYSTEM, EIO, "%s: cannot read its stat", d->name);
        if (!wait_until(d, t0 + m->o->runtime_ns, &inflight, &ninflight))
                return 1;
        t1 = bench_clock_gettime_ns();
        if (!bench_disk_stat_read(d, b))
                return bench_error_set(e, BENCH_ERR_SYSTEM, EIO, "%s: cannot read its stat", d->name);
        window_from(&m->w, a, b, (double)(t1 - t0) / 1e9, ninflight ? inflight / ninflight : (double)b[8]);
        if (m->progress) {
                char x[32], y[32];

                fprintf(stderr, "observe %s: %s round: %s IOPS, await %s\n", d->name, tag,
                        fmt_metric(M_IOPS, m->w.m[M_IOPS], x, sizeof(x)), fmt_metric(M_AWAIT, m->w.m[M_AWAIT], y, sizeof(y)));
        }
        (void)i;
        (void)l;
        return 0;
}

static void keep_window(void *userdata, unsigned i, unsigned l)
{
        struct window_ctx *m = userdata;

        m->s[i].w[l] = m->w;
}

struct upfront {
        const struct bench_opts *o;
        const struct ios_device *d;
};

/* With the lock held, before the first switch: the disk, how long, what it holds (upfront.c). */
static void upfront(void *userdata, unsigned nvariants)
{
        const struct upfront *u = userdata;

        bench_upfront_print(stderr, u->o, u->d, u->o->filename, true, 0, nvariants, NULL);
}

int bench_observe(const struct bench_opts *o, struct ios_ctx *root, const struct bench_compare_hooks *hooks,
                  FILE *out, struct bench_error *e)
{
        struct ios_device *d = NULL;
        struct bench_trial t = { .lock = BENCH_DISK_LOCK_INIT };
        struct vsum *s = NULL;
        struct bench_verdict v;
        int r, metric = objective_metric(o->objective), changed;
        double changed_pct;
        char what[256];

        r = find_disk(root, o->filename, &d, e);
        if (r < 0)
                return r;
        if (!d->sched_current) {
                r = bench_error_set(e, BENCH_ERR_USAGE, ENOTSUP, "--observe: %s has no I/O scheduler to choose", d->name);
                goto out;
        }
        /* without the kernel's counters every window reads as idle: say why instead */
        {
                _cleanup_free_ char *iostats = NULL;

                if (ios_sysfs_read_string(d->fd, "queue/iostats", &iostats) == 0 && streq(iostats, "0")) {
                        r = bench_error_set(e, BENCH_ERR_USAGE, ENODATA,
                                            "--observe: %s has queue/iostats=0: the kernel keeps no I/O counters for it "
                                            "(echo 1 > /sys/block/%s/queue/iostats)", d->name, d->name);
                        goto out;
                }
        }
        t.upfront = upfront;
        t.upfront_data = &(struct upfront){ o, d };
        r = bench_trial_begin(o, d, &t, e);
        if (r == 0 && !(s = calloc(t.vs.n, sizeof(*s))))
                r = -ENOMEM;
        for (unsigned i = 0; r == 0 && i < t.vs.n; i++) {
                s[i].name = t.vs.v[i].label;
                s[i].var = &t.vs.v[i];
                s[i].w = calloc(o->loops, sizeof(*s[i].w));
                if (!s[i].w)
                        r = -ENOMEM;
        }
        if (r == 0) {
                struct window_ctx m = { .o = o, .d = d, .s = s, .progress = bench_eta_wanted(o, stderr) };

                r = bench_trial_rounds(&t, o, hooks, "round", measure_window, keep_window, &m, e);
        }
        if (!t.saved)
                goto out;
        if (r < 0) {
                /* learning or a switch failed: nothing measured to show */
                r = bench_trial_restore(&t, r, e);
                goto out;
        }
        r = bench_trial_restore(&t, r, e);
        for (unsigned i = 0; i < t.vs.n; i++)
                summarise(&s[i], o->loops);
        decide(s, t.vs.n, o->loops, metric, bench_objective_lower_is_better(o->objective), &v);
        changed = load_changed(s, t.vs.n, o->loops, &changed_pct);
        if (o->json)
                print_json(out, o, d, s, t.vs.n, &v, changed, t.restored, t.bad, t.orig);
        else
                print_text(out, o, d, s, t.vs.n, &v, metric, changed, changed_pct, t.restored,
                           bench_sched_restored_what(&t.st, what, sizeof(what)));
out:
        for (unsigned i = 0; s && i < t.vs.n; i++)
                free(s[i].w);
        free(s);
        bench_trial_done(&t);
        ios_device_free(d);
        return r;
}
