/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: src/shared/jsonread.c: a document is read into a tree
 * (objects, arrays, strings with escapes, numbers, true/false/null) and
 * looked up by member name; text that is not one JSON value is -EINVAL
 * (trailing text, a cut-off document, a bare control byte in a string);
 * IOS_JSON_RAW_CONTROL takes fio's raw TAB in a string as it stands;
 * lookups on the wrong type say so (NULL, false).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "jsonread.h"

static int parse(const char *s, struct ios_json *v)
{
        return ios_json_parse(s, strlen(s), v);
}

static void test_tree(void **state)
{
        const char *doc = "{\"device\": \"loop2\", \"rounds\": 3, \"ok\": true, \"none\": null,"
                          " \"variants\": [{\"name\": \"mq-deadline\", \"iops\": 1.5e3},"
                          " {\"name\": \"a\\\"b\\u00e9\\n\", \"iops\": -2}]}";
        struct ios_json v = {};
        const struct ios_json *vs, *n;
        double d;
        bool b;

        (void)state;
        assert_int_equal(parse(doc, &v), 0);
        assert_int_equal(v.type, IOS_JSON_OBJ);
        assert_string_equal(ios_json_str(ios_json_get(&v, "device")), "loop2");
        assert_true(ios_json_num(ios_json_get(&v, "rounds"), &d));
        assert_true(d == 3);
        assert_true(ios_json_bool(ios_json_get(&v, "ok"), &b));
        assert_true(b);
        n = ios_json_get(&v, "none");
        assert_non_null(n);
        assert_int_equal(n->type, IOS_JSON_NULL);
        assert_null(ios_json_get(&v, "missing"));
        vs = ios_json_get(&v, "variants");
        assert_int_equal(vs->type, IOS_JSON_ARR);
        assert_int_equal(vs->n, 2);
        assert_true(ios_json_num(ios_json_get(&vs->kids[0], "iops"), &d));
        assert_true(d == 1500);
        assert_string_equal(ios_json_str(ios_json_get(&vs->kids[1], "name")), "a\"b\xc3\xa9\n");
        /* the wrong type: no value */
        assert_null(ios_json_str(ios_json_get(&v, "rounds")));
        assert_false(ios_json_num(ios_json_get(&v, "device"), &d));
        assert_false(ios_json_bool(ios_json_get(&v, "rounds"), &b));
        ios_json_done(&v);
}

static void test_refused(void **state)
{
        static const char *bad[] = { "", "{", "{\"a\": 1} x", "[1, 2", "{\"a\" 1}", "\"tab\there\"", "nul", "01x" };
        struct ios_json v = {};

        (void)state;
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
                assert_int_equal(parse(bad[i], &v), -EINVAL);
}

static void test_raw_control(void **state)
{
        const char *s = "{\"jobname\": \"a\tb\"}";
        struct ios_json v = {};

        (void)state;
        assert_int_equal(ios_json_parse_flags(s, strlen(s), IOS_JSON_RAW_CONTROL, &v), 0);
        assert_string_equal(ios_json_str(ios_json_get(&v, "jobname")), "a\tb");
        ios_json_done(&v);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_tree),
                cmocka_unit_test(test_refused),
                cmocka_unit_test(test_raw_control),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
