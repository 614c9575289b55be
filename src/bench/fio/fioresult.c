/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fioresult.c: fio's --output-format=json+ document read back into what
 * iosched-bench reports.  Each element of fio's jobs[] (a job, or a
 * group_reporting group fio already merged) becomes one per-job result:
 * I/Os, bytes and runtime per direction, slat/clat/lat from their min,
 * max, mean, stddev and N, and the clat histogram from json+'s bins (fio's
 * buckets are ours, hist.c, so percentiles come out as fio's own).  The
 * run's totals are their merge.  On the first run the jobs also become a
 * view, a struct bench_opts whose jobs[] are fio's (name, file, rw, bs,
 * iodepth, ioengine, direct from "job options" over "global options"), so
 * that report.c and compare.c need no fio-specific code.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fio.h"
#include "jobs.h"
#include "macro.h"

struct bench_fio_job {
        struct bench_engine_ops eng;
        char engname[48];
        unsigned entries;               /* its jobs in fio's report: each clone, or one (group_reporting) */
};

double bench_fio_num(const struct ios_json *v, double def)
{
        const char *s = ios_json_str(v);
        double d;
        bool b;
        char *end;

        if (ios_json_num(v, &d))
                return d;
        if (ios_json_bool(v, &b))
                return b ? 1 : 0;
        if (s) {
                d = strtod(s, &end);
                if (end != s && !*end)
                        return d;
        }
        return def;
}

/* A count from fio's report, clamped into [0, max]: the report is another program's text. */
static uint64_t num(const struct ios_json *v, uint64_t max)
{
        double d = bench_fio_num(v, 0);

        if (!(d > 0))
                return 0;       /* negative, zero or NaN */
        if (d >= (double)max)
                return max;
        return (uint64_t)d;
}

/* A measure (a mean, a percentage), clamped into [0, max] the same way. */
static double dnum(const struct ios_json *v, double max)
{
        double d = bench_fio_num(v, 0);

        return !(d > 0) ? 0 : d > max ? max : d;
}

#define U64_MAX_SAFE (1ull << 62)       /* sums of such values still fit */

/* A job's option: its own, else the document's global one. */
/* The value fio ran with: an option given twice is listed twice in fio's report, and the last one holds. */
static const char *last_of(const struct ios_json *obj, const char *key)
{
        const char *v = NULL;

        for (size_t i = 0; obj && obj->type == IOS_JSON_OBJ && i < obj->n; i++)
                if (obj->kids[i].key && streq(obj->kids[i].key, key) && ios_json_str(&obj->kids[i]))
                        v = ios_json_str(&obj->kids[i]);
        return v;
}

static const char *opt(const struct ios_json *doc, const struct ios_json *job, const char *key)
{
        const char *v = last_of(ios_json_get(job, "job options"), key);

        return v ? v : last_of(ios_json_get(doc, "global options"), key);
}

static void job_view(struct bench_opts *o, struct bench_fio_job *fj, const struct ios_json *doc,
                     const struct ios_json *job, const struct bench_opts *g)
{
        /* what fio ran with: the caps (they move a throughput objective as the command line's do), the
         * end conditions (the reports say a round's bound, upfront.c) and the jobs' order (stonewall,
         * startdelay=, wait_for=: the run's time, sample.c) */
        static const char * const ran_with[] = { "rate", "rate_iops", "thinktime", "time_based", "size",
                                                 "io_size", "io_limit", "number_ios", "loops", "stonewall",
                                                 "startdelay" };
        const char *rw = opt(doc, job, "rw") ? opt(doc, job, "rw") : opt(doc, job, "readwrite");
        const char *eng = opt(doc, job, "ioengine"), *v;
        uint64_t x;
        unsigned u;
        bool b;
        int k;

        *o = *g;
        o->jobs = NULL;
        o->njobs = 0;
        o->capjobs = 0;
        o->name = strdup(ios_json_str(ios_json_get(job, "jobname")) ?
                                 ios_json_str(ios_json_get(job, "jobname")) :
                                 "fio");
        v = opt(doc, job, "filename");
        o->filename = v ? strdup(v) : NULL;
        o->directory = NULL;
        snprintf(fj->engname, sizeof(fj->engname), "%s", eng ? eng : "psync");       /* fio 3.33's default */
        fj->eng = (struct bench_engine_ops){ .name = fj->engname };
        o->engine = &fj->eng;
        o->rw = BENCH_RW_READ;
        if (rw) {
                char w[32];

                snprintf(w, sizeof(w), "%.*s", (int)strcspn(rw, ":"), rw);
                k = bench_rw_from_string(w);
                o->rw = k >= 0 ? (enum bench_rw)k : strstr(w, "write") ? BENCH_RW_WRITE : BENCH_RW_READ;
        }
        if ((v = opt(doc, job, "rwmixread")) && bench_parse_uint(v, 0, 100, &u) == 0)
                o->rwmixread = u;
        o->bs[0] = o->bs[1] = 4096;
        if ((v = opt(doc, job, "bs")) || (v = opt(doc, job, "blocksize"))) {
                const char *kb = opt(doc, job, "kb_base");
                char first[32];

                snprintf(first, sizeof(first), "%.*s", (int)strcspn(v, ",:"), v);
                if (bench_parse_size_base(first, kb && streq(kb, "1000") ? 1000 : 1024, &x) == 0 && x > 0 &&
                    x <= UINT32_MAX)
                        o->bs[0] = o->bs[1] = (uint32_t)x;
        }
        o->n_bssplit[BENCH_READ] = o->n_bssplit[BENCH_WRITE] = 0;
        if ((v = opt(doc, job, "bssplit")) && bench_parse_bssplit(v, o) < 0)
                o->n_bssplit[BENCH_READ] = o->n_bssplit[BENCH_WRITE] = 0;       /* fio's own forms: bs= */
        o->iodepth = (v = opt(doc, job, "iodepth")) && bench_parse_uint(v, 1, 65536, &u) == 0 ? u : 1;
        /* its clones, which fio reports apart (build_view() adds them up) or together (group_reporting) */
        o->numjobs = (v = opt(doc, job, "numjobs")) && bench_parse_uint(v, 1, 1u << 20, &u) == 0 ? u : 1;
        o->direct = (v = opt(doc, job, "direct")) && bench_parse_bool(v, &b) == 0 ? b : false;
        o->ramp_ns = (v = opt(doc, job, "ramp_time")) && bench_parse_time(v, &x) == 0 ? x : 0;
        o->runtime_ns = (v = opt(doc, job, "runtime")) && bench_parse_time(v, &x) == 0 ? x : 0;
        o->time_based = false;
        o->size = o->io_size = (struct bench_size){};
        o->number_ios = 0;
        o->passes = 0;
        o->stonewall = false;
        o->startdelay_ns = 0;
        v = opt(doc, job, "wait_for");
        o->wait_for = v ? strdup(v) : NULL;
        o->cap_form[0] = '\0';
        for (size_t i = 0; i < ELEMENTSOF(ran_with); i++)
                if ((v = opt(doc, job, ran_with[i]))) {
                        struct bench_error ignored = {};
                        bool cap = i < 3;       /* rate, rate_iops, thinktime */

                        if (bench_jobopt_set(o, ran_with[i], *v ? v : NULL, NULL, &ignored) < 0 && cap &&
                            !o->cap_form[0] && strspn(v, "0,") != strlen(v))
                                snprintf(o->cap_form, sizeof(o->cap_form), "%s=%s", ran_with[i], v);
                }
        o->groupid = (unsigned)num(ios_json_get(job, "groupid"), 1u << 20);
        o->ncpus = 0;
        o->prioclass = -1;
}

static void lat_from(const struct ios_json *l, struct bench_lat *out)
{
        uint64_t n = num(ios_json_get(l, "N"), 1ull << 40), max = num(ios_json_get(l, "max"), 1ull << 44);
        double mean = dnum(ios_json_get(l, "mean"), (double)max),
               sd = dnum(ios_json_get(l, "stddev"), (double)max);

        bench_lat_reset(out);
        if (n < 1)
                return;
        out->n = n;
        out->min = num(ios_json_get(l, "min"), max);
        out->max = max;
        /* mean <= max < 2^44 and n < 2^40: the sums below fit */
        out->sum = (uint64_t)(mean * (double)n);
        out->sumsq = (unsigned __int128)(sd * sd * (double)(n - 1)) + (unsigned __int128)(mean * mean * (double)n);
}

static uint64_t dir_from(const struct ios_json *d, struct bench_dir_stats *s)
{
        const struct ios_json *bins = ios_json_get(ios_json_get(d, "clat_ns"), "bins");

        bench_dir_stats_reset(s);
        if (!d)
                return 0;
        s->ios = num(ios_json_get(d, "total_ios"), U64_MAX_SAFE);
        s->bytes = num(ios_json_get(d, "io_bytes"), U64_MAX_SAFE);
        s->short_ios = num(ios_json_get(d, "short_ios"), U64_MAX_SAFE);
        lat_from(ios_json_get(d, "slat_ns"), &s->slat);
        lat_from(ios_json_get(d, "clat_ns"), &s->clat);
        lat_from(ios_json_get(d, "lat_ns"), &s->lat);
        for (unsigned i = 0; bins && bins->type == IOS_JSON_OBJ && i < bins->n; i++)
                s->clat_hist[bench_hist_index(strtoull(bins->kids[i].key, NULL, 10))] +=
                        num(&bins->kids[i], 1ull << 48);
        return num(ios_json_get(d, "runtime"), 1ull << 40) * 1000000ull;      /* ms: under 2^60 ns */
}

/*
 * fio reports each clone of a job (numjobs=) as a job of its own, one after
 * the other under the job's name (with group_reporting, one for them all):
 * the clones of fio's job i, 1 or more.  They are one job here, their
 * results added up, as the native engine's.
 */
static unsigned clones(const struct ios_json *doc, const struct ios_json *jobs, unsigned i)
{
        const char *name = ios_json_str(ios_json_get(&jobs->kids[i], "jobname")), *v;
        unsigned numjobs = 1, n = 1;

        if ((v = opt(doc, &jobs->kids[i], "numjobs")))
                (void)bench_parse_uint(v, 1, 1u << 20, &numjobs);
        while (name && n < numjobs && i + n < jobs->n &&
               ios_json_str(ios_json_get(&jobs->kids[i + n], "jobname")) &&
               streq(ios_json_str(ios_json_get(&jobs->kids[i + n], "jobname")), name))
                n++;
        return n;
}

static int build_view(struct bench_fio *f, const struct bench_opts *g, const struct ios_json *doc,
                      const struct ios_json *jobs, struct bench_error *e)
{
        unsigned n = 0;

        for (unsigned i = 0; i < jobs->n; i += clones(doc, jobs, i))
                n++;
        f->njobs = jobs->n;
        f->jobs = calloc(n, sizeof(*f->jobs));
        f->view = *g;
        f->view.jobs = calloc(n, sizeof(*f->view.jobs));
        if (!f->jobs || !f->view.jobs)
                return -ENOMEM;
        f->view.njobs = n;
        f->view.nthreads = jobs->n;
        for (unsigned i = 0, k = 0; i < jobs->n; k++) {
                unsigned c = clones(doc, jobs, i);

                job_view(&f->view.jobs[k], &f->jobs[k], doc, &jobs->kids[i], g);
                if (!f->view.jobs[k].name)
                        return -ENOMEM;
                /* fio reports jobs in their order: the k-th is the k-th read (fio.c ungroup()) */
                f->view.jobs[k].group_reporting = k < f->ngrouped && f->grouped[k];
                f->jobs[k].entries = c;
                i += c;
        }
        f->have_view = true;
        /* the run's own view: the first job's, as for the native jobs */
        {
                struct bench_opts *j0 = &f->view.jobs[0];

                f->view.name = j0->name;
                f->view.filename = j0->filename;
                f->view.engine = j0->engine;
                f->view.rw = j0->rw;
                f->view.rwmixread = j0->rwmixread;
                memcpy(f->view.bs, j0->bs, sizeof(j0->bs));
                f->view.iodepth = j0->iodepth;
                f->view.numjobs = j0->numjobs;
                f->view.direct = j0->direct;
                f->view.ramp_ns = j0->ramp_ns;
                f->view.runtime_ns = j0->runtime_ns;
        }
        f->view.objective_jobidx = -1;
        if (g->objective_job) {
                for (unsigned i = 0; i < f->view.njobs && f->view.objective_jobidx < 0; i++)
                        if (streq(f->view.jobs[i].name, g->objective_job))
                                f->view.objective_jobidx = (int)i;
                if (f->view.objective_jobidx < 0)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "--objective=%s: fio reports no job named '%s'", g->objective_label,
                                               g->objective_job);
        }
        return 0;
}

/* fio's counts for bench_ramp_took_all(): every I/O, and the measured ones (with a latency) */
static int ramp_took_all(const struct bench_opts *job, const struct bench_result *jr, struct bench_error *e)
{
        uint64_t ios = 0, measured = 0;

        for (int d = 0; d < BENCH_NDIR; d++) {
                ios += jr->d[d].ios;
                measured += jr->d[d].clat.n + jr->d[d].lat.n;
        }
        return bench_ramp_took_all(job, ios, measured, e);
}

/* One job of fio's report (a clone) into jr: I/O, runtime, CPU, faults, its error. */
static void entry_result(const struct bench_result *res, const struct ios_json *j, struct bench_result *jr)
{
        uint64_t rt = 0;
        double jrt;

        for (int d = 0; d < BENCH_NDIR; d++) {
                uint64_t x = dir_from(ios_json_get(j, d == BENCH_READ ? "read" : "write"), &jr->d[d]);

                jr->d[d].runtime_ns = x;
                rt = x > rt ? x : rt;
        }
        /* the job's time after its ramp, its directions one after another too (verify=: the reads
         * after the writes; fio is given no group_reporting=, which adds its jobs' times up) */
        jrt = (double)num(ios_json_get(j, "job_runtime"), 1ull << 40) * 1e6;
        jr->runtime_ns = (uint64_t)jrt > rt ? (uint64_t)jrt : rt;
        jr->elapsed_ns = res->elapsed_ns;
        /* CPU % of the runtime, at most every CPU's */
        jr->usr_ns = (uint64_t)(dnum(ios_json_get(j, "usr_cpu"), 100000) / 100 * (double)jr->runtime_ns);
        jr->sys_ns = (uint64_t)(dnum(ios_json_get(j, "sys_cpu"), 100000) / 100 * (double)jr->runtime_ns);
        /* latency_target=: fio searches the depth from 1 up, each step one latency_window= long (io_u.c
         * lat_target_check()), and says where it stood at the end: settled, or cut short by the run's end */
        if (num(ios_json_get(j, "latency_target"), U64_MAX_SAFE) > 0)
                jr->depth = (unsigned)num(ios_json_get(j, "latency_depth"), 65536);
        jr->ctx = num(ios_json_get(j, "ctx"), U64_MAX_SAFE);
        jr->majf = num(ios_json_get(j, "majf"), U64_MAX_SAFE);
        jr->minf = num(ios_json_get(j, "minf"), U64_MAX_SAFE);
        jr->error = (int)num(ios_json_get(j, "error"), 4095);
}

int bench_fio_result(struct bench_fio *f, const struct bench_opts *g, const struct ios_json *doc,
                     struct bench_result *res, struct bench_error *e)
{
        const struct ios_json *jobs = ios_json_get(doc, "jobs");
        int r;

        if (!jobs || jobs->type != IOS_JSON_ARR || jobs->n == 0)
                return bench_error_set(e, BENCH_ERR_IO, EINVAL, "fio's report has no jobs");
        if (ios_json_str(ios_json_get(doc, "fio version")))
                snprintf(f->version, sizeof(f->version), "%s",
                         ios_json_str(ios_json_get(doc, "fio version")));
        if (!f->have_view) {
                r = build_view(f, g, doc, jobs, e);
                if (r < 0)
                        return r;
        } else if (jobs->n != f->njobs)
                return bench_error_set(e, BENCH_ERR_IO, EINVAL, "fio reported %zu jobs, %u before", jobs->n,
                                       f->njobs);
        res->jobs = calloc(f->view.njobs, sizeof(*res->jobs));
        if (!res->jobs)
                return -ENOMEM;
        res->njobs = f->view.njobs;
        /* each job's clones as build_view() found them: as many as fio reports (checked above) */
        for (unsigned k = 0, i = 0; k < f->view.njobs; k++)
                for (unsigned end = i + f->jobs[k].entries; i < end; i++) {
                        struct bench_result one = { 0 };

                        entry_result(res, &jobs->kids[i], &one);
                        r = bench_result_merge(&res->jobs[k], &one);
                        bench_result_done(&one);
                        if (r < 0)
                                return r;
                }
        for (unsigned i = 0; i < f->view.njobs; i++) {
                struct bench_result *jr = &res->jobs[i];

                jr->elapsed_ns = res->elapsed_ns;
                jr->machine_busy_pct = res->machine_busy_pct;
                jr->machine_steal_pct = res->machine_steal_pct;
                jr->ncpu = res->ncpu;
                jr->have_disk_stat = res->have_disk_stat;
                memcpy(jr->disk_stat_before, res->disk_stat_before, sizeof(jr->disk_stat_before));
                memcpy(jr->disk_stat_after, res->disk_stat_after, sizeof(jr->disk_stat_after));
                jr->job = &f->view.jobs[i];
                jr->path = f->view.jobs[i].filename;
                if (!jr->depth)
                        jr->depth = f->view.jobs[i].iodepth;
                r = ramp_took_all(&f->view.jobs[i], jr, e);
                if (r < 0)
                        return r;
                snprintf(jr->engine_note, sizeof(jr->engine_note), "%s, ioengine=%s", f->version,
                         f->view.jobs[i].engine->name);
        }
        {
                struct bench_result tot = { 0 };

                tot.elapsed_ns = res->elapsed_ns;
                for (unsigned i = 0; i < res->njobs; i++) {
                        r = bench_result_merge(&tot, &res->jobs[i]);
                        if (r < 0)
                                return r;
                }
                memcpy(res->d, tot.d, sizeof(res->d));
                bench_result_spans(res, res->jobs, NULL, res->njobs);
                res->usr_ns = tot.usr_ns;
                res->sys_ns = tot.sys_ns;
                res->ctx = tot.ctx;
                res->majf = tot.majf;
                res->minf = tot.minf;
                res->error = tot.error;
                res->depth = tot.depth;
                memcpy(res->engine_note, tot.engine_note, sizeof(res->engine_note));
                bench_result_done(&tot);
        }
        return res->error ? bench_error_set(e, BENCH_ERR_IO, res->error, "fio: a job failed: %s",
                                            ios_strerror(res->error)) : 0;
}

void bench_fio_view_done(struct bench_fio *f)
{
        for (unsigned i = 0; f->view.jobs && i < f->view.njobs; i++) {
                free(f->view.jobs[i].name);
                free(f->view.jobs[i].filename);
                free(f->view.jobs[i].wait_for);
        }
        free(f->view.jobs);
        free(f->jobs);
        f->jobs = NULL;
        f->view.jobs = NULL;
        f->have_view = false;
}
