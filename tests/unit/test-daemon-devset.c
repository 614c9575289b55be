/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: ioschedd's coalescing event set: one entry per device however
 * many events it gets, sorted by device number, removal, and a hard cap past
 * which the set turns into "re-check every disk" instead of growing.
 * Linked with ioschedd's archive (libdaemon.a), like the tools' tests.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "../../src/daemon/daemon.h"

static void test_coalesce(void **state)
{
        struct iosd_devset s;

        (void)state;
        iosd_devset_init(&s, 16);
        assert_true(iosd_devset_empty(&s));
        assert_int_equal(iosd_devset_add(&s, makedev(8, 16)), 1);
        assert_int_equal(iosd_devset_add(&s, makedev(8, 0)), 1);
        assert_int_equal(iosd_devset_add(&s, makedev(259, 0)), 1);
        for (int i = 0; i < 1000; i++)
                assert_int_equal(iosd_devset_add(&s, makedev(8, 16)), 0);
        assert_int_equal(s.n, 3);
        /* sorted: a batch runs in device-number order */
        assert_true(s.v[0] == makedev(8, 0));
        assert_true(s.v[1] == makedev(8, 16));
        assert_true(s.v[2] == makedev(259, 0));
        assert_true(iosd_devset_contains(&s, makedev(8, 16)));
        assert_false(iosd_devset_contains(&s, makedev(8, 32)));
        assert_false(iosd_devset_empty(&s));
        iosd_devset_done(&s);
}

static void test_remove(void **state)
{
        struct iosd_devset s;

        (void)state;
        iosd_devset_init(&s, 16);
        for (unsigned i = 0; i < 10; i++)
                assert_int_equal(iosd_devset_add(&s, makedev(7, i)), 1);
        assert_true(iosd_devset_remove(&s, makedev(7, 0)));
        assert_true(iosd_devset_remove(&s, makedev(7, 9)));
        assert_true(iosd_devset_remove(&s, makedev(7, 5)));
        assert_false(iosd_devset_remove(&s, makedev(7, 5)));
        assert_int_equal(s.n, 7);
        for (size_t i = 1; i < s.n; i++)
                assert_true(s.v[i - 1] < s.v[i]);
        assert_false(iosd_devset_contains(&s, makedev(7, 5)));
        assert_true(iosd_devset_contains(&s, makedev(7, 6)));
        iosd_devset_clear(&s);
        assert_true(iosd_devset_empty(&s));
        assert_false(iosd_devset_contains(&s, makedev(7, 6)));
        iosd_devset_done(&s);
}

static void test_storm_is_bounded(void **state)
{
        struct iosd_devset s;

        (void)state;
        iosd_devset_init(&s, 64);
        for (unsigned i = 0; i < 64; i++)
                assert_int_equal(iosd_devset_add(&s, makedev(8, i)), 1);
        assert_false(s.all);
        /* one device too many: forget them all, re-check everything */
        assert_int_equal(iosd_devset_add(&s, makedev(8, 64)), 0);
        assert_true(s.all);
        assert_int_equal(s.n, 0);
        assert_false(iosd_devset_empty(&s));
        assert_true(iosd_devset_contains(&s, makedev(65, 1)));
        /* a storm of a million distinct devices never grows the set */
        for (unsigned i = 0; i < 1000000; i++)
                assert_int_equal(iosd_devset_add(&s, makedev(i >> 20, i & 0xfffff)), 0);
        assert_true(s.cap <= 64);
        iosd_devset_clear(&s);
        assert_true(iosd_devset_empty(&s));
        assert_int_equal(iosd_devset_add(&s, makedev(8, 0)), 1);
        assert_true(s.cap <= 64);
        iosd_devset_done(&s);
}

static void test_set_all(void **state)
{
        struct iosd_devset s;

        (void)state;
        iosd_devset_init(&s, 8);
        assert_int_equal(iosd_devset_add(&s, makedev(8, 0)), 1);
        iosd_devset_set_all(&s);        /* e.g. uevents were lost (ENOBUFS) */
        assert_int_equal(s.n, 0);
        assert_int_equal(iosd_devset_add(&s, makedev(8, 16)), 0);
        assert_true(iosd_devset_contains(&s, makedev(8, 16)));
        assert_false(iosd_devset_remove(&s, makedev(8, 16)));
        iosd_devset_done(&s);
        assert_true(iosd_devset_empty(&s));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_coalesce),
                cmocka_unit_test(test_remove),
                cmocka_unit_test(test_storm_is_bounded),
                cmocka_unit_test(test_set_all),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
