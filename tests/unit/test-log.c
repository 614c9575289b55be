/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the library's debug trace (log.c).  Off by default: no call
 * reaches a function and IOS_TRACE() does not evaluate its arguments.  With
 * a function set, a sysfs read and a write are each said once, with the
 * path, the value (quoted: newlines and control characters escaped, a long
 * one cut with "...") and the result, and ios_log() hands a program's line
 * to the same function; setting NULL turns it off again.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"

static char lines[8][1024];
static unsigned nlines;

static void keep(void *userdata, const char *msg)
{
        assert_ptr_equal(userdata, &nlines);
        if (nlines < 8)
                snprintf(lines[nlines], sizeof(lines[0]), "%s", msg);
        nlines++;
}

static int evaluated;
static const char *side_effect(void)
{
        evaluated++;
        return "x";
}

static void test_off_by_default(void **state)
{
        (void)state;
        nlines = 0;
        assert_false(ios_log_enabled());
        ios_log("nothing %d", 1);
        IOS_TRACE("nothing %s", side_effect());
        assert_int_equal(nlines, 0);
        assert_int_equal(evaluated, 0);
}

static void test_quote(void **state)
{
        char buf[64], small[12];

        (void)state;
        assert_string_equal(ios_log_quote("none [mq-deadline]\n", buf, sizeof(buf)),
                            "\"none [mq-deadline]\\n\"");
        assert_string_equal(ios_log_quote("a\"b\\c\x01", buf, sizeof(buf)), "\"a\\\"b\\\\c\\x01\"");
        assert_string_equal(ios_log_quote("", buf, sizeof(buf)), "\"\"");
        /* cut: what fits, then "... and the end, never past the buffer */
        assert_string_equal(ios_log_quote("abcdefghijklmnop", small, sizeof(small)), "\"ab\"...");
        assert_true(strlen(small) < sizeof(small));
}

static void test_sysfs_read_write_said(void **state)
{
        char dir[] = "/tmp/test-log-XXXXXX", path[4096 + 64], *v = NULL, *w = NULL;
        int dfd, fd;

        (void)state;
        assert_non_null(mkdtemp(dir));
        snprintf(path, sizeof(path), "%s/attr", dir);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, "4096\n", 5), 5);
        close(fd);
        dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);

        nlines = 0;
        ios_log_set(keep, &nlines);
        assert_true(ios_log_enabled());
        assert_int_equal(ios_sysfs_read_string(dfd, "attr", &v), 0);
        assert_int_equal(ios_sysfs_write_string(dfd, "attr", "8"), 0);
        assert_true(ios_sysfs_read_string(dfd, "missing", &w) < 0);
        ios_log("apply: %s %d", "decided", 3);
        ios_log_set(NULL, NULL);
        ios_log("after");
        assert_int_equal(nlines, 4);
        snprintf(path, sizeof(path), "read %s/attr: \"4096\"", dir);
        assert_string_equal(lines[0], path);
        snprintf(path, sizeof(path), "write %s/attr: \"8\": ok", dir);
        assert_string_equal(lines[1], path);
        snprintf(path, sizeof(path), "read %s/missing: ", dir);
        assert_memory_equal(lines[2], path, strlen(path));
        assert_string_equal(lines[3], "apply: decided 3");
        free(v);
        close(dfd);
        snprintf(path, sizeof(path), "%s/attr", dir);
        unlink(path);
        rmdir(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_off_by_default),
                cmocka_unit_test(test_quote),
                cmocka_unit_test(test_sysfs_read_write_said),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
