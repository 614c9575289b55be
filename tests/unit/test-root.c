/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the root prefix holds.  Relative and absolute symlinks and
 * ".." resolve inside the fake root (never to the build machine's files),
 * with openat2 and with the fallback component walk alike: the walk is
 * forced on one root and both must give the same answers, and on a kernel
 * with openat2 the default root must have used openat2, not the walk.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/openat2.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "root-internal.h"
#include "helpers.h"
#include "strv.h"

static char *dir;

static int setup(void **state)
{
        char p[4096];

        (void)state;
        dir = t_fixture_copy("loop");
        if (!dir)
                return -1;
        snprintf(p, sizeof(p), "%s/etc/marker", dir);
        t_write_file(p, "inside\n");
        /* a link climbing far above the root, one absolute, one loop */
        snprintf(p, sizeof(p), "%s/sys/block/evil", dir);
        if (symlink("../../../../../../../../../../../../etc/marker", p) < 0)
                return -1;
        snprintf(p, sizeof(p), "%s/sys/block/abs", dir);
        if (symlink("/etc/marker", p) < 0)
                return -1;
        snprintf(p, sizeof(p), "%s/sys/block/hostpw", dir);
        if (symlink("../../../../../../../../../../../../etc/passwd", p) < 0)
                return -1;
        snprintf(p, sizeof(p), "%s/sys/block/loopy", dir);
        if (symlink("loopy", p) < 0)
                return -1;
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        t_rmtree(dir);
        return 0;
}

static void check_paths(struct ios_ctx *r, int (*rp)(struct ios_ctx *, const char *, char **))
{
        char *s = NULL;

        assert_int_equal(rp(r, "/sys/block/evil", &s), 0);
        assert_string_equal(s, "/etc/marker");
        free(s);
        assert_int_equal(rp(r, "/sys/block/abs", &s), 0);
        assert_string_equal(s, "/etc/marker");
        free(s);
        assert_int_equal(rp(r, "/../../sys/block/loop0", &s), 0);
        assert_string_equal(s, "/sys/devices/virtual/block/loop0");
        free(s);
        assert_int_equal(rp(r, "/sys/block/loop0/queue/../queue", &s), 0);
        assert_string_equal(s, "/sys/devices/virtual/block/loop0/queue");
        free(s);
        /* the host's /etc/passwd exists, the root's does not */
        assert_int_equal(rp(r, "/sys/block/hostpw", &s), -ENOENT);
        assert_int_equal(rp(r, "/sys/block/loopy", &s), -ELOOP);
        assert_int_equal(rp(r, "/", &s), 0);
        assert_string_equal(s, "/");
        free(s);
}

/* Whether this kernel (and seccomp filter) lets a process use openat2(RESOLVE_IN_ROOT). */
static bool have_openat2(void)
{
        struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT };
        int fd;

        if (ios_openat2_missing())
                return false;   /* the library uses the walk already */
        fd = (int)syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof(how));

        if (fd < 0)
                return false;
        close(fd);
        return true;
}

static void test_realpath_openat2(void **state)
{
        struct ios_ctx *r = NULL;
        unsigned o = 0, w = 0;

        (void)state;
        if (!have_openat2())
                skip();         /* kernel before 5.6, or a seccomp filter: only the walk can run */
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        check_paths(r, ios_ctx_realpath);
        ios_ctx_resolver_counts(r, &o, &w);
        assert_true(o > 0);
        assert_int_equal(w, 0);         /* openat2 answered every lookup, the walk none */
        ios_ctx_free(r);
}

static void test_realpath_fallback_walk(void **state)
{
        struct ios_ctx *r = NULL;
        unsigned o = 0, w = 0;
        char *buf = NULL;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        ios_ctx_force_walk(r);
        check_paths(r, ios_ctx_realpath);
        assert_int_equal(ios_ctx_read_file(r, "/sys/block/evil", &buf, NULL), 0);
        assert_string_equal(buf, "inside\n");
        free(buf);
        assert_int_equal(ios_ctx_read_file(r, "/sys/block/hostpw", &buf, NULL), -ENOENT);
        ios_ctx_resolver_counts(r, &o, &w);
        assert_int_equal(o, 0);
        assert_true(w > 0);
        ios_ctx_free(r);
}

/* The walk itself, without opening anything. */
static void test_realpath_walk(void **state)
{
        struct ios_ctx *r = NULL;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        check_paths(r, ios_ctx_realpath_walk);
        ios_ctx_free(r);
}

/* Whatever resolves a path, the answer is the same. */
static void test_resolvers_agree(void **state)
{
        static const char * const paths[] = {
                "/", "/sys", "/sys/block/loop0", "/sys/block/loop0/queue/scheduler",
                "/sys/block/loop0/../loop0/queue", "/sys/class/block/loop0", "/sys/dev/block/7:0",
                "/sys/block/evil", "/sys/block/abs", "/sys/block/hostpw", "/sys/block/loopy",
                "/../../../sys/block", "/sys/block/nope", "/etc/passwd", "/etc/marker/x",
        };
        struct ios_ctx *a = NULL, *b = NULL;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &a), 0);
        assert_int_equal(ios_ctx_new(dir, &b), 0);
        ios_ctx_force_walk(b);
        for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
                char *x = NULL, *y = NULL;
                int ex = ios_ctx_realpath(a, paths[i], &x), ey = ios_ctx_realpath(b, paths[i], &y);
                int fx = ios_ctx_open(a, paths[i], O_RDONLY), fy = ios_ctx_open(b, paths[i], O_RDONLY);

                if (ex != ey || (ex == 0 && strcmp(x, y) != 0) || (fx < 0) != (fy < 0) || (fx < 0 && fx != fy))
                        fail_msg("%s: default %d %s (open %d), walk %d %s (open %d)", paths[i], ex,
                                 ex == 0 ? x : "-", fx, ey, ey == 0 ? y : "-", fy);
                free(x);
                free(y);
                if (fx >= 0)
                        close(fx);
                if (fy >= 0)
                        close(fy);
        }
        ios_ctx_free(a);
        ios_ctx_free(b);
}

static void test_read_stays_inside(void **state)
{
        struct ios_ctx *r = NULL;
        char *buf = NULL;
        size_t len;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_read_file(r, "/sys/block/evil", &buf, &len), 0);
        assert_string_equal(buf, "inside\n");
        assert_int_equal(len, 7);
        free(buf);
        assert_int_equal(ios_ctx_read_file(r, "/sys/block/hostpw", &buf, &len), -ENOENT);
        assert_true(ios_ctx_open(r, "/etc/passwd", 0) == -ENOENT);
        assert_string_equal(ios_ctx_prefix(r), dir);
        assert_false(ios_ctx_is_host(r));
        ios_ctx_free(r);
}

/* The tree's kernel tick rate: boot/config-RELEASE of the tree's proc/sys/kernel/osrelease. */
static void test_kernel_hz(void **state)
{
        struct ios_ctx *r = NULL;
        char p[4096];

        (void)state;
        snprintf(p, sizeof(p), "%s/proc", dir);
        assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
        snprintf(p, sizeof(p), "%s/proc/sys", dir);
        assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
        snprintf(p, sizeof(p), "%s/proc/sys/kernel", dir);
        assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
        snprintf(p, sizeof(p), "%s/boot", dir);
        assert_true(mkdir(p, 0755) == 0 || errno == EEXIST);
        snprintf(p, sizeof(p), "%s/proc/sys/kernel/osrelease", dir);
        assert_int_equal(t_write_file(p, "6.1.0-42-amd64\n"), 0);
        /* no config: not known */
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_hz(r), 0);
        ios_ctx_free(r);
        /* CONFIG_HZ_250=y and CONFIG_HZ=250, after a lookalike */
        snprintf(p, sizeof(p), "%s/boot/config-6.1.0-42-amd64", dir);
        assert_int_equal(t_write_file(p, "# CONFIG_HZ=100 is not set\nCONFIG_HZ_250=y\nCONFIG_HZ=250\n"), 0);
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_hz(r), 250);
        assert_int_equal(ios_ctx_hz(r), 250);   /* read once */
        ios_ctx_free(r);
        /* nonsense is not a tick rate */
        assert_int_equal(t_write_file(p, "CONFIG_HZ=0\n"), 0);
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_hz(r), 0);
        ios_ctx_free(r);
        /* the line anywhere in a Debian-sized file: across a read's end, or the last without a newline */
        for (size_t off = 8180; off <= 8200; off += 5) {
                for (int last = 0; last < 2; last++) {
                        size_t len = 0;
                        char *text = malloc(300000);

                        assert_non_null(text);
                        while (len < off)
                                len += (size_t)sprintf(text + len, "CONFIG_X%zu=y\n", len);
                        len += (size_t)sprintf(text + len, "# CONFIG_HZ_1000 is not set\nCONFIG_HZ=300%s",
                                               last ? "" : "\n");
                        while (!last && len < 280000)
                                len += (size_t)sprintf(text + len, "CONFIG_Y%zu=m\n", len);
                        assert_int_equal(t_write_file(p, text), 0);
                        free(text);
                        assert_int_equal(ios_ctx_new(dir, &r), 0);
                        assert_int_equal(ios_ctx_hz(r), 300);
                        ios_ctx_free(r);
                }
        }
}

static void test_root_errors(void **state)
{
        struct ios_ctx *r = NULL;

        (void)state;
        assert_int_equal(ios_ctx_new("/nonexistent/iosched", &r), -ENOENT);
        assert_null(r);
        assert_int_equal(ios_ctx_new(NULL, &r), 0);
        assert_true(ios_ctx_is_host(r));
        assert_string_equal(ios_ctx_prefix(r), "");
        ios_ctx_free(r);
}

static void test_sysfs_list(void **state)
{
        struct ios_ctx *r = NULL;
        char **l = NULL, p[4096];
        int fd;

        (void)state;
        snprintf(p, sizeof(p), "%s/sys/listing", dir);
        assert_int_equal(mkdir(p, 0755), 0);
        snprintf(p, sizeof(p), "%s/sys/listing/b", dir);
        assert_int_equal(t_write_file(p, "x"), 0);
        snprintf(p, sizeof(p), "%s/sys/listing/a10", dir);
        assert_int_equal(t_write_file(p, "x"), 0);
        snprintf(p, sizeof(p), "%s/sys/listing/a9/x", dir);
        assert_int_equal(t_write_file(p, "x"), 0);
        snprintf(p, sizeof(p), "%s/sys/listing/.hidden", dir);
        assert_int_equal(t_write_file(p, "x"), 0);
        snprintf(p, sizeof(p), "%s/sys/listing/link", dir);
        assert_int_equal(symlink("a9", p), 0);

        assert_int_equal(ios_ctx_new(dir, &r), 0);
        fd = ios_ctx_open(r, "/sys", O_PATH | O_DIRECTORY);
        assert_true(fd >= 0);
        /* sorted, dot names left out, symlinks listed but never followed */
        assert_int_equal(ios_sysfs_list(fd, "listing", &l), 4);
        assert_string_equal(l[0], "a10");
        assert_string_equal(l[1], "a9");
        assert_string_equal(l[2], "b");
        assert_string_equal(l[3], "link");
        assert_null(l[4]);
        ios_strv_free(l);
        assert_int_equal(ios_sysfs_list(fd, "listing", NULL), 4);
        assert_int_equal(ios_sysfs_list(fd, "listing/a9", NULL), 1);
        assert_true(ios_sysfs_list(fd, "listing/link", NULL) < 0);
        assert_int_equal(ios_sysfs_list(fd, "listing/nope", &l), -ENOENT);
        assert_int_equal(ios_sysfs_list(fd, "listing/b", &l), -ENOTDIR);
        assert_int_equal(ios_sysfs_list(fd, "../etc", &l), -EINVAL);
        close(fd);
        /* the directory itself, and an empty one */
        fd = ios_ctx_open(r, "/sys/listing/a9", O_PATH | O_DIRECTORY);
        assert_true(fd >= 0);
        assert_int_equal(ios_sysfs_list(fd, ".", &l), 1);
        assert_string_equal(l[0], "x");
        ios_strv_free(l);
        close(fd);
        snprintf(p, sizeof(p), "%s/sys/listing/empty", dir);
        assert_int_equal(mkdir(p, 0755), 0);
        fd = ios_ctx_open(r, "/sys/listing/empty", O_PATH | O_DIRECTORY);
        assert_int_equal(ios_sysfs_list(fd, ".", &l), 0);
        assert_non_null(l);
        assert_null(l[0]);
        ios_strv_free(l);
        close(fd);
        ios_ctx_free(r);
}

static void test_sysfs_helpers(void **state)
{
        struct ios_ctx *r = NULL;
        char *s = NULL;
        uint64_t v;
        int fd, i;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        fd = ios_ctx_open(r, "/sys/block/loop0", O_PATH | O_DIRECTORY);
        assert_true(fd >= 0);
        assert_int_equal(ios_sysfs_read_u64(fd, "queue/nr_requests", &v), 0);
        assert_true(v > 0);
        assert_int_equal(ios_sysfs_read_int(fd, "queue/rotational", &i), 0);
        assert_int_equal(ios_sysfs_read_string(fd, "../../etc/marker", &s), -EINVAL);
        assert_int_equal(ios_sysfs_read_string(fd, "/etc/marker", &s), -EINVAL);
        assert_int_equal(ios_sysfs_write_string(fd, "queue/read_ahead_kb", "4096"), 0);
        assert_int_equal(ios_sysfs_read_u64(fd, "queue/read_ahead_kb", &v), 0);
        assert_int_equal(v, 4096);
        assert_int_equal(ios_sysfs_read_u64(fd, "queue/scheduler", &v), -EINVAL);
        assert_int_equal(ios_sysfs_read_string(fd, "queue/nope", &s), -ENOENT);
        assert_true(ios_sysfs_exists(fd, "queue"));
        assert_false(ios_sysfs_exists(fd, "nope"));
        close(fd);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_realpath_openat2),
                cmocka_unit_test(test_realpath_fallback_walk),
                cmocka_unit_test(test_realpath_walk),
                cmocka_unit_test(test_resolvers_agree),
                cmocka_unit_test(test_read_stays_inside),
                cmocka_unit_test(test_root_errors),
                cmocka_unit_test(test_kernel_hz),
                cmocka_unit_test(test_sysfs_helpers),
                cmocka_unit_test(test_sysfs_list),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
