/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-bench-jobfile: iosched-bench's fio job-file parser (src/bench/jobfile.c,
 * jobopts.c, jobs.c).  The input is one job file's text, parsed into fresh
 * global options and then checked across jobs as main.c does.  A refusal
 * must come with a message.  fuzz.mk builds this target only where
 * src/bench/jobfile.c exists.
 */
#include "fuzz-util.h"
#include "jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct bench_opts o;
        struct bench_error e = {};
        char *text;
        int r;

        if (size > 64 * 1024)
                return 0;
        text = malloc(size + 1);
        if (!text)
                abort();
        memcpy(text, data, size);
        text[size] = '\0';
        bench_opts_init(&o);
        r = bench_jobfile_parse_text(&o, text, "fuzz.fio", &e);
        if (r >= 0)
                r = bench_jobs_finish(&o, &e);
        if (r < 0 && r != -ENOMEM && !e.msg[0])
                abort();        /* every refusal says why */
        bench_opts_done(&o);
        free(text);
        return 0;
}
