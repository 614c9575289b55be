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
#include <errno.h>
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

/* Plan w on dir's sdd. */
static void plan_of(const char *dir, struct ios_wanted *w, struct ios_ctx **r, struct ios_device **d,
                    struct ios_plan *pl)
{
        *d = t_dev(r, dir, "sdd");
        assert_int_equal(ios_plan_from_settings(*d, w, pl), 0);
}

static const struct ios_change *change_of(const struct ios_plan *pl, const char *key)
{
        for (size_t i = 0; i < pl->n; i++)
                if (strcmp(pl->c[i].key, key) == 0)
                        return &pl->c[i];
        fail_msg("no change for %s", key);
        return NULL;
}

/* 7.2's queue/async_depth is a scheduler's: without one it is skipped with a note, never written. */
static void test_async_depth_under_none(void **state)
{
        char *dir = tree_as("7.2.0-1-amd64\n", "queue"), path[4096];
        struct ios_wanted w = {};
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl;
        const struct ios_change *c;

        (void)state;
        assert_int_equal(ios_wanted_set(&w, "scheduler", "none", "t:1"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/iosched/async_depth", "16", "t:2"), 0);
        plan_of(dir, &w, &r, &d, &pl);
        c = change_of(&pl, "queue/async_depth");
        assert_int_equal(c->state, IOS_CHANGE_SKIPPED);
        assert_non_null(strstr(c->msg, "not used without a scheduler"));
        assert_true(has_note(&pl, "the queue has no scheduler"));
        assert_int_equal(ios_plan_apply(&pl), 0);
        snprintf(path, sizeof(path), "%s/" HDD_Q "/async_depth", dir);
        assert_string_equal(t_read_file(path), "64");
        ios_plan_done(&pl);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* nr_requests past the tag set's depth (mq/0/nr_tags: 32) under none: refused in the plan with the
 * bound, and nothing is written on the disk (the scheduler stays); with a scheduler up to 2048. */
static void test_nr_requests_bounds(void **state)
{
        char *dir = tree_as("6.12.0-1-amd64\n", "iosched"), path[4096];
        struct ios_wanted w = {}, w2 = {};
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl;
        const struct ios_change *c;

        (void)state;
        assert_int_equal(ios_wanted_set(&w, "scheduler", "none", "t:1"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/nr_requests", "1024", "t:2"), 0);
        plan_of(dir, &w, &r, &d, &pl);
        c = change_of(&pl, "queue/nr_requests");
        assert_int_equal(c->state, IOS_CHANGE_FAILED);
        assert_int_equal(c->error, -EINVAL);
        assert_non_null(strstr(c->msg, "value refused by the kernel: at most 32 without a scheduler"));
        assert_int_equal(ios_plan_apply(&pl), -EINVAL);
        assert_int_equal(change_of(&pl, "scheduler")->state, IOS_CHANGE_NOT_APPLIED);
        snprintf(path, sizeof(path), "%s/" HDD_Q "/scheduler", dir);
        assert_string_equal(t_read_file(path), "[mq-deadline] none");
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        /* under mq-deadline 1024 is fine, 4096 is not */
        assert_int_equal(ios_wanted_set(&w2, "queue/nr_requests", "1024", "t:2"), 0);
        plan_of(dir, &w2, &r, &d, &pl);
        assert_int_equal(change_of(&pl, "queue/nr_requests")->state, IOS_CHANGE_DRIFT);
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        assert_int_equal(ios_wanted_set(&w2, "queue/nr_requests", "4096", "t:2"), 0);
        plan_of(dir, &w2, &r, &d, &pl);
        c = change_of(&pl, "queue/nr_requests");
        assert_int_equal(c->state, IOS_CHANGE_FAILED);
        assert_non_null(strstr(c->msg, "at most 2048 with a scheduler"));
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_wanted_done(&w);
        ios_wanted_done(&w2);
        t_rmtree(dir);
}

/* max_sectors_kb past max_hw_sectors_kb (128), discard_max_bytes not a multiple of the granularity (512),
 * write_zeroes_unmap_max_bytes other than 0 or the hardware's: refused in the plan. */
static void test_disk_bounds(void **state)
{
        char *dir = tree_as("6.18.0-1-amd64\n", "iosched"), path[4096];
        static const struct { const char *key, *value, *why; } cases[] = {
                { "queue/max_sectors_kb", "256", "at most 128 (the disk's max_hw_sectors_kb)" },
                { "queue/discard_max_bytes", "1000", "a multiple of 512 (the disk's discard_granularity)" },
                { "queue/write_zeroes_unmap_max_bytes", "4096",
                  "0 or 0 (the disk's write_zeroes_unmap_max_hw_bytes)" },
        };

        (void)state;
        snprintf(path, sizeof(path), "%s/" HDD_Q "/write_zeroes_unmap_max_hw_bytes", dir);
        assert_int_equal(t_write_file(path, "0\n"), 0);
        snprintf(path, sizeof(path), "%s/" HDD_Q "/write_zeroes_unmap_max_bytes", dir);
        assert_int_equal(t_write_file(path, "0\n"), 0);
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                struct ios_wanted w = {};
                struct ios_ctx *r;
                struct ios_device *d;
                struct ios_plan pl;
                const struct ios_change *c;

                assert_int_equal(ios_wanted_set(&w, cases[i].key, cases[i].value, "t:2"), 0);
                plan_of(dir, &w, &r, &d, &pl);
                c = change_of(&pl, cases[i].key);
                assert_int_equal(c->state, IOS_CHANGE_FAILED);
                if (!strstr(c->msg, cases[i].why))
                        fail_msg("%s=%s: %s", cases[i].key, cases[i].value, c->msg);
                ios_plan_done(&pl);
                ios_device_free(d);
                ios_ctx_free(r);
                ios_wanted_done(&w);
        }
        t_rmtree(dir);
}

/* queue/io_timeout is kept in ticks (msecs_to_jiffies, jiffies_to_msecs): 30001 ms reads 30004 at HZ=250. */
static void test_io_timeout_ticks(void **state)
{
        (void)state;
        assert_true(ios_tunable_same("queue/io_timeout", "30004", "30001", 250));
        assert_false(ios_tunable_same("queue/io_timeout", "30004", "30001", 1000));
        assert_true(ios_tunable_same("queue/io_timeout", "30004", "30001", 0));     /* a usual rate */
        assert_string_equal(ios_tunable_kept_why("queue/io_timeout", "30004", "30001"), "its next tick");
        assert_false(ios_tunable_same("queue/io_timeout", "30008", "30001", 250));
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_moved_table),
                cmocka_unit_test(test_resets_table),
                cmocka_unit_test(test_async_depth_where),
                cmocka_unit_test(test_absent_said),
                cmocka_unit_test(test_async_depth_under_none),
                cmocka_unit_test(test_nr_requests_bounds),
                cmocka_unit_test(test_disk_bounds),
                cmocka_unit_test(test_io_timeout_ticks),
                cmocka_unit_test(test_read_ahead_after_limits),
                cmocka_unit_test(test_hz_from_module_tree),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
