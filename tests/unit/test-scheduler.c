/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: queue/scheduler parsing (blk-mq, legacy, bio-based, broken)
 * and the choice of a scheduler from a preference list across the legacy
 * and blk-mq name families; a captured tree answers a scheduler write as
 * the kernel would (faketree.c).
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
#include "device-internal.h"
#include "helpers.h"
#include "strv.h"

#define LOOP_Q "/sys/devices/virtual/block/loop0/queue"

/* A copy of the captured loop-device tree and its disk, freed even when an assert fails. */
struct tree {
        char *dir;
        struct ios_ctx *r;
        struct ios_device *d;
};

static int tree_setup(void **state)
{
        struct tree *t = calloc(1, sizeof(*t));

        if (!t)
                return -1;
        *state = t;
        t->dir = t_fixture_copy("loop");
        if (!t->dir || ios_ctx_new(t->dir, &t->r) < 0 || ios_device_new(t->r, "loop0", &t->d) < 0)
                return -1;
        return 0;
}

static int tree_teardown(void **state)
{
        struct tree *t = *state;

        if (!t)
                return 0;
        ios_device_free(t->d);
        ios_ctx_free(t->r);
        t_rmtree(t->dir);
        free(t);
        return 0;
}

static const char *q_file(const struct tree *t, const char *name)
{
        static char p[4096];

        snprintf(p, sizeof(p), "%s" LOOP_Q "/%s", t->dir, name);
        return t_read_file(p);
}

static void test_parse(void **state)
{
        char *cur = NULL, **av = NULL;

        (void)state;
        assert_int_equal(ios_sched_parse("none [mq-deadline] kyber bfq \n", &cur, &av), 0);
        assert_string_equal(cur, "mq-deadline");
        assert_int_equal(ios_strv_length(av), 4);
        assert_string_equal(av[0], "none");
        assert_string_equal(av[1], "mq-deadline");
        free(cur);
        ios_strv_free(av);

        assert_int_equal(ios_sched_parse("noop deadline [cfq]", &cur, &av), 0);
        assert_string_equal(cur, "cfq");
        assert_int_equal(ios_strv_length(av), 3);
        free(cur);
        ios_strv_free(av);

        /* bio-based queues on 5.x: "none" without brackets, no choice */
        assert_int_equal(ios_sched_parse("none\n", &cur, &av), 0);
        assert_null(cur);
        assert_int_equal(ios_strv_length(av), 1);
        ios_strv_free(av);

        assert_int_equal(ios_sched_parse("", &cur, &av), 0);
        assert_null(cur);
        assert_int_equal(ios_strv_length(av), 0);
        ios_strv_free(av);

        assert_int_equal(ios_sched_parse("none [mq-deadline", &cur, &av), -EBADMSG);
        assert_int_equal(ios_sched_parse("averyveryverylongschedulername", &cur, &av), -EBADMSG);
}

static void test_alias(void **state)
{
        (void)state;
        assert_string_equal(ios_sched_alias("noop", false), "none");
        assert_string_equal(ios_sched_alias("deadline", false), "mq-deadline");
        assert_string_equal(ios_sched_alias("cfq", false), "bfq");
        assert_string_equal(ios_sched_alias("none", true), "noop");
        assert_string_equal(ios_sched_alias("mq-deadline", true), "deadline");
        assert_string_equal(ios_sched_alias("bfq", true), "cfq");
        assert_string_equal(ios_sched_alias("kyber", true), "cfq");
        assert_null(ios_sched_alias("kyber", false));
        assert_null(ios_sched_alias("none", false));
}

static void choose(const char *prefs_s, const char *avail_s, bool mod, int want_idx, const char *want)
{
        char **prefs = NULL, **avail = NULL, **loadable = NULL;
        const char *got = NULL;

        assert_int_equal(ios_strv_split(prefs_s, " ", &prefs), 0);
        assert_int_equal(ios_strv_split(avail_s, " ", &avail), 0);
        if (mod)
                assert_int_equal(ios_strv_split("bfq kyber", " ", &loadable), 0);
        assert_int_equal(ios_sched_choose(prefs, avail, loadable, &got), want_idx);
        ios_strv_free(loadable);
        if (want)
                assert_string_equal(got, want);
        ios_strv_free(prefs);
        ios_strv_free(avail);
}

static void test_choose(void **state)
{
        (void)state;
        choose("none", "none mq-deadline kyber bfq", false, 0, "none");
        choose("noop", "none mq-deadline kyber bfq", false, 0, "none");
        choose("deadline", "none mq-deadline", false, 0, "mq-deadline");
        choose("none", "noop deadline cfq", false, 0, "noop");
        choose("mq-deadline", "noop deadline cfq", false, 0, "deadline");
        /* kyber has no legacy twin: the next preference first, cfq only as last resort */
        choose("kyber mq-deadline", "noop deadline cfq", false, 1, "deadline");
        choose("kyber none", "noop deadline cfq", false, 1, "noop");
        choose("kyber", "noop deadline cfq", false, 0, "cfq");
        choose("bogus mq-deadline", "noop deadline cfq", false, 1, "deadline");
        choose("kyber none", "none mq-deadline", false, 1, "none");
        /* kyber not loaded yet: the kernel loads kyber-iosched on write */
        choose("kyber none", "none mq-deadline", true, 0, "kyber");
        choose("cfq", "none mq-deadline", true, 0, "bfq");
        choose("bogus", "none mq-deadline", true, -ENOENT, NULL);
        /* a module that does not exist is not a choice */
        choose("mq-deadline none", "none", true, 1, "none");
        choose("kyber", "noop deadline cfq", true, 0, "cfq");
        choose("bfq", "", false, -ENOENT, NULL);
}

static void test_strv(void **state)
{
        char **l = NULL, *j;

        (void)state;
        assert_int_equal(ios_strv_split("  a  b c ", " ", &l), 0);
        assert_int_equal(ios_strv_length(l), 3);
        assert_true(ios_strv_contains(l, "b"));
        assert_false(ios_strv_contains(l, "d"));
        j = ios_strv_join(l, ",");
        assert_string_equal(j, "a,b,c");
        free(j);
        assert_int_equal(ios_strv_pushf(&l, "%s-%d", "x", 1), 0);
        assert_string_equal(l[3], "x-1");
        ios_strv_free(l);
}

static void test_faketree_write(void **state)
{
        struct tree *t = *state;

        assert_false(ios_ctx_is_host(t->r));
        assert_string_equal(q_file(t, "scheduler"), "[none] mq-deadline ");
        /* a switch: the kernel lists what it offers, the new one bracketed */
        assert_int_equal(ios_device_write(t->d, "queue/scheduler", "mq-deadline"), 0);
        assert_string_equal(q_file(t, "scheduler"), "none [mq-deadline] ");
        assert_int_equal(ios_device_refresh_sched(t->d), 0);
        assert_string_equal(t->d->sched_current, "mq-deadline");
        assert_int_equal(ios_strv_length(t->d->sched_avail), 2);
        /* a name it does not offer is refused and changes nothing */
        assert_int_equal(ios_device_write(t->d, "queue/scheduler", "kyber"), -EINVAL);
        assert_string_equal(q_file(t, "scheduler"), "none [mq-deadline] ");
        /* blanks around the name are the kernel's to strip */
        assert_int_equal(ios_device_write(t->d, "queue/scheduler", " none\n"), 0);
        assert_string_equal(q_file(t, "scheduler"), "[none] mq-deadline ");
        /* every other attribute reads back as written, as plain files do */
        assert_int_equal(ios_device_write(t->d, "queue/read_ahead_kb", "256"), 0);
        assert_string_equal(q_file(t, "read_ahead_kb"), "256");
        assert_int_equal(ios_device_write(t->d, "queue/nope/x", "1"), -ENOENT);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_parse),
                cmocka_unit_test(test_alias),
                cmocka_unit_test(test_choose),
                cmocka_unit_test(test_strv),
                cmocka_unit_test_setup_teardown(test_faketree_write, tree_setup, tree_teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
