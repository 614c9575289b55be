/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the policy validate hands iosched-bench (validate-policy.c),
 * on a captured tree (megaraid-ld: sdb, class raid).  Without policy
 * options: a bare --policy; with --config alone: --policy=FILE.  With
 * --config-root (or --drop-in, --no-builtin): one rule of the policy's
 * settings for the disk, in a new file of its own directory, that resolves
 * as the bench reads it (built-in rules first) to the same settings; the
 * directory is removed after.  A --no-builtin policy that the built-in
 * rules would add to on this disk (Scheduler=none for raid) is refused
 * with what differs, not measured.  Needs root: the bench's ownership
 * checks are the real ones.
 */
#define _GNU_SOURCE
#include <errno.h>
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
#include "macro.h"
#include "../../src/apply/apply.h"
#include "helpers.h"
#include "policy-helpers.h"

struct t {
        char dir[64];
        struct ios_ctx *root;
        struct ios_device *d;
        struct ios_policy *p;
};

static int setup(void **state)
{
        struct t *t = calloc(1, sizeof(*t));

        if (!t)
                return -1;
        snprintf(t->dir, sizeof(t->dir), "/tmp/iosched-test-XXXXXX");
        if (!mkdtemp(t->dir))
                return -1;
        t->d = t_dev(&t->root, t_fixture("megaraid-ld"), "sdb");
        *state = t;
        return 0;
}

static int teardown(void **state)
{
        struct t *t = *state;
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->dir);
        if (system(cmd) != 0)
                return -1;
        ios_policy_free(t->p);
        ios_device_free(t->d);
        ios_ctx_free(t->root);
        free(t);
        return 0;
}

static const char *at(struct t *t, const char *rel)
{
        static char buf[256];

        snprintf(buf, sizeof(buf), "%s%s", t->dir, rel);
        return buf;
}

static void load(struct t *t, const char *conf_root, const char *file, unsigned flags)
{
        struct ios_error pe = {};

        ios_policy_free(t->p);
        t->p = NULL;
        if (ios_policy_load(conf_root, file, flags, &t->p, &pe) < 0 || pe.file[0])
                fail_msg("%s:%u: %s", pe.file, pe.line, pe.msg);
}

static void skip_unless_root(void)
{
        if (geteuid() != 0)
                skip();         /* the policy file for the bench must be root's, as the bench checks */
}

static void test_what_the_bench_reads(void **state)
{
        struct t *t = *state;
        char *arg = NULL, *dir = NULL, *msg = NULL;
        struct apply_validate_opts o = { .dev = t->d };

        /* the empty root's directories must be root's for the policy loader
         * to read them (a package build runs its tests as a user) */
        skip_unless_root();
        /* a configuration root with no policy files: the built-in policy only */
        assert_true(mkdir(at(t, "/emptyroot"), 0755) == 0 || errno == EEXIST);
        load(t, at(t, "/emptyroot"), NULL, 0);
        o.policy = t->p;
        assert_int_equal(apply_validate_policy_arg(&o, &arg, &dir, &msg), 0);
        assert_string_equal(arg, "--policy");
        assert_null(dir);
        assert_null(msg);
        free(arg);
        o.config = "/etc/site.conf";
        assert_int_equal(apply_validate_policy_arg(&o, &arg, &dir, &msg), 0);
        assert_string_equal(arg, "--policy=/etc/site.conf");
        assert_null(dir);
        free(arg);
}

static void test_config_root(void **state)
{
        struct t *t = *state;
        char *arg = NULL, *dir = NULL, *msg = NULL;
        const char *text;
        struct stat st;
        struct apply_validate_opts o = { .dev = t->d };

        skip_unless_root();
        assert_int_equal(t_write_file(at(t, "/root/etc/iosched.d/50-sdb.conf"),
                                      "[Match]\nName=sdb\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=512\n"
                                      "queue/iosched/fifo_batch=8\n"), 0);
        assert_int_equal(chmod(at(t, "/root/etc/iosched.d/50-sdb.conf"), 0644), 0);
        load(t, at(t, "/root"), NULL, 0);
        o.policy = t->p;
        o.conf_root = at(t, "/root");
        setenv("TMPDIR", t->dir, 1);
        assert_int_equal(apply_validate_policy_arg(&o, &arg, &dir, &msg), 0);
        unsetenv("TMPDIR");
        assert_null(msg);
        assert_non_null(dir);
        assert_non_null(startswith(dir, t->dir));
        assert_non_null(startswith(arg, "--policy="));
        assert_int_equal(stat(arg + 9, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0644);
        text = t_read_file(arg + 9);
        assert_non_null(text);
        assert_non_null(strstr(text, "[Match]\nName=sdb\n[Set]\n"));
        assert_non_null(strstr(text, "\nScheduler=mq-deadline\n"));
        assert_non_null(strstr(text, "\nqueue/read_ahead_kb=512\n"));
        assert_non_null(strstr(text, "\nqueue/iosched/fifo_batch=8"));     /* the last line */
        apply_validate_policy_remove(dir);
        assert_int_equal(stat(arg + 9, &st), -1);
        free(arg);
}

/* --no-builtin: the bench's built-in rules would add Scheduler=none on a raid disk: refused, said */
static void test_builtin_would_add(void **state)
{
        struct t *t = *state;
        char *arg = NULL, *dir = NULL, *msg = NULL;
        struct apply_validate_opts o = { .dev = t->d, .no_builtin = true };

        skip_unless_root();
        assert_int_equal(t_write_file(at(t, "/only.conf"), "[Match]\nClass=raid\n[Set]\nqueue/read_ahead_kb=512\n"), 0);
        assert_int_equal(chmod(at(t, "/only.conf"), 0644), 0);
        load(t, NULL, at(t, "/only.conf"), IOS_POLICY_NO_BUILTIN);
        o.policy = t->p;
        o.config = at(t, "/only.conf");
        setenv("TMPDIR", t->dir, 1);
        assert_int_equal(apply_validate_policy_arg(&o, &arg, &dir, &msg), -EINVAL);
        unsetenv("TMPDIR");
        assert_null(arg);
        assert_non_null(msg);
        if (!strstr(msg, "would also set scheduler=none noop") || !strstr(msg, "not measuring something else"))
                fail_msg("%s", msg);
        free(msg);
        apply_validate_policy_remove(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_what_the_bench_reads, setup, teardown),
                cmocka_unit_test_setup_teardown(test_config_root, setup, teardown),
                cmocka_unit_test_setup_teardown(test_builtin_would_add, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
