/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy and device helpers of the cmocka tests that plan on captured trees
 * (include after <cmocka.h>). */
#ifndef IOS_TEST_POLICY_HELPERS_H
#define IOS_TEST_POLICY_HELPERS_H

#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"

/* A policy of text (file name "test.conf"), on the built-in rules or on none. */
static inline struct ios_policy *t_parse(const char *text, bool builtin)
{
        struct ios_policy *p = NULL;
        struct ios_error err = {};

        if (builtin)
                assert_int_equal(ios_policy_new_builtin(&p), 0);
        else
                assert_int_equal(ios_policy_load("/nonexistent", "/dev/null", IOS_POLICY_NO_BUILTIN, &p, &err), 0);
        if (ios_policy_parse(p, "test.conf", text, &err) < 0)
                fail_msg("%s:%u: %s", err.file, err.line, err.msg);
        return p;
}

/* Disk name of the tree at root, with every fact probed. */
static inline struct ios_device *t_dev(struct ios_ctx **r, const char *root, const char *name)
{
        struct ios_device *d = NULL;

        assert_int_equal(ios_ctx_new(root, r), 0);
        ios_ctx_set_probe(*r, IOS_PROBE_EXTRA);
        assert_int_equal(ios_device_new(*r, name, &d), 0);
        return d;
}

#endif
