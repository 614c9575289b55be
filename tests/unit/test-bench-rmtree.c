/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: a directory the run made is removed whole by handle
 * (rmtree.c): nested files and directories go, the regular files are
 * counted; a link in it is removed as a link, never followed (the file and
 * the directory it names stay); a directory swapped in under the same name
 * (another inode) is left untouched.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../src/bench/guard.h"

static void put(const char *dir, const char *name, const char *text)
{
        char p[512];
        FILE *f;

        snprintf(p, sizeof(p), "%s/%s", dir, name);
        f = fopen(p, "w");
        assert_non_null(f);
        fputs(text, f);
        assert_int_equal(fclose(f), 0);
}

static bool exists(const char *dir, const char *name)
{
        char p[512];
        struct stat st;

        snprintf(p, sizeof(p), "%s/%s", dir, name);
        return lstat(p, &st) == 0;
}

static void rm_all(const char *top)
{
        char cmd[600];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
        assert_int_equal(system(cmd), 0);
}

/* the directory dir/name made; its identity in *st */
static void subdir(const char *dir, const char *name, struct stat *st)
{
        char p[512];

        snprintf(p, sizeof(p), "%s/%s", dir, name);
        assert_int_equal(mkdir(p, 0700), 0);
        assert_int_equal(stat(p, st), 0);
}

/* top made (mkdtemp), with outside/keep in it: what no removal may reach; outside's identity in *st */
static void make_top(char *top, struct stat *st)
{
        assert_non_null(mkdtemp(top));
        subdir(top, "outside", st);
        put(top, "outside/keep", "keep\n");
}

static void test_remove_tree(void **state)
{
        char top[] = "/tmp/test-bench-rmtree.XXXXXX", p[512];
        struct stat st, other;
        int dfd;

        (void)state;
        make_top(top, &other);
        subdir(top, "s", &st);
        put(top, "s/a", "a\n");
        subdir(top, "s/d", &other);
        put(top, "s/d/b", "b\n");
        subdir(top, "s/d/e", &other);
        put(top, "s/d/e/c", "c\n");
        /* links to what is not the run's: removed as links */
        snprintf(p, sizeof(p), "%s/s/to-dir", top);
        assert_int_equal(symlink("../outside", p), 0);
        snprintf(p, sizeof(p), "%s/s/d/to-file", top);
        assert_int_equal(symlink("../../outside/keep", p), 0);
        dfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);

        /* another directory under the name: not the one made, left */
        assert_int_equal(bench_remove_tree(dfd, "s", st.st_dev, st.st_ino + 1), 0);
        assert_true(exists(top, "s/a") && exists(top, "s/d/e/c"));

        assert_int_equal(bench_remove_tree(dfd, "s", st.st_dev, st.st_ino), 3);
        assert_false(exists(top, "s"));
        assert_true(exists(top, "outside/keep"));
        close(dfd);
        rm_all(top);
}

/* a link in place of the directory made: not followed, nothing removed */
static void test_link_in_place(void **state)
{
        char top[] = "/tmp/test-bench-rmtree.XXXXXX", p[512];
        struct stat st;
        int dfd;

        (void)state;
        make_top(top, &st);
        snprintf(p, sizeof(p), "%s/s", top);
        assert_int_equal(symlink("outside", p), 0);
        dfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(dfd >= 0);
        /* even with the identity of the directory the link names */
        assert_int_equal(bench_remove_tree(dfd, "s", st.st_dev, st.st_ino), 0);
        assert_true(exists(top, "outside/keep") && exists(top, "s"));
        close(dfd);
        rm_all(top);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_remove_tree),
                cmocka_unit_test(test_link_in_place),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
