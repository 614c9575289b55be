/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the one-open read of an attribute (nodefree.c) is taken
 * only below a directory handle that root.c opened on a mount where no
 * device node can be opened, and gives nothing away: the record of such
 * handles is cleared when one is closed and never marks what it cannot
 * hold; a captured tree on an ordinary directory gets no mark (its
 * attributes are checked with fstat first); on the host's sysfs a disk's
 * handle is marked, its attributes read, and a link below it still ends
 * the lookup (-ELOOP), as on the checked path.
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
#include <dirent.h>
#include <cmocka.h>

#include "iosched.h"
#include "root-internal.h"
#include "nodefree-internal.h"
#include "helpers.h"

static void test_record(void **state)
{
        int fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

        (void)state;
        assert_true(fd >= 0);
        assert_false(ios_dirfd_node_free(fd));
        ios_dirfd_set_node_free(fd, true);
        assert_true(ios_dirfd_node_free(fd));
        ios_dirfd_set_node_free(fd, false);
        assert_false(ios_dirfd_node_free(fd));
        ios_dirfd_set_node_free(fd, true);
        ios_dirfd_close(fd);            /* the mark goes with the descriptor */
        assert_false(ios_dirfd_node_free(fd));
        ios_dirfd_set_node_free(-1, true);
        assert_false(ios_dirfd_node_free(-1));
        ios_dirfd_set_node_free(1 << 20, true);
        assert_false(ios_dirfd_node_free(1 << 20));
        ios_dirfd_close(-1);
}

/* A tree in an ordinary directory: marked only if that mount has no nodes. */
static void test_tree_mark(void **state)
{
        char tmpl[] = "/tmp/ios-nf-XXXXXX", p[256];
        struct ios_ctx *r = NULL;
        char *canon = NULL, *s = NULL;
        int fd, root, nf;

        (void)state;
        assert_non_null(mkdtemp(tmpl));
        snprintf(p, sizeof(p), "%s/sys/devices/virtual/block/loop9/queue/rotational", tmpl);
        assert_int_equal(t_write_file(p, "1\n"), 0);
        root = open(tmpl, O_PATH | O_DIRECTORY | O_CLOEXEC);
        assert_true(root >= 0);
        nf = ios_fs_node_free(root);
        close(root);
        assert_true(nf == 0 || nf == 1);
        assert_int_equal(ios_ctx_new(tmpl, &r), 0);
        fd = ios_ctx_open_dir(r, "/sys/devices/virtual/block/loop9", &canon);
        assert_true(fd >= 0);
        assert_string_equal(canon, "/sys/devices/virtual/block/loop9");
        assert_int_equal(ios_dirfd_node_free(fd), nf == 1);
        assert_int_equal(ios_sysfs_read_string(fd, "queue/rotational", &s), 0);
        assert_string_equal(s, "1");
        assert_int_equal(ios_ctx_open_dir(r, "/sys/devices/virtual/block/none", NULL), -ENOENT);
        ios_dirfd_close(fd);
        assert_false(ios_dirfd_node_free(fd));
        free(s);
        free(canon);
        ios_ctx_free(r);
        snprintf(p, sizeof(p), "rm -rf '%s'", tmpl);
        assert_int_equal(system(p), 0);
}

/* The host's sysfs: a disk's handle is marked; a link below it is not followed. */
static void test_host_sysfs(void **state)
{
        struct ios_ctx *r = NULL;
        char path[512], *s = NULL;
        struct dirent *de;
        DIR *d;
        int fd, cls, sys;

        (void)state;
        sys = open("/sys", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (sys < 0 || ios_fs_node_free(sys) != 1 || ios_openat2_missing()) {
                if (sys >= 0)
                        close(sys);
                skip();
        }
        close(sys);
        d = opendir("/sys/class/block");
        if (!d)
                skip();
        while ((de = readdir(d)) && de->d_name[0] == '.')
                ;
        if (!de) {
                closedir(d);
                skip();
        }
        snprintf(path, sizeof(path), "/sys/class/block/%s", de->d_name);
        assert_int_equal(ios_ctx_new("/", &r), 0);
        fd = ios_ctx_open_dir(r, path, NULL);
        assert_true(fd >= 0);
        assert_true(ios_dirfd_node_free(fd));
        assert_int_equal(ios_sysfs_read_string(fd, "dev", &s), 0);
        assert_non_null(strchr(s, ':'));
        free(s);
        s = NULL;
        ios_dirfd_close(fd);
        cls = ios_ctx_open_dir(r, "/sys/class/block", NULL);
        assert_true(cls >= 0);
        assert_true(ios_dirfd_node_free(cls));
        snprintf(path, sizeof(path), "%s/dev", de->d_name);    /* class/block/X is a link */
        assert_int_equal(ios_sysfs_read_string(cls, path, &s), -ELOOP);
        ios_dirfd_close(cls);
        closedir(d);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_record),
                cmocka_unit_test(test_tree_mark),
                cmocka_unit_test(test_host_sysfs),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
