/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: elevator= as GRUB and the kernel see it.  /etc/default/grub,
 * then /etc/default/grub.d/ *.cfg in C-locale glob order; sh assignments
 * (quotes, escapes, export, $VAR / ${VAR} self-append, comments, multi-line
 * values) with a later one replacing an earlier one; GRUB_CMDLINE_LINUX
 * before GRUB_CMDLINE_LINUX_DEFAULT and the last elevator= winning; every
 * conflict reported with both values and file:line; what needs a shell
 * (if, $(...)) named and not evaluated; values cut at 64 KiB, expansions
 * stopped at 1 MiB in all, files over 1 MiB and FIFOs not read.  All on
 * fake trees under /tmp.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "iosched.h"
#include "../../src/apply/apply.h"
#include "helpers.h"
#include "strv.h"

struct t {
        char *dir;
        struct ios_ctx *root;
        char *value, *where;
        char **notes;
        char buf[4096];
};

static int setup(void **state)
{
        char tmpl[] = "/tmp/iosched-test-XXXXXX";
        struct t *t = calloc(1, sizeof(*t));

        if (!t || !mkdtemp(tmpl))
                return -1;
        t->dir = strdup(tmpl);
        *state = t;
        return ios_ctx_new(t->dir, &t->root) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
        struct t *t = *state;

        ios_ctx_free(t->root);
        free(t->value);
        free(t->where);
        ios_strv_free(t->notes);
        t_rmtree(t->dir);
        free(t);
        return 0;
}

/* Write dir/path. */
static void put(struct t *t, const char *path, const char *text)
{
        snprintf(t->buf, sizeof(t->buf), "%s%s", t->dir, path);
        assert_int_equal(t_write_file(t->buf, text), 0);
}

/* Run apply_elevator_sources(); returns its result. */
static int run(struct t *t)
{
        free(t->value);
        free(t->where);
        ios_strv_free(t->notes);
        t->value = t->where = NULL;
        t->notes = NULL;
        return apply_elevator_sources(t->root, t->dir, &t->value, &t->where, &t->notes);
}

/* "dir" + suffix, in t->buf. */
static const char *at(struct t *t, const char *suffix)
{
        snprintf(t->buf, sizeof(t->buf), "%s%s", t->dir, suffix);
        return t->buf;
}

/* The one note that contains all of a, b (and c, if given). */
static void assert_note(struct t *t, const char *a, const char *b, const char *c)
{
        size_t hits = 0;

        for (char **n = t->notes; n && *n; n++)
                hits += strstr(*n, a) && (!b || strstr(*n, b)) && (!c || strstr(*n, c));
        if (hits != 1) {
                for (char **n = t->notes; n && *n; n++)
                        print_error("note: %s\n", *n);
                print_error("wanted one note with \"%s\" \"%s\" \"%s\"\n", a, b ? b : "", c ? c : "");
        }
        assert_int_equal(hits, 1);
}

static void test_find(void **state)
{
        char *v;

        (void)state;
        v = apply_find_elevator("ro elevator=noop quiet elevator=deadline");
        assert_string_equal(v, "deadline");             /* the kernel takes the last */
        free(v);
        assert_null(apply_find_elevator("ro xelevator=noop elevator= quiet"));
        assert_null(apply_find_elevator(""));
        v = apply_find_elevator("\"elevator=bfq\"");
        assert_string_equal(v, "bfq");
        free(v);
}

static void test_none(void **state)
{
        struct t *t = *state;

        assert_int_equal(run(t), 0);
        assert_null(t->value);
        put(t, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro quiet\n");
        put(t, "/etc/default/grub", "# GRUB_CMDLINE_LINUX=\"elevator=noop\"\nGRUB_CMDLINE_LINUX=\"\"\n"
                                    "  #GRUB_CMDLINE_LINUX_DEFAULT=elevator=cfq\n");
        put(t, "/etc/default/grub.d/empty.cfg", "");
        assert_int_equal(run(t), 0);
        assert_null(t->notes);
}

static void test_plain_forms(void **state)
{
        struct t *t = *state;

        put(t, "/etc/default/grub", "GRUB_DEFAULT=0\n\n   # comment\nGRUB_CMDLINE_LINUX=\"quiet elevator=noop\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "noop");
        assert_string_equal(t->where, at(t, "/etc/default/grub:4 (GRUB_CMDLINE_LINUX)"));
        assert_null(t->notes);

        put(t, "/etc/default/grub", "export GRUB_CMDLINE_LINUX='elevator=deadline splash' # a comment\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_string_equal(t->where, at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX)"));

        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=elevator=bfq\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "bfq");
        assert_string_equal(t->where, at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX_DEFAULT)"));

        /* a value over several lines is named by the line elevator= is on; escapes */
        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"quiet \\\"x\\\"\n  console=ttyS0 \\\n  elevator=kyber\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "kyber");
        assert_string_equal(t->where, at(t, "/etc/default/grub:3 (GRUB_CMDLINE_LINUX)"));

        /* through another variable: named where elevator= was written */
        put(t, "/etc/default/grub", "SCHED=\"elevator=noop\"\nGRUB_CMDLINE_LINUX=\"ro $SCHED\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "noop");
        assert_string_equal(t->where, at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX)"));
}

static void test_linux_then_default(void **state)
{
        struct t *t = *state;

        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet elevator=deadline\"\n"
                                    "GRUB_CMDLINE_LINUX=\"elevator=noop\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_string_equal(t->where, at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX_DEFAULT)"));
        assert_int_equal(ios_strv_length(t->notes), 1);
        assert_note(t, "elevator=noop at ", "elevator=deadline at ", "the kernel takes the last, deadline");
        assert_note(t, at(t, "/etc/default/grub:2 (GRUB_CMDLINE_LINUX)"), NULL, NULL);
}

static void test_dropins(void **state)
{
        struct t *t = *state;

        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"elevator=noop\"\n");
        /* C-locale glob order: 10-a.cfg before 9-b.cfg; others are not sourced */
        put(t, "/etc/default/grub.d/9-b.cfg", "GRUB_CMDLINE_LINUX=\"quiet elevator=deadline\"\n");
        put(t, "/etc/default/grub.d/10-a.cfg", "\n\nGRUB_CMDLINE_LINUX=\"elevator=bfq\"\n");
        put(t, "/etc/default/grub.d/99-x.cfg.dpkg-old", "GRUB_CMDLINE_LINUX=\"elevator=cfq\"\n");
        put(t, "/etc/default/grub.d/.hidden.cfg", "GRUB_CMDLINE_LINUX=\"elevator=cfq\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_string_equal(t->where, at(t, "/etc/default/grub.d/9-b.cfg:1 (GRUB_CMDLINE_LINUX)"));
        /* two files disagree: each replaced value named with its file:line */
        assert_int_equal(ios_strv_length(t->notes), 2);
        assert_note(t, "elevator=noop at ", "is replaced", NULL);
        assert_note(t, at(t, "/etc/default/grub:1 is replaced"), NULL, NULL);
        assert_note(t, at(t, "/etc/default/grub.d/10-a.cfg:3 is replaced"), "elevator=bfq", "elevator=deadline");

        /* the same value again is no conflict */
        put(t, "/etc/default/grub.d/10-a.cfg", "GRUB_CMDLINE_LINUX=\"elevator=deadline\"\n");
        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"elevator=deadline\"\n");
        assert_int_equal(run(t), 1);
        assert_null(t->notes);

        /* dropped by a later assignment without it */
        put(t, "/etc/default/grub.d/9-b.cfg", "GRUB_CMDLINE_LINUX=quiet\n");
        assert_int_equal(run(t), 0);
        assert_int_equal(ios_strv_length(t->notes), 2);
        assert_note(t, at(t, "/etc/default/grub:1 is dropped"), "elevator=deadline", "9-b.cfg:1 without it");
        assert_note(t, at(t, "/etc/default/grub.d/10-a.cfg:1 is dropped"), NULL, NULL);
}

static void test_self_append(void **state)
{
        struct t *t = *state;

        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"elevator=noop\"\n");
        put(t, "/etc/default/grub.d/50-x.cfg", "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX quiet\"\n"
                                              "GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX} elevator=mq-deadline\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "mq-deadline");
        assert_string_equal(t->where, at(t, "/etc/default/grub.d/50-x.cfg:2 (GRUB_CMDLINE_LINUX)"));
        /* both are on the command line: one conflict, the earlier keeps its file:line */
        assert_int_equal(ios_strv_length(t->notes), 1);
        assert_note(t, at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX)"), "elevator=noop", "both on the command line");
}

static void test_cmdline(void **state)
{
        struct t *t = *state;

        put(t, "/proc/cmdline", "BOOT_IMAGE=/vmlinuz ro elevator=noop quiet elevator=deadline\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_string_equal(t->where, "/proc/cmdline");
        assert_note(t, "elevator=noop", "elevator=deadline in /proc/cmdline", "took the last, deadline");

        /* this boot against the next: GRUB's is the one that counts, both named */
        put(t, "/proc/cmdline", "ro elevator=deadline\n");
        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"elevator=noop\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "noop");
        assert_int_equal(ios_strv_length(t->notes), 1);
        assert_note(t, "elevator=deadline in /proc/cmdline (this boot) and elevator=noop at ",
                    at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX, the next boot) disagree"), NULL);
}

static void test_not_evaluated(void **state)
{
        struct t *t = *state;

        put(t, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"quiet\"\n"
                                    "if [ -e /etc/foo ]; then\n"
                                    "    GRUB_CMDLINE_LINUX=\"elevator=bfq\"\n"
                                    "fi\n"
                                    "[ -x /bin/true ] && GRUB_CMDLINE_LINUX_DEFAULT=\"elevator=cfq\"\n"
                                    "GRUB_CMDLINE_LINUX_DEFAULT=\"$(echo elevator=noop)\"\n"
                                    "GRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`\n");
        assert_int_equal(run(t), 0);
        assert_int_equal(ios_strv_length(t->notes), 3);
        assert_note(t, at(t, "/etc/default/grub:3: "), "inside if", NULL);
        assert_note(t, at(t, "/etc/default/grub:5: "), "does not run", NULL);
        assert_note(t, at(t, "/etc/default/grub:6: "), "$(...)", NULL);

        /* after fi, assignments count again */
        put(t, "/etc/default/grub.d/a.cfg", "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX elevator=none\"\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "none");
}

/* Reading is bounded: values cut at 64 KiB, expansions at 1 MiB in all, files over 1 MiB and FIFOs not read;
 * a conflict is said once, not once per copy. */
static void test_limits(void **state)
{
        struct t *t = *state;
        size_t big = 2 * 1024 * 1024, len = 0;
        char *text = malloc(big + 1);

        assert_non_null(text);
        /* 40 self-doublings: 2^40 copies of 14 bytes without the limits; the value
         * is cut at line 14 (14 * 2^13 - 1 > 65536), and the expansions, 128 KiB
         * a line from there, pass 1 MiB in all before line 41: nothing after that
         * line is read, in this file (GRUB_CMDLINE_LINUX_DEFAULT) or the next */
        len = (size_t)sprintf(text, "GRUB_CMDLINE_LINUX=\"elevator=noop\"\n");
        for (int i = 0; i < 40; i++)
                len += (size_t)sprintf(text + len, "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX\"\n");
        sprintf(text + len, "GRUB_CMDLINE_LINUX_DEFAULT=elevator=bfq\n");
        put(t, "/etc/default/grub", text);
        put(t, "/etc/default/grub.d/10-x.cfg", "GRUB_CMDLINE_LINUX=elevator=kyber\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "noop");
        assert_int_equal(ios_strv_length(t->notes), 2);
        assert_note(t, at(t, "/etc/default/grub:14: GRUB_CMDLINE_LINUX is longer than 65536 bytes"), "said once",
                    NULL);
        assert_note(t, "come to more than 1048576 bytes in all: this and what follows is not read", NULL, NULL);
        assert_int_equal(unlink(at(t, "/etc/default/grub.d/10-x.cfg")), 0);

        /* 20,000 variables, each found again by name (a hash set, not a scan per lookup) */
        len = 0;
        for (int i = 0; i < 20000; i++)
                len += (size_t)sprintf(text + len, "V%d=%s\n", i, i == 0 ? "dead" : i == 19999 ? "line" : "x");
        sprintf(text + len, "GRUB_CMDLINE_LINUX=\"quiet elevator=${V0}$V19999\"\n");
        put(t, "/etc/default/grub", text);
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_int_equal(ios_strv_length(t->notes), 0);

        /* a conflict is said once, however many copies of it the line made */
        len = (size_t)sprintf(text, "GRUB_CMDLINE_LINUX=\"elevator=noop elevator=deadline\"\n");
        for (int i = 0; i < 10; i++)
                len += (size_t)sprintf(text + len, "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX\"\n");
        put(t, "/etc/default/grub", text);
        put(t, "/proc/cmdline", "elevator=noop elevator=deadline elevator=noop elevator=deadline elevator=bfq\n");
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "deadline");
        assert_int_equal(ios_strv_length(t->notes), 4);
        assert_note(t, "elevator=noop at ", at(t, "/etc/default/grub:1 (GRUB_CMDLINE_LINUX) and elevator=deadline"),
                    "both on the command line");
        assert_note(t, "elevator=noop and, after it, elevator=bfq in /proc/cmdline", NULL, NULL);
        assert_note(t, "elevator=deadline and, after it, elevator=bfq in /proc/cmdline", NULL, NULL);
        assert_note(t, "elevator=bfq in /proc/cmdline (this boot) and elevator=deadline", NULL, NULL);
        put(t, "/proc/cmdline", "ro\n");

        /* 300 self-appends, each line's elevator= recorded once, then all dropped */
        len = 0;
        for (int i = 0; i < 300; i++)
                len += (size_t)sprintf(text + len, "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX elevator=noop\"\n");
        sprintf(text + len, "GRUB_CMDLINE_LINUX=quiet\n");
        put(t, "/etc/default/grub", text);
        assert_int_equal(run(t), 0);
        assert_int_equal(ios_strv_length(t->notes), 300);
        assert_note(t, at(t, "/etc/default/grub:299 is dropped"), NULL, NULL);

        /* a file over 1 MiB is not read; one of exactly 1 MiB is */
        memset(text, '#', big);
        text[1024 * 1024] = '\0';
        text[1024 * 1024 - 1] = '\n';
        memcpy(text, "GRUB_CMDLINE_LINUX=elevator=bfq\n", 32);
        put(t, "/etc/default/grub", text);
        text[1024 * 1024 - 1] = '#';
        text[1024 * 1024] = '\n';
        text[1024 * 1024 + 1] = '\0';
        memcpy(text, "GRUB_CMDLINE_LINUX=elevator=cfq\n", 32);
        put(t, "/etc/default/grub.d/20-big.cfg", text);
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "bfq");
        assert_int_equal(ios_strv_length(t->notes), 1);
        assert_note(t, at(t, "/etc/default/grub.d/20-big.cfg: larger than 1 MiB (1048576 bytes): not read"), NULL,
                    NULL);

        /* a FIFO would block the read for ever: named, not read */
        assert_int_equal(unlink(at(t, "/etc/default/grub.d/20-big.cfg")), 0);
        assert_int_equal(mkfifo(at(t, "/etc/default/grub.d/30-fifo.cfg"), 0644), 0);
        assert_int_equal(run(t), 1);
        assert_string_equal(t->value, "bfq");
        assert_int_equal(ios_strv_length(t->notes), 1);
        assert_note(t, at(t, "/etc/default/grub.d/30-fifo.cfg: cannot read: not a regular file"), NULL, NULL);
        free(text);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_find),
                cmocka_unit_test_setup_teardown(test_none, setup, teardown),
                cmocka_unit_test_setup_teardown(test_plain_forms, setup, teardown),
                cmocka_unit_test_setup_teardown(test_linux_then_default, setup, teardown),
                cmocka_unit_test_setup_teardown(test_dropins, setup, teardown),
                cmocka_unit_test_setup_teardown(test_self_append, setup, teardown),
                cmocka_unit_test_setup_teardown(test_cmdline, setup, teardown),
                cmocka_unit_test_setup_teardown(test_not_evaluated, setup, teardown),
                cmocka_unit_test_setup_teardown(test_limits, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
