/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli.c: iosched-apply's options, its usage, and every usage error: an
 * option a verb does not take, a format it cannot print, two that exclude
 * each other.  Each is one line (apply_err), and with -J the error object.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "cli.h"
#include "grow.h"

void apply_usage(FILE *out, const char *prog)
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
                "                                      benchmark the policy's scheduler on DEVICE against the\n"
                "                                      current one: exit 0 best or within the noise, 1 beaten\n"
                " %1$s report [-J] FILE...|-           one table per disk model from many hosts' facts -J\n"
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
                " -a, --all              also disks without a medium (size 0), left out when none is named\n"
                " -b, --bytes            list: SIZE in bytes\n"
                " -r, --raw              list: raw output\n"
                " -n, --noheadings       list: don't print headings\n"
                " -o, --output LIST      list: output columns (+LIST appends to the default)\n"
                " -c, --config FILE      use only the built-in policy and FILE\n"
                "     --config-root DIR  read /etc, /run and vendor policy directories under DIR\n"
                "     --no-builtin       start from an empty policy instead of the built-in one\n"
                "     --drop-in NAME=FILE  read FILE as the drop-in NAME (/dev/null: without NAME)\n"
                "     --no-record        validate: keep no evidence of the verdict\n"
                "     --adopt            validate: a drop-in for the disk's model when another won\n"
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

enum {
        OPT_SYSROOT = CHAR_MAX + 1, OPT_DRY_RUN, OPT_CHECK, OPT_UDEV, OPT_FORMAT,
        OPT_CONFIG_ROOT, OPT_IMPORT_GRUB, OPT_NO_BUILTIN, OPT_DROP_IN,
        OPT_TEXTFILE, OPT_NO_RECORD, OPT_ADOPT,
};

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
        { "no-record", no_argument, NULL, OPT_NO_RECORD },
        { "adopt", no_argument, NULL, OPT_ADOPT },
        { "quiet", no_argument, NULL, 'q' },
        { "verbose", no_argument, NULL, 'v' },
        { "help", no_argument, NULL, 'h' },
        { "version", no_argument, NULL, 'V' },
        {},
};

static int err(struct apply_cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int err(struct apply_cli *c, const char *fmt, ...)
{
        va_list ap;
        int rc;

        va_start(ap, fmt);
        rc = apply_verr(c->out, APPLY_EXIT_ERROR, NULL, fmt, ap);
        va_end(ap);
        return rc;
}

static int add_dropin(struct apply_cli *c, const char *arg)
{
        struct ios_dropin *n = ios_grow(c->dropins, &c->capdropins, c->ndropins + 1, sizeof(*n));
        int e;

        if (!n)
                return err(c, "out of memory");
        c->dropins = n;
        e = ios_dropin_parse(arg, &c->dropins[c->ndropins]);
        if (e < 0)
                return err(c, "--drop-in %s: %s", arg,
                           e == -EINVAL ? "not NAME=FILE with NAME a *.conf file name" : ios_strerror(e));
        c->ndropins++;
        return 0;
}

/* One option; returns -1 to go on, else the exit status. */
static int option(struct apply_cli *c, int opt, char **argv)
{
        struct apply_out *out = c->out;

        switch (opt) {
        case 'J': c->lo.json = c->ro.json = true; break;
        case 'r': c->lo.raw = true; break;
        case 'a': c->show_all = true; break;
        case 'b': c->lo.bytes = true; break;
        case 'n': c->lo.noheadings = true; break;
        case 'o': c->cols = optarg; break;
        case 'c': c->config = optarg; break;
        case 'q': c->ro.quiet = true; break;
        case 'v': c->ro.verbose = true; break;
        case OPT_CONFIG_ROOT: c->conf_root = optarg; break;
        case OPT_SYSROOT: c->sysroot = optarg; break;
        case OPT_DRY_RUN:
        case OPT_CHECK:
                if (c->mode_set)
                        return err(c, "--dry-run and --check are mutually exclusive");
                c->mode_set = true;
                c->ro.mode = opt == OPT_CHECK ? APPLY_MODE_CHECK : APPLY_MODE_DRY_RUN;
                out->mode = (int)c->ro.mode;
                break;
        case OPT_UDEV: c->udev_dev = optarg; break;
        case OPT_FORMAT:
                if (streq(optarg, "json"))
                        c->lo.json = c->ro.json = true;
                else if (streq(optarg, "prometheus"))
                        c->ro.prometheus = true;
                else if (!streq(optarg, "text"))
                        return err(c, "unknown format \"%s\" (text, json, prometheus)", optarg);
                break;
        case OPT_IMPORT_GRUB: c->verb = &apply_verb_import_grub; break;
        case OPT_TEXTFILE: c->textfile = c->ro.prometheus = true; break;  /* opened by main() */
        case OPT_NO_BUILTIN: c->no_builtin = true; break;
        case OPT_NO_RECORD: c->no_record = true; break;
        case OPT_ADOPT: c->adopt = true; break;
        case OPT_DROP_IN: return add_dropin(c, optarg) ? APPLY_EXIT_ERROR : -1;
        case 'h': apply_usage(stdout, out->prog); return 0;
        case 'V': printf("%s %s\n", out->prog, IOS_VERSION); return 0;
        default:
                apply_error_add(out, NULL, 0, NULL, APPLY_EXIT_ERROR, "invalid option or missing argument: %s",
                                argv[optind - 1]);
                fprintf(stderr, "Try '%s --help' for more information.\n", out->prog);
                return APPLY_EXIT_ERROR;
        }
        return -1;
}

/* What the options ask of the verb that they cannot have: one usage error, or 0. */
static int check_verb(struct apply_cli *c)
{
        const struct apply_verb *v = c->verb;
        struct apply_run_opts *ro = &c->ro;

        /* an output format a verb does not have is a usage error, never silently text */
        if (ro->prometheus && !(v->formats & (1u << APPLY_FORMAT_PROMETHEUS)))
                return err(c, "%s has no prometheus output (--format prometheus is for the apply, "
                           "--dry-run and --check modes)", v->shown);
        if (ro->json && !(v->formats & (1u << APPLY_FORMAT_JSON)))
                return err(c, "%s has no JSON output", v->shown);
        if (c->udev_dev && (c->word || c->mode_set || c->nargs || ro->json || ro->prometheus))
                return err(c, "--udev takes one device and no other mode");
        if (c->word && c->mode_set)
                return err(c, "%s does not take --dry-run or --check", c->word->name);
        if ((c->no_record || c->adopt) && !(c->word && c->word->bench_args))
                return err(c, "--no-record and --adopt are validate's");
        if (c->no_record && c->adopt)
                return err(c, "--adopt names the evidence it writes: not with --no-record");
        /* --textfile sets --format prometheus: every verb but apply is refused above */
        if (c->textfile && c->mode_set && ro->mode != APPLY_MODE_CHECK)
                return err(c, "--textfile writes what --check finds: not with --dry-run");
        if (ro->prometheus && !c->mode_set)
                ro->mode = APPLY_MODE_CHECK;       /* a textfile collector must not change anything */
        return 0;
}

int apply_cli_parse(struct apply_cli *c, int argc, char **argv)
{
        struct apply_out *out = c->out;
        char **after = NULL;
        int opt, rc, nafter = 0;

        c->ro.prog = out->prog;
        c->ro.out = c->lo.out = out;
        /* what follows "--": iosched-bench's options for validate, disk names for every other verb */
        for (int i = 1; i < argc; i++)
                if (streq(argv[i], "--")) {
                        after = argv + i + 1;
                        nafter = argc - i - 1;
                        argc = i;
                        break;
                }
        while ((opt = getopt_long(argc, argv, "Jabrno:c:qvhV", longopts, NULL)) >= 0)
                if ((rc = option(c, opt, argv)) >= 0)
                        return rc;
        if (c->ndropins && c->config)
                return err(c, "--drop-in and --config are mutually exclusive (--config reads no drop-ins)");
        if (c->lo.json && (c->lo.raw || c->ro.prometheus))
                return err(c, "--json, --raw and --format prometheus are mutually exclusive");
        if (optind < argc)
                c->word = apply_verb_find(argv[optind]);
        if (c->word)
                optind++;
        if (after && !(c->word && c->word->bench_args)) {
                /* disk names after "--", even one that starts with '-': drop the "--" itself */
                for (int k = 0; k < nafter; k++)
                        argv[argc + k] = after[k];
                argc += nafter;
        } else {
                c->bench_args = after;
                c->nbench_args = nafter;
        }
        c->args = argv + optind;
        c->nargs = argc - optind;
        /* --import-grub wins over a verb's word */
        if (!c->verb)
                c->verb = c->word ? c->word : &apply_verb_apply;
        out->command = c->verb->json_command;
        if (c->verb == &apply_verb_import_grub)
                out->mode = -1;
        else if (!c->word && out->mode < 0)
                out->mode = APPLY_MODE_APPLY;
        return check_verb(c) ? APPLY_EXIT_ERROR : -1;
}
