/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sample.c: what the main thread measures while the job threads run.
 * Machine-wide CPU from /proc/stat and the disk's stat over the measured
 * window, the rates of the threads' published counters since a mark (the
 * per-interval IOPS and bandwidth samples and the progress figures), the
 * samples' storage in the result, and results merged into one (a group's,
 * the run's; both runners' reports).
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "macro.h"
#include "grow.h"

int bench_cpu_snap_read(struct bench_cpu_snap *s)
{
        unsigned long long v[10] = { 0 };
        char line[512];
        FILE *f = fopen("/proc/stat", "re");
        int n;

        if (!f)
                return -errno;
        if (!fgets(line, sizeof(line), f)) {
                fclose(f);
                return -EIO;
        }
        fclose(f);
        n = sscanf(line, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
        if (n < 8)
                return -EIO;
        /* user nice system idle iowait irq softirq steal (guest is in user) */
        s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
        s->steal = v[7];
        s->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
        return 0;
}

bool bench_disk_stat_read(struct ios_device *d, uint64_t out[11])
{
        _cleanup_free_ char *s = NULL;
        unsigned long long v[11];

        if (!d || ios_sysfs_read_string(d->fd, "stat", &s) < 0)
                return false;
        if (sscanf(s, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu",
                   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 11)
                return false;
        for (int i = 0; i < 11; i++)
                out[i] = v[i];
        return true;
}

void bench_result_machine_cpu(struct bench_result *res, const struct bench_cpu_snap *a,
                              const struct bench_cpu_snap *b)
{
        double tot;

        if (b->total <= a->total)
                return;
        tot = (double)(b->total - a->total);
        res->machine_busy_pct = (double)(b->busy - a->busy) / tot * 100.0 * res->ncpu;
        res->machine_steal_pct = (double)(b->steal - a->steal) / tot * 100.0 * res->ncpu;
}

void bench_rate_mark(struct bench_rate *m, uint64_t now_ns, const uint64_t ios[BENCH_NDIR],
                     const uint64_t bytes[BENCH_NDIR])
{
        m->t_ns = now_ns;
        memcpy(m->ios, ios, sizeof(m->ios));
        memcpy(m->bytes, bytes, sizeof(m->bytes));
}

void bench_rate_take(struct bench_rate *m, uint64_t now_ns, const uint64_t ios[BENCH_NDIR],
                     const uint64_t bytes[BENCH_NDIR], double iops[BENCH_NDIR], double bps[BENCH_NDIR])
{
        double dt = (double)(now_ns - m->t_ns) / 1e9;

        for (int d = 0; d < BENCH_NDIR; d++) {
                iops[d] = (double)(ios[d] - m->ios[d]) / dt;
                bps[d] = (double)(bytes[d] - m->bytes[d]) / dt;
        }
        bench_rate_mark(m, now_ns, ios, bytes);
}

int bench_result_add_sample(struct bench_result *res, unsigned *cap, const double iops[BENCH_NDIR],
                            const double kib[BENCH_NDIR])
{
        if (res->n_samples == *cap) {
                /* 2 * BENCH_NDIR arrays, one room: each grows from it, the room is what all have */
                size_t nc = SIZE_MAX;

                for (int d = 0; d < BENCH_NDIR; d++) {
                        size_t ci = *cap, cb = *cap;
                        double *a = ios_grow(res->iops_samples[d], &ci, (size_t)res->n_samples + 1, sizeof(double));

                        if (!a)
                                return -ENOMEM;
                        res->iops_samples[d] = a;
                        a = ios_grow(res->bw_samples[d], &cb, (size_t)res->n_samples + 1, sizeof(double));
                        if (!a)
                                return -ENOMEM;
                        res->bw_samples[d] = a;
                        nc = ci < nc ? ci : nc;
                        nc = cb < nc ? cb : nc;
                }
                *cap = nc > UINT_MAX ? UINT_MAX : (unsigned)nc;
        }
        for (int d = 0; d < BENCH_NDIR; d++) {
                res->iops_samples[d][res->n_samples] = iops[d];
                res->bw_samples[d][res->n_samples] = kib[d];
        }
        res->n_samples++;
        return 0;
}

/* from's per-interval samples added to to's: a copy into an empty result, else the
 * sum where both have one (a group's or the run's bandwidth over time) */
int bench_result_merge_samples(struct bench_result *to, const struct bench_result *from)
{
        unsigned cap = to->n_samples;

        if (to->merged == 0) {
                for (unsigned i = 0; i < from->n_samples; i++) {
                        double iops[BENCH_NDIR], kib[BENCH_NDIR];

                        for (int d = 0; d < BENCH_NDIR; d++) {
                                iops[d] = from->iops_samples[d][i];
                                kib[d] = from->bw_samples[d][i];
                        }
                        if (bench_result_add_sample(to, &cap, iops, kib) < 0)
                                return -ENOMEM;
                }
        } else {
                unsigned n = to->n_samples < from->n_samples ? to->n_samples : from->n_samples;

                for (int d = 0; d < BENCH_NDIR; d++)
                        for (unsigned i = 0; i < n; i++) {
                                to->iops_samples[d][i] += from->iops_samples[d][i];
                                to->bw_samples[d][i] += from->bw_samples[d][i];
                        }
                to->n_samples = n;
        }
        to->merged++;
        return 0;
}

uint64_t bench_result_dir_ns(const struct bench_result *r, int d)
{
        return r->d[d].runtime_ns ? r->d[d].runtime_ns : r->runtime_ns;
}

/* The i-th of the jobs spanned: all[idx[i]], or all[i] without idx. */
static const struct bench_result *nth(const struct bench_result *all, const unsigned *idx, unsigned i)
{
        return &all[idx ? idx[i] : i];
}

void bench_result_spans(struct bench_result *to, const struct bench_result *all, const unsigned *idx,
                        unsigned n)
{
        _cleanup_free_ struct bench_window *w = calloc(n ? 2 * n : 1, sizeof(*w));
        struct bench_window *dw;

        if (!w) {       /* no memory: fio's group figure, the longest job's, for each direction too */
                uint64_t most = 0;

                for (unsigned i = 0; i < n; i++)
                        most = nth(all, idx, i)->runtime_ns > most ? nth(all, idx, i)->runtime_ns : most;
                to->runtime_ns = most;
                for (int d = 0; d < BENCH_NDIR; d++)
                        to->d[d].runtime_ns = most;
                return;
        }
        for (unsigned i = 0; i < n; i++) {
                const struct bench_result *j = nth(all, idx, i);

                w[i] = (struct bench_window){ .job = j->job, .len = j->runtime_ns };
        }
        bench_jobs_place(w, n);
        dw = w + n;     /* each direction's windows: the job's start, its time in that direction */
        for (int d = 0; d < BENCH_NDIR; d++) {
                for (unsigned i = 0; i < n; i++) {
                        const struct bench_result *j = nth(all, idx, i);

                        dw[i] = w[i];
                        dw[i].to = w[i].from + (j->d[d].ios ? bench_result_dir_ns(j, d) : 0);
                }
                to->d[d].runtime_ns = bench_windows_cover(dw, n, false);
        }
        to->runtime_ns = bench_windows_cover(w, n, false);
}

int bench_result_merge(struct bench_result *to, const struct bench_result *from)
{
        if (to->merged == 0) {
                to->depth = from->depth;
                to->ncpu = from->ncpu;
                to->elapsed_ns = from->elapsed_ns;
                to->interrupted = from->interrupted;
                to->machine_busy_pct = from->machine_busy_pct;
                to->machine_steal_pct = from->machine_steal_pct;
                to->have_disk_stat = from->have_disk_stat;
                memcpy(to->disk_stat_before, from->disk_stat_before, sizeof(to->disk_stat_before));
                memcpy(to->disk_stat_after, from->disk_stat_after, sizeof(to->disk_stat_after));
                memcpy(to->engine_note, from->engine_note, sizeof(to->engine_note));
                to->job = from->job;
                to->path = from->path;
                to->region_start = from->region_start;
                to->region_len = from->region_len;
        }
        for (int d = 0; d < BENCH_NDIR; d++)
                bench_dir_stats_merge(&to->d[d], &from->d[d]);
        if (from->runtime_ns > to->runtime_ns)
                to->runtime_ns = from->runtime_ns;
        to->usr_ns += from->usr_ns;
        to->sys_ns += from->sys_ns;
        to->ctx += from->ctx;
        to->minf += from->minf;
        to->majf += from->majf;
        for (int b = 0; b < BENCH_DEPTH_BUCKETS; b++) {
                to->submit_calls[b] += from->submit_calls[b];
                to->reap_calls[b] += from->reap_calls[b];
        }
        if (!to->error)
                to->error = from->error;
        return bench_result_merge_samples(to, from);
}

void bench_result_done(struct bench_result *res)
{
        for (unsigned j = 0; res->jobs && j < res->njobs; j++)
                bench_result_done(&res->jobs[j]);
        free(res->jobs);
        res->jobs = NULL;
        res->njobs = 0;
        for (int d = 0; d < BENCH_NDIR; d++) {
                free(res->iops_samples[d]);
                free(res->bw_samples[d]);
                res->iops_samples[d] = res->bw_samples[d] = NULL;
        }
        res->n_samples = 0;
}
