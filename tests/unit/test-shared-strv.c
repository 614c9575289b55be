/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: src/shared/strv.c: a vector grows by push (the slow and the
 * fast form agree, 10,000 entries), pushf formats, split drops empty
 * fields between separators, join puts the separator between entries only,
 * contains compares whole strings, strip cuts blanks at both ends, a
 * failed allocation (a NULL string pushed) leaves the vector as it was, and
 * mask_controls turns each byte of a control (C0 but the layout ones when
 * asked, DEL, C1 as UTF-8 or alone) into '?' and keeps UTF-8 and Latin-1
 * text, also where a buffer cuts a sequence.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "macro.h"
#include "strv.h"

static void test_push_fast_agree(void **state)
{
        _cleanup_(ios_strv_freep) char **a = NULL, **b = NULL;
        size_t n = 0, cap = 0;

        (void)state;
        for (int i = 0; i < 10000; i++) {
                assert_int_equal(ios_strv_pushf(&a, "w%d", i), 0);
                assert_int_equal(ios_strv_push_fast(&b, &n, &cap, strdup(a[i])), 0);
        }
        assert_int_equal(ios_strv_length(a), 10000);
        assert_int_equal(n, 10000);
        assert_null(b[n]);
        for (size_t i = 0; i < n; i++)
                assert_string_equal(a[i], b[i]);
        assert_string_equal(a[9999], "w9999");
        /* a NULL (a failed strdup) is -ENOMEM, the vector untouched */
        assert_int_equal(ios_strv_push(&a, NULL), -ENOMEM);
        assert_int_equal(ios_strv_push_fast(&b, &n, &cap, NULL), -ENOMEM);
        assert_int_equal(ios_strv_length(a), 10000);
        assert_int_equal(n, 10000);
}

static void test_split_join(void **state)
{
        _cleanup_(ios_strv_freep) char **l = NULL, **e = NULL;
        _cleanup_free_ char *j = NULL, *je = NULL;

        (void)state;
        assert_int_equal(ios_strv_split("  bfq\tmq-deadline  none \n", " \t\n", &l), 0);
        assert_int_equal(ios_strv_length(l), 3);
        assert_string_equal(l[0], "bfq");
        assert_string_equal(l[1], "mq-deadline");
        assert_string_equal(l[2], "none");
        j = ios_strv_join(l, ", ");
        assert_string_equal(j, "bfq, mq-deadline, none");
        assert_true(ios_strv_contains(l, "none"));
        assert_false(ios_strv_contains(l, "mq"));
        assert_false(ios_strv_contains(NULL, "none"));
        /* nothing but separators: an empty vector, not NULL */
        assert_int_equal(ios_strv_split(" \t ", " \t", &e), 0);
        assert_non_null(e);
        assert_int_equal(ios_strv_length(e), 0);
        je = ios_strv_join(e, ",");
        assert_string_equal(je, "");
        assert_null(ios_strv_free(NULL));
}

static void test_strip(void **state)
{
        char a[] = "  \tvalue with space \n", b[] = "", c[] = " \t ";

        (void)state;
        assert_string_equal(ios_strip(a), "value with space");
        assert_string_equal(ios_strip(b), "");
        assert_string_equal(ios_strip(c), "");
}

static void mask(const char *in, size_t n, bool layout, const char *want)
{
        char buf[64];

        assert_true(n < sizeof(buf));
        memcpy(buf, in, n);
        buf[n] = '\0';
        ios_mask_controls(buf, n, layout);
        assert_memory_equal(buf, want, n);
}

static void test_mask_controls(void **state)
{
        (void)state;
        /* an escape sequence, DEL and BEL; layout kept or not */
        mask("a\x1b[31mb\x7f\a", 9, false, "a?[31mb??");
        mask("x\ty\nz\r\v", 7, true, "x\ty\nz\r?");
        mask("x\ty\nz\r", 6, false, "x?y?z?");
        /* CSI as UTF-8 (U+009B) and as a lone byte; U+00A0 and U+011B (c4 9b: 0x9b continues it) kept */
        mask("\xc2\x9b" "2J\x9b" "2J", 6, false, "??2J?2J");
        mask("\xc2\xa0\xc4\x9b", 4, false, "\xc2\xa0\xc4\x9b");
        /* Latin-1 "\xe9t\xe9" (no UTF-8) and a 4-byte sequence kept; NUL masked */
        mask("\xe9t\xe9\xf0\x9f\x98\x80", 7, false, "\xe9t\xe9\xf0\x9f\x98\x80");
        mask("a\0b", 3, true, "a?b");
        /* a sequence cut by the buffer's end: its lead byte kept, a lone C1-range byte masked */
        mask("ok\xc4", 3, false, "ok\xc4");
        mask("\x9bok", 3, false, "?ok");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_push_fast_agree),
                cmocka_unit_test(test_split_join),
                cmocka_unit_test(test_strip),
                cmocka_unit_test(test_mask_controls),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
