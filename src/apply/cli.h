/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cli.h: iosched-apply's command line, shared by main.c (exit codes, the
 * output context opened and closed once), cli.c (usage, options and the
 * usage errors) and verbs.c (the table of verbs and what each does).
 */
#ifndef APPLY_CLI_H
#define APPLY_CLI_H

#include "apply.h"

/* Exit codes: documented in iosched-apply(8), EXIT STATUS; chosen in main.c. */
#define APPLY_EXIT_DRIFT    1     /* --check: some disk differs from its policy */
#define APPLY_EXIT_BEATEN   1     /* validate: another scheduler beat the policy's, significantly */
#define APPLY_EXIT_ERROR    2     /* usage, configuration or system error */
#define APPLY_EXIT_REFUSED  3     /* the kernel refused or did not keep a value; validate: the bench refused */
#define APPLY_EXIT_VANISHED 4     /* a disk disappeared while being applied */
#define APPLY_EXIT_READONLY 5     /* /sys is read-only or not writable */

struct apply_cli;

/*
 * One verb: a word after the options, --import-grub, or none (apply,
 * --dry-run, --check).  A verb that renders the run model (apply, explain,
 * status, facts) names its renderer; the model is built the same for all.
 */
struct apply_verb {
        const char *name;       /* the word; NULL: none (apply, --import-grub) */
        const char *shown;      /* as messages name it ("--import-grub") */
        const char *json_command;       /* the JSON "command" ("import-grub"); NULL: none */
        unsigned formats;       /* 1 << enum apply_format it can print */
        bool bench_args;        /* what follows "--" is iosched-bench's options, not disks */
        bool policy;            /* reads the policy before it runs */
        bool policy_fact;       /* a broken policy file is a fact it reports (policy_ok), not an error */
        bool held_by_disk; /* a broken file's line names the disks it holds: said once they are planned */
        enum { PROBE_POLICY, PROBE_EXTRA, PROBE_EXTRA_UNLESS_ALL } probe;
        int (*run)(struct apply_cli *c);        /* returns the exit status */
        apply_render_fn *render; /* the run model's renderer; NULL: the verb is no view of it */
};

struct apply_cli {
        struct apply_out *out;
        const struct apply_verb *verb;  /* never NULL after apply_cli_parse */
        const struct apply_verb *word;  /* the verb named by a word, if any */
        struct apply_list_opts lo;
        struct apply_run_opts ro;
        const char *sysroot, *cols, *config, *conf_root, *udev_dev;
        bool mode_set, no_builtin, show_all, textfile;
        bool no_record, adopt;          /* validate --no-record, --adopt */
        bool policy_in_capture;         /* the policy is read from a captured tree: any owner */
        struct ios_dropin *dropins;
        size_t ndropins, capdropins;
        char **args;                    /* the DEVICE operands */
        int nargs;
        char **bench_args;              /* validate: after "--" */
        int nbench_args;
        /* what the run holds, freed by apply_cli_done */
        struct ios_ctx *root;
        struct ios_policy *policy;
        struct ios_device **devs;
        size_t ndevs;
        int policy_rc;                  /* a policy file could not be used: at least APPLY_EXIT_ERROR */
};

/* verbs.c */
const struct apply_verb *apply_verb_find(const char *word);     /* NULL: not a verb */
extern const struct apply_verb apply_verb_apply, apply_verb_import_grub;
/* Runs c->verb: the context, the policy if the verb reads one, the verb; returns the exit status. */
int apply_cli_run(struct apply_cli *c);
/* Frees what the run held; a broken policy file (not a fact of the verb) makes *rc APPLY_EXIT_ERROR. */
void apply_cli_done(struct apply_cli *c, int *rc);

/* cli.c: parse argv into c; returns -1 to run c->verb, else the exit status (--help, usage errors). */
int apply_cli_parse(struct apply_cli *c, int argc, char **argv);
void apply_usage(FILE *out, const char *prog);

#endif
