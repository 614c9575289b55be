/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: ioschedd's retry table (src/daemon/retry.c), bookkeeping
 * only: a failed attempt is due again after 10, 20, 40 ... ms, given up on
 * at the RETRY_TRIES-th attempt; the earliest due time is what the daemon's
 * timer is armed for, the devices due at a time are what it applies; a
 * success or a "remove" forgets a device; the table never grows past
 * RETRY_MAX.  Linked with ioschedd's archive (libdaemon.a).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "../../src/daemon/state.h"

static void test_backoff_then_give_up(void **state)
{
        struct iosd_retries t = {};
        dev_t sdb = makedev(8, 16);
        uint64_t now = 1000000, delay, expect = 10;
        unsigned tries;

        (void)state;
        assert_int_equal(iosd_retry_next(&t), UINT64_MAX);     /* empty: no timer */
        for (unsigned i = 1; i < RETRY_TRIES; i++) {
                assert_int_equal(iosd_retry_failed(&t, sdb, now, &tries, &delay), IOSD_RETRY_LATER);
                assert_int_equal(tries, i);
                assert_int_equal(delay, expect);
                assert_int_equal(iosd_retry_next(&t), now + expect);
                assert_int_equal(t.n, 1);
                now += delay;
                expect *= 2;
        }
        /* 10, 20 ... 2560 ms: the ninth retry waits 2.56 s, about 5 s in all */
        assert_int_equal(expect, 5120);
        assert_int_equal(iosd_retry_failed(&t, sdb, now, &tries, &delay), IOSD_RETRY_GIVE_UP);
        assert_int_equal(tries, RETRY_TRIES);
        assert_int_equal(delay, 0);
        assert_int_equal(t.n, 0);
        assert_int_equal(iosd_retry_next(&t), UINT64_MAX);
        /* a new failure after giving up starts again from the first delay */
        assert_int_equal(iosd_retry_failed(&t, sdb, now, &tries, &delay), IOSD_RETRY_LATER);
        assert_int_equal(tries, 1);
        assert_int_equal(delay, RETRY_FIRST_MS);
        iosd_retry_done(&t);
        assert_null(t.v);
        assert_int_equal(t.n, 0);
}

static void test_due_and_next(void **state)
{
        struct iosd_retries t = {};
        dev_t a = makedev(8, 0), b = makedev(8, 16), c = makedev(259, 0), due[3];
        uint64_t delay;
        unsigned tries;

        (void)state;
        assert_int_equal(iosd_retry_failed(&t, a, 100, &tries, &delay), IOSD_RETRY_LATER);     /* due 110 */
        assert_int_equal(iosd_retry_failed(&t, b, 105, &tries, &delay), IOSD_RETRY_LATER);     /* due 115 */
        assert_int_equal(iosd_retry_failed(&t, b, 115, &tries, &delay), IOSD_RETRY_LATER);     /* due 135 */
        assert_int_equal(delay, 20);
        assert_int_equal(iosd_retry_failed(&t, c, 90, &tries, &delay), IOSD_RETRY_LATER);      /* due 100 */
        assert_int_equal(iosd_retry_next(&t), 100);
        assert_int_equal(iosd_retry_due(&t, 99, due), 0);
        assert_int_equal(iosd_retry_due(&t, 100, due), 1);
        assert_true(due[0] == c);
        /* due entries stay until their attempt is told: nothing was taken out */
        assert_int_equal(t.n, 3);
        assert_int_equal(iosd_retry_due(&t, 134, due), 2);
        assert_true((due[0] == a && due[1] == c) || (due[0] == c && due[1] == a));
        assert_int_equal(iosd_retry_due(&t, 135, due), 3);
        /* c succeeded: forgotten, the next deadline is a's */
        assert_true(iosd_retry_forget(&t, c));
        assert_false(iosd_retry_forget(&t, c));
        assert_int_equal(iosd_retry_next(&t), 110);
        assert_int_equal(iosd_retry_due(&t, 120, due), 1);
        assert_true(due[0] == a);
        assert_true(iosd_retry_forget(&t, a));
        assert_true(iosd_retry_forget(&t, b));
        assert_int_equal(iosd_retry_next(&t), UINT64_MAX);
        assert_int_equal(iosd_retry_due(&t, UINT64_MAX, due), 0);
        iosd_retry_done(&t);
}

static void test_bounded(void **state)
{
        struct iosd_retries t = {};
        uint64_t delay;
        unsigned tries;

        (void)state;
        for (unsigned i = 0; i < RETRY_MAX; i++)
                assert_int_equal(iosd_retry_failed(&t, makedev(8, i), 0, &tries, &delay), IOSD_RETRY_LATER);
        assert_int_equal(t.n, RETRY_MAX);
        /* one more device does not fit: not recorded */
        assert_int_equal(iosd_retry_failed(&t, makedev(9, 0), 0, &tries, &delay), IOSD_RETRY_FULL);
        assert_int_equal(t.n, RETRY_MAX);
        assert_true(t.cap <= RETRY_MAX);
        assert_false(iosd_retry_forget(&t, makedev(9, 0)));
        /* a device already in the table still gets its next attempt */
        assert_int_equal(iosd_retry_failed(&t, makedev(8, 7), 0, &tries, &delay), IOSD_RETRY_LATER);
        assert_int_equal(tries, 2);
        /* room again after a forget */
        assert_true(iosd_retry_forget(&t, makedev(8, 0)));
        assert_int_equal(iosd_retry_failed(&t, makedev(9, 0), 0, &tries, &delay), IOSD_RETRY_LATER);
        assert_int_equal(t.n, RETRY_MAX);
        iosd_retry_done(&t);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_backoff_then_give_up),
                cmocka_unit_test(test_due_and_next),
                cmocka_unit_test(test_bounded),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
