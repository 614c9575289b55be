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

#include "compare.h"
#include "jobs.h"
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
        o->invalidate = true;
        o->thinktime_blocks = 1;
        o->prioclass = o->prio = -1;
        o->loops = 0;                   /* 0: 1, or 3 with --compare */
        o->objective = BENCH_OBJ_IOPS;
        o->objective_jobidx = -1;
        memcpy(o->percentiles, defp, sizeof(defp));
        o->n_percentiles = ELEMENTSOF(defp);
}

void bench_opts_done(struct bench_opts *o)
{
        for (unsigned i = 0; o->jobs && i < o->njobs; i++)
                bench_opts_done_job(&o->jobs[i]);
        free(o->jobs);
        o->jobs = NULL;
        o->njobs = 0;
        bench_opts_done_job(o);
        ios_strv_free(o->compare_scheds);
        ios_strv_free(o->jobfiles);
        ios_strv_free(o->unsupported);
        ios_strv_free(o->ignored);
        ios_strv_free(o->fio_args);
        o->unsupported = o->ignored = o->fio_args = NULL;
        free(o->policy_file);
        free(o->output);
        free(o->workload);
        free(o->objective_job);
        o->policy_file = o->output = o->workload = o->objective_job = NULL;
        o->compare_scheds = o->jobfiles = NULL;
}

/*
 * The program's options; every job option (jobopts.c) is added to this
 * table at run time with the code OPT_JOB.
 */
enum {
        OPT_JOB = 256, OPT_NAME, OPT_OUTPUT_FORMAT, OPT_OUTPUT, OPT_LOOPS, OPT_COMPARE, OPT_OBJECTIVE,
        OPT_ALLOW_WRITE, OPT_POLICY, OPT_ETA, OPT_CLOCKSOURCE, OPT_WORKLOAD, OPT_OBSERVE, OPT_READONLY,
        OPT_BACKEND,
};

static const struct option prog_opts[] = {
        { "name", required_argument, NULL, OPT_NAME },
        { "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
        { "output", required_argument, NULL, OPT_OUTPUT },
        { "json", no_argument, NULL, 'J' },
        { "loops", required_argument, NULL, OPT_LOOPS },
        { "compare", optional_argument, NULL, OPT_COMPARE },
        { "objective", required_argument, NULL, OPT_OBJECTIVE },
        { "allow-write", no_argument, NULL, OPT_ALLOW_WRITE },
        { "policy", optional_argument, NULL, OPT_POLICY },
        { "eta", required_argument, NULL, OPT_ETA },
        { "clocksource", required_argument, NULL, OPT_CLOCKSOURCE },
        { "workload", required_argument, NULL, OPT_WORKLOAD },
        { "observe", no_argument, NULL, OPT_OBSERVE },
        { "readonly", no_argument, NULL, OPT_READONLY },
        { "backend", required_argument, NULL, OPT_BACKEND },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
};

static void help(FILE *f)
{
        fputs("Usage: iosched-bench --filename=DEV|FILE [OPTIONS] [--name=JOB [JOB OPTIONS]]...\n"
              "       iosched-bench [OPTIONS] JOBFILE.fio...\n"
              "       iosched-bench --filename=DEV --workload=NAME [OPTIONS]\n"
              "       iosched-bench --filename=DEV --compare[=VARIANT,...] [OPTIONS]\n"
              "       iosched-bench --filename=DEV --observe --compare[=VARIANT,...] [OPTIONS]\n"
              "\n"
              "Measure IOPS, bandwidth and latency with io_uring, libaio or psync, run\n"
              "several jobs at once as fio does, and compare I/O schedulers on the device,\n"
              "restoring what it changed.  --rw=read, --rw read and -rw=read are alike.\n"
              "\n"
              "Jobs (fio's rule: options before the first --name are defaults for every job):\n"
              "  --name=NAME              start a job; the options after it are the job's\n"
              "  JOBFILE                  an fio job file: [global] and one section per job\n"
              "  --workload=NAME          a ready job file: mixed-latency, mixed-read, oltp,\n"
              "                           seq-stream, sd-card\n"
              "\n"
              "Job options (fio names and syntax; also in job files without the dashes):\n"
              "  --filename=PATH          block device, file, or directory (a file is made)\n"
              "  --directory=DIR          per-thread files DIR/NAME.N.0 of --size, removed after\n"
              "  --ioengine=ENGINE        io_uring (default), libaio, psync, sync, pvsync, null\n"
              "  --rw=RW                  read, write, randread, randwrite, readwrite, randrw\n"
              "  --rwmixread=PCT          reads in mixed workloads (default 50)\n"
              "  --bs=SIZE[,SIZE]         block size, or read,write sizes (default 4k)\n"
              "  --iodepth=N              I/Os in flight per thread (default 1)\n"
              "  --numjobs=N              threads of the job, each with its own ring/context\n"
              "  --runtime=TIME           measured time (default 10s)\n"
              "  --ramp_time=TIME         run before measuring (default 0, 1s with --compare)\n"
              "  --startdelay=TIME        start the job this much later\n"
              "  --size=SIZE|PCT%         region length (default: to the end)\n"
              "  --offset=SIZE|PCT%       region start (default 0)\n"
              "  --io_size=SIZE           stop each thread after this much I/O\n"
              "  --direct=0|1             O_DIRECT (default 1); --buffered=0|1 the opposite\n"
              "  --rate=BPS[,BPS]         at most this many bytes per second (read,write)\n"
              "  --rate_iops=N[,N]        at most this many I/Os per second (read,write)\n"
              "  --thinktime=TIME         idle this long (bare number: us) after each\n"
              "  --thinktime_blocks=N     N I/Os (default 1), once they have completed\n"
              "  --prio=0-7, --prioclass=1-3   I/O priority of the job's threads (ioprio_set)\n"
              "  --new_group, --stonewall       start a reporting group; wait for the jobs before\n"
              "  --group_reporting        report a group's jobs merged\n"
              "  --random_generator=tausworthe|tausworthe64|lfsr   fio's generators (default ours)\n"
              "  --random_distribution=random|zipf:T|pareto:H|normal:D   which blocks, as fio\n"
              "  --bssplit=SIZE/PCT:...   block sizes and their shares, as fio\n"
              "  --filesize=SIZE          size of the files made (default --size)\n"
              "  --end_fsync, --invalidate=0|1, --refill_buffers, --description=TEXT   as fio\n"
              "  --iodepth_batch_submit=N, --iodepth_batch_complete_min=N,\n"
              "  --iodepth_batch_complete_max=N   batching (default: depth/8, 1, depth)\n"
              "  --fixedbufs=0|1, --registerfiles=0|1   io_uring registration (default 1)\n"
              "  --poll_wait=TIME         poll for completions this long before sleeping\n"
              "  --cpus_allowed=LIST      run the job's threads on these CPUs (0-3,6)\n"
              "  --cpus_allowed_policy=shared|split   all threads on all of them, or one each\n"
              "  --percentile_list=P:P... clat percentiles for the JSON output\n"
              "  --randrepeat=0|1         same random sequence every run (default 1)\n"
              "\n"
              "Output:\n"
              "  -J, --json, --output-format=json   fio-compatible JSON on stdout\n"
              "  --output=FILE            write the report to FILE instead of stdout\n"
              "  --eta=auto|always|never  progress line on stderr (auto: on a terminal)\n"
              "  --clocksource=cpu|clock_gettime    timestamp source (default: cpu if reliable)\n"
              "  --backend=auto|native|fio          who runs the jobs: auto (default) runs fio\n"
              "                           when the jobs use an option the native engine lacks\n"
              "\n"
              "Scheduler comparison:\n"
              "  --compare[=VARIANT,...]  run once per variant (default: every scheduler offered);\n"
              "                           a variant is SCHED[:TUNABLE=VALUE...]\n"
              "  --objective=[JOB:]OBJ    iops (default), bw, p99, read-p99, of one job with JOB:;\n"
              "                           with --observe: iops, bw, await, read-await\n"
              "  --observe                with --compare: no I/O of its own, alternate the variants\n"
              "                           under the disk's own load and compare its counters\n"
              "  --loops=N                interleaved rounds (default 3 with --compare)\n"
              "  --policy[=FILE]          after each switch write the policy's tunables for it\n"
              "                           (iosched.conf(5); FILE: the built-in policy plus FILE)\n"
              "\n"
              "Safety:\n"
              "  --allow-write            permit writes to a block device or existing file\n"
              "  --readonly               refuse every job that writes (fio's --readonly)\n"
              "\n"
              "Exit status: 0 ok, 1 run failed, 2 usage error, 3 refused for safety.\n"
              "See iosched-bench(8).\n", f);
}

#define BAD(fmt, ...) bench_error_set(e, BENCH_ERR_USAGE, EINVAL, fmt, __VA_ARGS__)

/* The getopt table: the program's options, then every job option. */
static struct option *build_table(void)
{
        size_t np = ELEMENTSOF(prog_opts), nj = 0;
        struct option *t;
        enum bench_jobopt_arg a;

        while (bench_jobopt_name((unsigned)nj, NULL))
                nj++;
        t = calloc(np + nj + 1, sizeof(*t));
        if (!t)
                return NULL;
        memcpy(t, prog_opts, sizeof(prog_opts));
        for (size_t i = 0; i < nj; i++) {
                const char *n = bench_jobopt_name((unsigned)i, &a);

                t[np + i] = (struct option) { n, a == BENCH_JOBOPT_BOOL ? optional_argument : required_argument,
                                              NULL, OPT_JOB };
        }
        return t;
}

/*
 * A job option: its value after '=', or the next argument.  A boolean given
 * alone ("--direct") may take the next argument only if it is a boolean
 * ("--direct 0"); parsing stops at the first non-option ("+" in optstring),
 * so getopt does not permute argv behind our back.
 */
static int job_option(int argc, char **argv, const struct option *lo, struct bench_opts *g,
                      struct bench_opts *cur, struct bench_error *e)
{
        const char *val = optarg;
        bool b;
        int r;

        if (!val && lo->has_arg == optional_argument && optind < argc && bench_parse_bool(argv[optind], &b) == 0)
                val = argv[optind++];
        r = bench_jobopt_set(cur, lo->name, val, NULL, e);
        if (r < 0 && r != -ENOMEM && r != -EOPNOTSUPP && g->backend == BENCH_BACKEND_FIO) {
                /* fio reads the value, not us: listed, and the job goes to fio */
                *e = (struct bench_error){ 0 };
                r = -EOPNOTSUPP;
        }
        return bench_jobs_record(g, r, NULL, lo->name, val);
}

/* An option getopt does not know: one of fio's that native lacks (recorded,
 * its value taken as fio would), or a real unknown option (-ENOENT). */
static int fio_only_option(int argc, char **argv, const char *arg, struct bench_opts *g, struct bench_opts *cur,
                           struct bench_error *e)
{
        const char *s = arg + strspn(arg, "-"), *eq = strchr(s, '=');
        _cleanup_free_ char *opt = strndup(s, eq ? (size_t)(eq - s) : strlen(s));
        const char *val = eq ? eq + 1 : NULL;
        int kind, r;
        bool b;

        if (!opt)
                return -ENOMEM;
        kind = bench_fio_option_arg(opt);
        if (!kind)
                return -ENOENT;
        if (!val && optind < argc &&
            (kind == 'v' ? argv[optind][0] != '-' : bench_parse_bool(argv[optind], &b) == 0))
                val = argv[optind++];
        r = bench_jobopt_set(cur, opt, val, NULL, e);
        return bench_jobs_record(g, r, NULL, opt, val);
}

/* --objective=[JOB:]METRIC */
static int parse_objective(const char *s, struct bench_opts *o, struct bench_error *e)
{
        const char *colon = strrchr(s, ':'), *metric = colon ? colon + 1 : s;
        int r = bench_objective_from_string(metric);

        if (r < 0 || (colon && colon == s))
                return BAD("invalid --objective '%s' (expected iops, bw, p99, read-p99, await or read-await, or JOB:one of them)", s);
        o->objective = (enum bench_objective)r;
        free(o->objective_job);
        o->objective_job = colon ? strndup(s, (size_t)(colon - s)) : NULL;
        if (colon && !o->objective_job)
                return -ENOMEM;
        return 0;
}

int bench_opts_parse(int argc, char **argv, struct bench_opts *o, FILE *out,
                     struct bench_error *e)
{
        _cleanup_free_ struct option *long_opts = build_table();
        struct bench_opts *cur = o;     /* the job the options apply to: global until a --name */
        int c, r, idx;

        if (!long_opts)
                return -ENOMEM;
        /* --backend=fio first: then fio, not we, judges the job options' values */
        for (int i = 1; i < argc; i++)
                if (!strcmp(argv[i] + strspn(argv[i], "-"), "backend=fio"))
                        o->backend = BENCH_BACKEND_FIO;
        optind = 0;             /* a full reset: tests parse more than once */
        opterr = 0;
        for (;;) {
                const char *name;
                int before = optind > 0 ? optind : 1;   /* the arguments this option takes: before..optind-1 */

                /* never call getopt past the end: after a "--" it would turn
                 * back to the arguments behind it, again and again */
                if (optind > 0 && optind >= argc)
                        break;
                idx = -1;
                c = getopt_long_only(argc, argv, "+:JhV", long_opts, &idx);
                if (c < 0) {
                        /* job files (parsed at the end, on the final global options);
                         * after "--" every argument is one */
                        bool rest = optind > 1 && optind < argc && streq(argv[optind - 1], "--");

                        if (optind >= argc)
                                break;
                        if (streq(argv[optind], "--")) {
                                optind++;
                                continue;
                        }
                        do {
                                r = ios_strv_pushf(&o->jobfiles, "%s", argv[optind]);
                                if (r >= 0)
                                        r = ios_strv_pushf(&o->fio_args, "%s", argv[optind]);
                                optind++;
                                if (r < 0)
                                        return r;
                        } while (rest && optind < argc);
                        continue;
                }
                name = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
                switch (c) {
                case OPT_JOB:
                        r = job_option(argc, argv, &long_opts[idx], o, cur, e);
                        if (r < 0)
                                return r;
                        break;
                case OPT_NAME:
                        /* fio: every --name starts another job, run at the same time as the others */
                        if (!*optarg)
                                return BAD("invalid --name '%s' (expected a job name)", optarg);
                        r = bench_jobs_add(o, o, optarg, &cur);
                        if (r < 0)
                                return r;
                        break;
                case OPT_OUTPUT_FORMAT:
                        if (streq(optarg, "json") || streq(optarg, "json+"))
                                o->json = true;
                        else if (streq(optarg, "normal"))
                                o->json = false;
                        else
                                return BAD("invalid --output-format '%s' (expected normal or json)", optarg);
                        break;
                case OPT_OUTPUT:
                        if (!*optarg)
                                return BAD("invalid --output '%s' (expected a file name)", optarg);
                        free(o->output);
                        o->output = strdup(optarg);
                        if (!o->output)
                                return -ENOMEM;
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
                        if (!optarg && optind < argc && argv[optind][0] != '-' && !strchr(argv[optind], '.') &&
                            !strchr(argv[optind], '/'))
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
                        r = parse_objective(optarg, o, e);
                        if (r < 0)
                                return r;
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
                case OPT_WORKLOAD:
                        if (!bench_workload_text(optarg))
                                return BAD("invalid --workload '%s' (expected mixed-latency, mixed-read, oltp, seq-stream or sd-card)",
                                           optarg);
                        free(o->workload);
                        o->workload = strdup(optarg);
                        if (!o->workload)
                                return -ENOMEM;
                        break;
                case OPT_OBSERVE:
                        o->observe = true;
                        break;
                case OPT_BACKEND:
                        if (streq(optarg, "auto"))
                                o->backend = BENCH_BACKEND_AUTO;
                        else if (streq(optarg, "native"))
                                o->backend = BENCH_BACKEND_NATIVE;
                        else if (streq(optarg, "fio"))
                                o->backend = BENCH_BACKEND_FIO;
                        else
                                return BAD("invalid --backend '%s' (expected auto, native or fio)", optarg);
                        break;
                case 'h':
                        help(out);
                        return 1;
                case 'V':
                        fprintf(out, "iosched-bench %s\n", IOS_VERSION);
                        return 1;
                case ':':
                        return BAD("option %s needs a value", name);
                case OPT_READONLY:
                        o->readonly = true;
                        break;
                default:
                        /* one of fio's options the native engine lacks: recorded (jobs.h) */
                        r = fio_only_option(argc, argv, name, o, cur, e);
                        if (r != -ENOENT) {
                                if (r < 0)
                                        return r;
                                break;
                        }
                        if (optopt && optopt < 256 && isprint(optopt))
                                return BAD("unknown option -%c (see --help)", optopt);
                        return BAD("unknown option %s (see --help)", name);
                }
                if (c == OPT_JOB || c == OPT_NAME || c == OPT_READONLY || c == '?') {
                        /* fio gets the job as written (fio.c), with the values taken ("--direct 0") */
                        for (int k = before; k < optind && k < argc; k++)
                                if ((r = ios_strv_pushf(&o->fio_args, "%s", argv[k])) < 0)
                                        return r;
                }
        }
        /* --observe runs no job: its own checks come before the jobs' */
        r = bench_observe_check_opts(o, e);
        if (r < 0)
                return r;
        r = bench_compare_default_workload(o);
        if (r < 0)
                return r;
        /* the options native lacks (command line, job files, preset) come back all at once (jobs.h) */
        return bench_jobs_finish(o, e);
}
