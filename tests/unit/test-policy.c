/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the policy language (parse, match, merge, sources), the
 * corpus of refused configs (tests/bad-configs), and apply on copies of
 * captured trees, asserting on the tree's contents afterwards.  Where the
 * files come from: test-policy-files.c.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"
#include "policy-helpers.h"

#define NVME_Q "sys/devices/pci0000:00/0000:00:06.0/nvme/nvme0/nvme0n1/queue"
#define VSCSI_Q "sys/devices/pci0000:00/0000:00:05.0/virtio2/host1/target1:0:0/1:0:0:0/block/sda/queue"

static const char *top(void)
{
        const char *t = getenv("IOS_TOP");
        return t ? t : ".";
}

static const struct ios_setting *get(const struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; i < w->n; i++)
                if (strcmp(w->s[i].key, key) == 0)
                        return &w->s[i];
        return NULL;
}

/*
 * A test that writes gets its own copy of a captured tree in its cmocka
 * state.  Teardown removes it even when an assert fails.
 */
static int tree_new(void **state, const char *fx)
{
        *state = t_fixture_copy(fx);
        return *state ? 0 : -1;
}

static int setup_nvme(void **state) { return tree_new(state, "nvme"); }
static int setup_vscsi(void **state) { return tree_new(state, "virtio-scsi-rot"); }

static int teardown(void **state)
{
        t_rmtree(*state);
        return 0;
}

static void test_builtin_defaults(void **state)
{
        static const struct { const char *fx, *dev, *want; } t[] = {
                { "nvme", "nvme0n1", "none noop" },
                { "ahci-sata-ssd", "sdd", "none noop" },
                { "virtio-blk", "vdb", "none noop" },
                { "loop", "loop0", NULL },
                { "zram", "zram0", NULL },
                { "dm-linear", "dm-0", NULL },
        };
        struct ios_policy *p = NULL;

        (void)state;
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                struct ios_ctx *r;
                struct ios_device *d = t_dev(&r, t_fixture(t[i].fx), t[i].dev);
                struct ios_wanted w = {};
                const struct ios_setting *s;

                assert_int_equal(ios_policy_resolve(p, d, &w), 0);
                s = get(&w, "scheduler");
                if (t[i].want) {
                        assert_non_null(s);
                        assert_string_equal(s->value, t[i].want);
                        assert_true(strncmp(s->source, "built-in:", 9) == 0);
                } else
                        assert_null(s);
                ios_wanted_done(&w);
                ios_device_free(d);
                ios_ctx_free(r);
        }
        ios_policy_free(p);
}

static void test_match_and_merge(void **state)
{
        struct ios_policy *p = t_parse(
                "# later rules override earlier ones key by key\n"
                "[Match]\n"
                "Class=virtual\n"
                "[Set]\n"
                "Scheduler=kyber none\n"
                "queue/read_ahead_kb=4096\n"
                "\n"
                "[Match]\n"
                "Driver=virtio_scsi\n"
                "Model=QEMU*\n"
                "Property=ID_SERIAL_SHORT=HDD-*\n"
                "Rotational=1\n"
                "[Set]\n"
                "queue/read_ahead_kb=8192\n"
                "queue/nr_requests=64\n"
                "[Match]\n"
                "Name=!sd*\n"
                "[Set]\n"
                "queue/nomerges=2\n", true);
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, t_fixture("virtio-scsi-rot"), "sda");
        struct ios_wanted w = {};

        (void)state;
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_string_equal(get(&w, "scheduler")->value, "kyber none");
        assert_string_equal(get(&w, "scheduler")->source, "test.conf:5");
        assert_string_equal(get(&w, "queue/read_ahead_kb")->value, "8192");
        assert_string_equal(get(&w, "queue/read_ahead_kb")->source, "test.conf:14");
        assert_string_equal(get(&w, "queue/nr_requests")->value, "64");
        assert_null(get(&w, "queue/nomerges"));         /* Name=!sd* excludes sda */
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);

        /* the SSD twin has another serial and rotational=0: second rule off */
        d = t_dev(&r, t_fixture("virtio-scsi-ssd"), "sdb");
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_string_equal(get(&w, "queue/read_ahead_kb")->value, "4096");
        assert_null(get(&w, "queue/nr_requests"));
        ios_wanted_done(&w);
        ios_policy_free(p);

        /* a value with a blank, quoted */
        p = t_parse("[Match]\nModel=\"QEMU HARDDISK\" other\n[Set]\nqueue/nomerges=1\n", false);
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_non_null(get(&w, "queue/nomerges"));
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_size_match(void **state)
{
        struct ios_policy *p = t_parse("[Match]\nSize=512M-2G\n[Set]\nqueue/nomerges=1\n"
                                     "[Match]\nSize=1T-\n[Set]\nqueue/nomerges=2\n", false);
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, t_fixture("virtio-scsi-rot"), "sda");   /* 1 GiB */
        struct ios_wanted w = {};

        (void)state;
        assert_int_equal(ios_policy_probe_flags(p), IOS_PROBE_EXTRA);
        assert_int_equal(d->size, 1073741824ULL);
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_string_equal(get(&w, "queue/nomerges")->value, "1");
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_zoned_safety_rule(void **state)
{
        char *dir = *state;
        char path[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nScheduler=kyber\n", true);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_wanted w = {};

        snprintf(path, sizeof(path), "%s/" NVME_Q "/zoned", dir);
        assert_int_equal(t_write_file(path, "host-managed\n"), 0);
        snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", dir);
        assert_int_equal(t_write_file(path, "6.1.0-18-amd64\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_string_equal(get(&w, "scheduler")->value, "mq-deadline deadline");
        assert_non_null(w.notes);
        assert_non_null(strstr(w.notes[0], "mq-deadline overrides \"kyber\" from test.conf:4"));
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);

        /* 6.10 and later: zone write plugging, any scheduler is fine */
        assert_int_equal(t_write_file(path, "6.12.9\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_string_equal(get(&w, "scheduler")->value, "kyber");
        assert_null(w.notes);
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_bad_corpus(void **state)
{
        char list[4096], line[512];
        FILE *f;
        int n = 0;

        (void)state;
        snprintf(list, sizeof(list), "%s/tests/bad-configs/expected.txt", top());
        f = fopen(list, "re");
        assert_non_null(f);
        while (fgets(line, sizeof(line), f)) {
                char file[256], path[4096], want_msg[256] = "", *colon;
                unsigned want_line;
                struct ios_policy *p = NULL;
                struct ios_error err = {};
                const char *text;

                /* "FILE:LINE [text the message must hold]" */
                if (sscanf(line, "%255s %255[^\n]", file, want_msg) < 1)
                        continue;
                colon = strrchr(file, ':');
                assert_non_null(colon);
                *colon = '\0';
                want_line = (unsigned)atoi(colon + 1);
                snprintf(path, sizeof(path), "%s/tests/bad-configs/%s", top(), file);
                text = t_read_file(path);
                assert_non_null(text);
                assert_int_equal(ios_policy_new_builtin(&p), 0);
                if (ios_policy_parse(p, file, text, &err) != -EINVAL)
                        fail_msg("%s: accepted", file);
                if (err.line != want_line || strcmp(err.file, file) != 0)
                        fail_msg("%s: error at %s:%u (%s), want line %u", file, err.file, err.line, err.msg, want_line);
                assert_true(strlen(err.msg) > 10);
                if (want_msg[0] && !strstr(err.msg, want_msg))
                        fail_msg("%s: \"%s\" does not say \"%s\"", file, err.msg, want_msg);
                /* nothing half-applied: the built-in rules only */
                {
                        struct ios_ctx *r;
                        struct ios_device *d = t_dev(&r, t_fixture("nvme"), "nvme0n1");
                        struct ios_wanted w = {};
                        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
                        assert_int_equal(w.n, 1);
                        assert_string_equal(w.s[0].value, "none noop");
                        ios_wanted_done(&w);
                        ios_device_free(d);
                        ios_ctx_free(r);
                }
                ios_policy_free(p);
                n++;
        }
        fclose(f);
        assert_true(n >= 15);
}

/*
 * The final state is checked, not each write: a later write that changes an
 * earlier setting (two names of one file in the tree, so each write undoes
 * the other) is seen after the writes, written again, and when the two keep
 * undoing each other it fails with both values, never "applied".  Where the
 * two agree, nothing is said.
 */
static void test_final_state_checked(void **state)
{
        char *dir = *state;
        char ra[4096], ar[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nqueue/read_ahead_kb=700\nqueue/add_random=1\n",
                                       false);
        struct ios_policy *same = t_parse("[Match]\nClass=nvme\n[Set]\nqueue/read_ahead_kb=1\nqueue/add_random=1\n",
                                          false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};
        const struct ios_change *c;

        snprintf(ra, sizeof(ra), "%s/" NVME_Q "/read_ahead_kb", dir);
        snprintf(ar, sizeof(ar), "%s/" NVME_Q "/add_random", dir);
        assert_int_equal(unlink(ar), 0);
        assert_int_equal(link(ra, ar), 0);
        assert_int_equal(t_write_file(ra, "128\n"), 0);

        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(pl.n, 2);
        assert_int_equal(ios_plan_apply(&pl), -EINVAL);
        c = &pl.c[0];
        assert_string_equal(c->key, "queue/read_ahead_kb");
        assert_int_equal(c->state, IOS_CHANGE_FAILED);
        assert_non_null(strstr(c->msg, "the kernel holds \"1\", not \"700\""));
        assert_non_null(strstr(c->msg, "queue/add_random"));
        assert_non_null(pl.notes);
        assert_non_null(strstr(pl.notes[0], "queue/read_ahead_kb: the kernel had 1 after the write of queue/add_random"));
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);

        /* both want what the one file holds: applied, nothing said */
        assert_int_equal(t_write_file(ra, "128\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(same, d, &pl), 0);
        assert_int_equal(ios_plan_apply(&pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_FAILED), 0);
        assert_null(pl.notes);
        assert_string_equal(t_read_file(ra), "1");
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        ios_policy_free(same);
}

static void test_apply_on_fake_tree(void **state)
{
        char *dir = *state;
        char path[4096];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nScheduler=deadline none\n"
                                     "queue/nr_requests=64\nqueue/read_ahead_kb=512\n"
                                     "queue/iosched/read_expire=300\nqueue/iosched/fifo_batch=1\n"
                                     "queue/iosched/read_lat_nsec=1000000\n", true);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};

        /* the kernel's mq-deadline directory, as a switch would create it */
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/read_expire", dir);
        assert_int_equal(t_write_file(path, "500\n"), 0);
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/fifo_batch", dir);
        assert_int_equal(t_write_file(path, "16\n"), 0);

        d = t_dev(&r, dir, "nvme0n1");
        assert_string_equal(d->sched_current, "none");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_string_equal(pl.c[0].key, "scheduler");
        assert_string_equal(pl.c[0].wanted, "mq-deadline");     /* deadline, blk-mq spelling */
        assert_int_equal(pl.c[0].state, IOS_CHANGE_DRIFT);
        assert_string_equal(pl.c[1].key, "queue/nr_requests");   /* the kernel's order */
        assert_int_equal(ios_plan_apply(&pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_FAILED), 0);
        ios_plan_done(&pl);

        /* state, not calls: read the tree back */
        snprintf(path, sizeof(path), "%s/" NVME_Q "/scheduler", dir);
        assert_string_equal(t_read_file(path), "none [mq-deadline] ");      /* as the kernel prints it */
        snprintf(path, sizeof(path), "%s/" NVME_Q "/nr_requests", dir);
        assert_string_equal(t_read_file(path), "64");
        snprintf(path, sizeof(path), "%s/" NVME_Q "/read_ahead_kb", dir);
        assert_string_equal(t_read_file(path), "512");
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/read_expire", dir);
        assert_string_equal(t_read_file(path), "300");
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/fifo_batch", dir);
        assert_string_equal(t_read_file(path), "1");
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/read_lat_nsec", dir);
        assert_null(t_read_file(path));                         /* kyber's: not written */
        ios_device_free(d);
        ios_ctx_free(r);

        /* the kernel keeps read_expire in ticks, but 300 ms is a whole number of ticks at every
         * usual HZ (100, 250, 300, 1000): 304 is another value, not a rounding */
        snprintf(path, sizeof(path), "%s/" NVME_Q "/iosched/read_expire", dir);
        assert_int_equal(t_write_file(path, "304\n"), 0);
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_DRIFT), 1);
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        assert_int_equal(t_write_file(path, "300\n"), 0);

        /* second run: compliant, nothing to do */
        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_DRIFT), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_SKIPPED), 1);   /* read_lat_nsec */
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_refuses_unoffered_before_writing(void **state)
{
        char *dir = *state;
        char path[4096], before[256];
        struct ios_policy *p = t_parse("[Match]\nName=sda\n[Set]\nScheduler=bfq\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};

        snprintf(path, sizeof(path), "%s/" VSCSI_Q "/scheduler", dir);
        assert_int_equal(t_write_file(path, "[none] mq-deadline\n"), 0);
        snprintf(before, sizeof(before), "%s", t_read_file(path));
        d = t_dev(&r, dir, "sda");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_FAILED);
        assert_int_equal(pl.c[0].error, -EINVAL);
        assert_string_equal(pl.c[0].msg, "cannot set scheduler \"bfq\": not offered by kernel (available: none mq-deadline)");
        assert_int_equal(ios_plan_apply(&pl), -EINVAL);
        assert_string_equal(t_read_file(path), before);         /* nothing written */
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_bio_based_left_alone(void **state)
{
        struct ios_policy *p = t_parse("[Match]\n[Set]\nScheduler=mq-deadline\n", false);
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, t_fixture("zram"), "zram0");
        struct ios_plan pl = {};

        (void)state;
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(pl.n, 1);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_SKIPPED);
        assert_int_equal(ios_plan_apply(&pl), 0);
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

static void test_disk_vanishes_mid_apply(void **state)
{
        char *dir = *state;
        char cmd[4200];
        struct ios_policy *p = t_parse("[Match]\nClass=nvme\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=64\n", false);
        struct ios_ctx *r;
        struct ios_device *d;
        struct ios_plan pl = {};

        d = t_dev(&r, dir, "nvme0n1");
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_DRIFT), 2);
        /* hot-unplug between plan and apply: the queue directory is gone */
        snprintf(cmd, sizeof(cmd), "rm -rf '%s/" NVME_Q "'", dir);
        assert_int_equal(system(cmd), 0);
        assert_int_equal(ios_plan_apply(&pl), -ENOENT);
        assert_int_equal(pl.c[0].state, IOS_CHANGE_FAILED);
        assert_string_equal(pl.c[0].msg, "cannot set scheduler \"mq-deadline\": device vanished");
        /* nothing else is attempted on a vanished disk, and it says so */
        assert_int_equal(pl.c[1].state, IOS_CHANGE_NOT_APPLIED);
        assert_string_equal(pl.c[1].msg, "not applied: device vanished");
        assert_int_equal(ios_plan_count(&pl, IOS_CHANGE_DRIFT), 0);
        assert_non_null(pl.error_msg);
        ios_plan_done(&pl);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_builtin_defaults),
                cmocka_unit_test(test_match_and_merge),
                cmocka_unit_test(test_size_match),
                cmocka_unit_test_setup_teardown(test_zoned_safety_rule, setup_nvme, teardown),
                cmocka_unit_test(test_bad_corpus),
                cmocka_unit_test_setup_teardown(test_apply_on_fake_tree, setup_nvme, teardown),
                cmocka_unit_test_setup_teardown(test_final_state_checked, setup_nvme, teardown),
                cmocka_unit_test_setup_teardown(test_refuses_unoffered_before_writing, setup_vscsi, teardown),
                cmocka_unit_test(test_bio_based_left_alone),
                cmocka_unit_test_setup_teardown(test_disk_vanishes_mid_apply, setup_nvme, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
