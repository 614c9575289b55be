/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * report.c: the results of one run, as a human summary in fio's shape
 * (IOPS/BW line, slat/clat/lat lines, clat percentiles, cpu line) and as
 * JSON laid out like fio's --output-format=json for every field both tools
 * have (jobs[].read.iops, .bw, .clat_ns.percentile["99.000000"], lat_ns,
 * slat_ns, usr_cpu, iodepth_submit, disk_util ...), so scripts written for
 * fio read ours unchanged.  What fio has no field for (engine setup,
 * machine-wide CPU per I/O, the clock used) goes under jobs[].iosched.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "macro.h"
#include "strv.h"

const char *bench_backend_name = "native";

/* n over the time of direction dir's I/O, or of the result's (dir < 0) */
static double per_second(const struct bench_result *r, int dir, uint64_t n)
{
        uint64_t t = dir < 0 ? r->runtime_ns : bench_result_dir_ns(r, dir);

        return t ? (double)n * 1e9 / (double)t : 0;
}

double bench_result_iops(const struct bench_result *r, int dir)
{
        uint64_t n = 0;

        for (int d = 0; d < BENCH_NDIR; d++)
                if (dir < 0 || dir == d)
                        n += r->d[d].ios;
        return per_second(r, dir, n);
}

double bench_result_bw(const struct bench_result *r, int dir)
{
        uint64_t n = 0;

        for (int d = 0; d < BENCH_NDIR; d++)
                if (dir < 0 || dir == d)
                        n += r->d[d].bytes;
        return per_second(r, dir, n);
}

uint64_t bench_result_clat_pct(const struct bench_result *r, int dir, double p)
{
        static uint64_t hist[BENCH_HIST_NR];    /* single-threaded caller */
        uint64_t v = 0;

        memset(hist, 0, sizeof(hist));
        for (int d = 0; d < BENCH_NDIR; d++)
                if (dir < 0 || dir == d)
                        bench_hist_merge(hist, r->d[d].clat_hist);
        bench_hist_percentiles(hist, &p, 1, &v);
        return v;
}

double bench_result_cpu_us_per_io(const struct bench_result *r, bool machine)
{
        uint64_t ios = r->d[0].ios + r->d[1].ios;

        if (ios == 0)
                return 0;
        if (machine)
                return r->machine_busy_pct / 100.0 * (double)r->runtime_ns / 1e3 / (double)ios;
        return (double)(r->usr_ns + r->sys_ns) / 1e3 / (double)ios;
}

/* fio's unit choice: nsec for small values, usec, msec for large */
static void lat_line(FILE *f, const char *name, const struct bench_lat *l)
{
        double div = 1;
        const char *unit = "nsec";

        if (l->n == 0)
                return;
        if (l->max >= 10000000ull) {
                div = 1e6;
                unit = "msec";
        } else if (l->max >= 10000) {
                div = 1e3;
                unit = "usec";
        }
        fprintf(f, "    %4s (%s): min=%.2f, max=%.2f, avg=%.2f, stdev=%.2f\n", name, unit,
                (double)l->min / div, (double)l->max / div, bench_lat_mean(l) / div, bench_lat_stddev(l) / div);
}

static void sample_stats(const double *v, unsigned n, double *min, double *max, double *mean, double *sd)
{
        double s = 0, ss = 0;

        *min = *max = *mean = *sd = 0;
        if (n == 0)
                return;
        *min = *max = v[0];
        for (unsigned i = 0; i < n; i++) {
                s += v[i];
                if (v[i] < *min)
                        *min = v[i];
                if (v[i] > *max)
                        *max = v[i];
        }
        *mean = s / n;
        for (unsigned i = 0; i < n; i++)
                ss += (v[i] - *mean) * (v[i] - *mean);
        *sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
}

static void dir_text(FILE *f, const struct bench_result *r, int d)
{
        static const double p[] = { 50, 90, 99, 99.9, 99.99 };
        static const char * const pn[] = { "p50", "p90", "p99", "p99.9", "p99.99" };
        const struct bench_dir_stats *s = &r->d[d];
        uint64_t v[ELEMENTSOF(p)];
        char a[32], b[32], x[32];
        double mn, mx, mean, sd;

        if (s->ios == 0)
                return;
        fprintf(f, "  %s: IOPS=%s, BW=%s/s (%.1fMB/s), %" PRIu64 " ios in %.2fs%s\n",
                d == BENCH_READ ? "read" : "write",
                bench_fmt_num(a, sizeof(a), bench_result_iops(r, d)),
                bench_fmt_bytes(b, sizeof(b), bench_result_bw(r, d)), bench_result_bw(r, d) / 1e6,
                s->ios, (double)bench_result_dir_ns(r, d) / 1e9,
                s->short_ios ? " (some short)" : "");
        lat_line(f, "slat", &s->slat);
        lat_line(f, "clat", &s->clat);
        lat_line(f, "lat", &s->lat);
        if (s->clat.n > 0) {    /* none measured (fio's disable_clat=): none shown, as fio */
                bench_hist_percentiles(s->clat_hist, p, ELEMENTSOF(p), v);
                fprintf(f, "    clat percentiles:");
                for (size_t i = 0; i < ELEMENTSOF(p); i++)
                        fprintf(f, " %s=%s", pn[i], bench_fmt_ns(x, sizeof(x), (double)v[i]));
                fputc('\n', f);
        }
        sample_stats(r->iops_samples[d], r->n_samples, &mn, &mx, &mean, &sd);
        if (r->n_samples > 1)
                fprintf(f, "    iops per 0.5s: min=%.0f, max=%.0f, avg=%.0f, stdev=%.0f (%.1f%%), samples=%u\n",
                        mn, mx, mean, sd, mean > 0 ? sd / mean * 100 : 0, r->n_samples);
}

static void batching(const uint64_t *calls, uint64_t ios, double *per_call)
{
        uint64_t n = 0;

        for (int b = 0; b < BENCH_DEPTH_BUCKETS; b++)
                n += calls[b];
        *per_call = n ? (double)ios / (double)n : 0;
}

/* The same bssplit list for reads and writes */
static bool split_same(const struct bench_opts *o)
{
        return o->n_bssplit[0] == o->n_bssplit[1] &&
               !memcmp(o->bssplit[0], o->bssplit[1], o->n_bssplit[0] * sizeof(o->bssplit[0][0]));
}

/* A direction's bssplit list: 4KiB/50:64KiB/50 */
static size_t split_list(char *buf, size_t len, const struct bench_opts *o, int d)
{
        size_t n = 0;

        for (unsigned i = 0; i < o->n_bssplit[d] && n < len; i++) {
                const struct bench_bssplit *x = &o->bssplit[d][i];
                char a[32];

                bench_fmt_bytes(a, sizeof(a), x->bs);
                n += (size_t)snprintf(buf + n, len - n, "%s%s/%u", i ? ":" : "", a, x->perc);
        }
        return n < len ? n : len;
}

const char *bench_fmt_bs(char *buf, size_t len, const struct bench_opts *o)
{
        bool r = bench_rw_reads(o->rw), w = bench_rw_writes(o->rw);
        char a[32], b[32];

        if (o->n_bssplit[BENCH_READ] || o->n_bssplit[BENCH_WRITE]) {
                size_t n = (size_t)snprintf(buf, len, "bssplit=");

                if (n < len)
                        n += split_list(buf + n, len - n, o, r ? BENCH_READ : BENCH_WRITE);
                if (r && w && !split_same(o) && n + 1 < len) {
                        buf[n++] = ',';
                        split_list(buf + n, len - n, o, BENCH_WRITE);
                }
                return buf;
        }
        if (o->bs[0] == o->bs[1] || !w || !r)
                snprintf(buf, len, "bs=%s", bench_fmt_bytes(a, sizeof(a), o->bs[r ? 0 : 1]));
        else
                snprintf(buf, len, "bs=%s,%s", bench_fmt_bytes(a, sizeof(a), o->bs[0]),
                         bench_fmt_bytes(b, sizeof(b), o->bs[1]));
        return buf;
}

/* One reported unit: a job, or a group_reporting group merged (r->merged jobs). */
static void unit_text(FILE *f, const struct bench_opts *o, const struct bench_result *r)
{
        char a[32], b[32], label[600];
        uint64_t ios = r->d[0].ios + r->d[1].ios;
        double rt = (double)r->runtime_ns / 1e9, sub, reap;

        fprintf(f, "%s: %s rw=%s", o->name, r->path ? r->path : "null", bench_rw_to_string(o->rw));
        if (bench_rw_reads(o->rw) && bench_rw_writes(o->rw))
                fprintf(f, " rwmixread=%u", o->rwmixread);
        fprintf(f, " %s", bench_fmt_bs(label, sizeof(label), o));
        fprintf(f, " iodepth=%u", r->depth);
        if (r->depth != o->iodepth)
                fprintf(f, " (of %u: where fio's latency_target= search stood at the end)", o->iodepth);
        fprintf(f, " numjobs=%u ioengine=%s direct=%d", o->numjobs, o->engine->name, o->direct);
        if (r->merged > 1)
                fprintf(f, " (group %u: %u jobs reported together)", o->groupid, r->merged);
        fputc('\n', f);
        fprintf(f, "  engine: %s; clock: %s", r->engine_note[0] ? r->engine_note : "-", bench_clock_name());
        if (o->ncpus) {
                char cpus[256];

                fprintf(f, "; cpus %s%s", bench_fmt_cpus(cpus, sizeof(cpus), &o->cpus), o->cpus_split ? " split" : "");
        }
        if (o->prioclass > 0)
                fprintf(f, "; ioprio %s/%d", o->prioclass == 1 ? "rt" : o->prioclass == 2 ? "be" : "idle", o->prio);
        if (r->region_len)
                fprintf(f, "\n  region: %s at offset %s; measured %.2fs", bench_fmt_bytes(a, sizeof(a), (double)r->region_len),
                        bench_fmt_bytes(b, sizeof(b), (double)r->region_start), rt);
        else
                fprintf(f, "\n  measured %.2fs", rt);      /* fio's run: its regions are fio's */
        if (o->ramp_ns)
                fprintf(f, " after %.2fs ramp", (double)o->ramp_ns / 1e9);
        if (o->startdelay_ns)
                fprintf(f, ", started %.2fs late", (double)o->startdelay_ns / 1e9);
        fprintf(f, "%s\n", r->interrupted ? " (interrupted)" : "");
        for (int d = 0; d < BENCH_NDIR; d++)
                dir_text(f, r, d);
        if (ios == 0)
                fprintf(f, "  no I/O completed in the measured window\n");
        if (rt > 0)
                fprintf(f, "  cpu: usr=%.2f%%, sys=%.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64 ", minf=%" PRIu64
                        "; %s per I/O in our threads\n",
                        (double)r->usr_ns / 1e7 / rt, (double)r->sys_ns / 1e7 / rt, r->ctx, r->majf, r->minf,
                        bench_fmt_ns(a, sizeof(a), bench_result_cpu_us_per_io(r, false) * 1e3));
        if ((o->engine->flags & BENCH_ENGINE_NOFILE) && ios && rt > 0)
                fprintf(f, "  harness cost: %.1f ns per I/O per thread (runtime x jobs / I/Os, no I/O done)\n",
                        rt * 1e9 * o->numjobs / (double)ios);
        batching(r->submit_calls, ios, &sub);
        batching(r->reap_calls, ios, &reap);
        if (ios && sub > 0)
                fprintf(f, "  batching: %.1f I/Os per submit call, %.1f per reap call\n", sub, reap);
}

int bench_report_units(const struct bench_opts *o, const struct bench_result *r, struct bench_result **ret,
                       unsigned *ret_n)
{
        struct bench_result *u = calloc(r->njobs ? r->njobs : 1, sizeof(*u));
        _cleanup_free_ unsigned *members = calloc(r->njobs ? r->njobs : 1, sizeof(*members));
        unsigned n = 0;
        int k = 0;

        if (!u || !members) {
                free(u);
                return -ENOMEM;
        }
        for (unsigned j = 0; j < r->njobs && k == 0; j++) {
                const struct bench_opts *jo = &o->jobs[j];
                unsigned m = 0;
                bool seen = false;

                /* group_reporting: the group's jobs that ask for it, merged where the first one is */
                if (jo->group_reporting)
                        for (unsigned i = 0; i < j; i++)
                                seen |= o->jobs[i].group_reporting && o->jobs[i].groupid == jo->groupid;
                if (seen)
                        continue;
                for (unsigned i = j; i < r->njobs && k == 0; i++)
                        if (i == j || (jo->group_reporting && o->jobs[i].group_reporting &&
                                       o->jobs[i].groupid == jo->groupid)) {
                                k = bench_result_merge(&u[n], &r->jobs[i]);
                                members[m++] = i;
                        }
                /* the group's time, and each direction's, as its jobs ran (one may wait for another) */
                if (m > 1)
                        bench_result_spans(&u[n], r->jobs, members, m);
                n++;
        }
        if (k < 0) {
                for (unsigned i = 0; i < n; i++)
                        bench_result_done(&u[i]);
                free(u);
                return k;
        }
        *ret = u;
        *ret_n = n;
        return 0;
}

void bench_report_text(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, const struct bench_result *r)
{
        struct bench_result *u = NULL;
        unsigned n = 0;
        double rt = (double)r->runtime_ns / 1e9;
        char c[32];

        (void)tg;
        if (!streq(bench_backend_name, "native"))
                fprintf(f, "backend: %s\n", bench_backend_name);
        if (bench_report_units(o, r, &u, &n) < 0) {
                fprintf(f, "out of memory\n");
                return;
        }
        for (unsigned i = 0; i < n; i++) {
                unit_text(f, u[i].job ? u[i].job : o, &u[i]);
                bench_result_done(&u[i]);
        }
        free(u);
        if (disk || r->machine_busy_pct > 0) {
                fprintf(f, "%s", n > 1 ? "all jobs:" : " ");
                if (disk)
                        fprintf(f, " device %s (%s), scheduler %s;", disk->name, ios_class_to_string(disk->cls),
                                disk->sched_current ? disk->sched_current : "-");
                if (r->machine_busy_pct > 0 && rt > 0)
                        fprintf(f, " machine %.0f%% busy of %u%%, %s per I/O, steal %.1f%%", r->machine_busy_pct,
                                r->ncpu * 100, bench_fmt_ns(c, sizeof(c), bench_result_cpu_us_per_io(r, true) * 1e3),
                                r->machine_steal_pct);
                fputc('\n', f);
        }
        if (r->have_disk_stat && disk && r->elapsed_ns && r->runtime_ns) {
                double util = (double)(r->disk_stat_after[9] - r->disk_stat_before[9]) * 1e6 / (double)r->runtime_ns * 100;
                fprintf(f, "  disk %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64 ", util=%.1f%%\n", disk->name,
                        r->disk_stat_after[0] - r->disk_stat_before[0], r->disk_stat_after[4] - r->disk_stat_before[4],
                        r->disk_stat_after[1] - r->disk_stat_before[1], r->disk_stat_after[5] - r->disk_stat_before[5],
                        util > 100 ? 100 : util);
        }
}

void bench_json_string(FILE *f, const char *s)
{
        ios_json_string(f, s ? s : "");
}

static void json_lat(FILE *f, const char *ind, const char *name, const struct bench_lat *l,
                     const uint64_t *hist, const struct bench_opts *o, bool last)
{
        fprintf(f, "%s\"%s\" : {\n", ind, name);
        fprintf(f, "%s  \"min\" : %" PRIu64 ",\n", ind, l->n ? l->min : 0);
        fprintf(f, "%s  \"max\" : %" PRIu64 ",\n", ind, l->max);
        fprintf(f, "%s  \"mean\" : %f,\n", ind, bench_lat_mean(l));
        fprintf(f, "%s  \"stddev\" : %f,\n", ind, bench_lat_stddev(l));
        fprintf(f, "%s  \"N\" : %" PRIu64 "%s\n", ind, l->n, hist && l->n ? "," : "");
        if (hist && l->n) {
                uint64_t v[BENCH_MAX_PERCENTILES];

                bench_hist_percentiles(hist, o->percentiles, o->n_percentiles, v);
                fprintf(f, "%s  \"percentile\" : {\n", ind);
                for (unsigned i = 0; i < o->n_percentiles; i++)
                        fprintf(f, "%s    \"%f\" : %" PRIu64 "%s\n", ind, o->percentiles[i], v[i],
                                i + 1 < o->n_percentiles ? "," : "");
                fprintf(f, "%s  }\n", ind);
        }
        fprintf(f, "%s}%s\n", ind, last ? "" : ",");
}

static void json_dir(FILE *f, const char *ind, const char *name, const struct bench_opts *o,
                     const struct bench_result *r, int d)
{
        static const struct bench_dir_stats empty_init;        /* for "trim" */
        const struct bench_dir_stats *s = d >= 0 ? &r->d[d] : &empty_init;
        struct bench_lat none;
        char in[64];
        double bw = d >= 0 ? bench_result_bw(r, d) : 0, mn, mx, mean, sd;
        unsigned ns = d >= 0 ? r->n_samples : 0;

        bench_lat_reset(&none);
        snprintf(in, sizeof(in), "%s  ", ind);
        fprintf(f, "%s\"%s\" : {\n", ind, name);
        fprintf(f, "%s\"io_bytes\" : %" PRIu64 ",\n", in, s->bytes);
        fprintf(f, "%s\"io_kbytes\" : %" PRIu64 ",\n", in, s->bytes / 1024);
        fprintf(f, "%s\"bw_bytes\" : %.0f,\n", in, bw);
        fprintf(f, "%s\"bw\" : %.0f,\n", in, bw / 1024);
        fprintf(f, "%s\"iops\" : %f,\n", in, d >= 0 ? bench_result_iops(r, d) : 0.0);
        fprintf(f, "%s\"runtime\" : %" PRIu64 ",\n", in,
                !s->ios ? 0 : (d >= 0 ? bench_result_dir_ns(r, d) : r->runtime_ns) / 1000000);
        fprintf(f, "%s\"total_ios\" : %" PRIu64 ",\n", in, s->ios);
        fprintf(f, "%s\"short_ios\" : %" PRIu64 ",\n", in, s->short_ios);
        fprintf(f, "%s\"drop_ios\" : 0,\n", in);
        json_lat(f, in, "slat_ns", s->ios ? &s->slat : &none, NULL, o, false);
        json_lat(f, in, "clat_ns", s->ios ? &s->clat : &none, s->clat_hist, o, false);
        json_lat(f, in, "lat_ns", s->ios ? &s->lat : &none, NULL, o, false);
        sample_stats(d >= 0 && ns ? r->bw_samples[d] : NULL, ns, &mn, &mx, &mean, &sd);
        fprintf(f, "%s\"bw_min\" : %.0f,\n%s\"bw_max\" : %.0f,\n%s\"bw_agg\" : %f,\n", in, mn, in, mx, in,
                s->ios ? 100.0 : 0.0);
        fprintf(f, "%s\"bw_mean\" : %f,\n%s\"bw_dev\" : %f,\n%s\"bw_samples\" : %u,\n", in, mean, in, sd, in, ns);
        sample_stats(d >= 0 && ns ? r->iops_samples[d] : NULL, ns, &mn, &mx, &mean, &sd);
        fprintf(f, "%s\"iops_min\" : %.0f,\n%s\"iops_max\" : %.0f,\n%s\"iops_mean\" : %f,\n", in, mn, in, mx, in, mean);
        fprintf(f, "%s\"iops_stddev\" : %f,\n%s\"iops_samples\" : %u\n", in, sd, in, ns);
        fprintf(f, "%s},\n", ind);
}

static void json_depth(FILE *f, const char *ind, const char *name, const uint64_t *calls)
{
        static const char * const keys[BENCH_DEPTH_BUCKETS] = { "0", "4", "8", "16", "32", "64", ">=64" };
        uint64_t n = 0;

        for (int b = 0; b < BENCH_DEPTH_BUCKETS; b++)
                n += calls[b];
        fprintf(f, "%s\"%s\" : {\n", ind, name);
        for (int b = 0; b < BENCH_DEPTH_BUCKETS; b++)
                fprintf(f, "%s  \"%s\" : %f%s\n", ind, keys[b], n ? (double)calls[b] * 100.0 / (double)n : 0.0,
                        b + 1 < BENCH_DEPTH_BUCKETS ? "," : "");
        fprintf(f, "%s},\n", ind);
}

static void json_options(FILE *f, const char *ind, const struct bench_opts *o)
{
        fprintf(f, "%s\"filename\" : ", ind);
        bench_json_string(f, o->filename ? o->filename : "");
        fprintf(f, ",\n%s\"ioengine\" : \"%s\",\n", ind, o->engine->name);
        fprintf(f, "%s\"rw\" : \"%s\",\n", ind, bench_rw_to_string(o->rw));
        if (bench_rw_reads(o->rw) && bench_rw_writes(o->rw))
                fprintf(f, "%s\"rwmixread\" : \"%u\",\n", ind, o->rwmixread);
        if (o->n_bssplit[BENCH_READ] || o->n_bssplit[BENCH_WRITE]) {
                /* fio's form, in bytes: each direction's list, "," between them */
                fprintf(f, "%s\"bssplit\" : \"", ind);
                for (int d = 0; d < (split_same(o) ? 1 : BENCH_NDIR); d++)
                        for (unsigned i = 0; i < o->n_bssplit[d]; i++)
                                fprintf(f, "%s%u/%u", i ? ":" : d ? "," : "", o->bssplit[d][i].bs,
                                        o->bssplit[d][i].perc);
                fprintf(f, "\",\n");
        } else if (o->bs[0] == o->bs[1])
                fprintf(f, "%s\"bs\" : \"%u\",\n", ind, o->bs[0]);
        else
                fprintf(f, "%s\"bs\" : \"%u,%u\",\n", ind, o->bs[0], o->bs[1]);
        fprintf(f, "%s\"iodepth\" : \"%u\",\n", ind, o->iodepth);
        fprintf(f, "%s\"numjobs\" : \"%u\",\n", ind, o->numjobs);
        fprintf(f, "%s\"runtime\" : \"%" PRIu64 "ms\",\n", ind, o->runtime_ns / 1000000);
        fprintf(f, "%s\"ramp_time\" : \"%" PRIu64 "ms\",\n", ind, o->ramp_ns / 1000000);
        if (o->ncpus) {
                char cpus[256];

                fprintf(f, "%s\"cpus_allowed\" : \"%s\",\n", ind, bench_fmt_cpus(cpus, sizeof(cpus), &o->cpus));
                fprintf(f, "%s\"cpus_allowed_policy\" : \"%s\",\n", ind, o->cpus_split ? "split" : "shared");
        }
        fprintf(f, "%s\"direct\" : \"%d\"\n", ind, o->direct);
}

void bench_report_json_job(FILE *f, const struct bench_opts *o, const struct bench_result *r,
                           const char *jobname, const char *ind)
{
        double rt = (double)r->runtime_ns / 1e9;
        uint64_t ios = r->d[0].ios + r->d[1].ios;
        char in[64];

        snprintf(in, sizeof(in), "%s  ", ind);
        fprintf(f, "%s\"jobname\" : ", ind);
        bench_json_string(f, jobname);
        fprintf(f, ",\n%s\"groupid\" : %u,\n", ind, o->groupid);
        fprintf(f, "%s\"error\" : %d,\n", ind, r->error < 0 ? -r->error : r->error);
        fprintf(f, "%s\"eta\" : 0,\n", ind);
        fprintf(f, "%s\"elapsed\" : %" PRIu64 ",\n", ind, (uint64_t)((r->elapsed_ns + 500000000ull) / 1000000000ull));
        fprintf(f, "%s\"job options\" : {\n", ind);
        json_options(f, in, o);
        fprintf(f, "%s},\n", ind);
        json_dir(f, ind, "read", o, r, BENCH_READ);
        json_dir(f, ind, "write", o, r, BENCH_WRITE);
        json_dir(f, ind, "trim", o, r, -1);
        fprintf(f, "%s\"job_runtime\" : %" PRIu64 ",\n", ind, r->runtime_ns / 1000000);
        fprintf(f, "%s\"usr_cpu\" : %f,\n", ind, rt > 0 ? (double)r->usr_ns / 1e7 / rt : 0.0);
        fprintf(f, "%s\"sys_cpu\" : %f,\n", ind, rt > 0 ? (double)r->sys_ns / 1e7 / rt : 0.0);
        fprintf(f, "%s\"ctx\" : %" PRIu64 ",\n", ind, r->ctx);
        fprintf(f, "%s\"majf\" : %" PRIu64 ",\n", ind, r->majf);
        fprintf(f, "%s\"minf\" : %" PRIu64 ",\n", ind, r->minf);
        json_depth(f, ind, "iodepth_submit", r->submit_calls);
        json_depth(f, ind, "iodepth_complete", r->reap_calls);
        fprintf(f, "%s\"iosched\" : {\n", ind);
        fprintf(f, "%s\"engine_setup\" : ", in);
        bench_json_string(f, r->engine_note);
        fprintf(f, ",\n%s\"clocksource\" : \"%s\",\n", in, bench_clock_name());
        fprintf(f, "%s\"iodepth\" : %u,\n", in, r->depth);
        fprintf(f, "%s\"cpu_ns_per_io\" : %f,\n", in, bench_result_cpu_us_per_io(r, false) * 1e3);
        if ((o->engine->flags & BENCH_ENGINE_NOFILE) && ios && rt > 0)
                fprintf(f, "%s\"harness_ns_per_io\" : %f,\n", in, rt * 1e9 * o->numjobs / (double)ios);
        fprintf(f, "%s\"machine_busy_pct\" : %f,\n", in, r->machine_busy_pct);
        fprintf(f, "%s\"machine_steal_pct\" : %f,\n", in, r->machine_steal_pct);
        fprintf(f, "%s\"machine_cpu_ns_per_io\" : %f,\n", in, bench_result_cpu_us_per_io(r, true) * 1e3);
        fprintf(f, "%s\"total_iops\" : %f,\n", in, bench_result_iops(r, -1));
        fprintf(f, "%s\"ios\" : %" PRIu64 ",\n", in, ios);
        fprintf(f, "%s\"interrupted\" : %s\n", in, r->interrupted ? "true" : "false");
        fprintf(f, "%s}\n", ind);
}

void bench_report_json_disk_util(FILE *f, const struct ios_device *disk, const struct bench_result *r)
{
        const uint64_t *a, *b;
        double util;

        if (!disk || !r || !r->have_disk_stat || r->runtime_ns == 0) {
                fprintf(f, "  \"disk_util\" : []\n");
                return;
        }
        a = r->disk_stat_before;
        b = r->disk_stat_after;
        util = (double)(b[9] - a[9]) * 1e6 / (double)r->runtime_ns * 100;
        fprintf(f, "  \"disk_util\" : [\n    {\n      \"name\" : ");
        bench_json_string(f, disk->name);
        fprintf(f, ",\n      \"read_ios\" : %" PRIu64 ",\n      \"write_ios\" : %" PRIu64 ",\n"
                "      \"read_merges\" : %" PRIu64 ",\n      \"write_merges\" : %" PRIu64 ",\n"
                "      \"read_ticks\" : %" PRIu64 ",\n      \"write_ticks\" : %" PRIu64 ",\n"
                "      \"in_queue\" : %" PRIu64 ",\n      \"util\" : %f\n    }\n  ]\n",
                b[0] - a[0], b[4] - a[4], b[1] - a[1], b[5] - a[5], b[3] - a[3], b[7] - a[7],
                b[10] - a[10], util > 100 ? 100.0 : util);
}

void bench_report_json_begin(FILE *f, const struct bench_opts *o)
{
        time_t now = time(NULL);
        char tbuf[64];
        struct tm tm;

        localtime_r(&now, &tm);
        strftime(tbuf, sizeof(tbuf), "%a %b %e %H:%M:%S %Y", &tm);
        fprintf(f, "{\n  \"iosched-bench version\" : \"iosched-bench-%s\",\n", IOS_VERSION);
        fprintf(f, "  \"timestamp\" : %lld,\n  \"timestamp_ms\" : %lld,\n", (long long)now,
                (long long)now * 1000);
        fprintf(f, "  \"backend\" : ");
        bench_json_string(f, bench_backend_name);
        fprintf(f, ",\n  \"time\" : ");
        bench_json_string(f, tbuf);
        fprintf(f, ",\n  \"global options\" : {\n");
        json_options(f, "    ", o);
        fprintf(f, "  },\n");
}

void bench_report_json_units(FILE *f, const struct bench_opts *o, const struct bench_result *r, const char *suffix,
                             bool *first)
{
        struct bench_result *u = NULL;
        unsigned n = 0;

        if (bench_report_units(o, r, &u, &n) < 0)
                return;
        for (unsigned i = 0; i < n; i++) {
                const struct bench_opts *jo = u[i].job ? u[i].job : o;
                char name[300];

                snprintf(name, sizeof(name), "%s%s", jo->name, suffix ? suffix : "");
                fprintf(f, "%s    {\n", *first ? "" : ",\n");
                bench_report_json_job(f, jo, &u[i], name, "      ");
                fprintf(f, "    }");
                *first = false;
                bench_result_done(&u[i]);
        }
        free(u);
}

void bench_report_json(FILE *f, const struct bench_opts *o, const struct bench_target *tg,
                       const struct ios_device *disk, const struct bench_result *r)
{
        bool first = true;

        (void)tg;
        bench_report_json_begin(f, o);
        fprintf(f, "  \"jobs\" : [\n");
        bench_report_json_units(f, o, r, NULL, &first);
        fprintf(f, "\n  ],\n");
        bench_report_json_disk_util(f, disk, r);
        fprintf(f, "}\n");
}
