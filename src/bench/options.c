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
#include "strv.h"

/*
 * The command line being parsed, as the option handlers see it: the
 * global options, the job the options apply to (the global options until
 * the first --name), and the argument getopt took the option from.
 */
struct parse {
        int argc;
        char **argv;
        struct bench_opts *o, *cur;
        const char *word;               /* argv[optind - 1]: the option as written */
        FILE *out;                      /* --help, --version */
        struct bench_error *e;
};

#define BAD(fmt, ...) bench_error_set(p->e, BENCH_ERR_USAGE, EINVAL, fmt, __VA_ARGS__)

/* A keyword value and what it means. */
struct word {
        const char *s;
        int v;
};

static int keyword(const struct word *w, const char *arg, int *ret)
{
        for (; w->s; w++)
                if (streq(arg, w->s)) {
                        *ret = w->v;
                        return 0;
                }
        return -EINVAL;
}

static int dup_to(char **p, const char *s)
{
        free(*p);
        *p = strdup(s);
        return *p ? 0 : -ENOMEM;
}

/* fio: every --name starts another job, run at the same time as the others */
static int opt_name(struct parse *p, const char *arg)
{
        int r;

        if (!*arg)
                return BAD("invalid --name '%s' (expected a job name)", arg);
        r = bench_jobs_add(p->o, p->o, arg, &p->cur);
        if (r == -E2BIG)
                return bench_error_set(p->e, BENCH_ERR_USAGE, E2BIG, "--name=%s: more than %d jobs", arg,
                                       BENCH_JOBS_MAX);
        if (r >= 0)
                r = ios_strv_pushf(&p->o->fio_settings, "name=%s", arg);
        return r < 0 ? r : 0;
}

static int opt_output_format(struct parse *p, const char *arg)
{
        static const struct word w[] = { { "json", true }, { "json+", true }, { "normal", false }, { NULL, 0 } };
        int v;

        if (keyword(w, arg, &v) < 0)
                return BAD("invalid --output-format '%s' (expected normal or json)", arg);
        p->o->json = v;
        return 0;
}

static int opt_output(struct parse *p, const char *arg)
{
        if (!*arg)
                return BAD("invalid --output '%s' (expected a file name)", arg);
        return dup_to(&p->o->output, arg);
}

static int opt_json(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->json = true;
        return 0;
}

static int opt_loops(struct parse *p, const char *arg)
{
        if (bench_parse_uint(arg, 1, 1000, &p->o->loops) < 0)
                return BAD("invalid --loops '%s' (expected 1-1000)", arg);
        return 0;
}

static int opt_compare(struct parse *p, const char *arg)
{
        struct bench_opts *o = p->o;
        int r;

        /* "--compare kyber,bfq" too: take the next word if it is no option */
        if (!arg && optind < p->argc && p->argv[optind][0] != '-' && !strchr(p->argv[optind], '.') &&
            !strchr(p->argv[optind], '/'))
                arg = p->argv[optind++];
        o->compare = true;
        ios_strv_free(o->compare_scheds);
        o->compare_scheds = NULL;
        if (!arg || !*arg || streq(arg, "all"))
                return 0;
        r = ios_strv_split(arg, ",", &o->compare_scheds);
        if (r < 0)
                return r;
        for (char **s = o->compare_scheds; *s; s++) {
                char why[400];

                r = bench_variant_check(*s, why, sizeof(why));
                if (r == -EINVAL)
                        return BAD("invalid --compare '%s': %s", arg, why);
                if (r < 0)
                        return r;
        }
        if (!o->compare_scheds[0])
                return BAD("invalid --compare '%s'", arg);
        return 0;
}

/* --objective=[JOB:]METRIC */
static int opt_objective(struct parse *p, const char *s)
{
        struct bench_opts *o = p->o;
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

static int opt_allow_write(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->allow_write = true;
        return 0;
}

static int opt_policy(struct parse *p, const char *arg)
{
        struct bench_opts *o = p->o;

        o->policy = true;
        free(o->policy_file);
        o->policy_file = arg && *arg ? strdup(arg) : NULL;
        if (arg && *arg && !o->policy_file)
                return -ENOMEM;
        return 0;
}

static int opt_record(struct parse *p, const char *arg)
{
        return bench_record_option(p->o, arg);  /* record.c */
}

static int opt_eta(struct parse *p, const char *arg)
{
        static const struct word w[] = {
                { "auto", BENCH_ETA_AUTO }, { "always", BENCH_ETA_ALWAYS }, { "never", BENCH_ETA_NEVER }, { NULL, 0 },
        };
        int v;

        if (keyword(w, arg, &v) < 0)
                return BAD("invalid --eta '%s' (expected auto, always or never)", arg);
        p->o->eta = (enum bench_eta)v;
        return 0;
}

static int opt_clocksource(struct parse *p, const char *arg)
{
        static const struct word w[] = {
                { "cpu", BENCH_CLOCK_CPU }, { "clock_gettime", BENCH_CLOCK_GETTIME }, { NULL, 0 },
        };
        int v;

        if (keyword(w, arg, &v) < 0)
                return BAD("invalid --clocksource '%s' (expected cpu or clock_gettime)", arg);
        p->o->clocksource = (enum bench_clocksource)v;
        return 0;
}

static int opt_workload(struct parse *p, const char *arg)
{
        if (!bench_workload_text(arg))
                return BAD("invalid --workload '%s' (expected mixed-latency, mixed-read, oltp, seq-stream or sd-card)",
                           arg);
        return dup_to(&p->o->workload, arg);
}

static int opt_observe(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->observe = true;
        return 0;
}

static int opt_readonly(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->readonly = true;
        return ios_strv_pushf(&p->o->fio_settings, "readonly");
}

static int opt_allow_exec(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->allow_exec = true;
        return 0;
}

static int opt_allow_net(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->allow_net = true;
        return 0;
}

static int opt_unconfined(struct parse *p, const char *arg)
{
        (void)arg;
        p->o->unconfined = true;
        return 0;
}

static int opt_target_device(struct parse *p, const char *arg)
{
        free(p->o->target_device);
        p->o->target_device = *arg ? strdup(arg) : NULL;
        if (!*arg)
                return BAD("invalid --target-device '%s' (expected a block device)", arg);
        return p->o->target_device ? 0 : -ENOMEM;
}

static int opt_backend(struct parse *p, const char *arg)
{
        static const struct word w[] = {
                { "auto", BENCH_BACKEND_AUTO }, { "native", BENCH_BACKEND_NATIVE }, { "fio", BENCH_BACKEND_FIO },
                { NULL, 0 },
        };
        int v;

        if (keyword(w, arg, &v) < 0)
                return BAD("invalid --backend '%s' (expected auto, native or fio)", arg);
        p->o->backend = (enum bench_backend)v;
        return 0;
}

static int opt_help(struct parse *p, const char *arg)
{
        (void)arg;
        bench_usage(p->out);
        return 1;
}

static int opt_version(struct parse *p, const char *arg)
{
        (void)arg;
        fprintf(p->out, "iosched-bench %s\n", IOS_VERSION);
        return 1;
}

/*
 * The program's options: getopt's name, argument and short form, the
 * handler (< 0 an error, 1 done: exit 0), and whether fio gets the option
 * as written when it runs the jobs (fio.c).  In getopt's table every one
 * has the code OPT_PROG + its index (or its short form); every job option
 * (jobopts.c) is added after them with the code OPT_JOB.
 */
static const struct prog_opt {
        const char *name;
        int has_arg;
        int key;
        int (*fn)(struct parse *p, const char *arg);
        bool to_fio;
} prog_opts[] = {
        { "name", required_argument, 0, opt_name, true },
        { "output-format", required_argument, 0, opt_output_format, false },
        { "output", required_argument, 0, opt_output, false },
        { "json", no_argument, 'J', opt_json, false },
        { "loops", required_argument, 0, opt_loops, false },
        { "compare", optional_argument, 0, opt_compare, false },
        { "objective", required_argument, 0, opt_objective, false },
        { "allow-write", no_argument, 0, opt_allow_write, false },
        { "allow-exec", no_argument, 0, opt_allow_exec, false },
        { "allow-net", no_argument, 0, opt_allow_net, false },
        { "unconfined", no_argument, 0, opt_unconfined, false },
        { "target-device", required_argument, 0, opt_target_device, false },
        { "policy", optional_argument, 0, opt_policy, false },
        { "record", optional_argument, 0, opt_record, false },
        { "eta", required_argument, 0, opt_eta, false },
        { "clocksource", required_argument, 0, opt_clocksource, false },
        { "workload", required_argument, 0, opt_workload, false },
        { "observe", no_argument, 0, opt_observe, false },
        { "readonly", no_argument, 0, opt_readonly, true },
        { "backend", required_argument, 0, opt_backend, false },
        { "help", no_argument, 'h', opt_help, false },
        { "version", no_argument, 'V', opt_version, false },
};
enum { OPT_JOB = 256, OPT_PROG };

static const struct prog_opt *find_prog_opt(int c)
{
        if (c >= OPT_PROG && c < OPT_PROG + (int)ELEMENTSOF(prog_opts))
                return &prog_opts[c - OPT_PROG];
        for (size_t i = 0; i < ELEMENTSOF(prog_opts); i++)
                if (prog_opts[i].key && prog_opts[i].key == c)
                        return &prog_opts[i];
        return NULL;
}

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
        for (size_t i = 0; i < np; i++)
                t[i] = (struct option) { prog_opts[i].name, prog_opts[i].has_arg, NULL,
                                         prog_opts[i].key ? prog_opts[i].key : OPT_PROG + (int)i };
        for (size_t i = 0; i < nj; i++) {
                const char *n = bench_jobopt_name((unsigned)i, &a);

                t[np + i] = (struct option) { n, a == BENCH_JOBOPT_BOOL ? optional_argument : required_argument,
                                              NULL, OPT_JOB };
        }
        return t;
}

/* The setting as understood, for fio (fioread.c): "key=value", or "key" alone. */
static int setting(struct parse *p, const char *key, const char *val)
{
        return val ? ios_strv_pushf(&p->o->fio_settings, "%s=%s", key, val)
                   : ios_strv_pushf(&p->o->fio_settings, "%s", key);
}

/*
 * A job option: its value after '=', or the next argument.  A boolean given
 * alone ("--direct") may take the next argument only if it is a boolean
 * ("--direct 0"); parsing stops at the first non-option ("+" in optstring),
 * so getopt does not permute argv behind our back.
 */
static int job_option(struct parse *p, const struct option *lo)
{
        const char *val = optarg;
        bool b;
        int r;

        if (!val && lo->has_arg == optional_argument && optind < p->argc &&
            bench_parse_bool(p->argv[optind], &b) == 0)
                val = p->argv[optind++];
        r = bench_jobopt_set(p->cur, lo->name, val, NULL, p->e);
        if (r < 0 && r != -ENOMEM && r != -EOPNOTSUPP && p->o->backend == BENCH_BACKEND_FIO) {
                /* fio reads the value, not us: listed, and the job goes to fio */
                *p->e = (struct bench_error){ 0 };
                r = -EOPNOTSUPP;
        }
        if ((r >= 0 || r == -EOPNOTSUPP) && setting(p, lo->name, val) < 0)
                return -ENOMEM;
        return bench_jobs_record(p->o, r, NULL, lo->name, val);
}

/* An option getopt does not know: one of fio's that native lacks (recorded,
 * its value taken as fio would), or a real unknown option (-ENOENT). */
static int fio_only_option(struct parse *p)
{
        const char *s = p->word + strspn(p->word, "-"), *eq = strchr(s, '=');
        _cleanup_free_ char *opt = strndup(s, eq ? (size_t)(eq - s) : strlen(s));
        const char *val = eq ? eq + 1 : NULL;
        int kind, r;
        bool b;

        if (!opt)
                return -ENOMEM;
        kind = bench_fio_option_arg(opt);
        if (!kind)
                return -ENOENT;
        if (!val && optind < p->argc &&
            (kind == 'v' ? p->argv[optind][0] != '-' : bench_parse_bool(p->argv[optind], &b) == 0))
                val = p->argv[optind++];
        /* fio refuses one empty and takes the next argument, whatever it is, for one alone; a log
         * alone is named after its job in a job file only */
        if (kind == 'v' && (!val || !*val))
                return BAD("option --%s needs a value", opt);
        r = bench_jobopt_set(p->cur, opt, val, NULL, p->e);
        if ((r >= 0 || r == -EOPNOTSUPP) && setting(p, opt, val) < 0)
                return -ENOMEM;
        return bench_jobs_record(p->o, r, NULL, opt, val);
}

/*
 * What getopt returned c for (lo: the job option it matched): < 0 an
 * error, 1 done (--help), 0 go on; *to_fio when fio gets the option as
 * written (fio.c), with the values taken ("--direct 0").
 */
static int one_option(struct parse *p, int c, const struct option *lo, bool *to_fio)
{
        const struct prog_opt *po = find_prog_opt(c);
        int r;

        *to_fio = false;
        if (c == OPT_JOB) {
                *to_fio = true;
                r = job_option(p, lo);
                return r < 0 ? r : 0;
        }
        if (po) {
                *to_fio = po->to_fio;
                return po->fn(p, optarg);
        }
        if (c == ':')
                return BAD("option %s needs a value", p->word);
        /* one of fio's options the native engine lacks: recorded (jobs.h) */
        r = fio_only_option(p);
        if (r != -ENOENT) {
                *to_fio = r >= 0 && c == '?';
                return r < 0 ? r : 0;
        }
        if (optopt && optopt < 256 && isprint(optopt))
                return BAD("unknown option -%c (see --help)", optopt);
        return BAD("unknown option %s (see --help)", p->word);
}

/*
 * A non-option argument at optind: a job file (parsed at the end, on the
 * final global options); after "--" every argument is one.  1 at the end.
 */
static int operands(struct parse *p)
{
        bool rest = optind > 1 && optind < p->argc && streq(p->argv[optind - 1], "--");
        int r;

        if (optind >= p->argc)
                return 1;
        if (streq(p->argv[optind], "--")) {
                optind++;
                return 0;
        }
        do {
                r = ios_strv_pushf(&p->o->jobfiles, "%s", p->argv[optind]);
                if (r >= 0)
                        r = ios_strv_pushf(&p->o->fio_args, "%s", p->argv[optind]);
                optind++;
                if (r < 0)
                        return r;
        } while (rest && optind < p->argc);
        return 0;
}

int bench_opts_parse(int argc, char **argv, struct bench_opts *o, FILE *out,
                     struct bench_error *e)
{
        _cleanup_free_ struct option *long_opts = build_table();
        struct parse p = { .argc = argc, .argv = argv, .o = o, .cur = o, .out = out, .e = e };
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
                int before = optind > 0 ? optind : 1;   /* the arguments this option takes: before..optind-1 */
                bool to_fio;

                /* never call getopt past the end: after a "--" it would turn
                 * back to the arguments behind it, again and again */
                if (optind > 0 && optind >= argc)
                        break;
                idx = -1;
                c = getopt_long_only(argc, argv, "+:JhV", long_opts, &idx);
                if (c < 0) {
                        r = operands(&p);
                        if (r < 0)
                                return r;
                        if (r > 0)
                                break;
                        continue;
                }
                p.word = optind > 0 && optind <= argc ? argv[optind - 1] : "?";
                r = one_option(&p, c, idx >= 0 ? &long_opts[idx] : NULL, &to_fio);
                if (r != 0)
                        return r;
                for (int k = before; to_fio && k < optind && k < argc; k++)
                        if ((r = ios_strv_pushf(&o->fio_args, "%s", argv[k])) < 0)
                                return r;
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
