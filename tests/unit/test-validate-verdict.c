/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: validate's verdict from iosched-bench --compare -J, on
 * canned reports: the policy's scheduler best (significantly ahead of the
 * runner-up), within the noise (best but not significantly, or beaten but
 * not significantly), beaten (significantly); the lines said about it;
 * three variants where the policy's is neither best nor runner-up; a
 * report without vs_best, without the policy's scheduler, with no run, or
 * that is not JSON.  And the small JSON reader itself: escapes (\uXXXX as
 * UTF-8, surrogate pairs), strictness (trailing text, bad numbers, control
 * characters, depth), lookups.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "macro.h"
#include "../../src/apply/apply.h"

/* A report of the variants "a", "b" (and "c" if three), best and runner-up named, vs_best of each given. */
static char *report(const char *best, const char *second, const char *vs_a, const char *vs_b, const char *vs_c)
{
        char *s = NULL;
        int n = asprintf(&s,
                "{ \"iosched-bench\" : \"x\", \"compare\" : { \"device\" : \"loop0\", \"objective\" : \"reader:p99\",\n"
                "  \"lower_is_better\" : true, \"schedulers\" : [\n"
                "   { \"name\" : \"a\", \"scheduler\" : \"a\", \"runs\" : 3, \"median\" : 100.5, \"min\" : 90, \"max\" : 110,"
                " \"spread_pct\" : 19.9%s%s },\n"
                "   { \"name\" : \"b\", \"scheduler\" : \"b\", \"runs\" : 3, \"median\" : 200, \"min\" : 190, \"max\" : 210,"
                " \"spread_pct\" : 10%s%s }%s%s%s%s\n"
                "  ], \"best\" : \"%s\", \"runner_up\" : \"%s\", \"margin_pct\" : 1, \"p_value\" : 0.5,"
                " \"significant\" : false } }",
                vs_a ? ", \"vs_best\" : " : "", vs_a ? vs_a : "", vs_b ? ", \"vs_best\" : " : "", vs_b ? vs_b : "",
                vs_c ? ",\n   { \"name\" : \"c\", \"scheduler\" : \"c\", \"runs\" : 3, \"median\" : 300, \"min\" : 1,"
                       " \"max\" : 2, \"spread_pct\" : 1" : "",
                vs_c ? ", \"vs_best\" : " : "", vs_c ? vs_c : "", vs_c ? " }" : "", best, second);

        assert_true(n > 0);
        return s;
}

#define SIG "{ \"best\" : \"a\", \"margin_pct\" : 99, \"ratio\" : 1.99, \"p_value\" : 0.01, \"significant\" : true, " \
            "\"label\" : \"50% lower reader p99\" }"
#define NOISE "{ \"best\" : \"a\", \"margin_pct\" : 3, \"ratio\" : 1.03, \"p_value\" : 0.35, \"significant\" : false, " \
              "\"label\" : \"3% lower reader p99\" }"

static const char *judged;     /* the scheduler read_ok() judged */

static char *line_of(const struct ios_evidence *v, const char *who)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        assert_non_null(f);
        apply_verdict_line(f, "loop0", who, judged, v);
        fclose(f);
        return buf;
}

static void read_ok(const char *text, const char *sched, struct ios_evidence *v)
{
        char *msg = NULL;
        int e = apply_verdict_read(text, strlen(text), sched, v, &msg);

        judged = sched;
        if (e < 0)
                fail_msg("apply_verdict_read: %d: %s", e, msg ? msg : "(no message)");
        assert_null(msg);
}

static void read_fails(const char *text, const char *sched, const char *msg_part)
{
        struct ios_evidence v;
        char *msg = NULL;

        assert_int_equal(apply_verdict_read(text, strlen(text), sched, &v, &msg), -EINVAL);
        assert_non_null(msg);
        if (!strstr(msg, msg_part))
                fail_msg("\"%s\" not in \"%s\"", msg_part, msg);
        assert_int_equal(v.verdict, IOS_EVIDENCE_NONE);
        assert_null(v.v);
        free(msg);
}

static void test_best(void **state)
{
        _cleanup_free_ char *t = report("a", "b", "null", SIG, NULL), *l = NULL;
        struct ios_evidence v;

        (void)state;
        read_ok(t, "a", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_BEST);
        assert_string_equal(ios_evidence_verdict_name(v.verdict), "best");
        assert_string_equal(v.against, "b");
        assert_string_equal(v.best, "a");
        assert_string_equal(v.label, "50% lower reader p99");
        assert_true(v.significant);
        assert_true(fabs(v.p_value - 0.01) < 1e-9 && fabs(v.ratio - 1.99) < 1e-9);
        assert_true(fabs(v.effect_pct - 99) < 1e-9);
        assert_string_equal(v.objective, "reader:p99");
        assert_true(v.lower_is_better);
        assert_int_equal(v.nv, 2);
        assert_string_equal(v.v[0].name, "a");
        assert_int_equal(v.v[0].runs, 3);
        assert_true(fabs(v.v[0].median - 100.5) < 1e-9);
        l = line_of(&v, "the policy's");
        assert_string_equal(l, "loop0: the policy's a: best (50% lower reader p99 than b, p=0.01)\n");
        ios_evidence_done(&v);
}

/* A policy value a candidate's kernel refused: its left_at_default, said under the table and in -J */
static void test_left_at_default(void **state)
{
        _cleanup_free_ char *t = report("a", "b", "null",
                                        SIG ", \"left_at_default\" : [ { \"key\" : \"queue/nr_requests\", "
                                        "\"value\" : \"1024\", \"why\" : \"at most 128 without a "
                                        "scheduler\" } ]",
                                        NULL);
        char *buf = NULL;
        size_t len = 0;
        struct ios_evidence v;
        FILE *f;

        (void)state;
        read_ok(t, "a", &v);
        assert_int_equal(v.v[0].nleft, 0);
        assert_int_equal(v.v[1].nleft, 1);
        f = open_memstream(&buf, &len);
        assert_non_null(f);
        apply_verdict_table(f, judged, &v);
        apply_verdict_json(f, &v);
        fclose(f);
        assert_non_null(strstr(buf, "\n  b ran with queue/nr_requests at its default: the kernel refuses the "
                                    "policy's 1024 there: at most 128 without a scheduler\n"));
        assert_non_null(strstr(buf, "\"left_at_default\": [{\"scheduler\": \"b\", "
                                    "\"key\": \"queue/nr_requests\", \"value\": \"1024\", "
                                    "\"why\": \"at most 128 without a scheduler\"}]"));
        free(buf);
        ios_evidence_done(&v);
}

static void test_within_noise(void **state)
{
        _cleanup_free_ char *best = report("a", "b", "null", NOISE, NULL), *other = report("a", "b", "null", NOISE, NULL);
        _cleanup_free_ char *l1 = NULL, *l2 = NULL;
        struct ios_evidence v;

        (void)state;
        /* the best, but not significantly ahead of the runner-up */
        read_ok(best, "a", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_WITHIN_NOISE);
        assert_string_equal(ios_evidence_verdict_name(v.verdict), "within_noise");
        assert_string_equal(v.against, "b");
        l1 = line_of(&v, "the policy's");
        assert_string_equal(l1, "loop0: the policy's a: within the noise of b (a: 3% lower reader p99, p=0.35, "
                                "not significant)\n");
        ios_evidence_done(&v);
        /* another is best, not significantly */
        read_ok(other, "b", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_WITHIN_NOISE);
        assert_string_equal(v.against, "a");
        l2 = line_of(&v, "the policy's");
        assert_string_equal(l2, "loop0: the policy's b: within the noise of a (a: 3% lower reader p99, p=0.35, "
                                "not significant)\n");
        ios_evidence_done(&v);
}

static void test_beaten(void **state)
{
        _cleanup_free_ char *t = report("a", "b", "null", SIG, NULL), *l = NULL, *js = NULL;
        struct ios_evidence v;
        size_t len = 0;
        FILE *f;

        (void)state;
        read_ok(t, "b", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_BEATEN);
        assert_string_equal(v.against, "a");
        l = line_of(&v, "the policy's");
        assert_string_equal(l, "loop0: the policy's b: beaten by a, 50% lower reader p99, p=0.01\n");
        f = open_memstream(&js, &len);
        apply_verdict_json(f, &v);
        fclose(f);
        assert_non_null(strstr(js, "\"verdict\": \"beaten\", \"best\": \"a\", \"against\": \"a\", "
                                   "\"label\": \"50% lower reader p99\", \"margin_pct\": 99, \"ratio\": 1.99, "
                                   "\"p_value\": 0.01, \"significant\": true"));
        ios_evidence_done(&v);
}

/* three variants: the policy's is third, beaten by the best however the runner-up did */
static void test_three(void **state)
{
        _cleanup_free_ char *t = report("a", "b", "null", NOISE, SIG);
        struct ios_evidence v;

        (void)state;
        read_ok(t, "c", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_BEATEN);
        assert_string_equal(v.against, "a");
        assert_int_equal(v.nv, 3);
        ios_evidence_done(&v);
        /* the best, not significantly ahead of the runner-up, whatever the third did */
        read_ok(t, "a", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_WITHIN_NOISE);
        assert_string_equal(v.against, "b");
        ios_evidence_done(&v);
}

static void test_only_one(void **state)
{
        const char *t = "{\"compare\": {\"objective\": \"iops\", \"lower_is_better\": false, \"schedulers\": "
                        "[{\"name\": \"none\", \"runs\": 1, \"median\": 5, \"vs_best\": null}], "
                        "\"best\": \"none\", \"runner_up\": \"\"}}";
        _cleanup_free_ char *l = NULL;
        struct ios_evidence v;

        (void)state;
        read_ok(t, "none", &v);
        assert_int_equal(v.verdict, IOS_EVIDENCE_BEST);
        assert_null(v.against);
        assert_false(v.lower_is_better);
        l = line_of(&v, "the policy's");
        assert_string_equal(l, "loop0: the policy's none: best (nothing else completed a run)\n");
        ios_evidence_done(&v);
}

static void test_no_verdict(void **state)
{
        _cleanup_free_ char *old = report("a", "b", NULL, NULL, NULL), *sig = report("a", "b", "null", SIG, NULL);
        _cleanup_free_ char *norun = NULL, *noname = NULL;
        char *p;

        (void)state;
        /* an iosched-bench without vs_best: not guessed from the best and runner-up */
        read_fails(old, "b", "no vs_best for b");
        read_fails(old, "a", "no vs_best for b");
        read_fails(sig, "bfq", "the policy's bfq was not measured");
        norun = strdup(sig);
        p = strstr(norun, "\"runs\" : 3");
        p[9] = '0';
        read_fails(norun, "a", "completed no run");
        noname = report("", "", "null", SIG, NULL);
        read_fails(noname, "a", "named no best");
        read_fails("{\"compare\": {}}", "a", "no compare.schedulers");
        read_fails("iosched-bench: refusing", "a", "not one JSON object");
        read_fails("", "a", "not one JSON object");
        read_fails("{\"compare\": {\"schedulers\": [{\"runs\": 1}]}}", "a", "without a name");
        read_fails("{\"compare\": {\"schedulers\": [{\"name\": \"a\", \"runs\": 1, \"vs_best\": {\"label\": \"x\"}}],"
                   " \"best\": \"b\"}}", "a", "no significant or label");
}

static void test_json_reader(void **state)
{
        const char *ok = " {\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\\n\\\"\\/\"], \"b\": {}} ";
        struct ios_json v;
        const struct ios_json *a;
        double d;

        (void)state;
        assert_int_equal(ios_json_parse(ok, strlen(ok), &v), 0);
        a = ios_json_get(&v, "a");
        assert_non_null(a);
        assert_int_equal(a->type, IOS_JSON_ARR);
        assert_int_equal(a->n, 6);
        assert_true(ios_json_num(&a->kids[1], &d) && d == -2500);
        assert_int_equal(a->kids[2].type, IOS_JSON_BOOL);
        assert_true(a->kids[2].b);
        assert_false(a->kids[3].b);
        assert_int_equal(a->kids[4].type, IOS_JSON_NULL);
        assert_string_equal(ios_json_str(&a->kids[5]), "x\xc3\xa9\xf0\x9f\x98\x80\n\"/");
        assert_false(ios_json_num(&a->kids[5], &d));
        assert_null(ios_json_str(&a->kids[0]));
        assert_int_equal(ios_json_get(&v, "b")->type, IOS_JSON_OBJ);
        assert_null(ios_json_get(&v, "c"));
        assert_null(ios_json_get(a, "a"));
        ios_json_done(&v);

        static const char * const bad[] = {
                "{} {}", "{\"a\" 1}", "[1,]", "{\"a\": 01x}", "[+1]", "[.5]", "[-]", "[inf]", "[nan]", "\"a",
                "\"\\x\"", "\"\\u12\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\u0000\"", "\"a\nb\"", "[tru]", "{\"a\":}",
                "", "   ", "[1] x",
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                if (ios_json_parse(bad[i], strlen(bad[i]), &v) != -EINVAL)
                        fail_msg("accepted: %s", bad[i]);
        /* not past len: a number cut by it, an unclosed string */
        assert_int_equal(ios_json_parse("[12]", 3, &v), -EINVAL);
        assert_int_equal(ios_json_parse("\"ab\"", 3, &v), -EINVAL);
        /* depth bounded */
        {
                char deep[200];

                memset(deep, '[', 100);
                memset(deep + 100, ']', 100);
                assert_int_equal(ios_json_parse(deep, 200, &v), -EINVAL);
                assert_int_equal(ios_json_parse(deep + 40, 120, &v), 0);
                ios_json_done(&v);
        }
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_best),
                cmocka_unit_test(test_left_at_default),
                cmocka_unit_test(test_within_noise),
                cmocka_unit_test(test_beaten),
                cmocka_unit_test(test_three),
                cmocka_unit_test(test_only_one),
                cmocka_unit_test(test_no_verdict),
                cmocka_unit_test(test_json_reader),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
