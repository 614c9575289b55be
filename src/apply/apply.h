/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* iosched-apply's own modules (not the library). */
#ifndef APPLY_H
#define APPLY_H

#include <stdbool.h>
#include <stdio.h>

#include "iosched.h"

#define APPLY_LIST_MAX_COLS 64

struct apply_list_opts {
        bool json, raw, noheadings;
        int cols[APPLY_LIST_MAX_COLS];
        size_t ncols;
};

void apply_list_help_columns(FILE *out);
int apply_list_parse_columns(const char *arg, int *cols, size_t *ncols, const char **bad);
bool apply_list_needs_extra(const struct apply_list_opts *o);
int apply_list_print(struct ios_device **devs, size_t n, const struct apply_list_opts *o);
int apply_list_explain(FILE *out, const struct ios_device *d);


/*
 * What a run came to, from harmless to most systemic: when disks fail in
 * different ways the worst one counts.  main.c alone turns it into an exit
 * status (iosched-apply(8), EXIT STATUS).
 */
enum apply_outcome {
        APPLY_OK,
        APPLY_DRIFT,            /* --check: some disk differs from its policy */
        APPLY_REFUSED,          /* the kernel refused or did not keep a value */
        APPLY_VANISHED,         /* a disk disappeared while being applied */
        APPLY_READONLY,         /* /sys is read-only or not writable */
        APPLY_FAILED,           /* configuration or system error */
};
/* The class of a failed write's -errno (0: APPLY_OK). */
enum apply_outcome apply_outcome_of_errno(int e);
static inline enum apply_outcome apply_outcome_worse(enum apply_outcome a, enum apply_outcome b)
{
        return a > b ? a : b;
}

enum apply_mode { APPLY_MODE_APPLY, APPLY_MODE_DRY_RUN, APPLY_MODE_CHECK };

struct apply_run_opts {
        const char *prog;
        enum apply_mode mode;
        bool json, prometheus, quiet, verbose, udev;
        bool all_disks;         /* no disk named: every disk of the machine */
};

/* udevlog.c: --udev's log: syslog, or the kernel log where there is no syslog socket. */
void apply_log_open(const char *prog);
void apply_log(int prio, const char *fmt, ...) __attribute__((format(printf, 2, 3)));


/* Plan (and apply) every disk and report it; returns the worst outcome. */
enum apply_outcome apply_run(const struct apply_run_opts *o, const struct ios_policy *p, struct ios_device **devs, size_t n);
int apply_explain_policy(FILE *out, const struct ios_policy *p, struct ios_device *d);

/* grub.c: the last elevator=VALUE of a kernel command line (malloc'd), or NULL. */
char *apply_find_elevator(const char *text);
/*
 * The elevator= that counts: the last of the command line GRUB builds from
 * conf_root's /etc/default/grub and grub.d/ *.cfg, else the last of
 * /proc/cmdline.  Returns 1 with the value and "file:line (VARIABLE)" or
 * "/proc/cmdline", 0 if there is none, or -errno; *ret_notes (if not NULL)
 * gets one line per conflict and per statement that was not evaluated.
 */
int apply_elevator_sources(struct ios_ctx *r, const char *conf_root, char **ret_value, char **ret_where,
                         char ***ret_notes);
void apply_warn_elevator(const char *prog, struct ios_ctx *r, const char *conf_root);
/*
 * Print the policy equivalent to that elevator=.  -ENOENT (none) and -EINVAL
 * (unknown scheduler) come with one line in *ret_msg; *ret_notes as above.
 */
int apply_import_grub(FILE *out, struct ios_ctx *r, const char *conf_root, char **ret_msg, char ***ret_notes);
/* Execs iosched-bench for DEVICE; prints its own messages and returns -errno if it could not. */
int apply_validate(const char *prog, const struct ios_policy *p, struct ios_device *d,
                 const char *config, char **bench_args, int nbench_args);

#endif
