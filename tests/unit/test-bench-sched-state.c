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
 * and so is one set before any switch.  Over several switches (what a
 * --compare=none,mq-deadline does): a value another program wrote is
 * found by the next look (a check, or the switch's own), is not taken for
 * iosched-bench's own by that switch's snapshot, is kept by every later
 * switch and by the restore, and is named once with when it changed.  Kernel side
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
#include "strv.h"

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

/* What bench_sched_kept_print() says, in a static buffer. */
static const char *kept_lines(const struct bench_sched_state *s)
{
        static char buf[8192];
        FILE *f;

        memset(buf, 0, sizeof(buf));
        f = fmemopen(buf, sizeof(buf) - 1, "w");
        assert_non_null(f);
        bench_sched_kept_print(s, f);
        fclose(f);
        return buf;
}

static unsigned count(const char *hay, const char *needle)
{
        unsigned n = 0;

        for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
                n++;
        return n;
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
        assert_int_equal(s.n_kept, 0);
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
        assert_int_equal(s.n_kept, 1);
        assert_string_equal(kept_lines(&s), "iosched-bench: loop0: queue/read_ahead_kb: kept 4096, set by another "
                            "program before the first run (iosched-bench had 256)\n");
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
        assert_string_equal(kept_lines(&s),
                            "iosched-bench: loop0: queue/scheduler: kept kyber, set by another program before the "
                            "first run (iosched-bench had none), with its own iosched/ tunables\n"
                            "iosched-bench: loop0: queue/nr_requests: kept 16, set by another program before the "
                            "first run (iosched-bench had 64)\n");
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
        assert_int_equal(s.n_kept, 1);
        bench_sched_state_done(&s);
}

#define SET(k, v) { (char *)(k), (char *)(v), (char *)"test" }
/* what a --compare=none,mq-deadline writes with each scheduler: start values (and a --policy's read_ahead_kb) */
static struct ios_setting none_set[] = { SET("queue/nr_requests", "32"), SET("queue/read_ahead_kb", "512") };
static const struct ios_wanted to_none = { .s = none_set, .n = 2 };
static struct ios_setting dl_set[] = {
        SET("queue/nr_requests", "64"), SET("queue/read_ahead_kb", "512"),
        SET("queue/iosched/fifo_batch", "8"), SET("queue/iosched/read_expire", "500"),
};
static const struct ios_wanted to_dl = { .s = dl_set, .n = 4 };

/*
 * The bookkeeping over several switches: a value another program writes
 * between two switches is not iosched-bench's at the next one; that switch
 * and every later one keep it, and so does the restore, which names each
 * such file once; every other file goes back as found.
 */
static void test_keep_over_switches(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        struct ios_wanted found = {};
        const char *lines;
        char **bad = NULL;

        assert_int_equal(ios_snapshot_take(f->dev, &found), 0);
        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);
        /* while none runs, a policy sets read_ahead_kb and nr_requests */
        t_write_file(path(f, "read_ahead_kb"), "4096\n");
        t_write_file(path(f, "nr_requests"), "16\n");
        assert_int_equal(bench_sched_switch(f->dev, "mq-deadline", &to_dl, NULL), 0);
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "4096");
        assert_string_equal(t_read_file(path(f, "nr_requests")), "16");
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "8");
        /* while mq-deadline runs, its tunables */
        t_write_file(path(f, "iosched/fifo_batch"), "2\n");
        t_write_file(path(f, "iosched/read_expire"), "100\n");
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);
        assert_string_equal(t_read_file(path(f, "nr_requests")), "16");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "4096");
        assert_int_equal(bench_sched_switch(f->dev, "mq-deadline", &to_dl, NULL), 0);
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "2");
        assert_string_equal(t_read_file(path(f, "iosched/read_expire")), "100");
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);

        assert_int_equal(bench_sched_restore(&s, &bad), 0);
        assert_null(bad);
        assert_string_equal(t_read_file(path(f, "scheduler")), "none [mq-deadline] ");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "4096");
        assert_string_equal(t_read_file(path(f, "nr_requests")), "16");
        assert_string_equal(t_read_file(path(f, "iosched/fifo_batch")), "2");
        assert_string_equal(t_read_file(path(f, "iosched/read_expire")), "100");
        /* every other file as found */
        for (size_t i = 0; i < found.n; i++) {
                const char *k = found.s[i].key, *p = k + strlen("queue/");

                if (!strcmp(k, "scheduler") || !strcmp(p, "read_ahead_kb") || !strcmp(p, "nr_requests") ||
                    !strcmp(p, "iosched/fifo_batch") || !strcmp(p, "iosched/read_expire"))
                        continue;
                assert_string_equal(t_read_file(path(f, p)), found.s[i].value);
        }
        /* each kept file said once */
        lines = kept_lines(&s);
        assert_int_equal(count(lines, "\n"), 4);
        assert_int_equal(count(lines, "queue/read_ahead_kb: "), 1);
        assert_int_equal(count(lines, "queue/nr_requests: "), 1);
        assert_int_equal(count(lines, "queue/iosched/fifo_batch: "), 1);
        assert_int_equal(count(lines, "queue/iosched/read_expire: "), 1);
        ios_wanted_done(&found);
        bench_sched_state_done(&s);
}

/*
 * The phases the trial names, what each check finds, the lines and the
 * restore's summary; a file changed again is one line with both times; a
 * scheduler another program switched stops every later switch.
 */
static void test_check_phases(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        char what[256], *msg = NULL;
        const char *lines;

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);
        bench_sched_phase(&s, "during the none 1/2 run, which has no result");
        assert_int_equal(bench_sched_check(&s), 0);
        t_write_file(path(f, "read_ahead_kb"), "4096\n");
        assert_int_equal(bench_sched_check(&s), 1);
        assert_int_equal(bench_sched_check(&s), 0);     /* seen once */
        assert_non_null(bench_sched_kept_get(&s, "queue/read_ahead_kb"));
        assert_string_equal(bench_sched_kept_get(&s, "queue/read_ahead_kb")->had, "512");
        bench_sched_phase(&s, "after the none 1/2 run");
        assert_int_equal(bench_sched_switch(f->dev, "mq-deadline", &to_dl, NULL), 0);
        bench_sched_phase(&s, "during the mq-deadline 1/2 run, which has no result");
        t_write_file(path(f, "read_ahead_kb"), "8192\n");
        t_write_file(path(f, "iosched/fifo_batch"), "2\n");
        assert_int_equal(bench_sched_check(&s), 2);
        assert_string_equal(bench_sched_kept_get(&s, "queue/iosched/fifo_batch")->sched, "mq-deadline");
        assert_null(bench_sched_taken(&s));
        /* now another program switches the scheduler: no further switch */
        bench_sched_phase(&s, "after the mq-deadline 1/2 run");
        t_write_file(path(f, "scheduler"), "[none] mq-deadline\n");
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, &msg), -ESTALE);
        assert_string_equal(msg, "another program switched the scheduler to \"none\" after the mq-deadline 1/2 run; "
                            "it is kept");
        free(msg);
        assert_string_equal(bench_sched_taken(&s), "none");
        assert_int_equal(bench_sched_restore(&s, NULL), 0);
        assert_string_equal(t_read_file(path(f, "scheduler")), "[none] mq-deadline");
        assert_string_equal(t_read_file(path(f, "read_ahead_kb")), "8192");
        assert_string_equal(t_read_file(path(f, "nr_requests")), "64");       /* iosched-bench's, put back */
        lines = kept_lines(&s);
        assert_string_equal(lines,
                "iosched-bench: loop0: queue/scheduler: kept none, set by another program after the mq-deadline "
                "1/2 run (iosched-bench had mq-deadline), with its own iosched/ tunables\n"
                "iosched-bench: loop0: queue/read_ahead_kb: kept 8192, set by another program during the none 1/2 "
                "run, which has no result, and during the mq-deadline 1/2 run, which has no result "
                "(iosched-bench had 512)\n");
        assert_non_null(strstr(bench_sched_restored_what(&s, what, sizeof(what)),
                               "scheduler none kept as another program set it, with its iosched/ tunables and 1 more"));
        bench_sched_state_done(&s);
}

/* The restore's summary never says "as found" for a kept file. */
static void test_restored_what(void **state)
{
        struct fx *f = *state;
        struct bench_sched_state s;
        char what[256], expect[256];

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);
        assert_int_equal(bench_sched_restore(&s, NULL), 0);
        snprintf(expect, sizeof(expect), "scheduler mq-deadline and %zu queue tunables as found", s.n_attrs);
        assert_string_equal(bench_sched_restored_what(&s, what, sizeof(what)), expect);
        bench_sched_state_done(&s);

        assert_int_equal(bench_sched_save(f->dev, &s), 0);
        bench_sched_arm(&s, NULL);
        assert_int_equal(bench_sched_switch(f->dev, "none", &to_none, NULL), 0);
        t_write_file(path(f, "nr_requests"), "16\n");
        assert_int_equal(bench_sched_restore(&s, NULL), 0);
        snprintf(expect, sizeof(expect), "scheduler mq-deadline and %zu queue tunables as found, "
                 "1 kept as another program set them", s.n_attrs - 1);
        assert_string_equal(bench_sched_restored_what(&s, what, sizeof(what)), expect);
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
                cmocka_unit_test_setup_teardown(test_keep_over_switches, setup, teardown),
                cmocka_unit_test_setup_teardown(test_check_phases, setup, teardown),
                cmocka_unit_test_setup_teardown(test_restored_what, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
