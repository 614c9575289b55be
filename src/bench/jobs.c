/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobs.c: the run's jobs.  fio's rule: every --name (and every section of a
 * job file, and every job of a --workload preset) starts a job that copies
 * the global options; the options after it are its own.  After parsing,
 * bench_jobs_finish() reads the job files and the preset (on the final
 * global options, so their place on the command line does not matter),
 * makes one job of the global options when none was named, settles the
 * defaults that depend on other options per job, numbers the reporting
 * groups (new_group, stonewall) and the threads, and checks what spans
 * jobs: the objective's job, writes of a preset.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"
#include "strv.h"

int bench_jobs_unsupported_error(const struct bench_opts *g, struct bench_error *e)
{
        char list[sizeof(e->msg)] = "";
        size_t len = 0, room = sizeof(list) - 80;

        if (!g->unsupported || !g->unsupported[0])
                return 0;
        for (char **u = g->unsupported; *u; u++) {
                size_t l = strlen(*u) + (len ? 2 : 0);

                if (len + l >= room) {
                        snprintf(list + len, sizeof(list) - len, ", ... (%zu in all)", ios_strv_length(g->unsupported));
                        break;
                }
                len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? ", " : "", *u);
        }
        return bench_error_set(e, BENCH_ERR_USAGE, EOPNOTSUPP, "the native engine does not implement: %s", list);
}

bool bench_job_ends_by_amount(const struct bench_opts *o)
{
        bool amount = !o->time_based &&
                      (o->io_size.set || o->number_ios || (o->size.set && o->size.pct == 0));

        return amount && (!o->runtime_set || o->runtime_ns == 0);
}

bool bench_job_settles(const struct bench_opts *o, bool compare)
{
        return compare && !o->ramp_set && !bench_job_ends_by_amount(o);
}

uint64_t bench_job_passes(const struct bench_opts *o, uint64_t amount)
{
        uint64_t n = o->passes > 1 ? o->passes : 1;

        return amount > UINT64_MAX / n ? UINT64_MAX : amount * n;
}

uint64_t bench_job_amount(const struct bench_opts *o, uint64_t region)
{
        if (o->time_based)
                return 0;
        if (o->io_size.set)
                return bench_job_passes(o, o->io_size.bytes);
        /* the null engine's region without a size is no file's (fio would ask for a size) */
        if (o->engine && (o->engine->flags & BENCH_ENGINE_NOFILE) && !o->size.set)
                return 0;
        return bench_job_passes(o, region);
}

/*
 * A job that ends by its amount before its ramp_time is over (the 1 s
 * settle after a switch, or its own) did every I/O inside the ramp: both
 * backends count them toward the amount, as fio does, but measure none.  No
 * figure, no verdict: the run is refused with what to change.
 */
int bench_ramp_took_all(const struct bench_opts *job, uint64_t ios, uint64_t measured, struct bench_error *e)
{
        if (job->ramp_ns == 0 || ios == 0 || measured > 0)
                return 0;
        /* a job that ran for its time: fio kept no latency after the ramp (3.33, rate_process=poisson) */
        if (job->time_based)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "job '%s': none of its %" PRIu64 " I/Os has a latency measured "
                                       "after its %.3g s ramp_time (fio keeps none with "
                                       "rate_process=poisson and a ramp), so nothing was measured: give it "
                                       "ramp_time=0",
                                       job->name, ios, (double)job->ramp_ns / 1e9);
        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                               "job '%s': all its %" PRIu64 " I/Os fell in the %.3g s ramp_time (it ended by "
                               "its size first), so none was measured: give it time_based=1 with runtime=, "
                               "a size it cannot finish in the ramp, or ramp_time=0",
                               job->name, ios, (double)job->ramp_ns / 1e9);
}

/* the default runtime= bounds a job no amount ends (the rule of end_conditions, below, before it runs) */
bool bench_job_default_runtime(const struct bench_opts *o)
{
        return !o->runtime_set &&
               (o->time_based || (!o->io_size.set && !o->number_ios && (!o->size.set || o->size.pct != 0)));
}

/*
 * fio's end conditions: without time_based a job ends when it has done its
 * amount, io_size= (io_limit=) or else size=, or number_ios= I/Os, whichever
 * comes first, and at runtime= only when runtime= is given; with
 * time_based it runs for runtime=, whatever its amount (fio's do_io() and
 * keep_running() go on while time_based: number_ios= and io_size= end no
 * such job).
 * The amount is per thread, as fio's per clone.  A size given as a
 * percentage is the target's: such a job keeps runtime= (its default).
 */
static int end_conditions(struct bench_opts *o, const char *who, struct bench_error *e)
{
        bool timed = bench_job_default_runtime(o);

        if (!o->time_based && !o->io_size.set && o->size.set && o->size.pct == 0)
                o->io_size = (struct bench_size){ .bytes = o->size.bytes, .set = true };
        if (o->number_ios) {
                uint32_t bs = o->bs[bench_rw_reads(o->rw) ? BENCH_READ : BENCH_WRITE];
                uint64_t amount;

                if ((bench_rw_reads(o->rw) && bench_rw_writes(o->rw) && o->bs[BENCH_READ] != o->bs[BENCH_WRITE]) ||
                    o->n_bssplit[BENCH_READ] || o->n_bssplit[BENCH_WRITE])
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s--number_ios needs one block size "
                                               "(use --backend=fio for bssplit or r,w sizes)", who);
                amount = o->number_ios > UINT64_MAX / bs ? UINT64_MAX : o->number_ios * bs;
                if (!o->io_size.set || amount < o->io_size.bytes)
                        o->io_size = (struct bench_size){ .bytes = amount, .set = true };
        }
        if (!timed && !o->runtime_set)
                o->runtime_ns = 0;      /* stop on the amount of I/O only, as fio */
        return 0;
}

/*
 * A throughput objective (iops, bw) on jobs whose throughput is capped
 * (rate=, rate_iops= for every direction the job does, or thinktime=)
 * compares nothing: every variant does what the cap allows.  Every job the
 * objective measures must be capped for that; why names the first cap.  A
 * direction rwmixread= leaves no share is none the job does; a cap fio ran
 * with in a form the bench does not read (rate_iops=2k) is a cap.
 */
static bool job_capped(const struct bench_opts *j, char *why, size_t len)
{
        static const char *const dn[BENCH_NDIR] = { "reads", "writes" };
        /* the command line's one job before it is made one (bench_jobs_add below): its default name */
        const char *name = j->name ? j->name : "iosched-bench";
        bool any = false, all = true;
        char b[32];

        if (j->cap_form[0]) {
                snprintf(why, len, "%s in job '%s' (a cap in a form fio reads)", j->cap_form, name);
                return true;
        }
        if (j->thinktime_ns) {
                snprintf(why, len, "thinktime=%s in job '%s'",
                         bench_fmt_ns(b, sizeof(b), (double)j->thinktime_ns), name);
                return true;
        }
        for (int d = 0; d < BENCH_NDIR; d++) {
                bool mixed = bench_rw_reads(j->rw) && bench_rw_writes(j->rw), both;

                if (d == BENCH_READ ? !bench_rw_reads(j->rw) || (mixed && j->rwmixread == 0)
                                    : !bench_rw_writes(j->rw) || (mixed && j->rwmixread == 100))
                        continue;
                if (!j->rate_iops[d] && !j->rate_bps[d]) {
                        all = false;
                        continue;
                }
                /* one value for both directions (rate_iops=1000 on a mix) said once, for both */
                both = d == BENCH_READ && bench_rw_writes(j->rw) && !(mixed && j->rwmixread == 100) &&
                       j->rate_iops[BENCH_READ] == j->rate_iops[BENCH_WRITE] &&
                       j->rate_bps[BENCH_READ] == j->rate_bps[BENCH_WRITE];
                if (!any && j->rate_iops[d])
                        snprintf(why, len, "rate_iops=%" PRIu64 " (%s) in job '%s'", j->rate_iops[d],
                                 both ? "reads and writes" : dn[d], name);
                else if (!any)
                        snprintf(why, len, "rate=%s/s (%s) in job '%s'",
                                 bench_fmt_bytes(b, sizeof(b), (double)j->rate_bps[d]),
                                 both ? "reads and writes" : dn[d], name);
                any = true;
        }
        return any && all;
}

int bench_objective_uncap(struct bench_opts *g, char *note, size_t len)
{
        char why[160] = "";
        const char *metric = bench_objective_to_string(g->objective);
        bool capped = true;

        if (g->objective != BENCH_OBJ_IOPS && g->objective != BENCH_OBJ_BW)
                return 0;
        if (g->objective_jobidx >= 0 && (unsigned)g->objective_jobidx < g->njobs)
                capped = job_capped(&g->jobs[g->objective_jobidx], why, sizeof(why));
        else if (g->njobs == 0)
                capped = job_capped(g, why, sizeof(why));
        for (unsigned i = 0; g->objective_jobidx < 0 && i < g->njobs && capped; i++)
                capped = job_capped(&g->jobs[i], why, sizeof(why));
        if (!capped)
                return 0;
        snprintf(note, len, "objective %s replaced by p99: %s caps the throughput, so every scheduler does "
                 "the same %s and %s would compare nothing", g->objective_label, why,
                 g->objective == BENCH_OBJ_IOPS ? "IOPS" : "bandwidth", metric);
        g->objective = BENCH_OBJ_P99;
        {
                /* "reader:iops" -> "reader:p99" */
                char *colon = strrchr(g->objective_label, ':');
                size_t at = colon ? (size_t)(colon - g->objective_label) + 1 : 0;

                snprintf(g->objective_label + at, sizeof(g->objective_label) - at, "p99");
        }
        return 1;
}

/* The defaults of one job that depend on its other options, and its checks. */
static int finish_job(const struct bench_opts *g, struct bench_opts *o, const char *job, struct bench_error *e)
{
        char who[300] = "";
        int r;

        if (job)
                snprintf(who, sizeof(who), "job '%s': ", job);
        if (g->compare && (o->engine->flags & BENCH_ENGINE_NOFILE))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s--compare needs a real engine, not %s",
                                       who, o->engine->name);
        if (o->directory && !o->filename && !o->size.set && !o->filesize.set)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "%s--directory needs --size for the files it creates", who);
        if (!o->filename && !o->size.set && !o->filesize.set && !(o->engine->flags & BENCH_ENGINE_NOFILE))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "%smissing --filename (a block device, a file or a directory), or --size "
                                       "for the files %s/%s.N.0 it would create", who, o->directory ? o->directory : ".",
                                       o->name);
        if (!o->filename && o->size.set && o->size.pct > 0 && !o->filesize.set && !(o->engine->flags & BENCH_ENGINE_NOFILE))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "%s--size=%g%% needs a file to be a part of: the files it creates need a size",
                                       who, o->size.pct);
        r = end_conditions(o, who, e);
        if (r < 0)
                return r;
        if (bench_job_settles(o, g->compare))
                o->ramp_ns = BENCH_SWITCH_SETTLE_NS;
        if (o->engine->flags & BENCH_ENGINE_SYNC)
                o->iodepth = 1;
        if (o->cpus_split && o->ncpus == 0) {
                /* split with no list: over every CPU we may use, as fio */
                r = bench_usable_cpus(&o->cpus, e);
                if (r < 0)
                        return r;
                o->ncpus = (unsigned)CPU_COUNT(&o->cpus);
        }
        /*
         * Submit at most depth/8 (1 to 16) per call by default.  Measured on
         * the reference VM: at depth 32 batches of 2-4 beat
         * both 1 (fio's default) and 8, on the loop device as on virtio, where
         * a batch held behind one plug leaves the disk waiting; at depth 128
         * anything from 4 to 32 is alike.
         */
        if (o->batch_submit == 0)
                o->batch_submit = o->iodepth / 8 < 1 ? 1 : o->iodepth / 8 > 16 ? 16 : o->iodepth / 8;
        if (o->batch_submit > o->iodepth)
                o->batch_submit = o->iodepth;
        if (o->batch_complete_max == 0 || o->batch_complete_max > o->iodepth)
                o->batch_complete_max = o->iodepth;
        if (o->batch_complete_min > o->batch_complete_max)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "%s--iodepth_batch_complete_min=%u is larger than the maximum %u", who,
                                       o->batch_complete_min, o->batch_complete_max);
        /* ionice's defaults: best-effort, level 4 */
        if (o->prio >= 0 && o->prioclass < 0)
                o->prioclass = 2;
        if (o->prioclass >= 0 && o->prio < 0)
                o->prio = o->prioclass == 3 ? 0 : 4;
        return 0;
}

/* The global options' view of the run: job 0's options (what one-job runs and --compare print). */
static int sync_from_first(struct bench_opts *g)
{
        const struct bench_opts *j = &g->jobs[0];

        free(g->filename);
        free(g->name);
        free(g->directory);
        g->filename = j->filename ? strdup(j->filename) : NULL;
        g->directory = j->directory ? strdup(j->directory) : NULL;
        g->name = strdup(j->name);
        if ((j->filename && !g->filename) || (j->directory && !g->directory) || !g->name)
                return -ENOMEM;
        g->engine = j->engine;
        g->rw = j->rw;
        g->rwmixread = j->rwmixread;
        memcpy(g->bs, j->bs, sizeof(g->bs));
        g->iodepth = j->iodepth;
        g->numjobs = j->numjobs;
        g->batch_submit = j->batch_submit;
        g->batch_complete_min = j->batch_complete_min;
        g->batch_complete_max = j->batch_complete_max;
        g->runtime_ns = j->runtime_ns;
        g->ramp_ns = j->ramp_ns;
        g->runtime_set = j->runtime_set;
        g->ramp_set = j->ramp_set;
        g->poll_wait_ns = j->poll_wait_ns;
        g->cpus = j->cpus;
        g->ncpus = j->ncpus;
        g->cpus_split = j->cpus_split;
        g->size = j->size;
        g->offset = j->offset;
        g->io_size = j->io_size;
        g->direct = j->direct;
        g->fixedbufs = j->fixedbufs;
        g->registerfiles = j->registerfiles;
        g->randrepeat = j->randrepeat;
        memcpy(g->percentiles, j->percentiles, sizeof(g->percentiles));
        g->n_percentiles = j->n_percentiles;
        return 0;
}

/* Whether a job reads: a mix with rwmixread=0 does not (rwmixwrite=100) */
static bool job_reads(const struct bench_opts *j)
{
        return bench_rw_reads(j->rw) && !(bench_rw_writes(j->rw) && j->rwmixread == 0);
}

static int find_objective_job(struct bench_opts *g, struct bench_error *e)
{
        const char *metric = bench_objective_to_string(g->objective);
        bool reads = false;

        g->objective_jobidx = -1;
        if (g->objective_job) {
                for (unsigned i = 0; i < g->njobs; i++)
                        if (streq(g->jobs[i].name, g->objective_job)) {
                                if (g->objective_jobidx >= 0)
                                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                               "--objective=%s:%s: more than one job is named '%s'",
                                                               g->objective_job, metric, g->objective_job);
                                g->objective_jobidx = (int)i;
                        }
                if (g->objective_jobidx < 0) {
                        _cleanup_free_ char *names = NULL;
                        size_t len = 0;
                        FILE *m = open_memstream(&names, &len);

                        if (!m)
                                return -ENOMEM;
                        for (unsigned i = 0; i < g->njobs; i++)
                                fprintf(m, "%s%s", i ? ", " : "", g->jobs[i].name);
                        fclose(m);
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--objective=%s:%s: no job named '%s' (jobs: %s)",
                                               g->objective_job, metric, g->objective_job, names ? names : "");
                }
                reads = job_reads(&g->jobs[g->objective_jobidx]);
                snprintf(g->objective_label, sizeof(g->objective_label), "%s:%s", g->objective_job, metric);
        } else {
                for (unsigned i = 0; i < g->njobs; i++)
                        reads |= job_reads(&g->jobs[i]);
                snprintf(g->objective_label, sizeof(g->objective_label), "%s", metric);
        }
        if (g->objective == BENCH_OBJ_READ_P99 && !reads)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "--objective=%s needs a %s that reads",
                                       g->objective_label, g->objective_job ? "job" : "workload");
        return 0;
}

int bench_jobs_finish(struct bench_opts *g, struct bench_error *e)
{
        unsigned gid = 0, thread = 0;
        bool preset_writes = false;
        int r;

        for (char **f = g->jobfiles; f && *f; f++) {
                unsigned before = g->njobs;

                r = bench_jobfile_parse(g, *f, e);
                if (r < 0)
                        return r;
                /* fio: a stonewall before each later job file's first job (init.c) */
                if (f != g->jobfiles && g->njobs > before)
                        g->jobs[before].stonewall = true;
        }
        if (g->workload) {
                unsigned before = g->njobs;
                char where[96];

                snprintf(where, sizeof(where), "--workload=%s", g->workload);
                r = bench_jobfile_parse_text(g, bench_workload_text(g->workload), where, e);
                if (r < 0)
                        return r;
                for (unsigned i = before; i < g->njobs; i++)
                        preset_writes |= bench_rw_writes(g->jobs[i].rw);
                if (preset_writes && !g->allow_write)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "--workload=%s writes: add --allow-write (it overwrites the data on the target)",
                                               g->workload);
        }
        /* every job file read: now the options native lacks, all at once */
        r = bench_jobs_unsupported_error(g, e);
        if (r < 0)
                return r;
        if (g->njobs == 0) {
                struct bench_opts *j;

                r = bench_jobs_add(g, g, g->name ? g->name : "iosched-bench", &j);
                if (r < 0)
                        return r;
        }
        for (unsigned i = 0; i < g->njobs; i++) {
                struct bench_opts *j = &g->jobs[i];

                j->allow_write = g->allow_write;
                if (g->readonly && (bench_rw_writes(j->rw) || j->end_fsync))
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "--readonly: job '%s' writes (rw=%s)", j->name, bench_rw_to_string(j->rw));
                r = finish_job(g, j, g->njobs > 1 ? j->name : NULL, e);
                if (r < 0)
                        return r;
                if (i > 0 && (j->stonewall || j->new_group))
                        gid++;          /* fio: a stonewall starts a new group too */
                j->groupid = gid;
                j->first_thread = thread;
                thread += j->numjobs;
                /* a thread each, clones too, as fio counts its jobs (init.c get_new_job()) */
                if (thread > BENCH_JOBS_MAX)
                        return bench_error_set(e, BENCH_ERR_USAGE, E2BIG,
                                               "job '%s': the run's jobs and their clones (numjobs=) pass "
                                               "%d, fio's limit", j->name, BENCH_JOBS_MAX);
        }
        g->nthreads = thread;
        if (g->loops == 0)
                g->loops = g->compare ? 3 : 1;
        r = find_objective_job(g, e);
        if (r < 0)
                return r;
        return sync_from_first(g);
}

const struct bench_result *bench_objective_result(const struct bench_opts *g, const struct bench_result *r)
{
        if (g->objective_jobidx >= 0 && r->jobs && (unsigned)g->objective_jobidx < r->njobs)
                return &r->jobs[g->objective_jobidx];
        return r;
}
