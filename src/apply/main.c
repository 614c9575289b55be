/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-apply: list and classify block devices, apply and check the I/O
 * scheduler policy.  Exit codes are chosen here only: usage errors where
 * they are found, and a run's outcome class through exit_code().
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

static const char *prog = "iosched-apply";

/* Exit codes: documented in iosched-apply(8), EXIT STATUS. */
#define APPLY_EXIT_DRIFT    1     /* --check: some disk differs from its policy */
#define APPLY_EXIT_ERROR    2     /* usage, configuration or system error */
#define APPLY_EXIT_REFUSED  3     /* the kernel refused or did not keep a value */
#define APPLY_EXIT_VANISHED 4     /* a disk disappeared while being applied */
#define APPLY_EXIT_READONLY 5     /* /sys is read-only or not writable */

static int exit_code(enum apply_outcome o)
{
        switch (o) {
        case APPLY_OK: return 0;
        case APPLY_DRIFT: return APPLY_EXIT_DRIFT;
        case APPLY_REFUSED: return APPLY_EXIT_REFUSED;
        case APPLY_VANISHED: return APPLY_EXIT_VANISHED;
        case APPLY_READONLY: return APPLY_EXIT_READONLY;
        case APPLY_FAILED: break;
        }
        return APPLY_EXIT_ERROR;
}

static void usage(FILE *out)
{
        fprintf(out,
                "Usage:\n"
                " %1$s [options] [DEVICE...]          apply the policy (all disks by default)\n"
                " %1$s --dry-run [options] [DEVICE...] print what would change\n"
                " %1$s --check [options] [DEVICE...]   exit 0 if compliant, 1 on drift, 2 on error\n"
                " %1$s --udev DEVNAME                  one disk, quietly, for udev rules\n"
                " %1$s list [options] [DEVICE...]      lsblk-like table of disks and classes\n"
                " %1$s explain [options] [DEVICE...]   class, evidence and the rule behind each setting\n"
                " %1$s status [options] [DEVICE...]    one line per disk: scheduler, wanted, drift, other writers\n"
                " %1$s facts -J [DEVICE...]            what a fleet inventory wants of this host\n"
                " %1$s cat-config [options]            the policy as read, each line with its file:line\n"
                " %1$s validate [options] DEVICE [-- BENCH-OPTIONS]\n"
                "                                      benchmark the policy's scheduler against the current one\n"
                " %1$s --import-grub                   print a policy equivalent to elevator=\n"
                "\n"
                "Classify block devices and apply the I/O scheduler policy.\n"
                "\n"
                "Options:\n"
                "     --dry-run          change nothing, print the plan\n"
                "     --check            change nothing, report drift\n"
                " -J, --json             use JSON output\n"
                "     --format FMT       output format: text, json, prometheus\n"
                "     --textfile FILE    --check in the Prometheus format, written atomically to FILE\n"
                " -a, --all              list, status: also disks without a medium (size 0)\n"
                " -b, --bytes            list: SIZE in bytes\n"
                " -r, --raw              list: raw output\n"
                " -n, --noheadings       list: don't print headings\n"
                " -o, --output LIST      list: output columns (+LIST appends to the default)\n"
                " -c, --config FILE      use only the built-in policy and FILE\n"
                "     --config-root DIR  read /etc, /run and vendor policy directories under DIR\n"
                "     --no-builtin       start from an empty policy instead of the built-in one\n"
                "     --drop-in NAME=FILE  read FILE as the drop-in NAME (/dev/null: without NAME)\n"
                "     --sysroot DIR      use DIR as the root of sys/, proc/ and run/udev\n"
                "     --udev DEVNAME     apply to one disk, log to syslog, print nothing\n"
                " -q, --quiet            print errors only\n"
                " -v, --verbose          also print settings already in place and skipped ones\n"
                " -h, --help             display this help\n"
                " -V, --version          display version\n",
                prog);
        apply_list_help_columns(out);
        apply_status_help_columns(out);
        fprintf(out, "\nFor more details see iosched-apply(8) and iosched.conf(5).\n");
}

/*
 * One error: one line on stderr ("iosched-apply: [DEVICE: ]message"), and
 * the same in the JSON object's "errors" (errors.c), with its exit code.
 */
static int verr_at(int code, const char *device, const char *fmt, va_list ap)
{
        return apply_verror(prog, code, device, fmt, ap);
}

static int err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int err(int code, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        code = verr_at(code, NULL, fmt, ap);
        va_end(ap);
        return code;
}

static int err_dev(int code, const char *device, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int err_dev(int code, const char *device, const char *fmt, ...)
{
        va_list ap;

        va_start(ap, fmt);
        code = verr_at(code, device, fmt, ap);
        va_end(ap);
        return code;
}


/*
 * The disks named, or every disk when none is.  *ret gets the ones found, in
 * the order named.  A name that is not a block device, or that cannot be
 * read, is reported on one line and skipped: it does not stop the others.
 * The return value is then the exit code it earns (APPLY_EXIT_ERROR) for the
 * caller to merge into the run's, and *ret_err (if given) the first such
 * -errno.  Only ios_errno_class()'s GONE means "not a block device"; anything else
 * (EAGAIN from a lookup that kept racing renames, EACCES, ENOMEM) is named
 * as what it is.  Nonzero with *ret_n == 0: nothing to work on.
 */
static int load_devices_err(struct ios_ctx *r, char **names, int nnames,
                            struct ios_device ***ret, size_t *ret_n, int *ret_err)
{
        struct ios_device **l;
        size_t n = 0;
        int e, rc = 0;

        if (ret_err)
                *ret_err = 0;
        if (nnames == 0) {
                e = ios_device_enumerate(r, ret, ret_n);
                if (e < 0) {
                        if (ret_err)
                                *ret_err = e;
                        const char *disk = ios_ctx_failed_disk(r);

                        return err(APPLY_EXIT_ERROR, "cannot enumerate %s/sys/block: %s%s%s",
                                   ios_ctx_prefix(r), disk ? disk : "", disk ? ": " : "",
                                   ios_strerror(e));
                }
                return 0;
        }
        l = calloc((size_t)nnames, sizeof(*l));
        if (!l) {
                if (ret_err)
                        *ret_err = -ENOMEM;
                return err(APPLY_EXIT_ERROR, "out of memory");
        }
        for (int i = 0; i < nnames; i++) {
                e = ios_device_new(r, names[i], &l[n]);
                if (e >= 0) {
                        n++;
                        continue;
                }
                if (ret_err && *ret_err == 0)
                        *ret_err = e;
                if (ios_errno_class(e) == IOS_ERRNO_GONE)
                        rc = err_dev(APPLY_EXIT_ERROR, names[i], "not a block device");
                else
                        rc = err_dev(APPLY_EXIT_ERROR, names[i], "%s", ios_strerror(e));
        }
        *ret = l;
        *ret_n = n;
        return rc;
}

static int load_devices(struct ios_ctx *r, char **names, int nnames,
                        struct ios_device ***ret, size_t *ret_n)
{
        return load_devices_err(r, names, nnames, ret, ret_n, NULL);
}

/*
 * The policy is read from a captured tree (--sysroot without --config-root):
 * whoever captured it owns it, so the files' owner is not checked there (the
 * permission checks still are).
 */
static bool policy_in_capture;

/*
 * Load the policy.  A file that cannot be used gives no rule but holds what
 * it names on its disks (held.c says so, with the disks once they are
 * known: defer); the run's exit status is then at least APPLY_EXIT_ERROR,
 * returned in *ret_rc.  Returns non-zero only when there is no policy.
 */
static int load_policy(const struct apply_run_opts *ro, const char *conf_root, const char *config, bool no_builtin,
                       bool defer, const struct ios_dropin *dropins, size_t ndropins, struct ios_policy **ret,
                       int *ret_rc)
{
        struct ios_error pe = {};
        unsigned flags = (getenv("IOSCHED_TEST_ANY_OWNER") || policy_in_capture ? IOS_POLICY_ANY_OWNER : 0) |
                         (no_builtin ? IOS_POLICY_NO_BUILTIN : 0);
        size_t nerr = 0;
        int e;

        *ret_rc = 0;
        e = ios_policy_load_dropins(conf_root, config, flags, dropins, ndropins, ret, &pe);
        if (e < 0)
                return err(APPLY_EXIT_ERROR, "cannot load policy: %s", strerror(-e));
        (void)ios_policy_errors(*ret, &nerr);
        if (!defer)
                apply_policy_errors_report(ro, *ret, NULL, 0);
        for (char * const *w = ios_policy_warnings(*ret); !ro->quiet && !ro->udev && w && *w; w++) {
                _cleanup_free_ char *esc = apply_escape(*w);

                fprintf(stderr, "%s: warning: %s\n", prog, esc ? esc : *w);
        }
        if (nerr)
                *ret_rc = APPLY_EXIT_ERROR;
        return 0;
}

enum {
        OPT_SYSROOT = CHAR_MAX + 1, OPT_DRY_RUN, OPT_CHECK, OPT_UDEV, OPT_FORMAT,
        OPT_CONFIG_ROOT, OPT_IMPORT_GRUB, OPT_NO_BUILTIN, OPT_DROP_IN,
        OPT_TEXTFILE,
};

/* whether the policy was read whole, for the textfile of a run that ended early (-1: not read) */
static int prom_policy_ok = -1;

/* What the JSON error object names when the command could not print its own. */
static const char *json_cmd;
static int json_mode = -1;

/* a usage or set-up error: said once, and what was allocated is freed at out */
#define FAIL(...) do { rc = err(__VA_ARGS__); goto out; } while (0)

static int run(int argc, char **argv)
{
        static const struct option longopts[] = {
                { "json", no_argument, NULL, 'J' },
                { "all", no_argument, NULL, 'a' },
                { "bytes", no_argument, NULL, 'b' },
                { "raw", no_argument, NULL, 'r' },
                { "noheadings", no_argument, NULL, 'n' },
                { "output", required_argument, NULL, 'o' },
                { "config", required_argument, NULL, 'c' },
                { "config-root", required_argument, NULL, OPT_CONFIG_ROOT },
                { "sysroot", required_argument, NULL, OPT_SYSROOT },
                { "dry-run", no_argument, NULL, OPT_DRY_RUN },
                { "check", no_argument, NULL, OPT_CHECK },
                { "udev", required_argument, NULL, OPT_UDEV },
                { "format", required_argument, NULL, OPT_FORMAT },
                { "import-grub", no_argument, NULL, OPT_IMPORT_GRUB },
                { "no-builtin", no_argument, NULL, OPT_NO_BUILTIN },
                { "drop-in", required_argument, NULL, OPT_DROP_IN },
                { "textfile", required_argument, NULL, OPT_TEXTFILE },
                { "quiet", no_argument, NULL, 'q' },
                { "verbose", no_argument, NULL, 'v' },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                {},
        };
        struct apply_list_opts lo = {};
        struct apply_run_opts ro = { .prog = prog };
        const char *sysroot = NULL, *cols = NULL, *cmd = NULL, *config = NULL, *conf_root = NULL;
        const char *udev_dev = NULL;
        bool import_grub = false, mode_set = false, no_builtin = false, show_all = false, textfile = false;
        struct ios_ctx *root = NULL;
        struct ios_policy *policy = NULL;
        struct ios_device **devs = NULL;
        size_t ndevs = 0;
        char **bench_args = NULL;
        struct ios_dropin *dropins = NULL;
        size_t ndropins = 0;
        int c, e, rc = 0, nbench_args = 0, policy_rc = 0;
        int devices_rc = 0;     /* the worst exit code of disks named but not loaded */

        /* what follows "--": iosched-bench's options for validate, disk names for every other verb */
        for (int i = 1; i < argc; i++)
                if (streq(argv[i], "--")) {
                        bench_args = argv + i + 1;
                        nbench_args = argc - i - 1;
                        argc = i;
                        break;
                }
        while ((c = getopt_long(argc, argv, "Jabrno:c:qvhV", longopts, NULL)) >= 0) {
                switch (c) {
                case 'J': lo.json = ro.json = true; break;
                case 'r': lo.raw = true; break;
                case 'a': show_all = true; break;
                case 'b': lo.bytes = true; break;
                case 'n': lo.noheadings = true; break;
                case 'o': cols = optarg; break;
                case 'c': config = optarg; break;
                case 'q': ro.quiet = true; break;
                case 'v': ro.verbose = true; break;
                case OPT_CONFIG_ROOT: conf_root = optarg; break;
                case OPT_SYSROOT: sysroot = optarg; break;
                case OPT_DRY_RUN:
                case OPT_CHECK:
                        if (mode_set)
                                FAIL(APPLY_EXIT_ERROR, "--dry-run and --check are mutually exclusive");
                        mode_set = true;
                        ro.mode = c == OPT_CHECK ? APPLY_MODE_CHECK : APPLY_MODE_DRY_RUN;
                        json_mode = (int)ro.mode;
                        break;
                case OPT_UDEV: udev_dev = optarg; break;
                case OPT_FORMAT:
                        if (streq(optarg, "json"))
                                lo.json = ro.json = true;
                        else if (streq(optarg, "prometheus"))
                                ro.prometheus = true;
                        else if (!streq(optarg, "text"))
                                FAIL(APPLY_EXIT_ERROR, "unknown format \"%s\" (text, json, prometheus)", optarg);
                        break;
                case OPT_IMPORT_GRUB: import_grub = true; break;
                case OPT_TEXTFILE: textfile = ro.prometheus = true; break;  /* opened by main() */
                case OPT_NO_BUILTIN: no_builtin = true; break;
                case OPT_DROP_IN: {
                        struct ios_dropin *n = realloc(dropins, (ndropins + 1) * sizeof(*n));

                        if (!n) {
                                rc = err(APPLY_EXIT_ERROR, "out of memory");
                                goto out;
                        }
                        dropins = n;
                        e = ios_dropin_parse(optarg, &dropins[ndropins]);
                        if (e < 0) {
                                rc = err(APPLY_EXIT_ERROR, "--drop-in %s: %s", optarg,
                                         e == -EINVAL ? "not NAME=FILE with NAME a *.conf file name" : strerror(-e));
                                goto out;
                        }
                        ndropins++;
                        break;
                }
                case 'h': usage(stdout); goto out;
                case 'V': printf("%s %s\n", prog, IOS_VERSION); goto out;
                default:
                        apply_error_add(NULL, 0, NULL, APPLY_EXIT_ERROR, "invalid option or missing argument: %s",
                                        argv[optind - 1]);
                        fprintf(stderr, "Try '%s --help' for more information.\n", prog);
                        rc = APPLY_EXIT_ERROR;
                        goto out;
                }
        }
        if (ndropins && config) {
                rc = err(APPLY_EXIT_ERROR, "--drop-in and --config are mutually exclusive (--config reads no drop-ins)");
                goto out;
        }
        if (lo.json && (lo.raw || ro.prometheus))
                FAIL(APPLY_EXIT_ERROR, "--json, --raw and --format prometheus are mutually exclusive");
        if (optind < argc && (streq(argv[optind], "list") || streq(argv[optind], "explain") ||
                              streq(argv[optind], "validate") || streq(argv[optind], "status") ||
                              streq(argv[optind], "facts") || streq(argv[optind], "cat-config")))
                cmd = argv[optind++];
        if (bench_args && !(cmd && streq(cmd, "validate"))) {
                /* disk names after "--", even one that starts with '-': drop the "--" itself */
                for (int k = 0; k < nbench_args; k++)
                        argv[argc + k] = bench_args[k];
                argc += nbench_args;
                bench_args = NULL;
                nbench_args = 0;
        }
        json_cmd = cmd;
        if (!cmd && json_mode < 0)
                json_mode = APPLY_MODE_APPLY;
        /* an output format a verb does not have is a usage error, never silently text */
        if (import_grub) {
                json_cmd = "import-grub";
                json_mode = -1;
        }
        if (ro.prometheus && (cmd || import_grub))
                FAIL(APPLY_EXIT_ERROR, "%s has no prometheus output (--format prometheus is for the apply, "
                     "--dry-run and --check modes)", import_grub ? "--import-grub" : cmd);
        if (ro.json && (import_grub || (cmd && (streq(cmd, "cat-config") || streq(cmd, "validate")))))
                FAIL(APPLY_EXIT_ERROR, "%s has no JSON output", import_grub ? "--import-grub" : cmd);
        if (udev_dev && (cmd || mode_set || optind < argc || ro.json || ro.prometheus))
                FAIL(APPLY_EXIT_ERROR, "--udev takes one device and no other mode");
        if (cmd && mode_set)
                FAIL(APPLY_EXIT_ERROR, "%s does not take --dry-run or --check", cmd);
        if (textfile && (cmd || import_grub || (mode_set && ro.mode != APPLY_MODE_CHECK)))
                FAIL(APPLY_EXIT_ERROR, "--textfile writes what --check finds: not with %s",
                     cmd ? cmd : import_grub ? "--import-grub" : "--dry-run");
        if (ro.prometheus && !mode_set)
                ro.mode = APPLY_MODE_CHECK;       /* a textfile collector must not change anything */

        e = ios_ctx_new(sysroot, &root);
        if (e < 0)
                FAIL(APPLY_EXIT_ERROR, "%s: %s", sysroot ? sysroot : "/", strerror(-e));

        /* /etc/default/grub lives with the policy, or in the captured tree */
        if (!conf_root && sysroot) {
                conf_root = sysroot;
                policy_in_capture = true;
        }
        if (import_grub) {
                json_cmd = "import-grub";
                json_mode = -1;
                _cleanup_free_ char *msg = NULL;
                _cleanup_(ios_strv_freep) char **notes = NULL;

                /* conflicts and what was not evaluated: one line each, the policy still printed */
                e = apply_import_grub(stdout, root, conf_root, &msg, &notes);
                for (char **n = notes; n && *n; n++)
                        fprintf(stderr, "%s: warning: %s\n", prog, *n);
                if (e < 0)
                        rc = msg ? err(APPLY_EXIT_ERROR, "%s", msg) :
                                   err(APPLY_EXIT_ERROR, "--import-grub: %s", strerror(-e));
                goto out;
        }

        if (cmd && streq(cmd, "list")) {
                const char *bad = NULL;

                if (apply_list_parse_columns(cols, lo.cols, &lo.ncols, &bad) < 0) {
                        rc = err(APPLY_EXIT_ERROR, "unknown column: %.*s", (int)strcspn(bad, ","), bad);
                        goto out;
                }
                /* as lsblk: disks without a medium are left out unless -a or named */
                lo.hide_empty = !show_all && optind == argc;
                if (apply_list_needs_extra(&lo) || lo.hide_empty)
                        ios_ctx_set_probe(root, IOS_PROBE_EXTRA);
                (void)ios_raise_nofile();
                /* as lsblk: a missing name is reported, the others are listed, exit 2 */
                rc = load_devices(root, argv + optind, argc - optind, &devs, &ndevs);
                if (rc && ndevs == 0)
                        goto out;
                for (size_t i = 0; i < ndevs; i++)
                        if (devs[i]->no_dev && !(lo.hide_empty && devs[i]->size == 0))
                                fprintf(stderr, "%s: warning: %s: no dev file in sys/block/%s: listed without a "
                                        "device number\n", prog, devs[i]->name, devs[i]->name);
                e = apply_list_print(devs, ndevs, &lo);
                if (e < 0)
                        rc = err(APPLY_EXIT_ERROR, "cannot print: %s", strerror(-e));
                goto out;
        }

        if (udev_dev) {
                /* udev: quiet, syslog (the journal; the kernel log in the initramfs), one disk */
                apply_log_open(prog);
                ro.udev = ro.quiet = true;
        }
        ro.exit_of = exit_code;
        rc = load_policy(&ro, conf_root, config, no_builtin, !cmd, dropins, ndropins, &policy, &policy_rc);
        prom_policy_ok = rc ? 0 : !policy_rc;
        if (rc) {
                if (udev_dev)
                        apply_log(LOG_ERR, "%s: policy not applied: cannot load the policy", udev_dev);
                goto out;
        }
        /* what the policy matches on; explain shows every fact */
        ios_ctx_set_probe(root, ios_policy_probe_flags(policy) |
                                 (cmd && (streq(cmd, "explain") || streq(cmd, "facts") ||
                                          (streq(cmd, "status") && !show_all)) ? IOS_PROBE_EXTRA : 0));

        if (cmd && streq(cmd, "validate")) {
                /* validate DEVICE [-- options for iosched-bench] */
                if (argc - optind != 1) {
                        rc = err(APPLY_EXIT_ERROR, "validate takes exactly one DEVICE");
                        goto out;
                }
                if (sysroot) {
                        rc = err(APPLY_EXIT_ERROR, "validate measures the running system's disk: no --sysroot");
                        goto out;
                }
                if (policy_rc) {
                        rc = err(policy_rc, "validate: not measuring with a policy that has skipped files");
                        goto out;
                }
                rc = load_devices(root, argv + optind, 1, &devs, &ndevs);
                if (rc)
                        goto out;
                e = apply_validate(prog, policy, devs[0], config, bench_args, nbench_args);
                rc = e == -ENOMEM ? err(APPLY_EXIT_ERROR, "out of memory") : APPLY_EXIT_ERROR;
                goto out;
        }

        if (cmd && (streq(cmd, "explain") || streq(cmd, "status") || streq(cmd, "facts"))) {
                /* every disk when none is named; one that is missing does not stop the others */
                ro.ctx = root;
                ro.conf_root = conf_root;
                (void)ios_raise_nofile();
                devices_rc = load_devices(root, argv + optind, argc - optind, &devs, &ndevs);
                if (devices_rc && ndevs == 0) {
                        rc = devices_rc;
                        goto out;
                }
                /* facts: a broken policy is a fact (policy_ok), not a failure to gather them */
                rc = devices_rc ? devices_rc : policy_rc && !streq(cmd, "facts") ? policy_rc : 0;
                if (streq(cmd, "explain"))
                        e = apply_explain(&ro, policy, devs, ndevs, rc);
                else if (streq(cmd, "facts"))
                        e = apply_facts(stdout, &ro, policy, devs, ndevs, rc);
                else {
                        lo.hide_empty = !show_all && optind == argc;
                        e = apply_status(&ro, &lo, cols, policy, devs, ndevs, rc);
                }
                rc = e < 0 ? err(APPLY_EXIT_ERROR, "%s: %s", cmd, strerror(-e)) : e;
                if (streq(cmd, "facts"))
                        policy_rc = 0;
                goto out;
        }

        if (cmd && streq(cmd, "cat-config")) {
                if (optind != argc) {
                        rc = err(APPLY_EXIT_ERROR, "cat-config takes no DEVICE");
                        goto out;
                }
                e = apply_cat_config(stdout, policy);
                rc = e < 0 ? err(APPLY_EXIT_ERROR, "cat-config: %s", strerror(-e)) : policy_rc;
                goto out;
        }

        if (udev_dev) {
                char *one[] = { (char *)udev_dev };

                rc = load_devices_err(root, one, 1, &devs, &ndevs, &e);
                if (rc) {
                        /* only a disk that is gone is "removed"; a transient or
                         * system error is a failure udev's caller must see */
                        if (ios_errno_class(e) == IOS_ERRNO_GONE) {
                                apply_log(LOG_WARNING, "%s: not a block device (removed?)", udev_dev);
                                rc = APPLY_EXIT_VANISHED;
                        } else
                                apply_log(LOG_ERR, "%s: policy not applied: cannot read the disk: %s",
                                       udev_dev, strerror(-e));
                        goto out;
                }
                /* a benchmark switches this disk and restores it itself; the
                 * rule's apply in between would change what it measures */
                long bench_pid;
                if (ios_bench_lock_holder(root, devs[0]->major, devs[0]->minor, &bench_pid) > 0) {
                        apply_log(LOG_INFO, "%s: left alone: iosched-bench (pid %ld) is comparing schedulers on it",
                                  udev_dev, bench_pid);
                        goto out;
                }
        } else {
                if (!ro.json && !ro.prometheus)
                        apply_warn_elevator(prog, root, conf_root);
                (void)ios_raise_nofile();
                /* a disk named that is missing is reported and does not stop
                 * the others; its exit code is merged in at the end */
                devices_rc = load_devices(root, argv + optind, argc - optind, &devs, &ndevs);
                if (devices_rc && ndevs == 0) {
                        rc = devices_rc;
                        goto out;
                }
        }
        ro.all_disks = !udev_dev && optind == argc;
        ro.base = policy_rc || devices_rc ? APPLY_FAILED : APPLY_OK;
        ro.exit_of = exit_code;
        ro.ctx = root;
        ro.conf_root = conf_root;
        /* a skipped policy file or a missing disk named: the others still done, exit 2 */
        rc = exit_code(apply_outcome_worse(apply_run(&ro, policy, devs, ndevs),
                                           policy_rc || devices_rc ? APPLY_FAILED : APPLY_OK));
out:
        if (policy_rc)          /* explain and validate too: a broken file is worst */
                rc = APPLY_EXIT_ERROR;
        if (policy)             /* a run that ended before its disks were planned */
                apply_policy_errors_report(&ro, policy, NULL, 0);
        ios_device_list_free(devs, ndevs);
        apply_conflicts_free();
        for (size_t i = 0; i < ndropins; i++)
                ios_dropin_done(&dropins[i]);
        free(dropins);
        ios_policy_free(policy);
        ios_ctx_free(root);
        if (fflush(stdout) != 0 || ferror(stdout))
                rc = rc ? rc : err(APPLY_EXIT_ERROR, "write error: %s", strerror(errno));
        return rc;
}

int main(int argc, char **argv)
{
        bool json = apply_json_requested(argc, argv), prom = apply_prom_requested(argc, argv);
        const char *textfile = apply_textfile_requested(argc, argv);
        struct apply_textfile tf;
        _cleanup_free_ char *msg = NULL;
        int rc;

        /* --textfile: stdout is the new file from here on, whatever the exit status */
        if (textfile && apply_textfile_open(textfile, &tf, &msg) < 0) {
                rc = err(APPLY_EXIT_ERROR, "%s", msg ? msg : "--textfile: out of memory");
                apply_textfile_done(&tf);
                apply_errors_free();
                return rc;
        }
        prom = prom || textfile;
        rc = run(argc, argv);
        /* -J: one JSON object on stdout, whatever happened */
        if (json && rc && !apply_json_printed()) {
                apply_json_error_object(stdout, json_cmd, json_mode >= 0 ? apply_mode_names[json_mode] : NULL,
                                        rc);
                if (fflush(stdout) != 0 && !rc)
                        rc = APPLY_EXIT_ERROR;
        }
        /* --format prometheus: health and time, so that an alert fires instead of a stale file */
        if (prom && rc && !apply_prom_printed()) {
                apply_prom_failure(stdout, rc, prom_policy_ok);
                if (fflush(stdout) != 0 && !rc)
                        rc = APPLY_EXIT_ERROR;
        }
        if (textfile) {
                /* --help, --version or a -J error object is no textfile: nothing replaces FILE */
                if (apply_textfile_commit(&tf, apply_prom_printed() && !apply_json_printed(), &msg) < 0)
                        rc = err(rc ? rc : APPLY_EXIT_ERROR, "%s", msg ? msg : "--textfile: out of memory");
                apply_textfile_done(&tf);
        }
        apply_errors_free();
        return rc;
}
