/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the library's question "is an iosched-bench on this disk?"
 * (benchlock.c) on a fake root: no file, a free lock, a lock held
 * exclusively (with and without a pid written), a lock held shared, a file
 * of another user, a directory or a symlink where the file should be, and
 * the path it asks.  A held lock counts only for a root-owned 0600 file
 * whose holder (the fake proc/locks, else the pid in the file) is a live
 * process named iosched-bench with effective uid 0 (the fake
 * proc/PID/status): not a 0644 file, a dead pid, a user's process, another
 * name, nor a file naming a benchmark that proc/locks says is not the holder.
 * A killed bench's guard (root's iosched-guard) holding the lock while it
 * puts the disk back counts too, and says so (2): named by proc/locks, or
 * by the file's "BENCH GUARD START" after a dead bench's pid; not a user's
 * process of that name.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "helpers.h"

struct fx {
        char *root;
        struct ios_ctx *ctx;
        char lock[4096];
};

static int setup(void **state)
{
        char tmpl[] = "/tmp/iosched-test-XXXXXX";
        struct fx *f = calloc(1, sizeof(*f));

        if (!f || !mkdtemp(tmpl))
                return -1;
        f->root = strdup(tmpl);
        snprintf(f->lock, sizeof(f->lock), "%s/run/iosched-bench/7:3.lock", f->root);
        if (t_write_file(f->lock, "") < 0 || chmod(f->lock, 0600) < 0 || ios_ctx_new(f->root, &f->ctx) < 0)
                return -1;
        *state = f;
        return 0;
}

static int teardown(void **state)
{
        struct fx *f = *state;

        ios_ctx_free(f->ctx);
        t_rmtree(f->root);
        free(f);
        return 0;
}

/* A fake proc/PID/status: the process's name and its real and effective uid. */
static void fake_proc(struct fx *f, long pid, const char *name, unsigned euid)
{
        char p[4200], text[256];

        snprintf(p, sizeof(p), "%s/proc/%ld/status", f->root, pid);
        snprintf(text, sizeof(text), "Name:\t%s\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t%ld\n"
                 "Uid:\t%u\t%u\t%u\t%u\nGid:\t0\t0\t0\t0\n", name, pid, euid, euid, euid, euid);
        assert_int_equal(t_write_file(p, text), 0);
}

/* A fake proc/locks naming pid as the holder of the lock file's flock (and another lock first). */
static void fake_locks(struct fx *f, long pid)
{
        char p[4200], text[512];
        struct stat st;

        assert_int_equal(stat(f->lock, &st), 0);
        snprintf(p, sizeof(p), "%s/proc/locks", f->root);
        snprintf(text, sizeof(text),
                 "1: POSIX  ADVISORY  WRITE 77 00:1a:99 0 EOF\n"
                 "2: FLOCK  ADVISORY  WRITE %ld %02x:%02x:%lu 0 EOF\n"
                 "2: -> FLOCK  ADVISORY  WRITE 4243 %02x:%02x:%lu 0 EOF\n",
                 pid, major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino,
                 major(st.st_dev), minor(st.st_dev), (unsigned long)st.st_ino);
        assert_int_equal(t_write_file(p, text), 0);
}

static int holder(struct fx *f, long *pid)
{
        *pid = -1;
        return ios_bench_lock_holder(f->ctx, 7, 3, pid);
}

static void test_path(void **state)
{
        char buf[64];

        (void)state;
        assert_int_equal(ios_bench_lock_path(259, 1, buf, sizeof(buf)), 0);
        assert_string_equal(buf, "/run/iosched-bench/259:1.lock");
        assert_int_equal(ios_bench_lock_path(259, 1, buf, 10), -ENAMETOOLONG);
}

static void test_absent_and_free(void **state)
{
        struct fx *f = *state;
        long pid;

        assert_int_equal(ios_bench_lock_holder(f->ctx, 8, 0, &pid), 0);         /* no file */
        assert_int_equal(pid, 0);
        if (geteuid() != 0)
                skip();         /* only root's lock files count */
        assert_int_equal(holder(f, &pid), 0);                                  /* free */
        assert_int_equal(pid, 0);
}

static void test_held(void **state)
{
        struct fx *f = *state;
        long pid;
        int fd;

        if (geteuid() != 0)
                skip();
        fd = open(f->lock, O_RDWR | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
        /* held, the pid not written yet (and no proc/locks): no benchmark known to hold it */
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(pid, 0);
        assert_int_equal(pwrite(fd, "4242\n", 5, 0), 5);
        /* a dead pid: not a benchmark */
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(pid, 0);
        fake_proc(f, 4242, "iosched-bench", 0);
        assert_int_equal(holder(f, &pid), 1);
        assert_int_equal(pid, 4242);
        /* asking did not take the lock from its holder, nor keep one */
        assert_int_equal(holder(f, &pid), 1);
        close(fd);
        assert_int_equal(holder(f, &pid), 0);
        /* a shared hold (another asker) is no benchmark */
        fd = open(f->lock, O_RDONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(flock(fd, LOCK_SH | LOCK_NB), 0);
        assert_int_equal(holder(f, &pid), 0);
        close(fd);
}

/* The lock file held, as a bench holds it, saying text: its descriptor. */
static int hold(struct fx *f, const char *text)
{
        int fd = open(f->lock, O_RDWR | O_CLOEXEC);

        assert_true(fd >= 0);
        assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
        assert_int_equal(pwrite(fd, text, strlen(text), 0), (ssize_t)strlen(text));
        return fd;
}

static void test_not_a_bench(void **state)
{
        struct fx *f = *state;
        long pid;
        int fd;

        if (geteuid() != 0)
                skip();
        fd = hold(f, "4242\n");
        /* a user's process, or one of root's named otherwise */
        fake_proc(f, 4242, "iosched-bench", 65534);
        assert_int_equal(holder(f, &pid), 0);
        fake_proc(f, 4242, "iosched-benchx", 0);
        assert_int_equal(holder(f, &pid), 0);
        fake_proc(f, 4242, "flock", 0);
        assert_int_equal(holder(f, &pid), 0);
        fake_proc(f, 4242, "iosched-bench", 0);
        assert_int_equal(holder(f, &pid), 1);
        /* the kernel says who holds the flock, not the file: a user's flock(1)
         * on a descriptor opened while the file was readable */
        fake_proc(f, 5000, "flock", 65534);
        fake_locks(f, 5000);
        assert_int_equal(holder(f, &pid), 0);
        fake_locks(f, 4242);
        assert_int_equal(holder(f, &pid), 1);
        assert_int_equal(pid, 4242);
        /* a file others may read or write does not count, held by a benchmark or not */
        assert_int_equal(fchmod(fd, 0644), 0);
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(pid, 0);
        assert_int_equal(fchmod(fd, 0640), 0);
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(fchmod(fd, 0600), 0);
        assert_int_equal(holder(f, &pid), 1);
        close(fd);
        /* free again: the stale pid in the file and in an old proc/locks is nothing */
        assert_int_equal(holder(f, &pid), 0);
}

static void test_guard(void **state)
{
        struct fx *f = *state;
        long pid;
        int fd;

        if (geteuid() != 0)
                skip();
        /* the file of a killed bench (4242, dead) whose guard 4300 holds the lock */
        fd = hold(f, "4242 4300 98765\n");
        assert_int_equal(holder(f, &pid), 0);
        fake_proc(f, 4300, "iosched-guard", 0);
        assert_int_equal(holder(f, &pid), 2);
        assert_int_equal(pid, 4300);
        /* a user's process of that name is no guard */
        fake_proc(f, 4300, "iosched-guard", 65534);
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(pid, 0);
        /* the bench alive: it holds the lock, not its guard */
        fake_proc(f, 4300, "iosched-guard", 0);
        fake_proc(f, 4242, "iosched-bench", 0);
        assert_int_equal(holder(f, &pid), 1);
        assert_int_equal(pid, 4242);
        /* the kernel names the holder: the guard */
        fake_locks(f, 4300);
        assert_int_equal(holder(f, &pid), 2);
        assert_int_equal(pid, 4300);
        close(fd);
        assert_int_equal(holder(f, &pid), 0);
}

static void test_not_ours(void **state)
{
        struct fx *f = *state;
        char dir[4096];
        long pid;
        int fd;

        if (geteuid() != 0)
                skip();
        /* held, but another user's file: a user cannot plant one in root's 0755 directory, ignore it */
        fd = open(f->lock, O_RDWR | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
        assert_int_equal(fchown(fd, 1000, 1000), 0);
        assert_int_equal(holder(f, &pid), 0);
        close(fd);
        /* a directory or a symlink in its place */
        assert_int_equal(unlink(f->lock), 0);
        assert_int_equal(mkdir(f->lock, 0755), 0);
        assert_int_equal(holder(f, &pid), 0);
        assert_int_equal(rmdir(f->lock), 0);
        snprintf(dir, sizeof(dir), "%s/run/iosched-bench/8:0.lock", f->root);
        assert_int_equal(t_write_file(dir, "1\n"), 0);
        assert_int_equal(symlink("8:0.lock", f->lock), 0);
        fd = open(dir, O_RDWR | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(flock(fd, LOCK_EX | LOCK_NB), 0);
        assert_int_equal(holder(f, &pid), 0);
        close(fd);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_path),
                cmocka_unit_test_setup_teardown(test_absent_and_free, setup, teardown),
                cmocka_unit_test_setup_teardown(test_held, setup, teardown),
                cmocka_unit_test_setup_teardown(test_not_a_bench, setup, teardown),
                cmocka_unit_test_setup_teardown(test_guard, setup, teardown),
                cmocka_unit_test_setup_teardown(test_not_ours, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
