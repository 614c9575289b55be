/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * options.c: the command line.  Every option that means what fio's does has
 * fio's name and value syntax (sizes 4k/1m/1g, times 10s/500ms, booleans
 * 0/1), in both --opt=value and --opt value forms, so a fio user's habits
 * and job lines carry over; the rest (--compare, --objective, --loops,
 * --allow-write) are ours.  Parsing only fills struct bench_opts and reports
 * the first error as one message, a usage error (BENCH_ERR_USAGE).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "compare.h"
#include "macro.h"

void bench_opts_init(struct bench_opts *o)
{
        static const double defp[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95,
                                       99, 99.5, 99.9, 99.95, 99.99 };  /* fio's list */

        memset(o, 0, sizeof(*o));
        o->engine = &bench_engine_io_uring;
        o->rw = BENCH_RW_READ;
        o->rwmixread = 50;
        o->bs[BENCH_READ] = o->bs[BENCH_WRITE] = 4096;
        o->iodepth = 1;
        o->numjobs = 1;
        o->batch_complete_min = 1;
        o->runtime_ns = 10ull * 1000000000ull;
        o->direct = true;
        o->fixedbufs = o->registerfiles = true;
        o->randrepeat = true;
        o->loops = 0;                   /* 0: 1, or 3 with --compare */
        o->objective = BENCH_OBJ_IOPS;
        memcpy(o->percentiles, defp, sizeof(defp));
        o->n_percentiles = ELEMENTSOF(defp);
}

void bench_opts_done(struct bench_opts *o)
{
        free(o->filename);
        free(o->name);
        ios_strv_free(o->compare_scheds);
        free(o->policy_file);
        o->filename = o->name = o->policy_file = NULL;
        o->compare_scheds = NULL;
}

enum {
        OPT_FILENAME = 256, OPT_IOENGINE, OPT_RW, OPT_RWMIXREAD, OPT_RWMIXWRITE, OPT_BS,
        OPT_IODEPTH, OPT_NUMJOBS, OPT_RUNTIME, OPT_RAMP, OPT_SIZE, OPT_OFFSET, OPT_IO_SIZE,
        OPT_DIRECT, OPT_TIME_BASED, OPT_NORANDOMMAP, OPT_RANDREPEAT, OPT_GROUP_REPORTING,
        OPT_NAME, OPT_OUTPUT_FORMAT, OPT_LOOPS, OPT_COMPARE, OPT_OBJECTIVE, OPT_ALLOW_WRITE, OPT_POLICY,
        OPT_FIXEDBUFS, OPT_REGISTERFILES, OPT_BATCH_SUBMIT, OPT_BATCH_MIN, OPT_BATCH_MAX,
        OPT_ETA, OPT_CLOCKSOURCE, OPT_PERCENTILES, OPT_POLL_WAIT, OPT_CPUS, OPT_CPUS_POLICY,
        OPT_OBSERVE,
};

static const struct option long_opts[] = {
        { "filename", required_argument, NULL, OPT_FILENAME },
        { "ioengine", required_argument, NULL, OPT_IOENGINE },
        { "rw", required_argument, NULL, OPT_RW },
        { "readwrite", required_argument, NULL, OPT_RW },
        { "rwmixread", required_argument, NULL, OPT_RWMIXREAD },
        { "rwmixwrite", required_argument, NULL, OPT_RWMIXWRITE },
        { "bs", required_argument, NULL, OPT_BS },
        { "blocksize", required_argument, NULL, OPT_BS },
        { "iodepth", required_argument, NULL, OPT_IODEPTH },
        { "numjobs", required_argument, NULL, OPT_NUMJOBS },
        { "runtime", required_argument, NULL, OPT_RUNTIME },
        { "ramp_time", required_argument, NULL, OPT_RAMP },
        { "size", required_argument, NULL, OPT_SIZE },
        { "offset", required_argument, NULL, OPT_OFFSET },
        { "io_size", required_argument, NULL, OPT_IO_SIZE },
        { "direct", optional_argument, NULL, OPT_DIRECT },
        { "time_based", optional_argument, NULL, OPT_TIME_BASED },
        { "norandommap", optional_argument, NULL, OPT_NORANDOMMAP },
        { "randrepeat", optional_argument, NULL, OPT_RANDREPEAT },
        { "group_reporting", optional_argument, NULL, OPT_GROUP_REPORTING },
        { "name", required_argument, NULL, OPT_NAME },
        { "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
        { "json", no_argument, NULL, 'J' },
        { "loops", required_argument, NULL, OPT_LOOPS },
        { "compare", optional_argument, NULL, OPT_COMPARE },
        { "objective", required_argument, NULL, OPT_OBJECTIVE },
        { "allow-write", no_argument, NULL, OPT_ALLOW_WRITE },
        { "policy", optional_argument, NULL, OPT_POLICY },
        { "fixedbufs", optional_argument, NULL, OPT_FIXEDBUFS },
        { "registerfiles", optional_argument, NULL, OPT_REGISTERFILES },
        { "iodepth_batch_submit", required_argument, NULL, OPT_BATCH_SUBMIT },
        { "iodepth_batch", required_argument, NULL, OPT_BATCH_SUBMIT },
        { "iodepth_batch_complete_min", required_argument, NULL, OPT_BATCH_MIN },
        { "iodepth_batch_complete_max", required_argument, NULL, OPT_BATCH_MAX },
        { "eta", required_argument, NULL, OPT_ETA },
        { "clocksource", required_argument, NULL, OPT_CLOCKSOURCE },
        { "percentile_list", required_argument, NULL, OPT_PERCENTILES },
        { "poll_wait", required_argument, NULL, OPT_POLL_WAIT },
        { "cpus_allowed", required_argument, NULL, OPT_CPUS },
        { "cpus_allowed_policy", required_argument, NULL, OPT_CPUS_POLICY },
        { "observe", no_argument, NULL, OPT_OBSERVE },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        {}
};

static void help(FILE *f)
{
        fputs("Usage: iosched-bench --filename=DEV|FILE [OPTIONS]\n"
              "       iosched-bench --filename=DEV --compare[=VARIANT,...] [OPTIONS]\n"
              "       iosched-bench --filename=DEV --observe --compare[=VARIANT,...] [OPTIONS]\n"
              "\n"
              "Measure IOPS, bandwidth and latency with io_uring, libaio or psync, and\n"
              "compare I/O schedulers on the device, restoring what it changed.\n"
              "\n"
              "Job (fio names and syntax):\n"
              "  --filename=PATH          block device, file, or directory (a file is made)\n"
              "  --ioengine=ENGINE        io_uring (default), libaio, psync, null\n"
              "  --rw=RW                  read, write, randread, randwrite, readwrite, randrw\n"
              "  --rwmixread=PCT          reads in mixed workloads (default 50)\n"
              "  --bs=SIZE[,SIZE]         block size, or read,write sizes (default 4k)\n"
              "  --iodepth=N              I/Os in flight per job (default 1)\n"
              "  --numjobs=N              threads, each with its own ring/context (default 1)\n"
              "  --runtime=TIME           measured time (default 10s)\n"
              "  --ramp_time=TIME         run before measuring (default 0, 1s with --compare)\n"
              "  --size=SIZE|PCT%         region length (default: to the end)\n"
              "  --offset=SIZE|PCT%       region start (default 0)\n"
              "  --io_size=SIZE           stop each job after this much I/O\n"
              "  --direct=0|1             O_DIRECT (default 1)\n"
              "  --iodepth_batch_submit=N, --iodepth_batch_complete_min=N,\n"
              "  --iodepth_batch_complete_max=N   batching (default: depth/8, 1, depth)\n"
              "  --fixedbufs=0|1, --registerfiles=0|1   io_uring registration (default 1)\n"
              "  --poll_wait=TIME         poll for completions this long before sleeping\n"
              "  --cpus_allowed=LIST      run the jobs on these CPUs (0-3,6)\n"
              "  --cpus_allowed_policy=shared|split   all jobs on all of them, or one each\n"
              "  --percentile_list=P:P... clat percentiles for the JSON output\n"
              "  --randrepeat=0|1         same random sequence every run (default 1)\n"
              "  --name=NAME              job name in the output (one job per invocation)\n"
              "\n"
              "Output:\n"
              "  -J, --json, --output-format=json   fio-compatible JSON on stdout\n"
              "  --eta=auto|always|never  progress line on stderr (auto: on a terminal)\n"
              "  --clocksource=cpu|clock_gettime    timestamp source (default: cpu if reliable)\n"
              "\n"
              "Scheduler comparison:\n"
              "  --compare[=VARIANT,...]  run once per variant (default: every scheduler offered);\n"
              "                           a variant is SCHED[:TUNABLE=VALUE...]\n"
              "  --objective=OBJ          iops (default), bw, p99, read-p99; await, read-await\n"
              "  --observe                with --compare: no I/O of its own, alternate the variants\n"
              "                           under the disk's own load and compare its counters\n"
              "  --loops=N                interleaved rounds (default 3 with --compare)\n"
              "  --policy[=FILE]          after each switch write the policy's tunables for it\n"
              "                           (iosched.conf(5); FILE: the built-in policy plus FILE)\n"
              "\n"
              "Safety:\n"
              "  --allow-write            permit writes to a block device or existing file\n"
              "\n"
              "Exit status: 0 ok, 1 run failed, 2 usage error, 3 refused for safety.\n"
              "See iosched-bench(8).\n", f);
}

/*
 * A boolean given as "--direct" alone, "--direct=0" or "--direct 0": for the
 * last form the value is the next argument, taken only if it is a boolean.
 * Safe because parsing stops at the first non-option ("+" in optstring), so
 * getopt does not permute argv behind our back.
 */
static int opt_bool(int argc, char **argv, const char *name, bool *ret, struct bench_error *e)
{
        bool b;

        if (optarg) {
                if (bench_parse_bool(optarg, &b) < 0)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "invalid --%s '%s' (expected 0 or 1)", name, optarg);
                *ret = b;
                return 0;
        }
        if (optind < argc && bench_parse_bool(argv[optind], &b) == 0) {
                optind++;
                *ret = b;
                return 0;
        }
        *ret = true;
        return 0;
}

static int parse_bs(const char *s, uint32_t bs[BENCH_NDIR], struct bench_error *e)
{
        _cleanup_free_ char *copy = strdup(s);
        char *comma;
        uint64_t v[2];

        if (!copy)
                return -ENOMEM;
        comma = strchr(copy, ',');
        if (comma)
                *comma++ = '\0';
        if (bench_parse_size(copy, &v[0]) < 0 || (comma && bench_parse_size(comma, &v[1]) < 0))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "invalid --bs '%s' (expected a size such as 4k or 4k,64k)", s);
        if (!comma)
                v[1] = v[0];
        for (int i = 0; i < 2; i++)
                if (v[i] < 512 || v[i] > 64ull << 20 || v[i] % 512)
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "invalid --bs '%s' (a multiple of 512 from 512 to 64m)", s);
        bs[BENCH_READ] = (uint32_t)v[0];
        bs[BENCH_WRITE] = (uint32_t)v[1];
        return 0;
}

static int parse_percentiles(const char *s, struct bench_opts *o, struct bench_error *e)
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
                        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                               "invalid --percentile_list '%s' (up to %d values in (0,100], ':'-separated)",
                                               s, BENCH_MAX_PERCENTILES);
                o->percentiles[n++] = p;
        }
        if (n == 0)
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL, "empty --percentile_list");
        o->n_percentiles = n;
        return 0;
}

#define BAD(fmt, ...) bench_error_set(e, BENCH_ERR_USAGE, EINVAL, fmt, __VA_ARGS__)

int bench_opts_parse(int argc, char **argv, struct bench_opts *o, FILE *out,
                     struct bench_error *e)
{
        uint64_t v;
        bool b;
        int c, r;

        optind = 0;             /* a full reset: tests parse more than once */
        opterr = 0;
        while ((c = getopt_long(argc, argv, "+:JhV", long_opts, NULL)) >= 0) {
                const char *name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";

                switch (c) {
                case OPT_FILENAME:
                        free(o->filename);
                        o->filename = strdup(optarg);
                        if (!o->filename)
                                return -ENOMEM;
                        break;
                case OPT_IOENGINE:
                        o->engine = bench_engine_find(optarg);
                        if (!o->engine)
                                return BAD("invalid --ioengine '%s' (expected io_uring, libaio, psync or null)", optarg);
                        break;
                case OPT_RW:
                        r = bench_rw_from_string(optarg);
                        if (r < 0)
                                return BAD("invalid --rw '%s' (expected read, write, randread, randwrite, readwrite or randrw)", optarg);
                        o->rw = (enum bench_rw)r;
                        break;
                case OPT_RWMIXREAD:
                case OPT_RWMIXWRITE: {
                        unsigned p;
                        if (bench_parse_uint(optarg, 0, 100, &p) < 0)
                                return BAD("invalid --%s '%s' (expected 0-100)",
                                           c == OPT_RWMIXREAD ? "rwmixread" : "rwmixwrite", optarg);
                        o->rwmixread = c == OPT_RWMIXREAD ? p : 100 - p;
                        break;
                }
                case OPT_BS:
                        r = parse_bs(optarg, o->bs, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_IODEPTH:
                        if (bench_parse_uint(optarg, 1, 4096, &o->iodepth) < 0)
                                return BAD("invalid --iodepth '%s' (expected 1-4096)", optarg);
                        break;
                case OPT_NUMJOBS:
                        if (bench_parse_uint(optarg, 1, 256, &o->numjobs) < 0)
                                return BAD("invalid --numjobs '%s' (expected 1-256)", optarg);
                        break;
                case OPT_RUNTIME:
                case OPT_RAMP:
                        if (bench_parse_time(optarg, &v) < 0 || v > 7ull * 86400 * 1000000000ull)
                                return BAD("invalid --%s '%s' (expected a time such as 10s or 500ms)",
                                           c == OPT_RUNTIME ? "runtime" : "ramp_time", optarg);
                        if (c == OPT_RUNTIME) {
                                if (v < 1000000)
                                        return BAD("invalid --runtime '%s' (at least 1ms)", optarg);
                                o->runtime_ns = v;
                                o->runtime_set = true;
                        } else {
                                o->ramp_ns = v;
                                o->ramp_set = true;
                        }
                        break;
                case OPT_SIZE:
                case OPT_OFFSET:
                case OPT_IO_SIZE: {
                        struct bench_size *sz = c == OPT_SIZE ? &o->size : c == OPT_OFFSET ? &o->offset : &o->io_size;
                        const char *what = c == OPT_SIZE ? "size" : c == OPT_OFFSET ? "offset" : "io_size";

                        if (c == OPT_IO_SIZE ? bench_parse_size(optarg, &v) < 0 : bench_parse_size_pct(optarg, sz) < 0)
                                return BAD("invalid --%s '%s' (expected a size such as 1g%s)", what, optarg,
                                           c == OPT_IO_SIZE ? "" : " or a percentage such as 50%");
                        if (c == OPT_IO_SIZE)
                                *sz = (struct bench_size) { .bytes = v, .set = true };
                        if (c != OPT_OFFSET && sz->pct == 0 && sz->bytes == 0)
                                return BAD("invalid --%s '%s' (must not be 0)", what, optarg);
                        break;
                }
                case OPT_DIRECT:
                        r = opt_bool(argc, argv, "direct", &o->direct, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_TIME_BASED:
                case OPT_NORANDOMMAP:
                case OPT_GROUP_REPORTING:
                        /* accepted for fio job lines: this is always how we run */
                        r = opt_bool(argc, argv, name + 2, &b, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_RANDREPEAT:
                        r = opt_bool(argc, argv, "randrepeat", &o->randrepeat, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_FIXEDBUFS:
                        r = opt_bool(argc, argv, "fixedbufs", &o->fixedbufs, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_REGISTERFILES:
                        r = opt_bool(argc, argv, "registerfiles", &o->registerfiles, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_NAME:
                        /*
                         * In fio every --name starts another job, run at the
                         * same time as the ones before it.  Here one
                         * invocation is one job: a second --name must not
                         * quietly replace the first job's name.
                         */
                        if (o->name)
                                return BAD("a second --name ('%s' after '%s') would start a second job: iosched-bench "
                                           "runs one job per invocation, several concurrent jobs are not supported yet "
                                           "(--numjobs runs more threads of the same job)", optarg, o->name);
                        o->name = strdup(optarg);
                        if (!o->name)
                                return -ENOMEM;
                        break;
                case OPT_OUTPUT_FORMAT:
                        if (streq(optarg, "json") || streq(optarg, "json+"))
                                o->json = true;
                        else if (streq(optarg, "normal"))
                                o->json = false;
                        else
                                return BAD("invalid --output-format '%s' (expected normal or json)", optarg);
                        break;
                case 'J':
                        o->json = true;
                        break;
                case OPT_LOOPS:
                        if (bench_parse_uint(optarg, 1, 1000, &o->loops) < 0)
                                return BAD("invalid --loops '%s' (expected 1-1000)", optarg);
                        break;
                case OPT_COMPARE:
                        /* "--compare kyber,bfq" too: take the next word if it is no option */
                        if (!optarg && optind < argc && argv[optind][0] != '-')
                                optarg = argv[optind++];
                        o->compare = true;
                        ios_strv_free(o->compare_scheds);
                        o->compare_scheds = NULL;
                        if (optarg && *optarg && !streq(optarg, "all")) {
                                r = ios_strv_split(optarg, ",", &o->compare_scheds);
                                if (r < 0)
                                        return r;
                                for (char **s = o->compare_scheds; *s; s++) {
                                        char why[400];

                                        r = bench_variant_check(*s, why, sizeof(why));
                                        if (r == -EINVAL)
                                                return BAD("invalid --compare '%s': %s", optarg, why);
                                        if (r < 0)
                                                return r;
                                }
                                if (!o->compare_scheds[0])
                                        return BAD("invalid --compare '%s'", optarg);
                        }
                        break;
                case OPT_OBJECTIVE:
                        r = bench_objective_from_string(optarg);
                        if (r < 0)
                                return BAD("invalid --objective '%s' (expected iops, bw, p99, read-p99, await or read-await)", optarg);
                        o->objective = (enum bench_objective)r;
                        break;
                case OPT_ALLOW_WRITE:
                        o->allow_write = true;
                        break;
                case OPT_POLICY:
                        o->policy = true;
                        free(o->policy_file);
                        o->policy_file = optarg && *optarg ? strdup(optarg) : NULL;
                        if (optarg && *optarg && !o->policy_file)
                                return -ENOMEM;
                        break;
                case OPT_BATCH_SUBMIT:
                case OPT_BATCH_MIN:
                case OPT_BATCH_MAX: {
                        unsigned *p = c == OPT_BATCH_SUBMIT ? &o->batch_submit :
                                      c == OPT_BATCH_MIN ? &o->batch_complete_min : &o->batch_complete_max;
                        if (bench_parse_uint(optarg, c == OPT_BATCH_MIN ? 0 : 1, 4096, p) < 0)
                                return BAD("invalid %s '%s' (expected a count)", name, optarg);
                        break;
                }
                case OPT_ETA:
                        if (streq(optarg, "auto"))
                                o->eta = BENCH_ETA_AUTO;
                        else if (streq(optarg, "always"))
                                o->eta = BENCH_ETA_ALWAYS;
                        else if (streq(optarg, "never"))
                                o->eta = BENCH_ETA_NEVER;
                        else
                                return BAD("invalid --eta '%s' (expected auto, always or never)", optarg);
                        break;
                case OPT_CLOCKSOURCE:
                        if (streq(optarg, "cpu"))
                                o->clocksource = BENCH_CLOCK_CPU;
                        else if (streq(optarg, "clock_gettime"))
                                o->clocksource = BENCH_CLOCK_GETTIME;
                        else
                                return BAD("invalid --clocksource '%s' (expected cpu or clock_gettime)", optarg);
                        break;
                case OPT_POLL_WAIT:
                        if (bench_parse_time(optarg, &o->poll_wait_ns) < 0 || o->poll_wait_ns > 1000000000ull)
                                return BAD("invalid --poll_wait '%s' (expected a time up to 1s, such as 20us)", optarg);
                        break;
                case OPT_CPUS:
                        r = bench_parse_cpu_list(optarg, &o->cpus, &o->ncpus, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_CPUS_POLICY:
                        if (streq(optarg, "shared"))
                                o->cpus_split = false;
                        else if (streq(optarg, "split"))
                                o->cpus_split = true;
                        else
                                return BAD("invalid --cpus_allowed_policy '%s' (expected shared or split)", optarg);
                        break;
                case OPT_PERCENTILES:
                        r = parse_percentiles(optarg, o, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_OBSERVE:
                        o->observe = true;
                        break;
                case 'h':
                        help(out);
                        return 1;
                case 'V':
                        fprintf(out, "iosched-bench %s\n", IOS_VERSION);
                        return 1;
                case ':':
                        return BAD("option %s needs a value", name);
                default:
                        if (optopt && optopt < 256 && isprint(optopt))
                                return BAD("unknown option -%c (see --help)", optopt);
                        return BAD("unknown option %s (see --help)", name);
                }
        }
        if (optind < argc)
                return BAD("unexpected argument '%s' (options take the form --name=value)", argv[optind]);

        /* cross-checks that need no target */
        if (!o->filename && !(o->engine->flags & BENCH_ENGINE_NOFILE))
                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                       "missing --filename (a block device, a file or a directory)");
        r = bench_observe_check_opts(o, e);
        if (r < 0)
                return r;
        if (o->compare && (o->engine->flags & BENCH_ENGINE_NOFILE))
                return BAD("--compare needs a real engine, not %s", o->engine->name);
        if (o->io_size.set && !o->runtime_set)
                o->runtime_ns = 0;      /* stop on the amount of I/O only, as fio */
        if (!o->ramp_set && o->compare)
                o->ramp_ns = 1000000000ull;     /* settle after each scheduler switch */
        if (o->loops == 0)
                o->loops = o->compare ? 3 : 1;
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
         * the reference VM (docs/bench.md): at depth 32 batches of 2-4 beat
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
                return BAD("--iodepth_batch_complete_min=%u is larger than the maximum %u",
                           o->batch_complete_min, o->batch_complete_max);
        if (!o->name) {
                o->name = strdup("iosched-bench");
                if (!o->name)
                        return -ENOMEM;
        }
        return 0;
}
