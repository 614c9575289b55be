/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-bench-options: iosched-bench's command line parser (options.c with
 * units.c and cpus.c).  The input is split at NUL bytes into up to 15
 * arguments after argv[0], parsed as main.c does.  A refusal must come
 * with a message; --help and --version print to /dev/null.
 */
#include "fuzz-util.h"
#include "bench.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct fuzz_parts parts;
        struct bench_opts o;
        struct bench_error e = {};
        char *argv[17];
        int argc = 0, r;

        if (!devnull && !(devnull = fopen("/dev/null", "we")))
                abort();
        if (size > 64 * 1024)
                return 0;
        fuzz_split(data, size, 15, &parts);
        argv[argc++] = "iosched-bench";
        for (size_t i = 0; i < parts.n; i++)
                argv[argc++] = parts.p[i];
        argv[argc] = NULL;
        bench_opts_init(&o);
        r = bench_opts_parse(argc, argv, &o, devnull, &e);
        if (r < 0 && r != -ENOMEM && !e.msg[0])
                abort();        /* every refusal says why */
        if (r == 0 && (o.iodepth < 1 || o.numjobs < 1 || o.rwmixread > 100))
                abort();
        bench_opts_done(&o);
        fuzz_parts_free(&parts);
        return 0;
}
