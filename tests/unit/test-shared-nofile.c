/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: src/shared/nofile.c: the soft descriptor limit below the
 * hard one is raised to it (1), and a second call finds it there (0).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "nofile.h"

static void test_raise(void **state)
{
        struct rlimit rl, now;

        (void)state;
        assert_int_equal(getrlimit(RLIMIT_NOFILE, &rl), 0);
        if (rl.rlim_max < 64)
                skip();
        now = rl;
        now.rlim_cur = 32;
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &now), 0);
        assert_int_equal(ios_raise_nofile(), 1);
        assert_int_equal(getrlimit(RLIMIT_NOFILE, &now), 0);
        assert_true(now.rlim_cur == rl.rlim_max);
        assert_int_equal(ios_raise_nofile(), 0);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_raise),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
