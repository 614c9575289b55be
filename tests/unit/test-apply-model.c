/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: iosched-apply's run model (src/apply/model.c) on copies of
 * captured trees: each disk planned once, written only in the apply mode,
 * and what it came to per mode: --check makes drift an outcome and a
 * setting that cannot be set a failure, --dry-run the errno's class, the
 * read-only verbs (explain, status, facts) neither; status leaves out disks
 * of size 0.  And the library's ios_plan_compliant on hand-made plans.
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
#include "helpers.h"
#include "policy-helpers.h"
#include "../../src/apply/apply.h"

#define NVME_Q "sys/devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1/queue"

static void test_compliant(void **state)
{
        struct ios_change c[2] = { { .state = IOS_CHANGE_OK }, { .state = IOS_CHANGE_SKIPPED } };
        struct ios_plan pl = { .c = c, .n = 2 };

        (void)state;
        assert_true(ios_plan_compliant(&pl));
        pl.n = 0;
        assert_true(ios_plan_compliant(&pl));
        pl.n = 2;
        pl.error = -EIO;
        assert_false(ios_plan_compliant(&pl));
        pl.error = 0;
        for (int s = IOS_CHANGE_DRIFT; s <= IOS_CHANGE_NOT_APPLIED; s++) {
                c[1].state = (enum ios_change_state)s;
                assert_int_equal(ios_plan_compliant(&pl), s == IOS_CHANGE_APPLIED || s == IOS_CHANGE_SKIPPED);
        }
}

/* The model of nvme0n1 in mode (report: a read-only verb); the file read_ahead_kb after it. */
static const char *model_of(const char *dir, const struct apply_model_opts *mo, struct apply_model *m,
                            struct ios_policy *p, struct ios_device *d)
{
        static char path[4096];

        assert_int_equal(apply_model_build(m, mo, p, &d, 1), 0);
        snprintf(path, sizeof(path), "%s/" NVME_Q "/read_ahead_kb", dir);
        return t_read_file(path);
}

static void test_modes(void **state)
{
        char *dir = t_fixture_copy("nvme");
        char path[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nqueue/read_ahead_kb=5\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct apply_model m;

        (void)state;
        snprintf(path, sizeof(path), "%s/" NVME_Q "/read_ahead_kb", dir);
        assert_int_equal(t_write_file(path, "128\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");

        /* --check: drift is the outcome, nothing written */
        assert_string_equal(model_of(dir, &(struct apply_model_opts){ .mode = APPLY_MODE_CHECK }, &m, p, d),
                            "128");
        assert_int_equal(m.n, 1);
        assert_ptr_equal(m.disks[0].dev, d);
        assert_int_equal(m.disks[0].drift, 1);
        assert_true(m.disks[0].changed);
        assert_false(m.disks[0].compliant);
        assert_int_equal(m.disks[0].outcome, APPLY_DRIFT);
        assert_int_equal(m.outcome, APPLY_DRIFT);
        assert_int_equal(m.drift, 1);
        assert_int_equal(m.ndrift, 1);
        assert_false(m.compliant);
        apply_model_done(&m);

        /* a read-only verb: the same plan, no outcome of it but a base one */
        assert_string_equal(model_of(dir, &(struct apply_model_opts){ .report = true }, &m, p, d), "128");
        assert_int_equal(m.disks[0].drift, 1);
        assert_int_equal(m.outcome, APPLY_OK);
        apply_model_done(&m);
        model_of(dir, &(struct apply_model_opts){ .report = true, .base = APPLY_FAILED }, &m, p, d);
        assert_int_equal(m.outcome, APPLY_FAILED);
        apply_model_done(&m);

        /* apply: written once, read back, in place */
        assert_string_equal(model_of(dir, &(struct apply_model_opts){ .mode = APPLY_MODE_APPLY }, &m, p, d),
                            "5");
        assert_int_equal(m.disks[0].plan.c[0].state, IOS_CHANGE_APPLIED);
        assert_true(m.disks[0].changed);
        assert_true(m.disks[0].compliant);
        assert_int_equal(m.outcome, APPLY_OK);
        apply_model_done(&m);

        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        t_rmtree(dir);
}

/* A setting that cannot be read: the run's error in --dry-run and --check, not in a read-only verb. */
static void test_failed_setting(void **state)
{
        char *dir = t_fixture_copy("nvme");
        char cmd[8400];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nqueue/read_ahead_kb=5\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct apply_model m;

        (void)state;
        snprintf(cmd, sizeof(cmd),
                 "rm -f '%1$s/" NVME_Q "/read_ahead_kb' && mkdir '%1$s/" NVME_Q "/read_ahead_kb'", dir);
        assert_int_equal(system(cmd), 0);
        d = t_dev(&r, dir, "nvme0n1");

        model_of(dir, &(struct apply_model_opts){ .mode = APPLY_MODE_CHECK }, &m, p, d);
        assert_int_equal(m.disks[0].plan.c[0].state, IOS_CHANGE_FAILED);
        assert_int_not_equal(m.disks[0].plan.error, 0);
        assert_non_null(m.disks[0].plan.error_msg);
        assert_int_equal(m.disks[0].read_error, 0);
        assert_int_equal(m.outcome, APPLY_FAILED);
        apply_model_done(&m);

        model_of(dir, &(struct apply_model_opts){ .mode = APPLY_MODE_DRY_RUN }, &m, p, d);
        assert_int_equal(m.outcome, apply_outcome_of_errno(m.disks[0].plan.error));
        apply_model_done(&m);

        model_of(dir, &(struct apply_model_opts){ .report = true }, &m, p, d);
        assert_int_equal(m.disks[0].plan.error, 0);
        assert_null(m.disks[0].plan.error_msg);
        assert_false(m.disks[0].compliant);
        assert_int_equal(m.outcome, APPLY_OK);
        apply_model_done(&m);

        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        t_rmtree(dir);
}

/* status: a disk of size 0 (an array stopped) is left out, and counted nowhere */
static void test_hide_empty(void **state)
{
        char *dir = t_fixture_copy("md-raid1");
        char path[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=virtual\n[Set]\nScheduler=none\n", false);
        struct ios_ctx *r;
        struct ios_device **devs = NULL;
        struct apply_model m;
        size_t n = 0;

        (void)state;
        snprintf(path, sizeof(path), "%s/sys/devices/virtual/block/md127/size", dir);
        assert_int_equal(t_write_file(path, "0\n"), 0);
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        ios_ctx_set_probe(r, IOS_PROBE_EXTRA);     /* the size, as status probes it */
        assert_true(ios_device_enumerate(r, &devs, &n) >= 0);
        assert_int_equal(n, 3);
        assert_int_equal(apply_model_build(&m,
                                           &(struct apply_model_opts){ .report = true, .hide_empty = true },
                                           p, devs, n),
                         0);
        assert_int_equal(m.n, 2);
        assert_int_equal(m.ndevs, 3);
        for (size_t i = 0; i < m.n; i++)
                assert_string_not_equal(m.disks[i].dev->name, "md127");
        apply_model_done(&m);
        assert_int_equal(apply_model_build(&m, &(struct apply_model_opts){ .report = true }, p, devs, n), 0);
        assert_int_equal(m.n, 3);
        apply_model_done(&m);
        ios_device_list_free(devs, n);
        ios_ctx_free(r);
        ios_policy_free(p);
        t_rmtree(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_compliant),
                cmocka_unit_test(test_modes),
                cmocka_unit_test(test_failed_setting),
                cmocka_unit_test(test_hide_empty),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
