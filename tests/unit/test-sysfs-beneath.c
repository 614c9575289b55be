/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: every attribute is opened beneath the disk directory
 * without following any link and only if it is a regular file, with
 * openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS) and with the O_NOFOLLOW
 * component walk alike (each case runs with both; where openat2 is missing,
 * as under valgrind 3.19, the walk answers both runs and the test says so).
 * Links in the middle or at the end (absolute, "../..", to the build
 * machine's own /sys), FIFOs (never block), device nodes (never opened) and
 * directories are refused; reads stop at IOS_SYSFS_ATTR_MAX with -EFBIG,
 * never a truncated value.  ios_sysfs_present() tells an absent attribute
 * from a failed lookup (EMFILE, ELOOP).
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
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "root-internal.h"
#include "helpers.h"

static char *dir;
static char qdir[4096];

static void mk(const char *rel, const char *content)
{
        char p[4200];

        snprintf(p, sizeof(p), "%s/%s", qdir, rel);
        assert_int_equal(t_write_file(p, content), 0);
}

static void ln(const char *target, const char *rel)
{
        char p[4200];

        snprintf(p, sizeof(p), "%s/%s", qdir, rel);
        assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
        char p[4200];

        (void)state;
        dir = t_fixture_copy("loop");
        if (!dir)
                return -1;
        snprintf(qdir, sizeof(qdir), "%s/sys/devices/virtual/block/loop0", dir);
        snprintf(p, sizeof(p), "%s/etc/marker", dir);
        t_write_file(p, "inside the root, outside the disk\n");
        mk("sub/real/attr", "1\n");
        mk("exact", "");
        ln("sub/real", "linkdir");                      /* relative, inside the disk */
        ln("/sys/kernel", "absdir");                    /* the host's /sys */
        ln("../../../../../../../../../../etc", "updir"); /* ".." out of the disk and the root */
        ln("sub/real/attr", "linkattr");
        ln("/etc/hostname", "abslinkattr");
        snprintf(p, sizeof(p), "%s/fifo", qdir);
        if (mkfifo(p, 0600) < 0)
                return -1;
        snprintf(p, sizeof(p), "%s/sub/fifo", qdir);
        if (mkfifo(p, 0600) < 0)
                return -1;
        snprintf(p, sizeof(p), "%s/null", qdir);
        (void)mknod(p, S_IFCHR | 0600, makedev(1, 3));  /* only root may: checked below */
        return 0;
}

static int teardown(void **state)
{
        (void)state;
        ios_beneath_force_walk(false);
        t_rmtree(dir);
        return 0;
}

static int open_disk(struct ios_ctx **r)
{
        assert_int_equal(ios_ctx_new(dir, r), 0);
        return ios_ctx_open(*r, "/sys/block/loop0", O_PATH | O_DIRECTORY);
}

static void check_refusals(bool walk)
{
        struct ios_ctx *r = NULL;
        unsigned o0, w0, o1, w1;
        char *s = NULL;
        int fd;

        ios_beneath_force_walk(walk);
        ios_beneath_counts(&o0, &w0);
        fd = open_disk(&r);
        assert_true(fd >= 0);

        /* what must work: plain and nested attributes, "." */
        assert_int_equal(ios_sysfs_read_string(fd, "sub/real/attr", &s), 0);
        assert_string_equal(s, "1");
        free(s);
        assert_int_equal(ios_sysfs_read_string(fd, "sub//real/attr", &s), 0);
        free(s);
        assert_int_equal(ios_sysfs_read_string(fd, "exact", &s), 0);
        assert_string_equal(s, "");
        free(s);
        assert_true(ios_sysfs_exists(fd, "sub/real"));
        assert_int_equal(ios_sysfs_list(fd, "sub", NULL), 2);

        /* a link anywhere on the way or at the end: ELOOP, whatever it points at */
        assert_int_equal(ios_sysfs_read_string(fd, "linkdir/attr", &s), -ELOOP);
        assert_int_equal(ios_sysfs_read_string(fd, "absdir/osrelease", &s), -ELOOP);
        assert_int_equal(ios_sysfs_read_string(fd, "updir/marker", &s), -ELOOP);
        assert_int_equal(ios_sysfs_read_string(fd, "linkattr", &s), -ELOOP);
        assert_int_equal(ios_sysfs_read_string(fd, "abslinkattr", &s), -ELOOP);
        assert_int_equal(ios_sysfs_write_string(fd, "linkattr", "2"), -ELOOP);
        assert_int_equal(ios_sysfs_write_string(fd, "linkdir/attr", "2"), -ELOOP);
        assert_int_equal(ios_sysfs_list(fd, "linkdir", NULL), -ELOOP);
        assert_false(ios_sysfs_exists(fd, "linkdir"));
        assert_false(ios_sysfs_exists(fd, "linkdir/attr"));
        assert_false(ios_sysfs_exists(fd, "linkattr"));
        assert_string_equal(t_read_file(strcat(strcpy((char[4200]){0}, qdir), "/sub/real/attr")), "1");
        /* a link read as a link is still fine ("driver"), but not through one */
        assert_int_equal(ios_sysfs_read_link_base(fd, "linkdir", &s), 0);
        assert_string_equal(s, "real");
        free(s);
        assert_int_equal(ios_sysfs_read_link_base(fd, "linkdir/x", &s), -ELOOP);

        /* FIFOs never block and are never read or written; nor a directory */
        assert_int_equal(ios_sysfs_read_string(fd, "fifo", &s), -EBADFD);
        assert_int_equal(ios_sysfs_read_string(fd, "sub/fifo", &s), -EBADFD);
        assert_int_equal(ios_sysfs_write_string(fd, "fifo", "1"), -EBADFD);
        assert_int_equal(ios_sysfs_read_string(fd, "sub", &s), -EISDIR);
        if (geteuid() == 0) {
                assert_int_equal(ios_sysfs_read_string(fd, "null", &s), -EBADFD);
                assert_int_equal(ios_sysfs_write_string(fd, "null", "1"), -EBADFD);
        }
        /* never up */
        assert_int_equal(ios_sysfs_read_string(fd, "../loop0/exact", &s), -EINVAL);
        assert_int_equal(ios_open_beneath(fd, "sub/..", O_PATH), -EINVAL);
        assert_int_equal(ios_open_beneath(fd, "/sub", O_PATH), -EINVAL);
        assert_int_equal(ios_open_beneath(fd, "", O_PATH), -EINVAL);

        ios_beneath_counts(&o1, &w1);
        if (walk || ios_openat2_missing()) {
                assert_true(w1 > w0);
                assert_int_equal(o1, o0);
                if (!walk)
                        print_message("openat2 is not available here (old kernel, seccomp or valgrind 3.19): "
                                      "the walk answered the openat2 run too\n");
        } else {
                assert_true(o1 > o0);
                assert_int_equal(w1, w0);
        }
        close(fd);
        ios_ctx_free(r);
        ios_beneath_force_walk(false);
}

static void test_refusals_openat2(void **state)
{
        (void)state;
        check_refusals(false);
}

static void test_refusals_walk(void **state)
{
        (void)state;
        check_refusals(true);
}

/* A value of exactly the cap is read whole; one byte more is an error, not a truncation. */
static void test_read_bounded(void **state)
{
        struct ios_ctx *r = NULL;
        char *big, *s = NULL;
        size_t cap = 64 * 1024;
        int fd;

        (void)state;
        big = malloc(cap + 2);
        assert_non_null(big);
        memset(big, 'x', cap + 1);
        big[cap] = '\0';
        mk("cap", big);
        big[cap] = 'x';
        big[cap + 1] = '\0';
        mk("over", big);
        fd = open_disk(&r);
        assert_true(fd >= 0);
        assert_int_equal(ios_sysfs_read_string(fd, "cap", &s), 0);
        assert_int_equal(strlen(s), cap);
        free(s);
        assert_int_equal(ios_sysfs_read_string(fd, "over", &s), -EFBIG);
        close(fd);
        ios_ctx_free(r);
        free(big);
}

/* Data opens through the root (udev database, inquiry) get regular files only, too. */
static void test_root_data_open(void **state)
{
        struct ios_ctx *r = NULL;
        char *s = NULL;

        (void)state;
        assert_int_equal(ios_ctx_new(dir, &r), 0);
        assert_int_equal(ios_ctx_read_file(r, "/sys/devices/virtual/block/loop0/fifo", &s, NULL), -EBADFD);
        assert_int_equal(ios_ctx_read_file(r, "/sys/devices/virtual/block/loop0/sub", &s, NULL), -EISDIR);
        /* links inside the root are still followed there */
        assert_int_equal(ios_ctx_read_file(r, "/sys/devices/virtual/block/loop0/linkattr", &s, NULL), 0);
        assert_string_equal(s, "1\n");
        free(s);
        ios_ctx_free(r);
}

/*
 * ios_sysfs_present() tells absence from a failed lookup: a disk's "queue",
 * "partition", "dm" or "md" looked up with no descriptor left (EMFILE) must
 * not read as absent (the fault sweep found NVMe path disks dropped and
 * results changed silently that way), and a link is an error, not absence.
 */
static void test_present(void **state)
{
        struct ios_ctx *r = NULL;
        struct rlimit lim, low;
        int fd, held[64], nheld = 0, h;

        (void)state;
        fd = open_disk(&r);
        assert_true(fd >= 0);
        assert_int_equal(ios_sysfs_present(fd, "sub/real"), 1);
        assert_int_equal(ios_sysfs_present(fd, "exact"), 1);
        assert_int_equal(ios_sysfs_present(fd, "nope"), 0);
        assert_int_equal(ios_sysfs_present(fd, "exact/nope"), 0);     /* ENOTDIR */
        assert_int_equal(ios_sysfs_present(fd, "linkdir"), -ELOOP);
        assert_int_equal(ios_sysfs_present(fd, "../loop0"), -EINVAL);

        /* no descriptor left: an error, where ios_sysfs_exists() says "absent"
         * (a limit just above fd, every free descriptor below it taken) */
        assert_int_equal(getrlimit(RLIMIT_NOFILE, &lim), 0);
        low = lim;
        low.rlim_cur = (rlim_t)fd + 8 < 64 ? (rlim_t)fd + 8 : (rlim_t)fd + 1;
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
        while (nheld < 64 && (h = dup(fd)) >= 0)
                held[nheld++] = h;
        assert_int_equal(errno, EMFILE);
        assert_int_equal(ios_sysfs_present(fd, "sub/real"), -EMFILE);
        assert_false(ios_sysfs_exists(fd, "sub/real"));
        while (nheld > 0)
                close(held[--nheld]);
        assert_int_equal(setrlimit(RLIMIT_NOFILE, &lim), 0);
        assert_int_equal(ios_sysfs_present(fd, "sub/real"), 1);
        close(fd);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_refusals_openat2),
                cmocka_unit_test(test_refusals_walk),
                cmocka_unit_test(test_read_bounded),
                cmocka_unit_test(test_root_data_open),
                cmocka_unit_test(test_present),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
