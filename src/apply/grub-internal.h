/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* What grub.c and grub-sh.c share: GRUB's files read as sh, with every
 * character of a value remembering the file:line it was written on. */
#ifndef IOS_GRUB_INTERNAL_H
#define IOS_GRUB_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#define CMDLINE "/proc/cmdline"

/* The variables grub-mkconfig puts on the command line, in its order. */
static const char * const cmdline_vars[] = { "GRUB_CMDLINE_LINUX", "GRUB_CMDLINE_LINUX_DEFAULT" };

/*
 * What is read of GRUB's files, as for policy files (iosched.conf(5)): a
 * file up to 1 MiB, and a value up to 64 KiB once expanded (the kernel
 * takes 2 KiB of command line on x86, 4 KiB on arm64); what a value would
 * grow beyond is cut off, with a note.  A self-doubling A="$A$A" cannot
 * grow without bound.
 */
#define GRUB_FILE_MAX (1024 * 1024)
#define GRUB_VALUE_MAX (64 * 1024)
/* ... and all the expansions of $VAR together up to 1 MiB: A=$A on every
 * line of a file copies a value per line, so the cut alone is not enough */
#define GRUB_EXPAND_MAX (1024 * 1024)

/* A shell value; at[i] is where s[i] was written: file (index in elv.files) and line. */
struct val {
        char *s;
        struct pos {
                int file;
                unsigned line;
        } *at;
        size_t n, cap;
        bool cut;                       /* it reached GRUB_VALUE_MAX: the rest was dropped */
};

struct var {
        char *name, *set;               /* set: "file:line" of the last assignment */
        struct val v;
        bool cut;                       /* some value of it was cut (said once) */
};

struct tok {
        char *value, *where;            /* where: "file:line", or /proc/cmdline */
        const char *var;                /* GRUB_CMDLINE_LINUX[_DEFAULT]; NULL in /proc/cmdline */
        struct pos at;                  /* where, as numbers (not for /proc/cmdline) */
        size_t eff_first;               /* lit only: 1 + the index of its first copy in eff, or 0 */
};

struct toks {
        struct tok *t;
        size_t n, cap;
        size_t *seen, seen_cap;         /* lit only: a hash set of 1 + index in t, by at and value */
};

struct elv {
        char **files;                   /* the GRUB files read (conf root included), in order */
        struct var *vars;
        size_t nvars, cap_vars;
        size_t *var_idx, var_idx_cap;   /* a hash set of 1 + index in vars, by name */
        struct toks run;                /* elevator= of /proc/cmdline */
        struct toks eff;                /* of the command line GRUB builds */
        struct toks lit;                /* every one assigned to GRUB_CMDLINE_LINUX* */
        char **notes;                   /* conflicts, and what was not evaluated */
        size_t expanded;                /* bytes copied by $VAR expansions so far */
        bool spent;                     /* ... past GRUB_EXPAND_MAX: nothing more is read */
        const struct tok *chosen;       /* GRUB's last, else /proc/cmdline's last */
};

struct parser {
        struct elv *e;
        int file;
        const char *p;
        unsigned line;
        bool unsupported;               /* the word had $(...), `...` or ${VAR op} */
};

/* Add the elevator= of s[0..n) to t; at (may be NULL) says where each byte came from. */
int grub_toks_scan(struct elv *e, struct toks *t, const char *s, size_t n, const struct pos *at, const char *var);
/* lit's record of the token value written at at, or NULL. */
struct tok *grub_lit_find(const struct elv *e, struct pos at, const char *value);
/* The variable name[0..len), or NULL. */
struct var *grub_var_find(const struct elv *e, const char *name, size_t len);
/* Evaluate one file's assignments (ps->e, ps->file, ps->p, ps->line set). */
int grub_sh_parse(struct parser *ps);
void grub_elv_done(struct elv *e);

#endif
