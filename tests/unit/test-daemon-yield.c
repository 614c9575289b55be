/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: ioschedd's yield table (src/daemon/yield.c), bookkeeping
 * only: a disk iosched-bench holds is recorded the first time it is seen
 * held (YIELDED, said once), HELD after that, ENDED and taken out when the
 * lock is gone; a timer tick returns every disk whose benchmark has ended,
 * with its name, and keeps the others; a "remove" forgets a disk; the table
 * never grows past YIELD_MAX.  Linked with ioschedd's archive (libdaemon.a).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "../../src/daemon/state.h"

/* the benchmark locks the test pretends are held */
struct locks {
        dev_t held[4];
        size_t n;
        unsigned asked;
};

static bool holds(void *arg, dev_t dev)
{
        struct locks *l = arg;

        l->asked++;
        for (size_t i = 0; i < l->n; i++)
                if (l->held[i] == dev)
                        return true;
        return false;
}

static void test_states(void **state)
{
        struct iosd_yields t = {};
        dev_t sdb = makedev(8, 16);

        (void)state;
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", false), IOSD_FREE);
        assert_int_equal(t.n, 0);
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", true), IOSD_YIELDED);
        assert_int_equal(t.n, 1);
        assert_string_equal(t.v[0].name, "sdb");
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", true), IOSD_HELD);
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", true), IOSD_HELD);
        assert_int_equal(t.n, 1);
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", false), IOSD_ENDED);
        assert_int_equal(t.n, 0);
        assert_int_equal(iosd_yield_note(&t, sdb, "sdb", false), IOSD_FREE);
        /* a name longer than the entry's is cut, not overrun */
        assert_int_equal(iosd_yield_note(&t, sdb, "a-name-of-forty-characters-and-more-of-it", true),
                         IOSD_YIELDED);
        assert_int_equal(strlen(t.v[0].name), sizeof(t.v[0].name) - 1);
        assert_true(iosd_yield_forget(&t, sdb));
        assert_false(iosd_yield_forget(&t, sdb));
        assert_int_equal(t.n, 0);
        iosd_yield_done(&t);
        assert_null(t.v);
}

static void test_ended(void **state)
{
        struct iosd_yields t = {};
        struct locks l = { .held = { makedev(8, 0), makedev(8, 16), makedev(8, 32) }, .n = 3 };
        struct iosd_yield out[3];

        (void)state;
        assert_int_equal(iosd_yield_note(&t, makedev(8, 0), "sda", true), IOSD_YIELDED);
        assert_int_equal(iosd_yield_note(&t, makedev(8, 16), "sdb", true), IOSD_YIELDED);
        assert_int_equal(iosd_yield_note(&t, makedev(8, 32), "sdc", true), IOSD_YIELDED);
        /* every benchmark still runs: nothing is due */
        assert_int_equal(iosd_yield_ended(&t, holds, &l, out), 0);
        assert_int_equal(l.asked, 3);
        assert_int_equal(t.n, 3);
        /* sda's and sdc's end: both returned with their names, sdb stays */
        l.held[0] = makedev(8, 16);
        l.n = 1;
        assert_int_equal(iosd_yield_ended(&t, holds, &l, out), 2);
        assert_int_equal(t.n, 1);
        assert_true(t.v[0].dev == makedev(8, 16));
        assert_true((out[0].dev == makedev(8, 32) && out[1].dev == makedev(8, 0)) ||
                    (out[0].dev == makedev(8, 0) && out[1].dev == makedev(8, 32)));
        for (size_t i = 0; i < 2; i++)
                assert_string_equal(out[i].name, out[i].dev == makedev(8, 0) ? "sda" : "sdc");
        /* taken out: the next tick does not return them again */
        assert_int_equal(iosd_yield_ended(&t, holds, &l, out), 0);
        l.n = 0;
        assert_int_equal(iosd_yield_ended(&t, holds, &l, out), 1);
        assert_string_equal(out[0].name, "sdb");
        assert_int_equal(t.n, 0);
        iosd_yield_done(&t);
}

static void test_bounded(void **state)
{
        struct iosd_yields t = {};

        (void)state;
        for (unsigned i = 0; i < YIELD_MAX; i++)
                assert_int_equal(iosd_yield_note(&t, makedev(8, i), "sdx", true), IOSD_YIELDED);
        assert_int_equal(t.n, YIELD_MAX);
        /* said, but not recorded: YIELDED again next time, the table stays bounded */
        assert_int_equal(iosd_yield_note(&t, makedev(9, 0), "sdy", true), IOSD_YIELDED);
        assert_int_equal(iosd_yield_note(&t, makedev(9, 0), "sdy", true), IOSD_YIELDED);
        assert_int_equal(t.n, YIELD_MAX);
        assert_true(t.cap <= YIELD_MAX);
        assert_int_equal(iosd_yield_note(&t, makedev(9, 0), "sdy", false), IOSD_FREE);
        iosd_yield_done(&t);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_states),
                cmocka_unit_test(test_ended),
                cmocka_unit_test(test_bounded),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
