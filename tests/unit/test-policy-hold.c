/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: a broken policy file changes no disk (policy-hold.c,
 * policy.c): the disks its [Match] selects keep every setting it names
 * (no fall-through to a lower file or the built-in rules), a later file
 * still wins, a disk it does not match is not held, and a file whose
 * [Match] or text cannot be read holds every disk.  On the megaraid-ld
 * fixture (sdb, class raid, mq-deadline; the built-in rule says none).
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
#include "helpers.h"

struct t {
        char root[64];          /* conf_root */
        struct ios_ctx *ctx;
        struct ios_device *dev;
};

static int setup(void **state)
{
        struct t *t = calloc(1, sizeof(*t));

        if (!t)
                return -1;
        snprintf(t->root, sizeof(t->root), "/tmp/iosched-test-XXXXXX");
        if (!mkdtemp(t->root) || ios_ctx_new(t_fixture("megaraid-ld"), &t->ctx) < 0 ||
            ios_device_new(t->ctx, "sdb", &t->dev) < 0)
                return -1;
        *state = t;
        return 0;
}

static int teardown(void **state)
{
        struct t *t = *state;

        ios_device_free(t->dev);
        ios_ctx_free(t->ctx);
        t_rmtree(strdup(t->root));
        free(t);
        return 0;
}

static void put(const struct t *t, const char *name, const char *text, mode_t mode)
{
        char p[256];

        snprintf(p, sizeof(p), "%s/etc/iosched.d/%s", t->root, name);
        assert_int_equal(t_write_file(p, text), 0);
        assert_int_equal(chmod(p, mode), 0);
}

static const struct ios_setting *wanted(const struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; i < w->n; i++)
                if (strcmp(w->s[i].key, key) == 0)
                        return &w->s[i];
        return NULL;
}

static const struct ios_held *held(const struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; i < w->nheld; i++)
                if (strcmp(w->held[i].key, key) == 0)
                        return &w->held[i];
        return NULL;
}

/* Load t's policy and resolve sdb; the number of policy errors in *nerr. */
static void resolve(const struct t *t, struct ios_wanted *w, size_t *nerr, bool *holds_all)
{
        struct ios_policy *p = NULL;
        struct ios_error err;
        const struct ios_error *e;

        assert_int_equal(ios_policy_load(t->root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
        e = ios_policy_errors(p, nerr);
        *holds_all = *nerr && e[0].holds_all;
        assert_int_equal(ios_policy_resolve(p, t->dev, w), 0);
        ios_policy_free(p);
}

static void test_broken_value_holds_what_it_names(void **state)
{
        struct t *t = *state;
        struct ios_wanted w = {};
        size_t nerr;
        bool all;

        put(t, "10-low.conf", "[Match]\nClass=raid\n[Set]\nScheduler=none\nqueue/nr_requests=64\n", 0644);
        put(t, "60-perc.conf", "[Match]\nClass=raid\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=1M\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 1);
        assert_false(all);
        /* neither the built-in none nor 10-low's none: the scheduler is held */
        assert_null(wanted(&w, "scheduler"));
        assert_null(wanted(&w, "queue/read_ahead_kb"));
        assert_non_null(held(&w, "scheduler"));
        assert_non_null(strstr(held(&w, "scheduler")->source, "60-perc.conf:5"));
        assert_non_null(held(&w, "queue/read_ahead_kb"));
        /* what the broken file does not name still comes from the lower file */
        assert_non_null(wanted(&w, "queue/nr_requests"));
        ios_wanted_done(&w);

        /* a later file still wins over the broken one, as it would over a fixed one */
        put(t, "90-late.conf", "[Match]\nName=sdb\n[Set]\nqueue/read_ahead_kb=256\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_non_null(wanted(&w, "queue/read_ahead_kb"));
        assert_null(held(&w, "queue/read_ahead_kb"));
        assert_non_null(held(&w, "scheduler"));
        ios_wanted_done(&w);
}

static void test_broken_file_for_other_disks_holds_nothing(void **state)
{
        struct t *t = *state;
        struct ios_wanted w = {};
        size_t nerr;
        bool all;

        put(t, "60-hdd.conf", "[Match]\nClass=hdd\n[Set]\nScheduler=bfq\nqueue/iosched/slice_idle=x\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 1);
        assert_false(all);
        assert_int_equal(w.nheld, 0);
        assert_non_null(wanted(&w, "scheduler"));      /* built-in: none for raid */
        ios_wanted_done(&w);
}

static void test_unknown_key_holds_every_setting_of_its_disks(void **state)
{
        struct t *t = *state;
        struct ios_wanted w = {};
        size_t nerr;
        bool all;

        put(t, "60-perc.conf", "[Match]\nClass=raid\n[Set]\nqueue/read_ahead=1024\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 1);
        assert_false(all);
        assert_int_equal(w.n, 0);
        assert_non_null(held(&w, "*"));
        ios_wanted_done(&w);
}

static void test_unreadable_match_holds_every_disk(void **state)
{
        struct t *t = *state;
        struct ios_wanted w = {};
        size_t nerr;
        bool all;

        /* a [Match] with an error: which disks it meant is not known */
        put(t, "60-perc.conf", "[Match]\nClass=raidd\n[Set]\nScheduler=mq-deadline\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 1);
        assert_true(all);
        assert_int_equal(w.n, 0);
        assert_non_null(held(&w, "*"));
        ios_wanted_done(&w);

        /* a file refused (group-writable): its text is not even read */
        put(t, "60-perc.conf", "[Match]\nClass=hdd\n[Set]\nScheduler=mq-deadline\n", 0664);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 1);
        assert_true(all);
        assert_int_equal(w.n, 0);
        ios_wanted_done(&w);

        /* fixed: the policy applies again */
        put(t, "60-perc.conf", "[Match]\nClass=raid\n[Set]\nScheduler=mq-deadline # kept for the LD\n", 0644);
        resolve(t, &w, &nerr, &all);
        assert_int_equal(nerr, 0);
        assert_string_equal(wanted(&w, "scheduler")->value, "mq-deadline");
        assert_int_equal(w.nheld, 0);
        ios_wanted_done(&w);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_broken_value_holds_what_it_names, setup, teardown),
                cmocka_unit_test_setup_teardown(test_broken_file_for_other_disks_holds_nothing, setup, teardown),
                cmocka_unit_test_setup_teardown(test_unknown_key_holds_every_setting_of_its_disks, setup, teardown),
                cmocka_unit_test_setup_teardown(test_unreadable_match_holds_every_disk, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
