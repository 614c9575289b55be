/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: what an errno means for a disk, decided once
 * (ios_errno_class, errclass.c): a table of every errno the library returns
 * about a disk, its class, the phrase said of it, and the outcome
 * iosched-apply maps it to (its exit code), which must agree with the class.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "../../src/apply/apply.h"

static const struct {
        int e;
        enum ios_errno_class cls;
        enum apply_outcome outcome;
        const char *reason;     /* NULL: strerror's */
} table[] = {
        { 0, IOS_ERRNO_OK, APPLY_OK, NULL },
        { -ENOENT, IOS_ERRNO_GONE, APPLY_VANISHED, "device vanished" },
        { -ENODEV, IOS_ERRNO_GONE, APPLY_VANISHED, "device vanished" },
        { -ENXIO, IOS_ERRNO_GONE, APPLY_VANISHED, "device vanished" },
        { -EROFS, IOS_ERRNO_READONLY, APPLY_READONLY, "/sys is read-only (container?)" },
        { -EACCES, IOS_ERRNO_READONLY, APPLY_READONLY, "permission denied (not root, or /sys read-only)" },
        { -EPERM, IOS_ERRNO_READONLY, APPLY_READONLY, "permission denied (not root, or /sys read-only)" },
        { -EINVAL, IOS_ERRNO_REFUSED, APPLY_REFUSED, NULL },
        { -EAGAIN, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -EINTR, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -EBUSY, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -ENOMEM, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -EMFILE, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -ENFILE, IOS_ERRNO_RETRY, APPLY_FAILED, NULL },
        { -EIO, IOS_ERRNO_FAILED, APPLY_FAILED, NULL },
        { -EBADFD, IOS_ERRNO_FAILED, APPLY_FAILED, "not a regular file (a FIFO, socket or device node)" },
        { -EOPNOTSUPP, IOS_ERRNO_FAILED, APPLY_FAILED, NULL },
};

static void test_table(void **state)
{
        (void)state;
        for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
                const char *want = table[i].reason ? table[i].reason : strerror(-table[i].e);

                print_message("errno %d\n", -table[i].e);
                assert_int_equal(ios_errno_class(table[i].e), table[i].cls);
                assert_int_equal(apply_outcome_of_errno(table[i].e), table[i].outcome);
                if (table[i].e)
                        assert_string_equal(ios_errno_reason(table[i].e), want);
        }
}

/* a positive value is not an error: the library's counts */
static void test_positive(void **state)
{
        (void)state;
        assert_int_equal(ios_errno_class(3), IOS_ERRNO_OK);
        assert_int_equal(ios_errno_class(ENXIO), IOS_ERRNO_OK);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_table),
                cmocka_unit_test(test_positive),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
