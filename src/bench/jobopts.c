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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "jobs.h"
#include "macro.h"

/*
 * One option being set: the option's table row, the name as the user
 * spelled it (an alias too), its value ("" when none was given), where it
 * came from (NULL: the command line), and the boolean read from it.
 */
struct set {
        struct bench_opts *o;
        const struct jobopt *j;
        const char *name, *v, *where;
        struct bench_error *e;
        bool b;
};

/* A row of the table: fio's name, its kind of value, and what setting it does. */
struct jobopt {
        const char *name;
        enum bench_jobopt_arg arg;
        int (*set)(const struct set *s);        /* NULL: IGNORED */
        size_t field;                   /* offsetof(struct bench_opts, ...) for the shared setters */
        unsigned min, max;              /* set_uint's and set_int's range */
        const char *why;                /* their complaint, after the value */
};

#define FIELD(s, type) ((type *)(void *)((char *)(s)->o + (s)->j->field))

/* "where: invalid --name 'value' (why)": the option as the user spelled it */
#define BAD(fmt, ...) bench_error_set(s->e, BENCH_ERR_USAGE, EINVAL, "%s%sinvalid %s%s '%s' " fmt, \
                                      s->where ? s->where : "", s->where ? ": " : "", \
                                      s->where ? "" : "--", s->name, s->v, __VA_ARGS__)

static int set_string(char **p, const char *v)
{
        char *c = strdup(v);

        if (!c)
                return -ENOMEM;
        free(*p);
        *p = c;
        return 0;
}

/* threads, time based, no random map, a description: always how we run */
static int harmless(const struct set *s)
{
        (void)s;
        return 0;
}

static int set_bool(const struct set *s)
{
        *FIELD(s, bool) = s->b;
        return 0;
}

static int set_buffered(const struct set *s)
{
        s->o->direct = !s->b;
        return 0;
}

/* a count in [min, max] */
static int set_uint(const struct set *s)
{
        if (bench_parse_uint(s->v, s->j->min, s->j->max, FIELD(s, unsigned)) < 0)
                return BAD("%s", s->j->why);
        return 0;
}

/* filename=, directory= */
static int set_path(const struct set *s)
{
        if (!*s->v)
                return BAD("(expected a path)%s", "");
        if (strchr(s->v, ':'))
                return -EOPNOTSUPP;     /* several files: fio's, not ours */
        return set_string(FIELD(s, char *), s->v);
}

static int set_ioengine(const struct set *s)
{
        if (!*s->v)
                return BAD("(expected io_uring, libaio, psync, pvsync, sync or null)%s", "");
        s->o->engine = bench_engine_find(s->v) ?: s->o->engine;
        /* any other is fio's to load (or to refuse): posixaio, mmap, external:... */
        return bench_engine_find(s->v) ? 0 : -EOPNOTSUPP;
}

static int set_rw(const struct set *s)
{
        const char *v = s->v;
        int r = bench_rw_from_string(v);

        if (r < 0) {
                char base[32];

                snprintf(base, sizeof(base), "%.*s", (int)strcspn(v, ":"), v);
                /* trims, or fio's offset modifier (rw=randread:8): fio's, not ours */
                if (streq(base, "trim") || streq(base, "randtrim") || streq(base, "trimwrite") ||
                    (strchr(v, ':') && bench_rw_from_string(base) >= 0))
                        return -EOPNOTSUPP;
                return BAD("(expected read, write, randread, randwrite, readwrite or randrw)%s", "");
        }
        s->o->rw = (enum bench_rw)r;
        return 0;
}

static int set_rwmix(const struct set *s, bool writes)
{
        unsigned u;

        if (bench_parse_uint(s->v, 0, 100, &u) < 0)
                return BAD("(expected 0-100)%s", "");
        s->o->rwmixread = writes ? 100 - u : u;
        return 0;
}

static int set_rwmixread(const struct set *s)
{
        return set_rwmix(s, false);
}

static int set_rwmixwrite(const struct set *s)
{
        return set_rwmix(s, true);
}

static int set_bs(const struct set *s)
{
        const char *v = s->v;
        uint64_t pair[BENCH_NDIR];
        int r = bench_parse_pair(v, bench_parse_size, pair);

        if (r == -EOPNOTSUPP || r == -ENOMEM)
                return r;
        if (r < 0 || !pair[0] || !pair[1] || strchr(v, ',') == v || v[strlen(v) - 1] == ',')
                return BAD("(expected a size such as 4k or 4k,64k)%s", "");
        for (int d = 0; d < BENCH_NDIR; d++)
                if (pair[d] < 512 || pair[d] > 64ull << 20 || pair[d] % 512)
                        return -EOPNOTSUPP;     /* a size, but not one of ours (512 to 64m by 512): fio's */
        s->o->bs[BENCH_READ] = (uint32_t)pair[BENCH_READ];
        s->o->bs[BENCH_WRITE] = (uint32_t)pair[BENCH_WRITE];
        return 0;
}

/* runtime= and ramp_time=: up to a week */
static int parse_run_time(const struct set *s, uint64_t *x)
{
        if (bench_parse_time(s->v, x) < 0 || *x > 7ull * 86400 * 1000000000ull)
                return BAD("(expected a time such as 10s or 500ms)%s", "");
        return 0;
}

static int set_runtime(const struct set *s)
{
        uint64_t x;
        int r = parse_run_time(s, &x);

        if (r < 0)
                return r;
        if (x < 1000000)
                return BAD("(at least 1ms)%s", "");
        s->o->runtime_ns = x;
        s->o->runtime_set = true;
        return 0;
}

static int set_ramp(const struct set *s)
{
        uint64_t x;
        int r = parse_run_time(s, &x);

        if (r < 0)
                return r;
        s->o->ramp_ns = x;
        s->o->ramp_set = true;
        return 0;
}

/*
 * size=, offset= (a size or a percentage of the target) and io_size= (a
 * size): fio's zone units and arithmetic are fio's; only offset may be 0.
 */
static int set_extent(const struct set *s, struct bench_size *sz, bool pct, bool zero_ok)
{
        const char *v = s->v;
        uint64_t x;

        if (*v && (v[strlen(v) - 1] == 'z' || v[strlen(v) - 1] == 'Z'))
                return -EOPNOTSUPP;     /* fio's zone units (zonemode=) */

        if ((!pct ? bench_parse_size(v, &x) < 0 : bench_parse_size_pct(v, sz) < 0) && strpbrk(v, "*/+()$"))
                return -EOPNOTSUPP;     /* fio's arithmetic ("5*1024*$mb_memory") */
        if (!pct ? bench_parse_size(v, &x) < 0 : bench_parse_size_pct(v, sz) < 0)
                return BAD("(expected a size such as 1g%s)", !pct ? "" : " or a percentage such as 50%");
        if (!pct)
                *sz = (struct bench_size) { .bytes = x, .set = true };
        if (!zero_ok && sz->pct == 0 && sz->bytes == 0)
                return BAD("(must not be 0)%s", "");
        return 0;
}

static int set_size(const struct set *s)
{
        return set_extent(s, &s->o->size, true, false);
}

static int set_offset(const struct set *s)
{
        return set_extent(s, &s->o->offset, true, true);
}

static int set_io_size(const struct set *s)
{
        return set_extent(s, &s->o->io_size, false, false);
}

/* kb_base=: ours is fio's default, 1024; 1000 turns fio's size prefixes round (units.c), fio's */
static int set_kb_base(const struct set *s)
{
        if (streq(s->v, "1024"))
                return 0;
        if (streq(s->v, "1000"))
                return -EOPNOTSUPP;
        return BAD("(expected 1024 or 1000)%s", "");
}

/* number_ios=: a count of I/Os after which the job ends (jobs.c turns it into an amount) */
static int set_number_ios(const struct set *s)
{
        if (bench_parse_count64(s->v, &s->o->number_ios) < 0)
                return BAD("(expected a count of I/Os)%s", "");
        return 0;
}

static int set_percentiles(const struct set *s)
{
        int r = bench_parse_percentiles(s->v, s->o->percentiles, BENCH_MAX_PERCENTILES, &s->o->n_percentiles);

        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return BAD("(up to %d values in (0,100], ':'-separated)", BENCH_MAX_PERCENTILES);
        return 0;
}

static int set_poll_wait(const struct set *s)
{
        if (bench_parse_time(s->v, &s->o->poll_wait_ns) < 0 || s->o->poll_wait_ns > 1000000000ull)
                return BAD("(expected a time up to 1s, such as 20us)%s", "");
        return 0;
}

static int set_cpus(const struct set *s)
{
        struct bench_error *e = s->e;
        int r = bench_parse_cpu_list(s->v, &s->o->cpus, &s->o->ncpus, e);

        if (r < 0 && s->where && e->cls == BENCH_ERR_USAGE) {
                char msg[sizeof(e->msg) + 4200];

                snprintf(msg, sizeof(msg), "%s: %s", s->where, e->msg);
                memcpy(e->msg, msg, sizeof(e->msg) - 1);
                e->msg[sizeof(e->msg) - 1] = '\0';
        }
        return r;
}

static int set_cpus_policy(const struct set *s)
{
        if (streq(s->v, "shared"))
                s->o->cpus_split = false;
        else if (streq(s->v, "split"))
                s->o->cpus_split = true;
        else
                return BAD("(expected shared or split)%s", "");
        return 0;
}

/* rate= (bytes per second) and rate_iops=: "r,w" pairs */
static int set_rate_pair(const struct set *s, int (*one)(const char *, uint64_t *), uint64_t dst[BENCH_NDIR],
                         const char *what, const char *example)
{
        int r = bench_parse_pair(s->v, one, dst);

        if (r == -EOPNOTSUPP || r == -ENOMEM)
                return r;
        if (r < 0)
                return BAD("(expected %s, or read,write: such as %s)", what, example);
        return 0;
}

static int set_rate(const struct set *s)
{
        return set_rate_pair(s, bench_parse_size, s->o->rate_bps, "bytes per second", "10m, 10m,2m or ,2m");
}

static int set_rate_iops(const struct set *s)
{
        return set_rate_pair(s, bench_parse_count64, s->o->rate_iops, "I/Os per second", "500, 500,100 or ,100");
}

static int set_thinktime(const struct set *s)
{
        if (bench_parse_time_unit(s->v, 1000, &s->o->thinktime_ns) < 0 || s->o->thinktime_ns > 3600000000000ull)
                return BAD("(expected a time such as 200us or 5ms; a bare number is in microseconds)%s", "");
        return 0;
}

static int set_startdelay(const struct set *s)
{
        if (bench_parse_time(s->v, &s->o->startdelay_ns) < 0 || s->o->startdelay_ns > 86400000000000ull)
                return BAD("(expected a time such as 2s or 500ms; ranges are not supported)%s", "");
        return 0;
}

/* a count in [min, max] into an int */
static int set_int(const struct set *s)
{
        unsigned u;

        if (bench_parse_uint(s->v, s->j->min, s->j->max, &u) < 0)
                return BAD("%s", s->j->why);
        *FIELD(s, int) = (int)u;
        return 0;
}

static int set_rng(const struct set *s)
{
        if (streq(s->v, "tausworthe"))
                s->o->rng = BENCH_RNG_TAUS88;
        else if (streq(s->v, "tausworthe64"))
                s->o->rng = BENCH_RNG_TAUS258;
        else if (streq(s->v, "lfsr"))
                s->o->rng = BENCH_RNG_LFSR;
        else
                return BAD("(expected tausworthe, tausworthe64 or lfsr)%s", "");
        return 0;
}

static int set_filesize(const struct set *s)
{
        uint64_t x;

        if (bench_parse_size(s->v, &x) < 0 || x == 0)
                return strchr(s->v, '-') ? -EOPNOTSUPP : BAD("(expected a size such as 64m)%s", "");
        s->o->filesize = (struct bench_size) { .bytes = x, .set = true };
        return 0;
}

static int set_bssplit(const struct set *s)
{
        int r = bench_parse_bssplit(s->v, s->o);

        if (r == -EINVAL)
                return BAD("(expected SIZE/PERCENT:SIZE/PERCENT..., optionally ,WRITES; percents up to 100)%s", "");
        return r;
}

static int set_dist(const struct set *s)
{
        int r = bench_parse_distribution(s->v, s->o);

        if (r == -EINVAL)
                return BAD("(expected random, zipf:THETA (not 1), pareto:H (0<H<1) or normal:DEV%% (0-100))%s", "");
        return r;
}

#define OFF(f) offsetof(struct bench_opts, f)
/* a value, a path field, a boolean (alone: 1), a boolean field, a count field in [lo, hi] (unsigned, int) */
#define VAL(n, fn) { .name = n, .arg = BENCH_JOBOPT_VALUE, .set = fn }
#define PATH(n, f) { .name = n, .arg = BENCH_JOBOPT_VALUE, .set = set_path, .field = OFF(f) }
#define FLAG(n, fn) { .name = n, .arg = BENCH_JOBOPT_BOOL, .set = fn }
#define BOOL(n, f) { .name = n, .arg = BENCH_JOBOPT_BOOL, .set = set_bool, .field = OFF(f) }
#define UINT(n, f, lo, hi, complaint) { .name = n, .arg = BENCH_JOBOPT_VALUE, .set = set_uint, .field = OFF(f), \
                                        .min = lo, .max = hi, .why = complaint }
#define INT(n, f, lo, hi, complaint) { .name = n, .arg = BENCH_JOBOPT_VALUE, .set = set_int, .field = OFF(f), \
                                       .min = lo, .max = hi, .why = complaint }
/* fio's reporting and timing: accepted, noted (1), no effect here */
#define IGNORED(n, a) { .name = n, .arg = BENCH_JOBOPT_##a, .set = NULL }

static const struct jobopt table[] = {
        PATH("filename", filename),
        PATH("directory", directory),
        VAL("ioengine", set_ioengine),
        VAL("rw", set_rw),
        VAL("readwrite", set_rw),
        VAL("rwmixread", set_rwmixread),
        VAL("rwmixwrite", set_rwmixwrite),
        VAL("bs", set_bs),
        VAL("blocksize", set_bs),
        UINT("iodepth", iodepth, 1, 4096, "(expected 1-4096)"),
        UINT("numjobs", numjobs, 1, 256, "(expected 1-256)"),
        VAL("runtime", set_runtime),
        VAL("timeout", set_runtime),
        VAL("ramp_time", set_ramp),
        VAL("size", set_size),
        VAL("offset", set_offset),
        VAL("fileoffset", set_offset),
        VAL("io_size", set_io_size),
        VAL("io_limit", set_io_size),
        BOOL("direct", direct),
        FLAG("buffered", set_buffered),
        BOOL("time_based", time_based),
        VAL("number_ios", set_number_ios),
        UINT("loops", passes, 0, 1u << 30, "(expected a count)"),
        FLAG("norandommap", harmless),
        FLAG("thread", harmless),
        FLAG("threads", harmless),
        VAL("description", harmless),
        BOOL("randrepeat", randrepeat),
        BOOL("allrandrepeat", randrepeat),
        BOOL("group_reporting", group_reporting),
        BOOL("fixedbufs", fixedbufs),
        BOOL("registerfiles", registerfiles),
        UINT("iodepth_batch_submit", batch_submit, 1, 4096, "(expected a count)"),
        UINT("iodepth_batch", batch_submit, 1, 4096, "(expected a count)"),
        UINT("iodepth_batch_complete_min", batch_complete_min, 0, 4096, "(expected a count)"),
        UINT("iodepth_batch_complete", batch_complete_min, 0, 4096, "(expected a count)"),
        UINT("iodepth_batch_complete_max", batch_complete_max, 1, 4096, "(expected a count)"),
        VAL("percentile_list", set_percentiles),
        VAL("poll_wait", set_poll_wait),
        VAL("cpus_allowed", set_cpus),
        VAL("cpus_allowed_policy", set_cpus_policy),
        VAL("rate", set_rate),
        VAL("rate_iops", set_rate_iops),
        VAL("thinktime", set_thinktime),
        UINT("thinktime_blocks", thinktime_blocks, 1, 1u << 20, "(expected a count from 1)"),
        VAL("startdelay", set_startdelay),
        BOOL("new_group", new_group),
        BOOL("stonewall", stonewall),
        BOOL("wait_for_previous", stonewall),
        INT("prio", prio, 0, 7, "(expected 0-7, 0 the highest)"),
        INT("ioprio", prio, 0, 7, "(expected 0-7, 0 the highest)"),
        INT("prioclass", prioclass, 1, 3, "(expected 1 realtime, 2 best-effort or 3 idle)"),
        VAL("random_generator", set_rng),
        VAL("filesize", set_filesize),
        VAL("bssplit", set_bssplit),
        VAL("random_distribution", set_dist),
        BOOL("end_fsync", end_fsync),
        BOOL("invalidate", invalidate),
        BOOL("refill_buffers", refill_buffers),
        /* fio's own reporting and timing: accepted, noted, no effect here */
        IGNORED("gtod_reduce", BOOL),
        IGNORED("disable_lat", BOOL),
        IGNORED("disable_clat", BOOL),
        IGNORED("disable_slat", BOOL),
        IGNORED("disable_bw_measurement", BOOL),
        IGNORED("disable_bw", BOOL),
        IGNORED("clat_percentiles", BOOL),
        IGNORED("lat_percentiles", BOOL),
        IGNORED("slat_percentiles", BOOL),
        IGNORED("per_job_logs", BOOL),
        IGNORED("log_avg_msec", VALUE),
        IGNORED("log_hist_msec", VALUE),
        IGNORED("log_max_value", BOOL),
        IGNORED("log_window_value", BOOL),
        IGNORED("log_offset", BOOL),
        IGNORED("log_unix_epoch", BOOL),
        IGNORED("log_alternate_epoch", BOOL),
        IGNORED("bwavgtime", VALUE),
        IGNORED("iopsavgtime", VALUE),
        IGNORED("significant_figures", VALUE),
        VAL("kb_base", set_kb_base),
        IGNORED("unit_base", VALUE),
        IGNORED("unified_rw_reporting", VALUE),
        IGNORED("clocksource", VALUE),
        IGNORED("eta-newline", VALUE),
        IGNORED("eta-interval", VALUE),
        IGNORED("status-interval", VALUE),
        IGNORED("warnings-fatal", BOOL),
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

int bench_jobopt_set(struct bench_opts *o, const char *name, const char *value, const char *where,
                     struct bench_error *e)
{
        const struct jobopt *j = lookup(name);
        struct set set = { .o = o, .j = j, .name = name, .v = value ? value : "", .where = where, .e = e,
                           .b = true }, *s = &set;

        if (!j)
                return bench_fio_option_arg(name) ? -EOPNOTSUPP : -ENOENT;
        /* fio's keywords in values ("bs=$pagesize", "size=$mb_memory/2"): fio's to work out */
        if (strstr(s->v, "$pagesize") || strstr(s->v, "$mb_memory") || strstr(s->v, "$ncpus"))
                return -EOPNOTSUPP;
        if (!j->set)
                return 1;               /* IGNORED */
        if (j->arg == BENCH_JOBOPT_BOOL) {
                /* alone ("--direct"): 1 */
                if (value && bench_parse_bool(value, &set.b) < 0)
                        return BAD("(expected 0 or 1)%s", "");
        } else if (!value)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "%s%soption %s%s needs a value",
                                       where ? where : "", where ? ": " : "", where ? "" : "--", name);
        return j->set(s);
}
