/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the tunables table says which kernel keeps a value where and
 * which writes make which kernel recompute another, and apply.c follows it
 * on captured trees made into other kernels' layouts: mq-deadline's
 * async_depth is queue/async_depth on 7.2 (either spelling in a policy lands
 * in the file the kernel has), a tunable the kernel lacks is skipped with a
 * note (never "ok" in silence), and read_ahead_kb is written after the
 * queue-limits writes that recompute it on 6.11+.
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
#include "iosched-internal.h"
#include "helpers.h"
#include "policy-helpers.h"

#define HDD_Q "sys/devices/pci0000:00/0000:00:1f.2/ata1/host3/target3:0:0/3:0:0:0/block/sdd/queue"

static void test_moved_table(void **state)
{
        unsigned ma = 0, mi = 0;

        (void)state;
        assert_string_equal(ios_tunable_moved("queue/iosched/async_depth", &ma, &mi), "queue/async_depth");
        assert_int_equal(ma, 7);
        assert_int_equal(mi, 2);
        assert_string_equal(ios_tunable_moved("queue/async_depth", NULL, NULL), "queue/iosched/async_depth");
        assert_null(ios_tunable_moved("queue/iosched/read_expire", NULL, NULL));
        assert_null(ios_tunable_moved("scheduler", NULL, NULL));
        /* both spellings are tunables a policy may set */
        assert_true(ios_tunable_known("queue/async_depth"));
        assert_true(ios_tunable_known("queue/iosched/async_depth"));
}

static void test_resets_table(void **state)
{
        static const char * const limits[] = { "queue/add_random", "queue/iostats", "queue/rotational",
                                                "queue/stable_writes", "queue/write_cache",
                                                "queue/max_sectors_kb" };

        (void)state;
        for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
                assert_true(ios_tunable_resets("queue/read_ahead_kb", limits[i], 6, 18));
                assert_true(ios_tunable_resets("queue/read_ahead_kb", limits[i], 7, 2));
                /* a kernel not known: every kernel the rule names */
                assert_true(ios_tunable_resets("queue/read_ahead_kb", limits[i], 0, 0));
                assert_false(ios_tunable_resets("queue/read_ahead_kb", limits[i], 6, 1));
                assert_false(ios_tunable_resets("queue/read_ahead_kb", limits[i], 5, 10));
        }
        assert_false(ios_tunable_resets("queue/read_ahead_kb", "queue/nomerges", 6, 18));
        assert_false(ios_tunable_resets("queue/read_ahead_kb", "queue/rq_affinity", 6, 18));
        assert_true(ios_tunable_resets("queue/iosched/async_depth", "queue/nr_requests", 5, 14));
        assert_true(ios_tunable_resets("queue/async_depth", "queue/nr_requests", 7, 2));
        assert_false(ios_tunable_resets("queue/nr_requests", "queue/iosched/async_depth", 6, 1));
}

/* The captured 6.1 SATA HDD (mq-deadline) as kernel rel: osrelease, and with async_depth where ad says. */
static char *tree_as(const char *rel, const char *ad)
{
        char *dir = t_fixture_copy("ahci-sata-hdd"), path[4096], cmd[8192];

        snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", dir);
        assert_int_equal(t_write_file(path, rel), 0);
        if (strcmp(ad, "iosched") != 0) {
                snprintf(cmd, sizeof(cmd), "rm -f '%s/" HDD_Q "/iosched/async_depth'", dir);
                assert_int_equal(system(cmd), 0);
        }
        if (strcmp(ad, "queue") == 0) {
                snprintf(path, sizeof(path), "%s/" HDD_Q "/async_depth", dir);
                assert_int_equal(t_write_file(path, "64\n"), 0);
        }
        return dir;
}

static bool has_note(const struct ios_plan *pl, const char *part)
{
        for (char **n = pl->notes; n && *n; n++)
                if (strstr(*n, part))
                        return true;
        return false;
}

/* One setting planned and applied on dir's sdd: the change, its note, the file written. */
static void one(const char *dir, const char *key, const char *value, const char *want_key, const char *note)
{
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, dir, "sdd");
        struct ios_wanted w = {};
        struct ios_plan pl;
        char path[4096];

        assert_int_equal(ios_wanted_set(&w, "scheduler", "mq-deadline", "t:1"), 0);
        assert_int_equal(ios_wanted_set(&w, key, value, "t:2"), 0);
        assert_int_equal(ios_plan_from_settings(d, &w, &pl), 0);
        assert_int_equal(pl.n, 2);
        assert_string_equal(pl.c[1].key, want_key);
        if (note)
                assert_true(has_note(&pl, note));
        assert_int_equal(pl.c[1].state, IOS_CHANGE_DRIFT);
        if (ios_plan_apply(&pl) != 0)
                fail_msg("%s: %s / %s", key, pl.c[0].msg ? pl.c[0].msg : "-",
                         pl.c[1].msg ? pl.c[1].msg : "-");
        assert_int_equal(pl.c[1].state, IOS_CHANGE_APPLIED);
        snprintf(path, sizeof(path), "%s/" HDD_Q "/%s", dir, want_key + strlen("queue/"));
        assert_string_equal(t_read_file(path), value);
        ios_plan_done(&pl);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
}

static void test_async_depth_where(void **state)
{
        char *d72 = tree_as("7.2.0-1-amd64\n", "queue"), *d61 = tree_as("6.1.0-50-amd64\n", "iosched");

        (void)state;
        /* 7.2: either spelling is written to queue/async_depth */
        one(d72, "queue/iosched/async_depth", "16", "queue/async_depth",
            "this kernel keeps it as queue/async_depth");
        one(d72, "queue/async_depth", "24", "queue/async_depth", NULL);
        /* 6.1: either spelling is written to mq-deadline's queue/iosched/async_depth */
        one(d61, "queue/async_depth", "16", "queue/iosched/async_depth",
            "this kernel keeps it as queue/iosched/async_depth");
        one(d61, "queue/iosched/async_depth", "24", "queue/iosched/async_depth", NULL);
        t_rmtree(d72);
        t_rmtree(d61);
}

/* 5.10's mq-deadline has no async_depth: skipped, and a note says it is neither set nor checked. */
static void test_absent_said(void **state)
{
        char *dir = tree_as("5.10.0-32-amd64\n", "none");
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, dir, "sdd");
        struct ios_wanted w = {};
        struct ios_plan pl;

        (void)state;
        assert_int_equal(ios_wanted_set(&w, "queue/iosched/async_depth", "16", "t:2"), 0);
        assert_int_equal(ios_plan_from_settings(d, &w, &pl), 0);
        assert_int_equal(pl.n, 1);
        assert_string_equal(pl.c[0].key, "queue/iosched/async_depth");
        assert_int_equal(pl.c[0].state, IOS_CHANGE_SKIPPED);
        assert_non_null(strstr(pl.c[0].msg, "not offered by this kernel"));
        assert_true(has_note(&pl, "queue/iosched/async_depth=16 (t:2): not set and not checked: "
                                  "this kernel has no queue/iosched/async_depth"));
        ios_plan_done(&pl);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* The keys of dir's sdd plan for read_ahead_kb then add_random, in write order. */
static void ra_order(const char *rel, const char *first, const char *second)
{
        char *dir = tree_as(rel, "iosched");
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, dir, "sdd");
        struct ios_wanted w = {};
        struct ios_plan pl;

        assert_int_equal(ios_wanted_set(&w, "queue/read_ahead_kb", "700", "t:1"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/add_random", "1", "t:2"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/nomerges", "1", "t:3"), 0);
        assert_int_equal(ios_plan_from_settings(d, &w, &pl), 0);
        assert_int_equal(pl.n, 3);
        assert_string_equal(pl.c[0].key, first);
        assert_string_equal(pl.c[1].key, second);
        ios_plan_done(&pl);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

static void test_read_ahead_after_limits(void **state)
{
        (void)state;
        /* 6.18: add_random's queue-limits update recomputes read_ahead_kb: it goes last */
        ra_order("6.18.44\n", "queue/add_random", "queue/nomerges");
        /* 6.1 recomputes nothing: the policy's order */
        ra_order("6.1.0-50-amd64\n", "queue/read_ahead_kb", "queue/add_random");
}

/* sid's 7.x keeps the kernel's config in the module tree, not in /boot: the tick rate is found there. */
static void test_hz_from_module_tree(void **state)
{
        char *dir = tree_as("7.2.0-1-amd64\n", "queue"), path[4096];
        struct ios_ctx *r;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_hz(r), 0);
        ios_ctx_free(r);
        snprintf(path, sizeof(path), "%s/usr/lib/modules/7.2.0-1-amd64/config", dir);
        assert_int_equal(t_write_file(path, "CONFIG_NO_HZ=y\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"), 0);
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_hz(r), 250);
        ios_ctx_free(r);
        t_rmtree(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_moved_table),
                cmocka_unit_test(test_resets_table),
                cmocka_unit_test(test_async_depth_where),
                cmocka_unit_test(test_absent_said),
                cmocka_unit_test(test_read_ahead_after_limits),
                cmocka_unit_test(test_hz_from_module_tree),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
