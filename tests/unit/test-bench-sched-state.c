/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the save/restore half of sched-state.c on a copy of a
 * captured loop-device tree: the snapshot holds queue/ and queue/iosched/
 * tunables (and skips the scheduler file itself), restore writes back only
 * what changed (untouched files keep their mtime), reads everything back,
 * and reports an attribute it could not put back instead of claiming
 * success; the atexit hook fires only while a state is armed.  Only what
 * iosched-bench's own switches changed goes back: a value another program
 * set during the run (a read_ahead_kb, a scheduler) is kept and listed,
 * and so is one set before any switch.  Kernel side
 * effects of a real switch (bracket rewrite, nr_requests reset) are checked
 * on a real loop device by tests/integration/bench-restore-signal.sh.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/bench/bench.h"
#include "../../src/bench/compare.h"
#include "helpers.h"

#define QDIR "/sys/devices/virtual/block/loop0/queue"

struct fx {
        char *dir;
        struct ios_ctx *root;
        struct ios_device *dev;
};

static const char *path(struct fx *f, const char *rel)
{
        static char buf[4096];

        snprintf(buf, sizeof(buf), "%s%s/%s", f->dir, QDIR, rel);
        return buf;
}

static int setup(void **state)
{
        struct fx *f = calloc(1, sizeof(*f));

        f->dir = t_fixture_copy("loop");
        if (!f->dir)
                return -1;
        /* an elevator with exactly these tunables, as the kernel shows them */
        {
                char cmd[4200];

                snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path(f, "iosched"));
                if (system(cmd) != 0)
                        return -1;
        }
        t_write_file(path(f, "scheduler"), "none [mq-deadline]\n");
        t_write_file(path(f, "iosched/fifo_batch"), "8\n");
        t_write_file(path(f, "iosched/read_expire"), "500\n");
        t_write_file(path(f, "nr_requests"), "64\n");
        t_write_file(path(f, "read_ahead_kb"), "512\n");
        if (ios_ctx_new(f->dir, &f->root) < 0 || ios_device_new(f->root, "loop0", &f->dev) < 0)
                return -1;
        *state = f;
        return 0;
}

static int teardown(void **state)
{
        struct fx *f = *state;

        ios_device_free(f->dev);
        ios_ctx_free(f->root);
        t_rmtree(f->dir);
        free(f);
        return 0;
}

static void age(const char *p)
{
        struct timespec ts[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };

        assert_int_equal(utimensat(AT_FDCWD, p, ts, 0), 0);
}

static time_t mtime(const char *p)
{
        struct stat st;

        assert_int_equal(stat(p, &st), 0);
        return st.st_mtime;
}

static void test_save(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;

        size_t n_iosched = 0;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        assert_string_equal(bench_sched_state_get(&s, "queue/scheduler"), "mq-deadline");
        for (size_t i = 0; i < s.saved.n; i++)
                n_iosched += !strncmp(s.saved.s[i].key, "queue/iosched/", 14);
        assert_int_equal(n_iosched, 2);
        assert_int_equal(s.n_attrs, s.saved.n - 1);
        assert_string_equal(bench_sched_state_get(&s, "queue/iosched/fifo_batch"), "8");
        assert_string_equal(bench_sched_state_get(&s, "queue/nr_requests"), "64");
        assert_string_equal(bench_sched_state_get(&s, "queue/read_ahead_kb"), "512");
        assert_null(bench_sched_state_get(&s, "queue/nonexistent"));
        /* the scheduler file is not a queue tunable: it is the "scheduler" setting */
        for (size_t i = 0; i < s.saved.n; i++)
                assert_string_not_equal(s.saved.s[i].key, "queue/scheduler");
        assert_int_equal(bench_sched_verify(&s, NULL), 0);
        bench_sched_state_done(&s);
}

static struct ios_setting reset_set[] = {
        { (char *)"queue/nr_requests", (char *)"256", (char *)"test" },
        { (char *)"queue/iosched/fifo_batch", (char *)"16", (char *)"test" },
};
static const struct ios_wanted reset = { .s = reset_set, .n = 2 };

static void test_restore_only_changes(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        char **bad = NULL;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        /* what a switch away and back does: nr_requests reset, tunables reset */
        assert_int_equal(bench_sched_switch(f->dev, "none", NULL, NULL), 0);
        assert_int_equal(bench_sched_switch(f->dev, "mq-deadline", &reset, NULL), 0);
        assert_string_equal(t_read_file(path(f, "nr_requests")), "256");
        age(path(f, "read_ahead_kb"));
        age(path(f, "scheduler"));
        assert_int_equal(bench_sched_verify(&s, &bad), -EIO);
        assert_int_equal(ios_strv_length(bad), 2);
        assert_true(ios_strv_contains(bad, "queue/iosched/fifo_batch: want \"8\", is \"16\""));
        assert_true(ios_strv_contains(bad, "queue/nr_requests: want \"64\", is \"256\""));
        ios_strv_free(bad);
        bad = NULL;

        assert_true(s.armed);
        assert_int_equal(bench_sched_restore(&s, &bad), 0);
        assert_null(bad);
        assert_null(s.kept);
        assert_false(s.armed);
        assert_string_equal(t_read_file(path(f, "nr_requests")), "64");
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "8");
        /* unchanged attributes were not written */
        assert_int_equal(mtime(path(f, "read_ahead_kb")), 1000000000);
        assert_int_equal(mtime(path(f, "scheduler")), 1000000000);
        bench_sched_state_done(&s);
}

static void test_restore_reports_failure(void **state)
{
        struct ios_setting set = { (char *)"queue/nr_requests", (char *)"1", (char *)"test" };
        const struct ios_wanted one = { .s = &set, .n = 1 };
        struct fx *f = *state;
        struct bench_sched_state s;
        char **bad = NULL;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "mq-deadline", &one, NULL), 0);
        /* an attribute that cannot take its old value back any more */
        assert_int_equal(unlink(path(f, "read_ahead_kb")), 0);
        assert_int_equal(mkdir(path(f, "read_ahead_kb"), 0755), 0);
        assert_int_equal(bench_sched_restore(&s, &bad), -EIO);
        assert_int_equal(ios_strv_length(bad), 1);
        assert_non_null(strstr(bad[0], "queue/read_ahead_kb: want \"512\""));
        /* everything else was still put back */
        assert_string_equal(t_read_file(path(f, "nr_requests")), "64");
        ios_strv_free(bad);
        bench_sched_state_done(&s);
}

static void test_switch(void **state)
{
        struct fx *f = *state;
        struct ios_setting set[] = {
                { (char *)"queue/iosched/fifo_batch", (char *)"4", (char *)"test" },
                { (char *)"queue/read_ahead_kb", (char *)"256", (char *)"test" },
        };
        const struct ios_wanted extra = { .s = set, .n = 2 };
        char *msg = NULL;

        /* a scheduler the queue does not offer: refused before anything is written */
        assert_int_equal(bench_sched_switch(f->dev, "kyber", &extra, &msg), -EINVAL);
        assert_non_null(msg);
        assert_non_null(strstr(msg, "not offered"));
        free(msg);
        assert_string_equal(t_read_file(path(f, "scheduler")), "none [mq-deadline]");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "512");

        /* an offered one: switched, the queue/ tunable written and read back,
         * mq-deadline's fifo_batch skipped (none has no iosched/ tunables) */
        assert_int_equal(bench_sched_switch(f->dev, "none", &extra, &msg), 0);
        assert_null(msg);
        assert_string_equal(t_read_file(path(f, "scheduler")), "[none] mq-deadline ");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "256");
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "8");
}

static void test_restore_keeps_others(void **state)
{
        struct fx *f = *state;
        struct ios_setting set[] = {
                { (char *)"queue/read_ahead_kb", (char *)"256", (char *)"test" },
                { (char *)"queue/nr_requests", (char *)"32", (char *)"test" },
        };
        const struct ios_wanted extra = { .s = set, .n = 2 };
        struct bench_sched_state s;
        char **bad = NULL;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", &extra, NULL), 0);
        /* during the run, an iosched-apply sets read_ahead_kb */
        t_write_file(path(f, "read_ahead_kb"), "4096\n");
        assert_int_equal(bench_sched_restore(&s, &bad), 0);
        assert_null(bad);
        /* what iosched-bench changed went back; the other program's value stayed, said once */
        assert_string_equal(t_read_file(path(f, "scheduler")), "none [mq-deadline] ");
        assert_string_equal(t_read_file(path(f, "nr_requests")), "64");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "4096");
        assert_int_equal(ios_strv_length(s.kept), 1);
        assert_string_equal(s.kept[0], "queue/read_ahead_kb: another program set \"4096\" during the run; "
                            "kept (it was \"512\")");
        bench_sched_state_done(&s);
}

static void test_restore_keeps_other_scheduler(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        char **bad = NULL;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", NULL, NULL), 0);
        t_write_file(path(f, "nr_requests"), "16\n");
        t_write_file(path(f, "iosched/fifo_batch"), "2\n");
        /* another program switches to kyber: its scheduler, with its tunables, stays */
        t_write_file(path(f, "scheduler"), "none mq-deadline [kyber]\n");
        assert_int_equal(bench_sched_restore(&s, &bad), 0);
        assert_string_equal(t_read_file(path(f, "scheduler")), "none mq-deadline [kyber]");
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "2");
        assert_string_equal(t_read_file(path(f, "nr_requests")), "16");
        assert_int_equal(ios_strv_length(s.kept), 2);
        assert_true(ios_strv_contains(s.kept, "queue/scheduler: another program set \"kyber\" during the run; "
                                      "kept, with its iosched/ tunables (it was \"mq-deadline\")"));
        assert_true(ios_strv_contains(s.kept, "queue/nr_requests: another program set \"16\" during the run; "
                                      "kept (it was \"64\")"));
        bench_sched_state_done(&s);
}

static void test_restore_before_any_switch(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        char **bad = NULL;

        /* nothing switched yet (learning failed early): a change is someone else's */
        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        t_write_file(path(f, "read_ahead_kb"), "1024\n");
        age(path(f, "scheduler"));
        assert_int_equal(bench_sched_restore(&s, &bad), 0);
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "1024");
        assert_int_equal(mtime(path(f, "scheduler")), 1000000000);
        assert_int_equal(ios_strv_length(s.kept), 1);
        bench_sched_state_done(&s);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_save, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore_only_changes, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore_reports_failure, setup, teardown),
                cmocka_unit_test_setup_teardown(test_switch, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore_keeps_others, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore_keeps_other_scheduler, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restore_before_any_switch, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
