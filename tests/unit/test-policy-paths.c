/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: a policy file is trusted only as far as the path to it.
 * Every directory from / down (owned by root, not writable by group or
 * others; a sticky directory like /tmp only above an entry of root's), no
 * symbolic link on the way or at the end (a link to /dev/null masks), and
 * the file read from the descriptor that was checked: a file swapped with
 * rename() thousands of times during loads is either the checked one or
 * refused, never the other one.  Runs as root (chown to another user).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "helpers.h"
#include "strv.h"

static char base[64];

static int setup(void **state)
{
        (void)state;
        snprintf(base, sizeof(base), "/tmp/iosched-paths-XXXXXX");
        return mkdtemp(base) ? 0 : -1;
}

static int teardown(void **state)
{
        (void)state;
        t_rmtree(strdup(base));
        return 0;
}

#define GOOD "[Daemon]\nDriftInterval=1s\n"
#define EVIL "[Daemon]\nDriftInterval=2s\n"

static char *path(const char *rel)
{
        static char buf[8][512];
        static int i;

        i = (i + 1) % 8;
        snprintf(buf[i], sizeof(buf[i]), "%s/%s", base, rel);
        return buf[i];
}

static void put(const char *rel, const char *text, mode_t mode)
{
        assert_int_equal(t_write_file(path(rel), text), 0);
        assert_int_equal(chmod(path(rel), mode), 0);
}

/* Load FILE alone; returns the error code (0 = loaded) and the message in msg. */
static int load(const char *file, char *msg, size_t n, uint64_t *drift)
{
        struct ios_policy *p = NULL;
        struct ios_error err = {};
        size_t ne = 0;
        const struct ios_error *e;
        int r;

        r = ios_policy_load(NULL, file, IOS_POLICY_NO_BUILTIN, &p, &err);
        assert_int_equal(r, 0);
        e = ios_policy_errors(p, &ne);
        snprintf(msg, n, "%s", ne ? e[0].msg : "");
        r = ne ? e[0].code : 0;
        if (drift)
                *drift = ios_policy_drift_interval_ms(p);
        ios_policy_free(p);
        return r;
}

static void test_parents(void **state)
{
        char msg[512];
        uint64_t drift = 0;

        (void)state;
        if (geteuid() != 0)
                skip();
        /* /tmp is sticky and world-writable, base is root's: fine */
        put("a.conf", GOOD, 0644);
        assert_int_equal(load(path("a.conf"), msg, sizeof(msg), &drift), 0);
        assert_int_equal(drift, 1000);

        /* a group-writable directory on the way */
        put("gw/a.conf", GOOD, 0644);
        assert_int_equal(chmod(path("gw"), 0775), 0);
        assert_int_equal(load(path("gw/a.conf"), msg, sizeof(msg), NULL), -EPERM);
        assert_non_null(strstr(msg, "/gw is writable by group or others"));
        /* deeper down it is still on the path */
        put("gw/sub/a.conf", GOOD, 0644);
        assert_int_equal(load(path("gw/sub/a.conf"), msg, sizeof(msg), NULL), -EPERM);
        assert_non_null(strstr(msg, "/gw is writable"));

        /* a directory owned by another user */
        put("user/a.conf", GOOD, 0644);
        assert_int_equal(chown(path("user"), 1000, 1000), 0);
        assert_int_equal(load(path("user/a.conf"), msg, sizeof(msg), NULL), -EPERM);
        assert_non_null(strstr(msg, "/user is not owned by root"));

        /* a sticky world-writable directory: only above root's entries */
        put("sticky/root/a.conf", GOOD, 0644);
        put("sticky/other/a.conf", GOOD, 0644);
        assert_int_equal(chmod(path("sticky"), 01777), 0);
        assert_int_equal(chown(path("sticky/other"), 1000, 1000), 0);
        assert_int_equal(load(path("sticky/root/a.conf"), msg, sizeof(msg), NULL), 0);
        assert_int_equal(load(path("sticky/other/a.conf"), msg, sizeof(msg), NULL), -EPERM);
        assert_non_null(strstr(msg, "sticky"));

        /* the file itself: another owner, writable by others */
        put("b.conf", GOOD, 0644);
        assert_int_equal(chown(path("b.conf"), 1000, 1000), 0);
        assert_int_equal(load(path("b.conf"), msg, sizeof(msg), NULL), -EPERM);
        put("c.conf", GOOD, 0666);
        assert_int_equal(load(path("c.conf"), msg, sizeof(msg), NULL), -EPERM);

        /* relative paths are checked from / as well */
        assert_int_equal(chdir(path("gw")), 0);
        assert_int_equal(load("a.conf", msg, sizeof(msg), NULL), -EPERM);
        assert_int_equal(chdir(base), 0);
        assert_int_equal(load("a.conf", msg, sizeof(msg), NULL), 0);
        assert_int_equal(chdir("/"), 0);
}

static void test_links(void **state)
{
        char msg[512];
        uint64_t drift = 7;

        (void)state;
        if (geteuid() != 0)
                skip();
        put("real/a.conf", GOOD, 0644);
        assert_int_equal(symlink("real/a.conf", path("link.conf")), 0);
        assert_int_equal(load(path("link.conf"), msg, sizeof(msg), NULL), -ELOOP);
        assert_non_null(strstr(msg, "is a symbolic link (only a link to /dev/null masks a file)"));
        assert_int_equal(symlink("real", path("linkdir")), 0);
        assert_int_equal(load(path("linkdir/a.conf"), msg, sizeof(msg), NULL), -ELOOP);
        assert_non_null(strstr(msg, "/linkdir is a symbolic link"));
        /* masking with /dev/null still works, and /dev/null itself */
        assert_int_equal(symlink("/dev/null", path("masked.conf")), 0);
        assert_int_equal(load(path("masked.conf"), msg, sizeof(msg), &drift), 0);
        assert_int_equal(load("/dev/null", msg, sizeof(msg), NULL), 0);

        /* a drop-in directory that is a link: its files are refused, said once */
        {
                struct ios_policy *p = NULL;
                struct ios_error err = {};
                const struct ios_error *e;
                size_t ne = 0;
                char root[512];

                snprintf(root, sizeof(root), "%s/cr", base);
                put("cr/etc/real.d/50-x.conf", GOOD, 0644);
                assert_int_equal(symlink("real.d", path("cr/etc/iosched.d")), 0);
                assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_NO_BUILTIN, &p, &err), 0);
                e = ios_policy_errors(p, &ne);
                assert_int_equal(ne, 1);
                assert_non_null(strstr(e[0].msg, "policy directory"));
                assert_non_null(strstr(e[0].msg, "symbolic link"));
                assert_int_equal(ios_strv_length((char **)ios_policy_files(p)), 0);
                ios_policy_free(p);
        }
}

/* A file replaced with rename() while it is loaded: the checked one or a refusal, never the other. */
static void test_swap_race(void **state)
{
        char msg[512];
        unsigned good = 0, refused = 0;
        pid_t pid;

        (void)state;
        if (geteuid() != 0)
                skip();
        put("race/good", GOOD, 0644);
        put("race/open", EVIL, 0666);           /* anybody could have written this one */
        put("race/user/evil", EVIL, 0644);      /* root's file, in a directory of another user */
        assert_int_equal(chown(path("race/user"), 1000, 1000), 0);
        put("race/x.conf", GOOD, 0644);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                char tmp[512];

                snprintf(tmp, sizeof(tmp), "%s/race/tmp", base);
                for (unsigned i = 0;; i++) {
                        /* x.conf becomes the good file, the open one, a link into user/, in turn */
                        if (i % 3 == 0)
                                (void)link(path("race/good"), tmp);
                        else if (i % 3 == 1)
                                (void)link(path("race/open"), tmp);
                        else
                                (void)symlink("user/evil", tmp);
                        (void)rename(tmp, path("race/x.conf"));
                }
        }
        for (int i = 0; i < 3000; i++) {
                uint64_t drift = 0;
                int r = load(path("race/x.conf"), msg, sizeof(msg), &drift);

                if (r == 0) {
                        if (drift != 1000) {
                                kill(pid, SIGKILL);
                                waitpid(pid, NULL, 0);
                                fail_msg("load %d read the unchecked file (drift %llu)", i,
                                         (unsigned long long)drift);
                        }
                        good++;
                } else
                        refused++;
        }
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        print_message("3000 loads during rename() swaps: %u the checked file, %u refused, 0 other\n",
                      good, refused);
        assert_int_equal(good + refused, 3000);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_parents),
                cmocka_unit_test(test_links),
                cmocka_unit_test(test_swap_race),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
