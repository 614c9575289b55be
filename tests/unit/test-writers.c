/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the library pieces of issue 12: other writers of queue
 * attributes (writers.c: TuneD profiles with include= and devices=, udev
 * rules with continuation lines, KERNEL==, masking and iosched's own rule
 * left out, a FIFO in their place never opened) and --drop-in NAME=FILE (policy-dropin.c: parsing, replace,
 * add in name order, /dev/null removes, the last of a name counts).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"
#include "strv.h"

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

static void put(const char *root, const char *rel, const char *text)
{
        char p[4096];

        snprintf(p, sizeof(p), "%s%s", root, rel);
        assert_int_equal(t_write_file(p, text), 0);
}

static const struct ios_writer *find(const struct ios_writers *ws, const char *kind, const char *key,
                                     const char *value)
{
        for (size_t i = 0; i < ws->n; i++)
                if (strcmp(ws->w[i].kind, kind) == 0 && strcmp(ws->w[i].key, key) == 0 &&
                    strcmp(ws->w[i].value, value) == 0)
                        return &ws->w[i];
        return NULL;
}

static void test_none(void **state)
{
        struct ios_writers ws = { .w = (void *)1, .n = 1 };

        assert_int_equal(ios_writers_scan(*state, &ws), 0);
        assert_int_equal(ws.n, 0);
        ios_writers_done(&ws);
}

static void test_tuned(void **state)
{
        const char *r = *state;
        struct ios_writers ws = {};
        const struct ios_writer *w;
        char line[1024];

        put(r, "/etc/tuned/active_profile", "top\n");
        put(r, "/usr/lib/tuned/top/tuned.conf", "[main]\ninclude=mid\n\n[disk]\nelevator=bfq\n");
        put(r, "/etc/tuned/mid/tuned.conf", "[disk]\ndevices=sdb, !sdc\nreadahead=4096\n");
        put(r, "/usr/lib/tuned/mid/tuned.conf", "[disk]\nelevator=ignored\n");
        put(r, "/usr/lib/tuned/loop/tuned.conf", "[main]\ninclude=loop\n");
        assert_int_equal(ios_writers_scan(r, &ws), 0);
        assert_int_equal(ws.n, 2);
        w = find(&ws, "tuned", "queue/scheduler", "bfq");
        assert_non_null(w);
        assert_string_equal(w->name, "top");
        assert_int_equal(w->line, 5);
        assert_true(ios_writer_applies(w, "sda", "queue/scheduler"));
        assert_false(ios_writer_applies(w, "sda", "queue/read_ahead_kb"));
        w = find(&ws, "tuned", "queue/read_ahead_kb", "4096");
        assert_non_null(w);
        assert_string_equal(w->name, "mid");
        assert_true(ios_writer_applies(w, "sdb", NULL));
        assert_false(ios_writer_applies(w, "sdc", NULL));
        assert_false(ios_writer_applies(w, "sda", NULL));
        assert_non_null(strstr(ios_writer_line(w, line, sizeof(line)), "TuneD profile mid sets queue/read_ahead_kb=4096 ("));
        ios_writers_done(&ws);

        /* devices= and type= qualify their own section only, wherever they stand in it */
        put(r, "/etc/tuned/active_profile", "two\n");
        put(r, "/usr/lib/tuned/two/tuned.conf",
            "[disk]\nelevator=bfq\n[nv]\nelevator=none\ntype=disk\ndevices=nvme*\n[other]\nelevator=no\n");
        assert_int_equal(ios_writers_scan(r, &ws), 0);
        assert_int_equal(ws.n, 2);
        w = find(&ws, "tuned", "queue/scheduler", "bfq");
        assert_non_null(w);
        assert_null(w->devglob);
        assert_int_equal(w->line, 2);
        w = find(&ws, "tuned", "queue/scheduler", "none");
        assert_non_null(w);
        assert_string_equal(w->devglob, "nvme*");
        assert_int_equal(w->line, 4);
        assert_false(ios_writer_applies(w, "sda", NULL));
        ios_writers_done(&ws);

        /* an include loop ends */
        put(r, "/etc/tuned/active_profile", "loop\n");
        assert_int_equal(ios_writers_scan(r, &ws), 0);
        assert_int_equal(ws.n, 0);
        ios_writers_done(&ws);
}

static void test_udev(void **state)
{
        const char *r = *state;
        struct ios_writers ws = {};
        const struct ios_writer *w;

        put(r, "/etc/udev/rules.d/90-a.rules",
            "# ATTR{queue/scheduler}=\"no\"\n"
            "KERNEL==\"sd*\", \\\n  ATTR{queue/scheduler}=\"kyber\", ATTR{queue/nr_requests}=\"64\"\n"
            "ATTR{queue/rotational}==\"1\", RUN+=\"x\"\n");
        put(r, "/usr/lib/udev/rules.d/90-a.rules", "ATTR{queue/scheduler}=\"masked\"\n");
        put(r, "/lib/udev/rules.d/60-iosched.rules", "ATTR{queue/scheduler}=\"own\"\n");
        put(r, "/run/udev/rules.d/10-b.rules", "ATTR{queue/read_ahead_kb}=\"8\"\n");
        assert_int_equal(ios_writers_scan(r, &ws), 0);
        assert_int_equal(ws.n, 3);
        w = find(&ws, "udev", "queue/scheduler", "kyber");
        assert_non_null(w);
        assert_int_equal(w->line, 2);
        assert_true(ios_writer_applies(w, "sdb", "queue/scheduler"));
        assert_false(ios_writer_applies(w, "nvme0n1", "queue/scheduler"));
        assert_non_null(find(&ws, "udev", "queue/nr_requests", "64"));
        w = find(&ws, "udev", "queue/read_ahead_kb", "8");
        assert_non_null(w);
        assert_true(ios_writer_applies(w, "nvme0n1", NULL));
        /* sorted by file name: 10-b first */
        assert_ptr_equal(w, &ws.w[0]);
        ios_writers_done(&ws);

        /* a FIFO among the rules is not opened for reading (that open would block
         * every status, explain and --check for ever); the other files still count */
        {
                char p[4096];

                snprintf(p, sizeof(p), "%s/etc/udev/rules.d/50-fifo.rules", r);
                assert_int_equal(mkfifo(p, 0644), 0);
                put(r, "/etc/tuned/README", "");
                snprintf(p, sizeof(p), "%s/etc/tuned/active_profile", r);
                assert_int_equal(mkfifo(p, 0644), 0);
        }
        ws = (struct ios_writers){};
        assert_int_equal(ios_writers_scan(r, &ws), 0);
        assert_int_equal(ws.n, 3);
        ios_writers_done(&ws);
}

static void test_dropin_parse(void **state)
{
        struct ios_dropin d = {};

        (void)state;
        assert_int_equal(ios_dropin_parse("60-perc.conf=/tmp/c.conf", &d), 0);
        assert_string_equal(d.name, "60-perc.conf");
        assert_string_equal(d.file, "/tmp/c.conf");
        ios_dropin_done(&d);
        assert_int_equal(ios_dropin_parse("60-perc.conf=/dev/null", &d), 0);
        ios_dropin_done(&d);
        assert_int_equal(ios_dropin_parse("60-perc=/tmp/c.conf", &d), -EINVAL);
        assert_int_equal(ios_dropin_parse("a/60.conf=/tmp/c.conf", &d), -EINVAL);
        assert_int_equal(ios_dropin_parse(".60.conf=/tmp/c.conf", &d), -EINVAL);
        assert_int_equal(ios_dropin_parse("60.conf=", &d), -EINVAL);
        assert_int_equal(ios_dropin_parse("=x", &d), -EINVAL);
        assert_int_equal(ios_dropin_parse("60.conf", &d), -EINVAL);
}

static void test_dropin_override(void **state)
{
        char **l = NULL;
        struct ios_dropin ov[] = {
                { "20-b.conf", "/tmp/cand-b.conf" },    /* replace */
                { "15-new.conf", "/tmp/new.conf" },     /* add, in name order */
                { "30-c.conf", "/dev/null" },           /* remove */
                { "40-x.conf", "/tmp/first.conf" },     /* added, then ... */
                { "40-x.conf", "/tmp/last.conf" },      /* ... the last one counts */
                { "50-gone.conf", "/dev/null" },        /* removing what is not there */
        };

        (void)state;
        assert_int_equal(ios_strv_push(&l, strdup("/usr/lib/iosched/10-a.conf")), 0);
        assert_int_equal(ios_strv_push(&l, strdup("/run/iosched.d/20-b.conf")), 0);
        assert_int_equal(ios_strv_push(&l, strdup("/etc/iosched.d/30-c.conf")), 0);
        assert_int_equal(ios_dropins_override(&l, ov, sizeof(ov) / sizeof(ov[0])), 0);
        assert_int_equal(ios_strv_length(l), 4);
        assert_string_equal(l[0], "/usr/lib/iosched/10-a.conf");
        assert_string_equal(l[1], "/tmp/new.conf");
        assert_string_equal(l[2], "/tmp/cand-b.conf");
        assert_string_equal(l[3], "/tmp/last.conf");
        ios_strv_free(l);

        /* no drop-ins at all */
        l = NULL;
        assert_int_equal(ios_dropins_override(&l, ov, 1), 0);
        assert_int_equal(ios_strv_length(l), 1);
        assert_string_equal(l[0], "/tmp/cand-b.conf");
        ios_strv_free(l);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_none, setup, teardown),
                cmocka_unit_test_setup_teardown(test_tuned, setup, teardown),
                cmocka_unit_test_setup_teardown(test_udev, setup, teardown),
                cmocka_unit_test(test_dropin_parse),
                cmocka_unit_test(test_dropin_override),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
