/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ioschedd: keep the I/O scheduler policy in force.  Applies the policy to
 * every disk at start, to each disk udev (or the kernel) reports added or
 * changed, again after SIGHUP or an edit of a policy file, and, when the
 * policy asks for it, puts back what somebody else changed.  Command line
 * and exit codes live here; the loop is in daemon.c.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "daemon.h"
#include "macro.h"

/* Exit codes: documented in ioschedd(8), EXIT STATUS; chosen here only. */
enum {
        IOSD_EXIT_OK = 0,
        IOSD_EXIT_FAILURE = 1,          /* runtime failure */
        IOSD_EXIT_CONFIG = 2,           /* usage, or no usable root at start */
};

static const char *prog = "ioschedd";

static void usage(FILE *out)
{
        fprintf(out,
                "Usage:\n"
                " %1$s [options]\n"
                "\n"
                "Keep the I/O scheduler policy applied to every disk: at start, on hotplug\n"
                "and change uevents, on SIGHUP and policy edits, and against drift.\n"
                "\n"
                "Options:\n"
                " -c, --config FILE          read only the built-in policy and FILE\n"
                "     --config-root DIR      read the policy directories under DIR\n"
                "     --no-builtin           start from an empty policy, not the built-in rules\n"
                "     --sysroot DIR          use DIR as the root of sys/ and run/udev\n"
                "     --no-initial-apply     do not apply the policy to every disk at start\n"
                "     --monitor SOURCE       uevents from udev, kernel, none, or auto (default)\n"
                "     --drift-interval TIME  check for drift every TIME (500ms, 30s, 2min, off),\n"
                "                            overriding [Daemon] DriftInterval=\n"
                " -v, --verbose              log every event and check (debug level)\n"
                " -h, --help                 display this help\n"
                " -V, --version              display version\n"
                "\n"
                "For more details see ioschedd(8).\n",
                prog);
}


enum {
        OPT_CONFIG_ROOT = CHAR_MAX + 1,
        OPT_NO_BUILTIN,
        OPT_SYSROOT,
        OPT_NO_INITIAL,
        OPT_MONITOR,
        OPT_DRIFT,
};

int main(int argc, char **argv)
{
        static const struct option longopts[] = {
                { "config", required_argument, NULL, 'c' },
                { "config-root", required_argument, NULL, OPT_CONFIG_ROOT },
                { "no-builtin", no_argument, NULL, OPT_NO_BUILTIN },
                { "sysroot", required_argument, NULL, OPT_SYSROOT },
                { "no-initial-apply", no_argument, NULL, OPT_NO_INITIAL },
                { "monitor", required_argument, NULL, OPT_MONITOR },
                { "drift-interval", required_argument, NULL, OPT_DRIFT },
                { "verbose", no_argument, NULL, 'v' },
                { "help", no_argument, NULL, 'h' },
                { "version", no_argument, NULL, 'V' },
                {},
        };
        struct iosd_options o = {
                .initial_apply = true,
                .monitor = IOSD_MONITOR_AUTO,
                .drift_override_ms = -1,
        };
        int c, prio = LOG_INFO;

        while ((c = getopt_long(argc, argv, "c:vhV", longopts, NULL)) >= 0) {
                switch (c) {
                case 'c': o.config_file = optarg; break;
                case OPT_CONFIG_ROOT: o.config_root = optarg; break;
                case OPT_NO_BUILTIN: o.policy_flags |= IOS_POLICY_NO_BUILTIN; break;
                case OPT_SYSROOT: o.sysroot = optarg; break;
                case OPT_NO_INITIAL: o.initial_apply = false; break;
                case OPT_MONITOR:
                        if (streq(optarg, "auto"))
                                o.monitor = IOSD_MONITOR_AUTO;
                        else if (streq(optarg, "udev"))
                                o.monitor = IOSD_MONITOR_UDEV;
                        else if (streq(optarg, "kernel"))
                                o.monitor = IOSD_MONITOR_KERNEL;
                        else if (streq(optarg, "none"))
                                o.monitor = IOSD_MONITOR_NONE;
                        else {
                                fprintf(stderr, "%s: --monitor: unknown source '%s' (auto, udev, kernel, none)\n",
                                        prog, optarg);
                                return IOSD_EXIT_CONFIG;
                        }
                        break;
                case OPT_DRIFT: {
                        uint64_t ms;

                        if (ios_parse_interval_ms(optarg, &ms) < 0 || ms > INT64_MAX) {
                                fprintf(stderr, "%s: --drift-interval: invalid time '%s'\n", prog, optarg);
                                return IOSD_EXIT_CONFIG;
                        }
                        o.drift_override_ms = (int64_t)ms;
                        break;
                }
                case 'v': prio = LOG_DEBUG; break;
                case 'h': usage(stdout); return IOSD_EXIT_OK;
                case 'V': printf("%s %s\n", prog, IOS_VERSION); return IOSD_EXIT_OK;
                default:
                        fprintf(stderr, "Try '%s --help' for more information.\n", prog);
                        return IOSD_EXIT_CONFIG;
                }
        }
        if (optind < argc) {
                fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
                return IOSD_EXIT_CONFIG;
        }
        if (o.config_file && o.config_root) {
                fprintf(stderr, "%s: --config and --config-root are mutually exclusive\n", prog);
                return IOSD_EXIT_CONFIG;
        }
        iosd_log_setup(prio);
        switch (iosd_run(&o)) {
        case IOSD_STOPPED: return IOSD_EXIT_OK;
        case IOSD_BAD_START: return IOSD_EXIT_CONFIG;
        case IOSD_FAILED: break;
        }
        return IOSD_EXIT_FAILURE;
}
