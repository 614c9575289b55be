/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: JSON strings are valid UTF-8 whatever bytes a model, serial,
 * file name or message carries.  ios_json_string (used by iosched-apply -J
 * and iosched-bench's bench_json_string) and ios_utf8_sanitize (the cells
 * iosched-apply list -J hands to libsmartcols) write every byte that does
 * not start a well-formed UTF-8 sequence as U+FFFD, one per byte, and keep
 * well-formed text as it is.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "strv.h"

#define R "\xef\xbf\xbd"

static const struct {
        const char *in, *json;  /* json: without the quotes */
} cases[] = {
        { "plain", "plain" },
        { "a\xff" "b", "a" R "b" },
        { "\xfe\xff", R R },
        { "\xc0\xaf", R R },                                    /* overlong "/" */
        { "\xe0\x80\xaf", R R R },                              /* overlong, 3 bytes */
        { "\xed\xa0\x80", R R R },                              /* a surrogate */
        { "\xf4\x90\x80\x80", R R R R },                        /* beyond U+10FFFF */
        { "\xf8\x88\x80\x80\x80", R R R R R },                  /* 5-byte form */
        { "x\xe2\x82", "x" R R },                               /* cut off at the end */
        { "\xe2\x82" "A", R R "A" },                            /* cut off in the middle */
        { "\x80", R },                                          /* a lone continuation */
        { "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbd", "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xef\xbf\xbd" },
        { "q\"b\\c", "q\\\"b\\\\c" },
        { "\x01\n\x1f\x7f", "\\u0001\\u000a\\u001f\\u007f" },
};

static void test_json_string(void **state)
{
        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *buf = NULL, want[256];
                size_t len = 0;
                FILE *f = open_memstream(&buf, &len);

                assert_non_null(f);
                ios_json_string(f, cases[i].in);
                assert_int_equal(fclose(f), 0);
                snprintf(want, sizeof(want), "\"%s\"", cases[i].json);
                if (strcmp(buf, want) != 0)
                        fail_msg("case %zu: got %s, want %s", i, buf, want);
                free(buf);
        }
}

static void test_sanitize(void **state)
{
        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *s = ios_utf8_sanitize(cases[i].in);

                assert_non_null(s);
                /* the same replacements; escaping is libsmartcols' part there */
                if (!strpbrk(cases[i].in, "\"\\\x01\n\x1f\x7f"))
                        assert_string_equal(s, cases[i].json);
                free(s);
        }
}

static void test_null(void **state)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        (void)state;
        ios_json_string(f, NULL);
        fclose(f);
        assert_string_equal(buf, "null");
        free(buf);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_json_string),
                cmocka_unit_test(test_sanitize),
                cmocka_unit_test(test_null),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
