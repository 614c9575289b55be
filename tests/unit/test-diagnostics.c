/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: what the policy says about itself and what apply says about
 * the kernel: warnings with file:line for settings that can never take
 * effect (a tunable none of the rule's schedulers has, cfq standing for
 * bfq), out-of-tree scheduler names accepted and used where the kernel
 * offers them, rules whose [Match] holds for no disk, typed values with
 * ranges, and the read-back after every write on a copy of a captured
 * tree (a value the "kernel" keeps otherwise is FAILED with both values).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"
#include "policy-helpers.h"
#include "strv.h"

#define NVME_Q "sys/devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1/queue"

static void test_warnings(void **state)
{
        struct ios_policy *p, *q = NULL;
        struct ios_error err = {};
        char * const *w;

        (void)state;
        /* an unknown tunable is still an error, whatever the scheduler */
        assert_int_equal(ios_policy_new_builtin(&q), 0);
        assert_int_equal(ios_policy_parse(q, "x.conf", "[Match]\nClass=nvme\n[Set]\nScheduler=adios\n"
                                          "queue/iosched/whatever_ns=1\n", &err), -EINVAL);
        assert_int_equal(err.line, 5);
        ios_policy_free(q);

        p = t_parse("[Match]\nClass=hdd\n[Set]\nScheduler=none\nqueue/iosched/read_expire=100\n"
                    "[Match]\nClass=ssd\n[Set]\nScheduler=cfq\n"
                    "[Match]\nClass=nvme\n[Set]\nScheduler=adios none\nqueue/iosched/fifo_batch=4\n"
                    "[Match]\nClass=usb\n[Set]\nScheduler=bfq mq-deadline\nqueue/iosched/fifo_batch=4\n", false);
        w = ios_policy_warnings(p);
        assert_int_equal(ios_strv_length(w), 3);
        assert_string_equal(w[0], "test.conf:5: queue/iosched/read_expire is not a tunable of none "
                                  "(Scheduler=none at test.conf:4): it is never written");
        assert_string_equal(w[1], "test.conf:9: Scheduler=cfq: cfq is a legacy scheduler; on blk-mq kernels "
                                  "(all since 5.0) it is mapped to bfq, a different scheduler");
        /* out of tree: accepted with a note; its rule's tunables are not judged */
        assert_string_equal(w[2], "test.conf:13: Scheduler=adios: not a scheduler iosched knows; "
                                  "used only on disks whose kernel offers it");
        ios_policy_free(p);
}

static void test_ranges(void **state)
{
        static const struct {
                const char *key, *value;
                int want;
        } t[] = {
                { "queue/iosched/read_expire", "0", 0 },
                { "queue/iosched/read_expire", "-5", -ERANGE },
                { "queue/iosched/read_expire", "2147483648", -ERANGE },
                /* the kernel's types: a tick past INT_MAX ms reads back negative, a wbt_lat_usec's ns
                 * pass 2^64, queue_var_store() takes at most UINT_MAX, io_timeout shows an unsigned */
                { "queue/iosched/read_expire", "2147483640", 0 },
                { "queue/iosched/read_expire", "2147483641", -ERANGE },
                { "queue/iosched/prio_aging_expire", "2147483646", -ERANGE },
                { "queue/wbt_lat_usec", "18446744073709551", 0 },
                { "queue/wbt_lat_usec", "18446744073709552", -ERANGE },
                { "queue/discard_max_bytes", "4294967295", 0 },
                { "queue/discard_max_bytes", "4294967296", -ERANGE },
                { "queue/io_timeout", "4294967290", 0 },
                { "queue/io_timeout", "4294967291", -ERANGE },
                { "queue/iosched/fifo_batch", "-1", -ERANGE },
                { "queue/iosched/async_depth", "0", -ERANGE },
                { "queue/iosched/read_lat_nsec", "9223372036854775807", 0 },
                { "queue/iosched/read_lat_nsec", "9223372036854775808", -ERANGE },
                { "queue/nr_requests", "0", -ERANGE },
                { "queue/nr_requests", "4294967295", 0 },
                { "queue/nr_requests", "4294967296", -ERANGE },
                { "queue/wbt_lat_usec", "-1", 0 },
                { "queue/wbt_lat_usec", "-2", -ERANGE },
                { "queue/nomerges", "3", -ERANGE },
                { "queue/add_random", "2", -ERANGE },
                { "queue/read_ahead_kb", "12k", -EINVAL },
                { "queue/read_ahead_kb", "-", -EINVAL },
                { "queue/read_ahead_kb", "+5", -EINVAL },
                { "queue/write_cache", "write back", 0 },
                { "queue/write_cache", "1", -EINVAL },
                { "queue/iosched/no_such", "1", -ENOENT },
        };
        char msg[256];

        (void)state;
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                int r = ios_tunable_check(t[i].key, t[i].value, msg, sizeof(msg));
                if (r != t[i].want)
                        fail_msg("%s=%s: %d, want %d (%s)", t[i].key, t[i].value, r, t[i].want, msg);
        }
        /* read-back comparison: numbers as numbers, the jiffies window only upwards */
        assert_true(ios_tunable_same("queue/read_ahead_kb", "0128", "128", 0));
        /* mq-deadline keeps its expiries in ticks: 321 ms is 81 ticks at HZ=250, shown as 324 */
        assert_true(ios_tunable_same("queue/iosched/read_expire", "324", "321", 250));
        assert_true(ios_tunable_same("queue/iosched/read_expire", "324", "321", 0));
        assert_false(ios_tunable_same("queue/iosched/read_expire", "324", "321", 1000));
        assert_true(ios_tunable_same("queue/iosched/read_expire", "252", "250", 250));
        assert_false(ios_tunable_same("queue/iosched/read_expire", "252", "250", 300));
        assert_true(ios_tunable_same("queue/iosched/read_expire", "250", "250", 300));
        assert_true(ios_tunable_same("queue/iosched/write_expire", "5000", "5000", 250));
        assert_false(ios_tunable_same("queue/iosched/read_expire", "0", "-5", 0));
        assert_false(ios_tunable_same("queue/iosched/read_expire", "320", "321", 0));
        assert_true(ios_tunable_same("queue/iosched/read_expire", "330", "321", 0));    /* HZ=100 */
        assert_false(ios_tunable_same("queue/iosched/read_expire", "325", "321", 0));
        /* the queue/ values the kernel keeps in a form of its own (blk-sysfs.c) */
        if (sysconf(_SC_PAGESIZE) == 4096) {
                assert_true(ios_tunable_same("queue/read_ahead_kb", "4", "5", 0));      /* whole pages */
                assert_true(ios_tunable_same("queue/read_ahead_kb", "0", "3", 0));
                assert_string_equal(ios_tunable_kept_why("queue/read_ahead_kb", "4", "5"), "whole pages");
        }
        assert_false(ios_tunable_same("queue/read_ahead_kb", "8", "5", 0));
        assert_true(ios_tunable_same("queue/nr_requests", "4", "0", 0));                /* BLKDEV_MIN_RQ */
        assert_true(ios_tunable_same("queue/nr_requests", "4", "2", 0));
        assert_false(ios_tunable_same("queue/nr_requests", "5", "2", 0));
        assert_false(ios_tunable_same("queue/nr_requests", "4", "5", 0));
        assert_string_equal(ios_tunable_kept_why("queue/nr_requests", "4", "2"), "the kernel's minimum");
        assert_true(ios_tunable_same("queue/wbt_lat_usec", "75000", "-1", 0));          /* the default */
        assert_true(ios_tunable_same("queue/wbt_lat_usec", "2000", "-1", 0));
        assert_false(ios_tunable_same("queue/wbt_lat_usec", "20000", "-1", 0));
        assert_string_equal(ios_tunable_kept_why("queue/iosched/read_expire", "252", "250"), "its next tick");
        assert_null(ios_tunable_kept_why("queue/nr_requests", "4", "4"));
        /* bfq keeps slice_idle and fifo_expire_* in ns, kyber its latencies: exact */
        assert_false(ios_tunable_same("queue/iosched/slice_idle", "8", "4", 0));
        assert_false(ios_tunable_same("queue/iosched/slice_idle", "8", "0", 250));
        assert_false(ios_tunable_same("queue/iosched/fifo_expire_sync", "125", "120", 0));
        assert_true(ios_tunable_same("queue/iosched/timeout_sync", "128", "125", 250));
        assert_true(ios_tunable_rounded("queue/iosched/read_expire", "252", "250"));
        assert_false(ios_tunable_rounded("queue/iosched/read_expire", "250", "250"));
        assert_false(ios_tunable_rounded("queue/iosched/slice_idle", "8", "4"));
}

static void test_out_of_tree_and_unmatched(void **state)
{
        char *dir = t_fixture_copy("nvme");
        char path[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nScheduler=adios none\n"
                                       "[Match]\nClass=hdd\n[Set]\nScheduler=mq-deadline\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};
        char **unmatched = NULL;

        (void)state;
        snprintf(path, sizeof(path), "%s/" NVME_Q "/scheduler", dir);
        assert_int_equal(t_write_file(path, "[none] mq-deadline adios\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_string_equal(pl.c[0].wanted, "adios");
        assert_int_equal(pl.c[0].state, IOS_CHANGE_DRIFT);
        assert_non_null(pl.notes);
        assert_string_equal(pl.notes[0], "scheduler \"adios\" (test.conf:4) is not in iosched's table "
                                         "(out of tree?); the kernel offers it, so it is used");
        assert_int_equal(ios_plan_apply(&pl), 0);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_APPLIED);
        assert_string_equal(pl.c[0].after, "adios");
        ios_plan_done(&pl);

        assert_int_equal(ios_policy_unmatched(p, &d, 1, &unmatched), 0);
        assert_int_equal(ios_strv_length(unmatched), 1);
        assert_string_equal(unmatched[0], "test.conf:5");
        ios_strv_free(unmatched);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        t_rmtree(dir);
}

/*
 * Read-back on a captured tree (the real kernel's rounding is tested on a
 * loop device by tests/integration/apply-loop.sh): a plain file keeps what
 * is written, so the change is APPLIED with the value read back; an
 * attribute that cannot be read is judged alone and the others still are.
 */
static void test_read_back(void **state)
{
        char *dir = t_fixture_copy("nvme");
        char path[4096], cmd[8400];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nqueue/read_ahead_kb=5\nqueue/nomerges=1\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};

        (void)state;
        snprintf(path, sizeof(path), "%s/" NVME_Q "/read_ahead_kb", dir);
        assert_int_equal(t_write_file(path, "128\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_DRIFT), 2);
        assert_int_equal(ios_plan_apply(&pl), 0);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_APPLIED);
        assert_string_equal(pl.c[0].current, "128");
        assert_string_equal(pl.c[0].after, "5");
        ios_plan_done(&pl);

        snprintf(cmd, sizeof(cmd), "rm -f '%s' && mkdir '%s'", path, path);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_FAILED);
        assert_non_null(strstr(pl.c[0].msg, "cannot read queue/read_ahead_kb"));
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_OK), 1);     /* nomerges, already 1 */
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        t_rmtree(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_warnings),
                cmocka_unit_test(test_ranges),
                cmocka_unit_test(test_out_of_tree_and_unmatched),
                cmocka_unit_test(test_read_back),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
