/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: src/shared/readfile.c: a regular file is read whole and
 * NUL-terminated, at max bytes exactly and -EFBIG one byte past it; a
 * directory is -EISDIR and a FIFO -EBADFD at once (the open never blocks,
 * nobody writes to it here); a missing file is -ENOENT; a descriptor's
 * read (ios_read_fd_max) is the same for a file whose size stat gives as 0.
 */
#define _GNU_SOURCE
#include <errno.h>
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

#include "macro.h"
#include "readfile.h"

static char dir[] = "/tmp/test-readfile-XXXXXX";
static char path[256], fifo[256];

static int setup(void **state)
{
        FILE *f;

        (void)state;
        if (!mkdtemp(dir))
                return -1;
        snprintf(path, sizeof(path), "%s/file", dir);
        snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
        f = fopen(path, "w");
        if (!f)
                return -1;
        fputs("[Set]\nScheduler=none\n", f);        /* 21 bytes */
        fclose(f);
        return mkfifo(fifo, 0600);
}

static int teardown(void **state)
{
        (void)state;
        unlink(path);
        unlink(fifo);
        return rmdir(dir);
}

static void test_whole_and_bound(void **state)
{
        _cleanup_free_ char *s = NULL;
        char *t = NULL;
        size_t len = 0;

        (void)state;
        assert_int_equal(ios_read_regular_file(path, 21, &s, &len), 0);
        assert_int_equal(len, 21);
        assert_string_equal(s, "[Set]\nScheduler=none\n");
        assert_int_equal(ios_read_regular_file(path, 20, &t, &len), -EFBIG);
        assert_null(t);
}

static void test_not_regular(void **state)
{
        char *s = NULL;
        char missing[300];

        (void)state;
        assert_int_equal(ios_read_regular_file(dir, 4096, &s, NULL), -EISDIR);
        assert_int_equal(ios_read_regular_file(fifo, 4096, &s, NULL), -EBADFD);
        snprintf(missing, sizeof(missing), "%s/none", dir);
        assert_int_equal(ios_read_regular_file(missing, 4096, &s, NULL), -ENOENT);
        assert_null(s);
}

static void test_fd_size_zero(void **state)
{
        _cleanup_free_ char *s = NULL;
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
        size_t len = 0;

        (void)state;
        assert_true(fd >= 0);
        /* a proc file says size 0: the read still takes the whole file */
        assert_int_equal(ios_read_fd_sized(fd, 4096, 0, &s, &len), 0);
        assert_int_equal(len, 21);
        assert_string_equal(s, "[Set]\nScheduler=none\n");
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_whole_and_bound),
                cmocka_unit_test(test_not_regular),
                cmocka_unit_test(test_fd_size_zero),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
