/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* iosched-apply's own modules (not the library). */
#ifndef IOS_APPLY_H
#define IOS_APPLY_H

#include <stdbool.h>
#include <stdio.h>

#include "iosched.h"

#define IOS_LIST_MAX_COLS 64

struct ios_list_opts {
        bool json, raw, noheadings;
        int cols[IOS_LIST_MAX_COLS];
        size_t ncols;
};

void ios_list_help_columns(FILE *out);
int ios_list_parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad);
bool ios_list_needs_extra(const struct ios_list_opts *o);
int ios_list_print(struct ios_device **devs, size_t n, const struct ios_list_opts *o);
int ios_list_explain(FILE *out, const struct ios_device *d);


/* Exit codes: documented in iosched-apply(8), EXIT STATUS. */
#define IOS_EXIT_DRIFT    1     /* --check: some disk differs from its policy */
#define IOS_EXIT_ERROR    2     /* usage, configuration or system error */
#define IOS_EXIT_REFUSED  3     /* the kernel refused a value (EINVAL) */
#define IOS_EXIT_VANISHED 4     /* a disk disappeared while being applied */
#define IOS_EXIT_READONLY 5     /* /sys is read-only or not writable */

enum ios_mode { IOS_MODE_APPLY, IOS_MODE_DRY_RUN, IOS_MODE_CHECK };

struct ios_run_opts {
        const char *prog;
        enum ios_mode mode;
        bool json, prometheus, quiet, verbose, udev;
        bool all_disks;         /* no disk named: every disk of the machine */
};

/* udevlog.c: --udev's log: syslog, or the kernel log where there is no syslog socket. */
void apply_log_open(const char *prog);
void apply_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether exit code a is more serious than b (the worst of several is the exit status). */
bool ios_exit_worse(int a, int b);

int ios_exit_for_error(int e);
int ios_run(const struct ios_run_opts *o, const struct ios_policy *p, struct ios_device **devs, size_t n);
int ios_explain_policy(FILE *out, const struct ios_policy *p, struct ios_device *d);

/* grub.c: the last elevator=VALUE of a kernel command line (malloc'd), or NULL. */
char *ios_find_elevator(const char *text);
/*
 * The elevator= that counts: the last of the command line GRUB builds from
 * conf_root's /etc/default/grub and grub.d/ *.cfg, else the last of
 * /proc/cmdline.  Returns 1 with the value and "file:line (VARIABLE)" or
 * "/proc/cmdline", 0 if there is none, or -errno; *ret_notes (if not NULL)
 * gets one line per conflict and per statement that was not evaluated.
 */
int ios_elevator_sources(struct ios_root *r, const char *conf_root, char **ret_value, char **ret_where,
                         char ***ret_notes);
void ios_warn_elevator(const char *prog, struct ios_root *r, const char *conf_root);
/*
 * Print the policy equivalent to that elevator=.  -ENOENT (none) and -EINVAL
 * (unknown scheduler) come with one line in *ret_msg; *ret_notes as above.
 */
int ios_import_grub(FILE *out, struct ios_root *r, const char *conf_root, char **ret_msg, char ***ret_notes);
int ios_validate(const char *prog, const struct ios_policy *p, struct ios_device *d,
                 const char *config, char **bench_args, int nbench_args);

#endif
