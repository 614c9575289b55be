/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: src/shared/grow.c, the one growth helper for arrays:
 * doubling, room kept, overflow refused with the array untouched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "grow.h"

static void test_grow(void **state)
{
        size_t cap = 0, changes = 0, last = 0;
        int *v = NULL, *n;

        (void)state;
        /* first room: 8; then doubling, the contents kept */
        for (size_t i = 0; i < 1000; i++) {
                n = ios_grow(v, &cap, i + 1, sizeof(*v));
                assert_non_null(n);
                v = n;
                v[i] = (int)i;
                assert_true(cap >= i + 1);
                if (cap != last) {
                        changes++;
                        assert_true(last == 0 ? cap == 8 : cap == 2 * last);
                        last = cap;
                }
        }
        assert_int_equal(cap, 1024);
        assert_int_equal(changes, 8);           /* 8, 16, ..., 1024 */
        for (size_t i = 0; i < 1000; i++)
                assert_int_equal(v[i], (int)i);
        /* room enough: the same array, the same room */
        assert_ptr_equal(ios_grow(v, &cap, 1024, sizeof(*v)), v);
        assert_int_equal(cap, 1024);
        /* a need far past the room in one step */
        n = ios_grow(v, &cap, 5000, sizeof(*v));
        assert_non_null(n);
        v = n;
        assert_int_equal(cap, 8192);
        assert_int_equal(v[999], 999);

        /* need * elem past SIZE_MAX: refused, array and room untouched */
        errno = 0;
        assert_null(ios_grow(v, &cap, SIZE_MAX / sizeof(*v) + 1, sizeof(*v)));
        assert_int_equal(errno, ENOMEM);
        assert_int_equal(cap, 8192);
        assert_null(ios_grow(v, &cap, SIZE_MAX, sizeof(*v)));
        assert_int_equal(cap, 8192);
        assert_null(ios_grow(v, &cap, SIZE_MAX / 2 + 1, 2));
        assert_int_equal(cap, 8192);
        assert_int_equal(v[0], 0);
        assert_int_equal(v[999], 999);
        free(v);

        /* from a room near the top of size_t the doubling cannot overflow either */
        cap = SIZE_MAX / 2 + 2;
        v = malloc(sizeof(*v));
        assert_non_null(v);
        assert_null(ios_grow(v, &cap, SIZE_MAX / 2 + 3, sizeof(*v)));
        assert_int_equal(cap, SIZE_MAX / 2 + 2);
        free(v);
}

/*
 * A rule's [Set] and the merged settings are such lists: a key set twice in
 * one rule, and a key a later rule sets again, keep their first place with
 * the later value and source.
 */
int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_grow),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
