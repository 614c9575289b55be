/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: what iosched knows of schedulers comes from one table
 * (tunables.c): the names in order, each one's family, twin, stand-in and
 * module, the names messages list, and the kernel rule that writing
 * nr_requests resets mq-deadline's async_depth, which the write order
 * (apply.c: nr_requests before queue/iosched/) and iosched-bench's variants
 * follow.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"
#include "policy-helpers.h"

static void test_names(void **state)
{
        char joined[128] = "";
        const char *name;
        unsigned flags, n = 0;

        (void)state;
        for (size_t i = 0; (name = ios_sched_nth(i, &flags)); i++, n++) {
                size_t l = strlen(joined);

                snprintf(joined + l, sizeof(joined) - l, "%s%s", i ? " " : "", name);
                assert_true(ios_sched_name_known(name));
                assert_true(ios_sched_name_valid(name));
                assert_int_equal(ios_sched_flags(name), flags);
                /* modular: exactly the ones with a module the kernel loads */
                assert_int_equal(!!(flags & IOS_SCHED_MODULAR), ios_sched_module(name) != NULL);
                /* every one has a twin in the other family, itself in the table */
                {
                        const char *twin = ios_sched_alias(name, !(flags & IOS_SCHED_LEGACY));

                        assert_non_null(twin);
                        assert_true(ios_sched_name_known(twin));
                        assert_int_not_equal(ios_sched_flags(twin) & IOS_SCHED_LEGACY, flags & IOS_SCHED_LEGACY);
                        /* and none in its own */
                        assert_null(ios_sched_alias(name, flags & IOS_SCHED_LEGACY));
                }
        }
        assert_int_equal(n, 7);
        assert_null(ios_sched_nth(7, &flags));
        assert_null(ios_sched_nth(7, NULL));
        /* the list messages give is the table's, in its order */
        assert_string_equal(joined, ios_sched_names_text());
        assert_string_equal(joined, "none mq-deadline kyber bfq noop deadline cfq");
        assert_string_equal(ios_sched_name_suggest("mq-dedline"), "mq-deadline");
        assert_false(ios_sched_name_known("as"));
        assert_int_equal(ios_sched_flags("as"), 0);
        assert_null(ios_sched_module("as"));
        assert_null(ios_sched_alias("as", true));
}

static void test_families(void **state)
{
        static const struct {
                const char *name;
                unsigned flags;
                const char *legacy_twin, *mq_twin, *module;
        } want[] = {
                { "none", 0, "noop", NULL, NULL },
                { "mq-deadline", IOS_SCHED_MODULAR, "deadline", NULL, "mq-deadline" },
                { "kyber", IOS_SCHED_MODULAR | IOS_SCHED_TWIN_DIFFERS | IOS_SCHED_TWIN_LAST, "cfq", NULL, "kyber-iosched" },
                { "bfq", IOS_SCHED_MODULAR | IOS_SCHED_TWIN_DIFFERS, "cfq", NULL, "bfq" },
                { "noop", IOS_SCHED_LEGACY, NULL, "none", NULL },
                { "deadline", IOS_SCHED_LEGACY, NULL, "mq-deadline", NULL },
                { "cfq", IOS_SCHED_LEGACY | IOS_SCHED_TWIN_DIFFERS, NULL, "bfq", NULL },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
                const char *l = ios_sched_alias(want[i].name, true), *m = ios_sched_alias(want[i].name, false);
                const char *mod = ios_sched_module(want[i].name);

                assert_int_equal(ios_sched_flags(want[i].name), want[i].flags);
                if (want[i].legacy_twin)
                        assert_string_equal(l, want[i].legacy_twin);
                else
                        assert_null(l);
                if (want[i].mq_twin)
                        assert_string_equal(m, want[i].mq_twin);
                else
                        assert_null(m);
                if (want[i].module)
                        assert_string_equal(mod, want[i].module);
                else
                        assert_null(mod);
        }
}

static void test_reset_by(void **state)
{
        const char *by;

        (void)state;
        by = ios_tunable_reset_by("queue/iosched/async_depth");
        assert_non_null(by);
        assert_string_equal(by, "queue/nr_requests");
        /* what resets is itself a tunable, written earlier (queue/ before queue/iosched/) */
        assert_true(ios_tunable_known(by));
        assert_int_not_equal(strncmp(by, "queue/iosched/", 14), 0);
        assert_true(ios_iosched_tunable_of("mq-deadline", "async_depth"));
        /* nothing else is reset by a write but read_ahead_kb (queue-limits writes, test-tunable-kernels.c) */
        assert_null(ios_tunable_reset_by("queue/nr_requests"));
        assert_null(ios_tunable_reset_by("queue/iosched/read_expire"));
        assert_string_equal(ios_tunable_reset_by("queue/read_ahead_kb"), "queue/add_random");
        assert_null(ios_tunable_reset_by("queue/iosched/nope"));
        assert_null(ios_tunable_reset_by("scheduler"));
}

/* Per the disk's kernel: 6.12 recomputes read_ahead_kb on a queue-limits write, 6.1 never (captured) */
static void test_reset_on(void **state)
{
        static const char * const limits[] = { "queue/add_random",  "queue/iostats",
                                               "queue/rotational",  "queue/stable_writes",
                                               "queue/write_cache", "queue/max_sectors_kb" };
        struct ios_ctx *r12, *r61;
        struct ios_device *d12 = t_dev(&r12, t_fixture("ahci-sata-hdd-6.12"), "sdd");
        struct ios_device *d61 = t_dev(&r61, t_fixture("ahci-sata-hdd"), "sdd");

        (void)state;
        for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
                assert_true(ios_tunable_reset_on(d12, "queue/read_ahead_kb", limits[i]));
                assert_false(ios_tunable_reset_on(d61, "queue/read_ahead_kb", limits[i]));
        }
        assert_false(ios_tunable_reset_on(d12, "queue/read_ahead_kb", "queue/nomerges"));
        assert_true(ios_tunable_reset_on(d12, "queue/iosched/async_depth", "queue/nr_requests"));
        assert_true(ios_tunable_reset_on(d61, "queue/iosched/async_depth", "queue/nr_requests"));
        assert_false(ios_tunable_reset_on(d61, "queue/nr_requests", "queue/iosched/async_depth"));
        ios_device_free(d12);
        ios_device_free(d61);
        ios_ctx_free(r12);
        ios_ctx_free(r61);
}

/*
 * The write order follows the rule: whatever order the settings come in, a
 * plan writes the key that resets another before it (captured mq-deadline disk).
 */
static void test_write_order(void **state)
{
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, t_fixture("ahci-sata-hdd"), "sdd");
        struct ios_wanted w = {};
        struct ios_plan pl;
        size_t checked = 0;

        (void)state;
        assert_int_equal(ios_wanted_set(&w, "queue/iosched/async_depth", "8", "t"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/iosched/read_expire", "300", "t"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/nr_requests", "32", "t"), 0);
        assert_int_equal(ios_wanted_set(&w, "scheduler", "mq-deadline", "t"), 0);
        assert_int_equal(ios_plan_from_settings(d, &w, &pl), 0);
        assert_int_equal(pl.n, 4);
        assert_string_equal(pl.c[0].key, "scheduler");
        for (size_t i = 0; i < pl.n; i++) {
                const char *by = ios_tunable_reset_by(pl.c[i].key);

                for (size_t k = 0; by && k < pl.n; k++)
                        if (strcmp(pl.c[k].key, by) == 0) {
                                assert_true(k < i);
                                checked++;
                        }
        }
        assert_int_equal(checked, 1);
        ios_plan_done(&pl);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_names),
                cmocka_unit_test(test_families),
                cmocka_unit_test(test_reset_by),
                cmocka_unit_test(test_reset_on),
                cmocka_unit_test(test_write_order),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
