/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-apply: list and classify block devices, apply and check the I/O
 * scheduler policy.  Exit codes are mapped here and only here.
 */
#define _GNU_SOURCE
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "apply.h"

#define EXIT_DRIFT 1
#define EXIT_USAGE 2

static const char *prog = "iosched-apply";

static void usage(FILE *out)
{
        fprintf(out,
                "Usage:\n"
                " %1$s list [options] [DEVICE...]\n"
                " %1$s explain [options] DEVICE\n"
                "\n"
                "Classify block devices and apply the I/O scheduler policy.\n"
                "\n"
                "Options:\n"
                " -J, --json             use JSON output\n"
                " -r, --raw              use raw output\n"
                " -n, --noheadings       don't print headings\n"
                " -o, --output LIST      output columns (+LIST appends to the default)\n"
                "     --sysroot DIR      use DIR as the root of sys/ and run/udev\n"
                " -h, --help             display this help\n"
                " -V, --version          display version\n",
                prog);
        ios_list_help_columns(out);
        fprintf(out, "\nFor more details see iosched-apply(8).\n");
}

static int err(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int err(int code, const char *fmt, ...)
{
        va_list ap;

        fprintf(stderr, "%s: ", prog);
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fputc('\n', stderr);
        return code;
}

static int load_devices(struct ios_root *r, char **names, int nnames,
                        struct ios_device ***ret, size_t *ret_n)
{
        struct ios_device **l;
        int e;

        if (nnames == 0) {
                e = ios_device_enumerate(r, ret, ret_n);
                if (e < 0)
                        return err(EXIT_USAGE, "cannot enumerate %s/sys/block: %s",
                                   ios_root_prefix(r), strerror(-e));
                return 0;
        }
        l = calloc((size_t)nnames, sizeof(*l));
        if (!l)
                return err(EXIT_USAGE, "out of memory");
        for (int i = 0; i < nnames; i++) {
                e = ios_device_new(r, names[i], &l[i]);
                if (e < 0) {
                        ios_device_list_free(l, (size_t)i);
                        if (e == -ENODEV || e == -ENOENT)
                                return err(EXIT_USAGE, "%s: not a block device", names[i]);
                        return err(EXIT_USAGE, "%s: %s", names[i], strerror(-e));
                }
        }
        *ret = l;
        *ret_n = (size_t)nnames;
        return 0;
}

enum { OPT_SYSROOT = CHAR_MAX + 1 };

int main(int argc, char **argv)
{
        static const struct option longopts[] = {
                { "json", no_argument, NULL, 'J' },
                { "raw", no_argument, NULL, 'r' },
                { "noheadings", no_argument, NULL, 'n' },
                { "output", required_argument, NULL, 'o' },
                { "sysroot", required_argument, NULL, OPT_SYSROOT },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                {},
        };
        struct ios_list_opts lo = {};
        const char *sysroot = NULL, *cols = NULL, *cmd = NULL;
        struct ios_root *root = NULL;
        struct ios_device **devs = NULL;
        size_t ndevs = 0;
        int c, e, rc = 0;

        while ((c = getopt_long(argc, argv, "Jrno:hV", longopts, NULL)) >= 0) {
                switch (c) {
                case 'J': lo.json = true; break;
                case 'r': lo.raw = true; break;
                case 'n': lo.noheadings = true; break;
                case 'o': cols = optarg; break;
                case OPT_SYSROOT: sysroot = optarg; break;
                case 'h': usage(stdout); return 0;
                case 'V': printf("%s %s\n", prog, IOS_VERSION); return 0;
                default:
                        fprintf(stderr, "Try '%s --help' for more information.\n", prog);
                        return EXIT_USAGE;
                }
        }
        if (lo.json && lo.raw)
                return err(EXIT_USAGE, "--json and --raw are mutually exclusive");
        if (optind < argc && (streq(argv[optind], "list") || streq(argv[optind], "explain")))
                cmd = argv[optind++];
        if (!cmd)
                return err(EXIT_USAGE, "a command is required (list, explain)");

        {
                const char *bad = NULL;
                if (ios_list_parse_columns(cols, lo.cols, &lo.ncols, &bad) < 0)
                        return err(EXIT_USAGE, "unknown column: %.*s", (int)strcspn(bad, ","), bad);
        }
        e = ios_root_new(sysroot, &root);
        if (e < 0)
                return err(EXIT_USAGE, "%s: %s", sysroot ? sysroot : "/", strerror(-e));
        if (streq(cmd, "explain") || ios_list_needs_extra(&lo))
                ios_root_set_probe(root, IOS_PROBE_EXTRA);

        if (streq(cmd, "explain") && argc - optind != 1) {
                rc = err(EXIT_USAGE, "explain takes exactly one DEVICE");
                goto out;
        }
        rc = load_devices(root, argv + optind, argc - optind, &devs, &ndevs);
        if (rc)
                goto out;
        if (streq(cmd, "list")) {
                e = ios_list_print(devs, ndevs, &lo);
                if (e < 0)
                        rc = err(EXIT_USAGE, "cannot print: %s", strerror(-e));
        } else
                ios_list_explain(stdout, devs[0]);
out:
        ios_device_list_free(devs, ndevs);
        ios_root_free(root);
        if (fflush(stdout) != 0 || ferror(stdout))
                rc = rc ? rc : err(EXIT_USAGE, "write error: %s", strerror(errno));
        return rc;
}
