/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the fio backend's reading of fio's output.  The JSON reader
 * (src/lib/jsonread.c) as fio's report is read, with
 * bench_fio_num() on values, escapes, nesting and malformed or truncated text;
 * and fioresult.c on a document in fio 3.33's json+ shape with two jobs:
 * per-job I/Os, bytes, runtime, clat statistics, percentiles from the bins
 * equal to the percentiles fio wrote, the run's totals, and the view of
 * fio's jobs (names, rw, bs, iodepth, ioengine, the --objective job).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../src/bench/fio/fio.h"

static void test_reader(void **state)
{
        const char *text = " {\"a\" : [1, -2.5e3, true, false, null], \"s\" : \"q\\\"\\\\\\n\\u00e9x\","
                           " \"o\" : {\"n\" : \"42\"}, \"e\" : {}, \"ea\" : []} ";
        static const char * const bad[] = { "", "{", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "{\"a\":1} x",
                                            "\"open", "{\"a\":tru}", "[[[[" };
        struct ios_json d;
        const struct ios_json *a;

        (void)state;
        assert_int_equal(ios_json_parse(text, strlen(text), &d), 0);
        a = ios_json_get(&d, "a");
        assert_non_null(a);
        assert_int_equal(a->type, IOS_JSON_ARR);
        assert_int_equal(a->n, 5);
        assert_true(bench_fio_num(&a->kids[1], 0) == -2500);
        assert_true(bench_fio_num(&a->kids[2], 0) == 1);
        assert_true(bench_fio_num(&a->kids[3], 7) == 0);
        assert_int_equal(a->kids[4].type, IOS_JSON_NULL);
        assert_true(bench_fio_num(&a->kids[4], 7) == 7);
        assert_string_equal(ios_json_str(ios_json_get(&d, "s")), "q\"\\\n\xc3\xa9x");
        assert_true(bench_fio_num(ios_json_get(ios_json_get(&d, "o"), "n"), 0) ==
                    42); /* fio's numeric strings */
        assert_null(ios_json_get(&d, "missing"));
        assert_int_equal(ios_json_get(&d, "e")->n, 0);
        assert_int_equal(ios_json_get(&d, "ea")->n, 0);
        ios_json_done(&d);
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                if (ios_json_parse(bad[i], strlen(bad[i]), &d) != -EINVAL)
                        fail_msg("accepted '%s'", bad[i]);
        /* never past len: the text cut in the middle of a number and of a string */
        assert_int_equal(ios_json_parse("[12345]", 3, &d), -EINVAL);
        assert_int_equal(ios_json_parse("{\"abc\":1}", 4, &d), -EINVAL);
        /* nesting is bounded */
        {
                char deep[300];

                memset(deep, '[', 200);
                deep[200] = '\0';
                assert_int_equal(ios_json_parse(deep, strlen(deep), &d), -EINVAL);
        }
}

/* fio 3.33 json+, trimmed to what fioresult.c reads; bins as fio writes them (bucket midpoints) */
static const char doc_text[] =
        "{\n"
        "  \"fio version\" : \"fio-3.33\",\n"
        "  \"global options\" : { \"filename\" : \"/dev/loop9\", \"ioengine\" : \"libaio\", \"direct\" : \"1\","
        " \"runtime\" : \"2\", \"ramp_time\" : \"1\" },\n"
        "  \"jobs\" : [\n"
        "    { \"jobname\" : \"reader\", \"groupid\" : 0, \"error\" : 0,\n"
        "      \"job options\" : { \"rw\" : \"randread\", \"bs\" : \"4k\", \"iodepth\" : \"1\" },\n"
        "      \"read\" : { \"io_bytes\" : 40960, \"total_ios\" : 10, \"short_ios\" : 0, \"runtime\" : 2000,\n"
        "        \"slat_ns\" : { \"min\" : 1000, \"max\" : 3000, \"mean\" : 2000.0, \"stddev\" : 500.0, \"N\" : 10 },\n"
        "        \"clat_ns\" : { \"min\" : 20000, \"max\" : 901120, \"mean\" : 110000.0, \"stddev\" : 260000.0, \"N\" : 10,\n"
        "          \"percentile\" : { \"50.000000\" : 20352, \"99.000000\" : 880640 },\n"
        "          \"bins\" : { \"20352\" : 6, \"38656\" : 3, \"880640\" : 1 } },\n"
        "        \"lat_ns\" : { \"min\" : 21000, \"max\" : 904120, \"mean\" : 112000.0, \"stddev\" : 260000.0, \"N\" : 10 } },\n"
        "      \"write\" : { \"io_bytes\" : 0, \"total_ios\" : 0, \"runtime\" : 0,\n"
        "        \"clat_ns\" : { \"min\" : 0, \"max\" : 0, \"mean\" : 0.0, \"stddev\" : 0.0, \"N\" : 0 } },\n"
        "      \"job_runtime\" : 2000, \"usr_cpu\" : 10.0, \"sys_cpu\" : 20.0, \"ctx\" : 12, \"majf\" : 0, \"minf\" : 3 },\n"
        "    { \"jobname\" : \"writer\", \"groupid\" : 0, \"error\" : 0,\n"
        "      \"job options\" : { \"rw\" : \"write\", \"bssplit\" : \"4k/50:64k/50\", \"iodepth\" : \"32\" },\n"
        "      \"read\" : { \"io_bytes\" : 0, \"total_ios\" : 0, \"runtime\" : 0 },\n"
        "      \"write\" : { \"io_bytes\" : 1048576, \"total_ios\" : 40, \"short_ios\" : 0, \"runtime\" : 1000,\n"
        "        \"clat_ns\" : { \"min\" : 100000, \"max\" : 200000, \"mean\" : 150000.0, \"stddev\" : 10.0, \"N\" : 40,\n"
        "          \"bins\" : { \"100864\" : 20, \"201728\" : 20 } } },\n"
        "      \"job_runtime\" : 1000, \"usr_cpu\" : 1.0, \"sys_cpu\" : 2.0, \"ctx\" : 5, \"majf\" : 0,\n"
        "      \"minf\" : 1,\n"
        "      \"latency_depth\" : 4, \"latency_target\" : 30000, \"latency_percentile\" : 90.000000,\n"
        "      \"latency_window\" : 200000 }\n"
        "  ]\n"
        "}\n";

/* fio 3.33 writes a job's name and options as they stand: a TAB in them reaches the report raw (captured
 * from `fio --output-format=json+` on a job file "[job<TAB>x]" with "description=a<TAB>b"). */
static void test_raw_control(void **state)
{
        const char *text = "{\n  \"jobs\" : [\n    {\n      \"jobname\" : \"job\tx\",\n"
                           "      \"job options\" : {\n        \"description\" : \"a\tb \\\"q\\\" \\\\ c\"\n"
                           "      }\n    }\n  ]\n}\n";
        const struct ios_json *job;
        struct ios_json d;

        (void)state;
        /* JSON forbids it, and the strict reader (evidence, facts documents) refuses it */
        assert_int_equal(ios_json_parse(text, strlen(text), &d), -EINVAL);
        assert_int_equal(ios_json_parse_flags(text, strlen(text), IOS_JSON_RAW_CONTROL, &d), 0);
        job = &ios_json_get(&d, "jobs")->kids[0];
        assert_string_equal(ios_json_str(ios_json_get(job, "jobname")), "job\tx");
        assert_string_equal(ios_json_str(ios_json_get(ios_json_get(job, "job options"), "description")),
                            "a\tb \"q\" \\ c");
        ios_json_done(&d);
        /* NUL stays refused: a C string cannot hold it */
        assert_int_equal(ios_json_parse_flags("\"a\0b\"", 5, IOS_JSON_RAW_CONTROL, &d), -EINVAL);
}

static void test_result(void **state)
{
        struct bench_opts g;
        struct bench_fio f = {};
        struct ios_json doc;
        struct bench_result res = {};
        struct bench_error e = {};
        uint64_t v;

        (void)state;
        bench_opts_init(&g);
        g.objective_job = strdup("writer");
        assert_int_equal(ios_json_parse(doc_text, strlen(doc_text), &doc), 0);
        snprintf(f.version, sizeof(f.version), "fio");
        assert_int_equal(bench_fio_result(&f, &g, &doc, &res, &e), 0);
        /* the view: fio's jobs, "job options" over "global options" */
        assert_int_equal(f.view.njobs, 2);
        assert_string_equal(f.view.jobs[0].name, "reader");
        assert_string_equal(f.view.jobs[0].filename, "/dev/loop9");
        assert_int_equal(f.view.jobs[0].rw, BENCH_RW_RANDREAD);
        assert_int_equal(f.view.jobs[0].bs[0], 4096);
        assert_string_equal(f.view.jobs[0].engine->name, "libaio");
        assert_true(f.view.jobs[0].direct);
        assert_int_equal(f.view.jobs[0].ramp_ns, 1000000000ull);
        assert_int_equal(f.view.jobs[1].rw, BENCH_RW_WRITE);
        assert_int_equal(f.view.jobs[1].iodepth, 32);
        assert_int_equal(f.view.objective_jobidx, 1);
        /* per job */
        assert_int_equal(res.njobs, 2);
        assert_int_equal(res.jobs[0].d[BENCH_READ].ios, 10);
        assert_int_equal(res.jobs[0].d[BENCH_READ].bytes, 40960);
        assert_int_equal(res.jobs[0].runtime_ns, 2000000000ull);
        assert_int_equal(res.jobs[0].d[BENCH_READ].clat.n, 10);
        assert_int_equal(res.jobs[0].d[BENCH_READ].clat.max, 901120);
        assert_true(bench_lat_mean(&res.jobs[0].d[BENCH_READ].clat) == 110000.0);
        assert_true(bench_lat_stddev(&res.jobs[0].d[BENCH_READ].clat) > 259999 &&
                    bench_lat_stddev(&res.jobs[0].d[BENCH_READ].clat) < 260001);
        assert_true(bench_result_iops(&res.jobs[0], BENCH_READ) == 5);
        assert_int_equal(res.jobs[0].usr_ns, 200000000ull);     /* 10 % of 2 s */
        /* percentiles from the bins are fio's own */
        assert_int_equal(bench_result_clat_pct(&res.jobs[0], BENCH_READ, 50), 20352);
        assert_int_equal(bench_result_clat_pct(&res.jobs[0], BENCH_READ, 99), 880640);
        assert_int_equal(bench_result_clat_pct(&res.jobs[1], BENCH_WRITE, 50), 100864);
        assert_int_equal(bench_result_clat_pct(&res.jobs[1], BENCH_WRITE, 99), 201728);
        /* the depth a job ran at: its iodepth=, or where fio's latency_target= search stood (before: 32) */
        assert_int_equal(res.jobs[0].depth, 1);
        assert_int_equal(res.jobs[1].depth, 4);
        /* each direction's time, the run's of its jobs' (the writer's 1 s, not the reader's 2 s) */
        assert_int_equal(res.jobs[1].d[BENCH_WRITE].runtime_ns, 1000000000ull);
        assert_int_equal(bench_result_dir_ns(&res, BENCH_WRITE), 1000000000ull);
        assert_true(bench_result_iops(&res, BENCH_WRITE) == 40);
        /* the totals: both jobs, the longest runtime */
        assert_int_equal(res.d[BENCH_READ].ios, 10);
        assert_int_equal(res.d[BENCH_WRITE].ios, 40);
        assert_int_equal(res.runtime_ns, 2000000000ull);
        v = bench_result_clat_pct(&res, -1, 50);
        assert_int_equal(v, 100864);
        assert_non_null(strstr(res.jobs[1].engine_note, "fio-3.33"));
        assert_string_equal(f.version, "fio-3.33");    /* from the report's "fio version" */
        bench_result_done(&res);
        /* a later run with another number of jobs is an error, not a misreport */
        {
                const char *one = "{ \"jobs\" : [ { \"jobname\" : \"reader\" } ] }";
                struct ios_json d1;

                assert_int_equal(ios_json_parse(one, strlen(one), &d1), 0);
                memset(&res, 0, sizeof(res));
                assert_true(bench_fio_result(&f, &g, &d1, &res, &e) < 0);
                assert_non_null(strstr(e.msg, "fio reported 1 jobs, 2 before"));
                bench_result_done(&res);
                ios_json_done(&d1);
        }
        ios_json_done(&doc);
        bench_fio_done(&f);
        bench_opts_done(&g);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_reader),
                cmocka_unit_test(test_raw_control),
                cmocka_unit_test(test_result),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
