/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * iosched-apply: list and classify block devices, apply and check the I/O
 * scheduler policy.  Exit codes are chosen here only (cli.h defines them):
 * usage errors where they are found, and a run's outcome class through
 * apply_exit_code(), which the output context carries (exit_of) to what
 * prints an exit status in its output.  The output context is opened and closed here, once:
 * whatever a verb printed or failed to print, -J gives one JSON object and
 * --format prometheus the health metrics (apply_out_finish).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "cli.h"

static const char *prog = "iosched-apply";

/* IOSCHED_DEBUG=1: the library's trace, a line each on stderr */
static void trace(void *userdata, const char *msg)
{
        (void)userdata;
        fprintf(stderr, "%s: debug: %s\n", prog, msg);
}

static int apply_exit_code(enum apply_outcome o)
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

/* Parse, run the verb, free; a write error on stdout is one too. */
static int run(struct apply_out *out, int argc, char **argv)
{
        struct apply_cli c = { .out = out };
        int rc;

        rc = apply_cli_parse(&c, argc, argv);
        if (rc < 0)
                rc = apply_cli_run(&c);
        apply_cli_done(&c, &rc);
        if (fflush(stdout) != 0 || ferror(stdout))
                rc = rc ? rc : apply_err(out, APPLY_EXIT_ERROR, NULL, "write error: %s", ios_strerror(errno));
        return rc;
}

int main(int argc, char **argv)
{
        const char *textfile = apply_textfile_requested(argc, argv);
        struct apply_textfile tf;
        struct apply_out out;
        _cleanup_free_ char *msg = NULL;
        const char *debug = getenv("IOSCHED_DEBUG");
        int rc;

        if (debug && streq(debug, "1"))
                ios_log_set(trace, NULL);
        apply_out_init(&out, prog, argc, argv);
        out.exit_of = apply_exit_code;
        /* --textfile: stdout is the new file from here on, whatever the exit status */
        if (textfile && apply_textfile_open(textfile, &tf, &msg) < 0) {
                rc = apply_err(&out, APPLY_EXIT_ERROR, NULL, "%s", msg ? msg : "--textfile: out of memory");
                apply_textfile_done(&tf);
                apply_out_done(&out);
                return rc;
        }
        rc = apply_out_finish(&out, run(&out, argc, argv));
        if (textfile) {
                /* --help, --version or a -J error object is no textfile: nothing replaces FILE */
                if (apply_textfile_commit(&tf, out.prom_printed && !out.json_printed, &msg) < 0)
                        rc = apply_err(&out, rc ? rc : APPLY_EXIT_ERROR, NULL, "%s",
                                       msg ? msg : "--textfile: out of memory");
                apply_textfile_done(&tf);
        }
        apply_out_done(&out);
        return rc;
}
