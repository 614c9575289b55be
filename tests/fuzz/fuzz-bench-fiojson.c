/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-bench-fiojson: the fio backend's reading of fio's report
 * (src/lib/jsonread.c, src/bench/fio/fioresult.c).  The input is the text fio wrote on
 * its standard output; if it is one JSON value, it is read as fio's
 * json+ document into a result and a view of the jobs, twice (the second
 * run checks the job count against the first).  A refusal must come with
 * a message; nothing may be read past the input or leaked.
 */
#include "fuzz-util.h"
#include "fio/fio.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct bench_opts g;
        struct bench_fio f = {};
        struct ios_json doc;
        char *text;

        if (size > 256 * 1024)
                return 0;
        text = malloc(size ? size : 1);
        if (!text)
                abort();
        memcpy(text, data, size);       /* no terminating NUL: the reader must stop at size */
        bench_opts_init(&g);
        g.objective_job = strdup("reader");
        if (ios_json_parse_flags(text, size, IOS_JSON_RAW_CONTROL, &doc) == 0) {
                for (int run = 0; run < 2; run++) {
                        struct bench_result res = {};
                        struct bench_error e = {};
                        int r = bench_fio_result(&f, &g, &doc, &res, &e);

                        if (r < 0 && r != -ENOMEM && !e.msg[0])
                                abort();        /* every refusal says why */
                        bench_result_done(&res);
                }
                ios_json_done(&doc);
        }
        bench_fio_done(&f);
        bench_opts_done(&g);
        free(text);
        return 0;
}
