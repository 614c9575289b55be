/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: udev rules evaluated against a disk (writers-udev.c,
 * ios_writers_eval): KERNEL, SUBSYSTEM, ACTION (add or change), ENV{} from
 * the disk's uevent and the udev database (unknown without one), ATTR{} (an
 * attribute that cannot be read fails the rule), TEST, "|" alternatives and
 * i"...", GOTO/LABEL flow (a GOTO with no LABEL ignored, one that cannot be
 * evaluated makes what it may skip "maybe"), a key not evaluated or a
 * substitution "maybe" with the key named; TuneD's devices= by name.  The
 * rules under a temporary configuration root, the disk megaraid-ld's sdb.
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
#include "helpers.h"
#include "policy-helpers.h"

static int setup(void **state)
{
        char tmpl[] = "/tmp/iosched-test-XXXXXX";

        *state = mkdtemp(tmpl) ? strdup(tmpl) : NULL;
        return *state ? 0 : -1;
}

static int teardown(void **state)
{
        t_rmtree(*state);
        return 0;
}

/* The verdict for sysroot's disk of the one writer the rules text (one file) has, and why. */
static enum ios_writer_verdict verdict(const char *conf, const char *sysroot, const char *disk,
                                       const char *rules, const char **why_contains)
{
        char p[4096];
        struct ios_writers ws = {};
        struct ios_writer_eval *ev = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        enum ios_writer_verdict v;

        snprintf(p, sizeof(p), "%s/etc/udev/rules.d/70-t.rules", conf);
        assert_int_equal(t_write_file(p, rules), 0);
        assert_int_equal(ios_writers_scan(conf, &ws), 0);
        assert_int_equal(ws.n, 1);
        d = t_dev(&r, sysroot, disk);
        assert_int_equal(ios_writers_eval(&ws, d, &ev), 0);
        v = ev[0].verdict;
        if (why_contains && *why_contains) {
                assert_non_null(ev[0].why);
                assert_non_null(strstr(ev[0].why, *why_contains));
        }
        free(ev);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_writers_done(&ws);
        return v;
}

#define YES IOS_WRITER_YES
#define NO IOS_WRITER_NO
#define MAYBE IOS_WRITER_MAYBE

static void test_keys(void **state)
{
        const char *c = *state, *fx = t_fixture("megaraid-ld");
        static const struct {
                const char *rules;
                enum ios_writer_verdict want;
                const char *why;
        } t[] = {
                { "KERNEL==\"sd*\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "KERNEL==\"nvme*|vd*\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "KERNEL!=\"sda|sdb\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "SUBSYSTEM==\"block\", ACTION==\"change\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ACTION==\"remove\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "ACTION!=\"add\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },    /* change */
                { "SUBSYSTEM==\"scsi\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "DRIVER==\"?*\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "ENV{DEVTYPE}==\"disk\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ENV{DEVTYPE}==i\"DISK\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ENV{DEVTYPE}==\"partition\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                /* unset in the db */
                { "ENV{ID_FS_TYPE}==\"\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ENV{ID_FS_TYPE}==\"btrfs\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "ATTR{queue/rotational}==\"1\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ATTR{queue/rotational}==\"0\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "ATTR{queue/no_such_file}!=\"1\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "TEST==\"queue/scheduler\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "TEST==\"queue/no_such_file\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
                { "TEST!=\"queue/no_such_file\", ATTR{queue/scheduler}=\"a\"\n", YES, NULL },
                { "ATTRS{vendor}==\"QEMU\", ATTR{queue/scheduler}=\"a\"\n", MAYBE, "ATTRS{vendor}" },
                { "PROGRAM=\"/bin/x\", ATTR{queue/scheduler}=\"a\"\n", MAYBE, "PROGRAM" },
                { "ATTR{queue/rotational}==\"$env{X}\", ATTR{queue/scheduler}=\"a\"\n", MAYBE,
                  "ATTR{queue/rotational}" },
                /* a key that says no outranks one not evaluated */
                { "ATTRS{vendor}==\"QEMU\", KERNEL==\"nvme*\", ATTR{queue/scheduler}=\"a\"\n", NO, NULL },
        };

        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                const char *why = t[i].why;
                enum ios_writer_verdict v = verdict(c, fx, "sdb", t[i].rules, &why);

                if (v != t[i].want)
                        fail_msg("%s: verdict %d, want %d", t[i].rules, v, t[i].want);
        }
}

static void test_flow(void **state)
{
        const char *c = *state, *fx = t_fixture("megaraid-ld");
        const char *why = "ATTRS{model}";

        /* a GOTO taken skips to its LABEL; one not taken does not */
        assert_int_equal(verdict(c, fx, "sdb", "ACTION==\"remove\", GOTO=\"e\"\nKERNEL==\"sd*\", "
                                 "ATTR{queue/scheduler}=\"a\"\nLABEL=\"e\"\n", NULL), YES);
        assert_int_equal(verdict(c, fx, "sdb", "KERNEL==\"sd*\", GOTO=\"e\"\nATTR{queue/scheduler}=\"a\"\n"
                                 "LABEL=\"e\"\n", NULL), NO);
        /* after the LABEL, rules apply again */
        assert_int_equal(verdict(c, fx, "sdb", "KERNEL==\"sd*\", GOTO=\"e\"\nLABEL=\"e\"\n"
                                 "ATTR{queue/scheduler}=\"a\"\n", NULL), YES);
        /* a GOTO whose LABEL is not in the file is ignored, as udev does */
        assert_int_equal(verdict(c, fx, "sdb", "KERNEL==\"sd*\", GOTO=\"nowhere\"\n"
                                 "ATTR{queue/scheduler}=\"a\"\n", NULL), YES);
        /* a GOTO that cannot be evaluated: what it may skip is "maybe", with its key */
        assert_int_equal(verdict(c, fx, "sdb", "ATTRS{model}==\"X\", GOTO=\"e\"\n"
                                 "ATTR{queue/scheduler}=\"a\"\nLABEL=\"e\"\n", &why), MAYBE);
        /* ... and not past its LABEL */
        assert_int_equal(verdict(c, fx, "sdb", "ATTRS{model}==\"X\", GOTO=\"e\"\nLABEL=\"e\"\n"
                                 "ATTR{queue/scheduler}=\"a\"\n", NULL), YES);
        /* ACTION=="add" in one branch, "change" in the other: written at some event */
        assert_int_equal(verdict(c, fx, "sdb", "ACTION==\"add\", GOTO=\"e\"\nATTR{queue/scheduler}=\"a\"\n"
                                 "LABEL=\"e\"\n", NULL), YES);
}

/* without a udev database entry ENV{} of a rule is not known, but the uevent's keys are */
static void test_no_udev_db(void **state)
{
        const char *c = *state;
        const char *why = "ENV{ID_FS_TYPE}";
        char *dir = t_fixture_copy("megaraid-ld");
        char p[4096];

        assert_non_null(dir);
        snprintf(p, sizeof(p), "%s/run/udev/data/b8:16", dir);
        assert_int_equal(unlink(p), 0);
        assert_int_equal(verdict(c, dir, "sdb", "ENV{ID_FS_TYPE}==\"btrfs\", ATTR{queue/scheduler}=\"a\"\n",
                                 &why), MAYBE);
        assert_int_equal(verdict(c, dir, "sdb", "ENV{DEVTYPE}==\"disk\", ATTR{queue/scheduler}=\"a\"\n",
                                 NULL), YES);
        t_rmtree(dir);
}

/* TuneD writers by name: devices= */
static void test_tuned_by_name(void **state)
{
        const char *c = *state;
        char p[4096];
        struct ios_writers ws = {};
        struct ios_writer_eval *ev = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        snprintf(p, sizeof(p), "%s/etc/tuned/active_profile", c);
        assert_int_equal(t_write_file(p, "p\n"), 0);
        snprintf(p, sizeof(p), "%s/usr/lib/tuned/p/tuned.conf", c);
        assert_int_equal(t_write_file(p, "[a]\ntype=disk\ndevices=nvme*\nelevator=none\n[b]\ntype=disk\n"
                                         "devices=sd*\nreadahead=>4096\n"), 0);
        assert_int_equal(ios_writers_scan(c, &ws), 0);
        assert_int_equal(ws.n, 2);
        d = t_dev(&r, t_fixture("megaraid-ld"), "sdb");
        assert_int_equal(ios_writers_eval(&ws, d, &ev), 0);
        assert_int_equal(ev[0].verdict, NO);
        assert_int_equal(ev[1].verdict, YES);
        free(ev);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_writers_done(&ws);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_keys, setup, teardown),
                cmocka_unit_test_setup_teardown(test_flow, setup, teardown),
                cmocka_unit_test_setup_teardown(test_no_udev_db, setup, teardown),
                cmocka_unit_test_setup_teardown(test_tuned_by_name, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
