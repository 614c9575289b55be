/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * jobopts.c: a job's options, in one table that the command line
 * (options.c, "--rw=randread" or "-rw=randread") and fio job files
 * (jobfile.c, "rw=randread") share.  Names, aliases and value syntax are
 * fio's (sizes 4k/1m, times 10s/500ms with fio's default unit per option,
 * booleans 0/1, "r,w" pairs), so fio job lines carry over; a fio option that
 * is not implemented here is refused by name, never ignored.
 */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"

enum id {
        J_FILENAME, J_DIRECTORY, J_IOENGINE, J_RW, J_RWMIXREAD, J_RWMIXWRITE, J_BS, J_IODEPTH,
        J_NUMJOBS, J_RUNTIME, J_RAMP, J_SIZE, J_OFFSET, J_IO_SIZE, J_DIRECT, J_BUFFERED,
        J_HARMLESS, J_RANDREPEAT, J_GROUP_REPORTING, J_FIXEDBUFS, J_REGISTERFILES, J_BATCH_SUBMIT,
        J_BATCH_MIN, J_BATCH_MAX, J_PERCENTILES, J_POLL_WAIT, J_CPUS, J_CPUS_POLICY, J_RATE,
        J_RATE_IOPS, J_THINKTIME, J_THINKTIME_BLOCKS, J_STARTDELAY, J_NEW_GROUP, J_STONEWALL,
        J_PRIO, J_PRIOCLASS, J_RNG, J_FILESIZE, J_BSSPLIT, J_DIST, J_END_FSYNC, J_INVALIDATE,
        J_REFILL, J_IGNORED,
};

static const struct jobopt {
        const char *name;
        enum id id;
        enum bench_jobopt_arg arg;
} table[] = {
        { "filename", J_FILENAME, BENCH_JOBOPT_VALUE },
        { "directory", J_DIRECTORY, BENCH_JOBOPT_VALUE },
        { "ioengine", J_IOENGINE, BENCH_JOBOPT_VALUE },
        { "rw", J_RW, BENCH_JOBOPT_VALUE },
        { "readwrite", J_RW, BENCH_JOBOPT_VALUE },
        { "rwmixread", J_RWMIXREAD, BENCH_JOBOPT_VALUE },
        { "rwmixwrite", J_RWMIXWRITE, BENCH_JOBOPT_VALUE },
        { "bs", J_BS, BENCH_JOBOPT_VALUE },
        { "blocksize", J_BS, BENCH_JOBOPT_VALUE },
        { "iodepth", J_IODEPTH, BENCH_JOBOPT_VALUE },
        { "numjobs", J_NUMJOBS, BENCH_JOBOPT_VALUE },
        { "runtime", J_RUNTIME, BENCH_JOBOPT_VALUE },
        { "timeout", J_RUNTIME, BENCH_JOBOPT_VALUE },
        { "ramp_time", J_RAMP, BENCH_JOBOPT_VALUE },
        { "size", J_SIZE, BENCH_JOBOPT_VALUE },
        { "offset", J_OFFSET, BENCH_JOBOPT_VALUE },
        { "fileoffset", J_OFFSET, BENCH_JOBOPT_VALUE },
        { "io_size", J_IO_SIZE, BENCH_JOBOPT_VALUE },
        { "io_limit", J_IO_SIZE, BENCH_JOBOPT_VALUE },
        { "direct", J_DIRECT, BENCH_JOBOPT_BOOL },
        { "buffered", J_BUFFERED, BENCH_JOBOPT_BOOL },
        { "time_based", J_HARMLESS, BENCH_JOBOPT_BOOL },
        { "norandommap", J_HARMLESS, BENCH_JOBOPT_BOOL },
        { "thread", J_HARMLESS, BENCH_JOBOPT_BOOL },
        { "threads", J_HARMLESS, BENCH_JOBOPT_BOOL },
        { "description", J_HARMLESS, BENCH_JOBOPT_VALUE },
        { "randrepeat", J_RANDREPEAT, BENCH_JOBOPT_BOOL },
        { "allrandrepeat", J_RANDREPEAT, BENCH_JOBOPT_BOOL },
        { "group_reporting", J_GROUP_REPORTING, BENCH_JOBOPT_BOOL },
        { "fixedbufs", J_FIXEDBUFS, BENCH_JOBOPT_BOOL },
        { "registerfiles", J_REGISTERFILES, BENCH_JOBOPT_BOOL },
        { "iodepth_batch_submit", J_BATCH_SUBMIT, BENCH_JOBOPT_VALUE },
        { "iodepth_batch", J_BATCH_SUBMIT, BENCH_JOBOPT_VALUE },
        { "iodepth_batch_complete_min", J_BATCH_MIN, BENCH_JOBOPT_VALUE },
        { "iodepth_batch_complete", J_BATCH_MIN, BENCH_JOBOPT_VALUE },
        { "iodepth_batch_complete_max", J_BATCH_MAX, BENCH_JOBOPT_VALUE },
        { "percentile_list", J_PERCENTILES, BENCH_JOBOPT_VALUE },
        { "poll_wait", J_POLL_WAIT, BENCH_JOBOPT_VALUE },
        { "cpus_allowed", J_CPUS, BENCH_JOBOPT_VALUE },
        { "cpus_allowed_policy", J_CPUS_POLICY, BENCH_JOBOPT_VALUE },
        { "rate", J_RATE, BENCH_JOBOPT_VALUE },
        { "rate_iops", J_RATE_IOPS, BENCH_JOBOPT_VALUE },
        { "thinktime", J_THINKTIME, BENCH_JOBOPT_VALUE },
        { "thinktime_blocks", J_THINKTIME_BLOCKS, BENCH_JOBOPT_VALUE },
        { "startdelay", J_STARTDELAY, BENCH_JOBOPT_VALUE },
        { "new_group", J_NEW_GROUP, BENCH_JOBOPT_BOOL },
        { "stonewall", J_STONEWALL, BENCH_JOBOPT_BOOL },
        { "wait_for_previous", J_STONEWALL, BENCH_JOBOPT_BOOL },
        { "prio", J_PRIO, BENCH_JOBOPT_VALUE },
        { "ioprio", J_PRIO, BENCH_JOBOPT_VALUE },
        { "prioclass", J_PRIOCLASS, BENCH_JOBOPT_VALUE },
        { "random_generator", J_RNG, BENCH_JOBOPT_VALUE },
        { "filesize", J_FILESIZE, BENCH_JOBOPT_VALUE },
        { "bssplit", J_BSSPLIT, BENCH_JOBOPT_VALUE },
        { "random_distribution", J_DIST, BENCH_JOBOPT_VALUE },
        { "end_fsync", J_END_FSYNC, BENCH_JOBOPT_BOOL },
        { "invalidate", J_INVALIDATE, BENCH_JOBOPT_BOOL },
        { "refill_buffers", J_REFILL, BENCH_JOBOPT_BOOL },
        /* fio's own reporting and timing: accepted, noted, no effect here */
        { "gtod_reduce", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "disable_lat", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "disable_clat", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "disable_slat", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "disable_bw_measurement", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "disable_bw", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "clat_percentiles", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "lat_percentiles", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "slat_percentiles", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "per_job_logs", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "log_avg_msec", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "log_hist_msec", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "log_max_value", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "log_window_value", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "log_offset", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "log_unix_epoch", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "log_alternate_epoch", J_IGNORED, BENCH_JOBOPT_BOOL },
        { "bwavgtime", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "iopsavgtime", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "significant_figures", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "kb_base", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "unit_base", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "clocksource", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "eta-newline", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "eta-interval", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "status-interval", J_IGNORED, BENCH_JOBOPT_VALUE },
        { "warnings-fatal", J_IGNORED, BENCH_JOBOPT_BOOL },
};


const char *bench_jobopt_name(unsigned i, enum bench_jobopt_arg *ret_arg)
{
        if (i >= ELEMENTSOF(table))
                return NULL;
        if (ret_arg)
                *ret_arg = table[i].arg;
        return table[i].name;
}

static const struct jobopt *lookup(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(table); i++)
                if (streq(name, table[i].name))
                        return &table[i];
        return NULL;
}

int bench_jobopt_known(const char *name)
{
        return name && lookup(name) ? 1 : 0;
}

/* "where: invalid --name 'value' (why)": the option as the user spelled it */
#define BAD(fmt, ...) bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s%sinvalid %s%s '%s' " fmt, \
                                      where ? where : "", where ? ": " : "", where ? "" : "--", \
                                      name, v, __VA_ARGS__)

/* fio's "r,w" pairs: "x" both, "x,y", ",y" writes only, "x," reads only */
static int parse_pair(const char *s, int (*one)(const char *, uint64_t *), uint64_t ret[BENCH_NDIR])
{
        _cleanup_free_ char *copy = strdup(s);
        char *comma, *part[2];
        uint64_t v[2] = { 0, 0 };

        if (!copy)
                return -ENOMEM;
        comma = strchr(copy, ',');
        if (comma)
                *comma++ = '\0';
        part[0] = copy;
        part[1] = comma ? comma : copy;
        if (comma && strchr(comma, ','))
                return -EOPNOTSUPP;     /* a third (trim) value: fio's */
        if (!*part[0] && !*part[1])
                return -EINVAL;
        for (int i = 0; i < 2; i++)
                if (*part[i] && one(part[i], &v[i]) < 0)
                        return -EINVAL;
        ret[BENCH_READ] = v[0];
        ret[BENCH_WRITE] = v[1];
        return 0;
}

static int parse_count64(const char *s, uint64_t *ret)
{
        char *end;

        if (!s || *s < '0' || *s > '9')
                return -EINVAL;
        errno = 0;
        *ret = strtoull(s, &end, 10);
        return errno || *end ? -EINVAL : 0;
}

/* A time whose bare number is in unit_ns (fio: seconds for most, µs for thinktime). */
static int parse_time_unit(const char *s, uint64_t unit_ns, uint64_t *ret)
{
        size_t l = strlen(s);

        if (l && s[l - 1] >= '0' && s[l - 1] <= '9' && unit_ns != 1000000000ull) {
                uint64_t n;

                if (parse_count64(s, &n) < 0 || n > UINT64_MAX / unit_ns)
                        return -EINVAL;
                *ret = n * unit_ns;
                return 0;
        }
        return bench_parse_time(s, ret);
}

static int parse_percentiles(const char *s, struct bench_opts *o)
{
        _cleanup_free_ char *copy = strdup(s);
        unsigned n = 0;
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        for (char *t = strtok_r(copy, ":", &save); t; t = strtok_r(NULL, ":", &save)) {
                char *end;
                double p = strtod(t, &end);

                if (end == t || *end || !(p > 0) || p > 100 || n == BENCH_MAX_PERCENTILES)
                        return -EINVAL;
                o->percentiles[n++] = p;
        }
        if (n == 0)
                return -EINVAL;
        o->n_percentiles = n;
        return 0;
}

static int set_string(char **p, const char *v)
{
        char *c = strdup(v);

        if (!c)
                return -ENOMEM;
        free(*p);
        *p = c;
        return 0;
}

int bench_jobopt_set(struct bench_opts *o, const char *name, const char *value, const char *where,
                     struct bench_error *e)
{
        const struct jobopt *j = lookup(name);
        const char *v = value ? value : "";
        uint64_t x, pair[BENCH_NDIR];
        unsigned u;
        bool b;
        int r;

        if (!j)
                return bench_fio_option_arg(name) ? -EOPNOTSUPP : -ENOENT;
        /* fio's keywords in values ("bs=$pagesize", "size=$mb_memory/2"): fio's to work out */
        if (strstr(v, "$pagesize") || strstr(v, "$mb_memory") || strstr(v, "$ncpus"))
                return -EOPNOTSUPP;
        if (j->id == J_IGNORED)
                return 1;
        if (j->arg == BENCH_JOBOPT_BOOL) {
                if (!value)
                        b = true;
                else if (bench_parse_bool(value, &b) < 0)
                        return BAD("(expected 0 or 1)%s", "");
        } else if (!value)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s%soption %s%s needs a value",
                                       where ? where : "", where ? ": " : "", where ? "" : "--", name);

        switch (j->id) {
        case J_FILENAME:
        case J_DIRECTORY:
                if (!*v)
                        return BAD("(expected a path)%s", "");
                if (strchr(v, ':'))
                        return -EOPNOTSUPP;     /* several files: fio's, not ours */
                return set_string(j->id == J_FILENAME ? &o->filename : &o->directory, v);
        case J_IOENGINE:
                if (!*v)
                        return BAD("(expected io_uring, libaio, psync, pvsync, sync or null)%s", "");
                o->engine = bench_engine_find(v) ?: o->engine;
                /* any other is fio's to load (or to refuse): posixaio, mmap, external:... */
                return bench_engine_find(v) ? 0 : -EOPNOTSUPP;
        case J_RW:
                r = bench_rw_from_string(v);
                if (r < 0) {
                        char base[32];

                        snprintf(base, sizeof(base), "%.*s", (int)strcspn(v, ":"), v);
                        /* trims, or fio's offset modifier (rw=randread:8): fio's, not ours */
                        if (streq(base, "trim") || streq(base, "randtrim") || streq(base, "trimwrite") ||
                            (strchr(v, ':') && bench_rw_from_string(base) >= 0))
                                return -EOPNOTSUPP;
                        return BAD("(expected read, write, randread, randwrite, readwrite or randrw)%s", "");
                }
                o->rw = (enum bench_rw)r;
                return 0;
        case J_RWMIXREAD:
        case J_RWMIXWRITE:
                if (bench_parse_uint(v, 0, 100, &u) < 0)
                        return BAD("(expected 0-100)%s", "");
                o->rwmixread = j->id == J_RWMIXREAD ? u : 100 - u;
                return 0;
        case J_BS:
                r = parse_pair(v, bench_parse_size, pair);
                if (r == -EOPNOTSUPP || r == -ENOMEM)
                        return r;
                if (r < 0 || !pair[0] || !pair[1] ||
                    strchr(v, ',') == v || v[strlen(v) - 1] == ',')
                        return BAD("(expected a size such as 4k or 4k,64k)%s", "");
                for (int d = 0; d < BENCH_NDIR; d++)
                        if (pair[d] < 512 || pair[d] > 64ull << 20 || pair[d] % 512)
                                return -EOPNOTSUPP;     /* a size, but not one of ours (512 to 64m by 512): fio's */
                o->bs[BENCH_READ] = (uint32_t)pair[BENCH_READ];
                o->bs[BENCH_WRITE] = (uint32_t)pair[BENCH_WRITE];
                return 0;
        case J_IODEPTH:
                if (bench_parse_uint(v, 1, 4096, &o->iodepth) < 0)
                        return BAD("(expected 1-4096)%s", "");
                return 0;
        case J_NUMJOBS:
                if (bench_parse_uint(v, 1, 256, &o->numjobs) < 0)
                        return BAD("(expected 1-256)%s", "");
                return 0;
        case J_RUNTIME:
        case J_RAMP:
                if (bench_parse_time(v, &x) < 0 || x > 7ull * 86400 * 1000000000ull)
                        return BAD("(expected a time such as 10s or 500ms)%s", "");
                if (j->id == J_RUNTIME) {
                        if (x < 1000000)
                                return BAD("(at least 1ms)%s", "");
                        o->runtime_ns = x;
                        o->runtime_set = true;
                } else {
                        o->ramp_ns = x;
                        o->ramp_set = true;
                }
                return 0;
        case J_SIZE:
        case J_OFFSET:
        case J_IO_SIZE: {
                struct bench_size *sz = j->id == J_SIZE ? &o->size : j->id == J_OFFSET ? &o->offset : &o->io_size;

                if (*v && (v[strlen(v) - 1] == 'z' || v[strlen(v) - 1] == 'Z'))
                        return -EOPNOTSUPP;     /* fio's zone units (zonemode=) */

                if ((j->id == J_IO_SIZE ? bench_parse_size(v, &x) < 0 : bench_parse_size_pct(v, sz) < 0) &&
                    strpbrk(v, "*/+()$"))
                        return -EOPNOTSUPP;     /* fio's arithmetic ("5*1024*$mb_memory") */
                if (j->id == J_IO_SIZE ? bench_parse_size(v, &x) < 0 : bench_parse_size_pct(v, sz) < 0)
                        return BAD("(expected a size such as 1g%s)", j->id == J_IO_SIZE ? "" : " or a percentage such as 50%");
                if (j->id == J_IO_SIZE)
                        *sz = (struct bench_size) { .bytes = x, .set = true };
                if (j->id != J_OFFSET && sz->pct == 0 && sz->bytes == 0)
                        return BAD("(must not be 0)%s", "");
                return 0;
        }
        case J_DIRECT:
                o->direct = b;
                return 0;
        case J_BUFFERED:
                o->direct = !b;
                return 0;
        case J_HARMLESS:
                return 0;       /* threads, time based, no random map: always how we run */
        case J_RANDREPEAT:
                o->randrepeat = b;
                return 0;
        case J_GROUP_REPORTING:
                o->group_reporting = b;
                return 0;
        case J_FIXEDBUFS:
                o->fixedbufs = b;
                return 0;
        case J_REGISTERFILES:
                o->registerfiles = b;
                return 0;
        case J_BATCH_SUBMIT:
        case J_BATCH_MIN:
        case J_BATCH_MAX: {
                unsigned *p = j->id == J_BATCH_SUBMIT ? &o->batch_submit :
                              j->id == J_BATCH_MIN ? &o->batch_complete_min : &o->batch_complete_max;
                if (bench_parse_uint(v, j->id == J_BATCH_MIN ? 0 : 1, 4096, p) < 0)
                        return BAD("(expected a count)%s", "");
                return 0;
        }
        case J_PERCENTILES:
                r = parse_percentiles(v, o);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return BAD("(up to %d values in (0,100], ':'-separated)", BENCH_MAX_PERCENTILES);
                return 0;
        case J_POLL_WAIT:
                if (bench_parse_time(v, &o->poll_wait_ns) < 0 || o->poll_wait_ns > 1000000000ull)
                        return BAD("(expected a time up to 1s, such as 20us)%s", "");
                return 0;
        case J_CPUS:
                r = bench_parse_cpu_list(v, &o->cpus, &o->ncpus, e);
                if (r < 0 && where && e->cls == BENCH_ERR_USAGE) {
                        char msg[sizeof(e->msg) + 4200];

                        snprintf(msg, sizeof(msg), "%s: %s", where, e->msg);
                        memcpy(e->msg, msg, sizeof(e->msg) - 1);
                        e->msg[sizeof(e->msg) - 1] = '\0';
                }
                return r;
        case J_CPUS_POLICY:
                if (streq(v, "shared"))
                        o->cpus_split = false;
                else if (streq(v, "split"))
                        o->cpus_split = true;
                else
                        return BAD("(expected shared or split)%s", "");
                return 0;
        case J_RATE:
        case J_RATE_IOPS:
                r = parse_pair(v, j->id == J_RATE ? bench_parse_size : parse_count64,
                               j->id == J_RATE ? o->rate_bps : o->rate_iops);
                if (r == -EOPNOTSUPP || r == -ENOMEM)
                        return r;
                if (r < 0)
                        return BAD("(expected %s, or read,write: such as %s)",
                                   j->id == J_RATE ? "bytes per second" : "I/Os per second",
                                   j->id == J_RATE ? "10m, 10m,2m or ,2m" : "500, 500,100 or ,100");
                return 0;
        case J_THINKTIME:
                if (parse_time_unit(v, 1000, &o->thinktime_ns) < 0 || o->thinktime_ns > 3600000000000ull)
                        return BAD("(expected a time such as 200us or 5ms; a bare number is in microseconds)%s", "");
                return 0;
        case J_THINKTIME_BLOCKS:
                if (bench_parse_uint(v, 1, 1u << 20, &o->thinktime_blocks) < 0)
                        return BAD("(expected a count from 1)%s", "");
                return 0;
        case J_STARTDELAY:
                if (bench_parse_time(v, &o->startdelay_ns) < 0 || o->startdelay_ns > 86400000000000ull)
                        return BAD("(expected a time such as 2s or 500ms; ranges are not supported)%s", "");
                return 0;
        case J_NEW_GROUP:
                o->new_group = b;
                return 0;
        case J_STONEWALL:
                o->stonewall = b;
                return 0;
        case J_PRIO:
                if (bench_parse_uint(v, 0, 7, &u) < 0)
                        return BAD("(expected 0-7, 0 the highest)%s", "");
                o->prio = (int)u;
                return 0;
        case J_PRIOCLASS:
                if (bench_parse_uint(v, 1, 3, &u) < 0)
                        return BAD("(expected 1 realtime, 2 best-effort or 3 idle)%s", "");
                o->prioclass = (int)u;
                return 0;
        case J_RNG:
                if (streq(v, "tausworthe"))
                        o->rng = BENCH_RNG_TAUS88;
                else if (streq(v, "tausworthe64"))
                        o->rng = BENCH_RNG_TAUS258;
                else if (streq(v, "lfsr"))
                        o->rng = BENCH_RNG_LFSR;
                else
                        return BAD("(expected tausworthe, tausworthe64 or lfsr)%s", "");
                return 0;
        case J_FILESIZE:
                if (bench_parse_size(v, &x) < 0 || x == 0)
                        return strchr(v, '-') ? -EOPNOTSUPP : BAD("(expected a size such as 64m)%s", "");
                o->filesize = (struct bench_size) { .bytes = x, .set = true };
                return 0;
        case J_BSSPLIT:
                r = bench_parse_bssplit(v, o);
                if (r == -EINVAL)
                        return BAD("(expected SIZE/PERCENT:SIZE/PERCENT..., optionally ,WRITES; percents up to 100)%s", "");
                return r;
        case J_DIST:
                r = bench_parse_distribution(v, o);
                if (r == -EINVAL)
                        return BAD("(expected random, zipf:THETA (not 1), pareto:H (0<H<1) or normal:DEV%% (0-100))%s", "");
                return r;
        case J_END_FSYNC:
                o->end_fsync = b;
                return 0;
        case J_INVALIDATE:
                o->invalidate = b;
                return 0;
        case J_REFILL:
                o->refill_buffers = b;
                return 0;
        case J_IGNORED:
                return 1;
        }
        return -ENOENT;
}

int bench_opts_copy_job(struct bench_opts *dst, const struct bench_opts *src)
{
        *dst = *src;
        dst->filename = dst->name = dst->directory = NULL;
        dst->output = dst->workload = dst->objective_job = dst->policy_file = NULL;
        dst->jobfiles = dst->compare_scheds = NULL;
        dst->jobs = NULL;
        dst->njobs = 0;
        dst->unsupported = dst->ignored = NULL;
        if ((src->filename && !(dst->filename = strdup(src->filename))) ||
            (src->directory && !(dst->directory = strdup(src->directory))))
                return -ENOMEM;
        return 0;
}

void bench_opts_done_job(struct bench_opts *o)
{
        free(o->filename);
        free(o->name);
        free(o->directory);
        o->filename = o->name = o->directory = NULL;
}
