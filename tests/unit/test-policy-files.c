/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: where the policy is read from (policy-files.c): the one list
 * of search paths that ioschedd watches too, drop-in masking across
 * directories, and the refusal of files and directories others could have
 * written (mode; owner, as root only).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "helpers.h"
#include "strv.h"

/* An empty directory to hold etc/ and run/ (conf_root); teardown removes it even when an assert fails. */
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

/* The one list of where the policy is read (ioschedd watches the same paths). */
static void test_search_paths(void **state)
{
        char **files = NULL, **dirs = NULL;

        (void)state;
        assert_int_equal(ios_policy_search_paths("/x/", NULL, &files, &dirs), 0);
        assert_int_equal(ios_strv_length(files), 1);
        assert_string_equal(files[0], "/x/etc/iosched.conf");
        assert_int_equal(ios_strv_length(dirs), 3);
        assert_true(strncmp(dirs[0], "/x/", 3) == 0 && dirs[0][3] != '/');     /* the vendor directory */
        assert_string_equal(dirs[1], "/x/etc/iosched.d");
        assert_string_equal(dirs[2], "/x/run/iosched.d");
        ios_strv_free(files);
        ios_strv_free(dirs);

        assert_int_equal(ios_policy_search_paths(NULL, NULL, &files, &dirs), 0);
        assert_string_equal(files[0], "/etc/iosched.conf");
        assert_string_equal(dirs[2], "/run/iosched.d");
        ios_strv_free(files);
        ios_strv_free(dirs);
        assert_int_equal(ios_policy_search_paths("/", NULL, &files, &dirs), 0);
        assert_string_equal(files[0], "/etc/iosched.conf");
        assert_string_equal(dirs[2], "/run/iosched.d");
        ios_strv_free(files);
        ios_strv_free(dirs);

        /* --config FILE: that file alone, no directory */
        assert_int_equal(ios_policy_search_paths("/x", "/tmp/a.conf", &files, &dirs), 0);
        assert_int_equal(ios_strv_length(files), 1);
        assert_string_equal(files[0], "/tmp/a.conf");
        assert_non_null(dirs);
        assert_null(dirs[0]);
        ios_strv_free(files);
        ios_strv_free(dirs);
}

static void test_load_dirs_masking_and_modes(void **state)
{
        char p1[4096], p2[4096], p3[4096];
        const char *root = *state;
        struct ios_policy *p = NULL;
        struct ios_error err = {};
        char * const *files;

        snprintf(p1, sizeof(p1), "%s/etc/iosched.d/50-x.conf", root);
        snprintf(p2, sizeof(p2), "%s/run/iosched.d/50-x.conf", root);
        snprintf(p3, sizeof(p3), "%s/etc/iosched.d/10-a.conf", root);
        assert_int_equal(t_write_file(p1, "[Match]\nClass=hdd\n[Set]\nScheduler=bfq\n"), 0);
        assert_int_equal(t_write_file(p2, "[Match]\nClass=hdd\n[Set]\nScheduler=kyber\n"), 0);
        assert_int_equal(t_write_file(p3, "[Daemon]\nDriftInterval=250ms\n"), 0);
        chmod(p1, 0644);
        chmod(p2, 0644);
        chmod(p3, 0644);
        assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
        files = ios_policy_files(p);
        assert_int_equal(ios_strv_length(files), 2);   /* 10-a, then /run's 50-x masking /etc's */
        assert_non_null(strstr(files[0], "/etc/iosched.d/10-a.conf"));
        assert_non_null(strstr(files[1], "/run/iosched.d/50-x.conf"));
        assert_int_equal(ios_policy_drift_interval_ms(p), 250);
        ios_policy_free(p);

        /* group-writable: that file is skipped whole, named, and the rest still loads */
        chmod(p3, 0664);
        {
                size_t n = 0;
                const struct ios_error *errs;

                assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
                errs = ios_policy_errors(p, &n);
                assert_int_equal(n, 1);
                assert_int_equal(errs[0].code, -EPERM);
                assert_non_null(strstr(errs[0].file, "10-a.conf"));
                assert_non_null(strstr(errs[0].msg, "writable by group or others"));
                assert_non_null(strstr(err.file, "10-a.conf"));
                files = ios_policy_files(p);
                assert_int_equal(ios_strv_length(files), 1);
                assert_non_null(strstr(files[0], "/run/iosched.d/50-x.conf"));
                assert_int_equal(ios_policy_drift_interval_ms(p), 0);  /* 10-a's setting is not half-taken */
                ios_policy_free(p);
        }
        chmod(p3, 0644);

        /* a drop-in directory others can write to: its files are skipped, /run's still count */
        {
                char dir[4096];
                size_t n = 0;

                snprintf(dir, sizeof(dir), "%s/etc/iosched.d", root);
                chmod(dir, 0777);
                assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
                assert_non_null(strstr(ios_policy_errors(p, &n)[0].msg, "policy directory writable by others"));
                assert_int_equal(n, 1);
                files = ios_policy_files(p);
                assert_int_equal(ios_strv_length(files), 1);
                assert_non_null(strstr(files[0], "/run/iosched.d/50-x.conf"));
                ios_policy_free(p);
                chmod(dir, 0755);
        }

        /* a file that does not parse: skipped whole, every other file and the built-in rules apply */
        {
                char p4[4096];
                size_t n = 0;
                const struct ios_error *errs;

                snprintf(p4, sizeof(p4), "%s/etc/iosched.d/20-broken.conf", root);
                assert_int_equal(t_write_file(p4, "[Match]\nClass=ssd\n[Set]\nqueue/read_ahead_kb=64\n"
                                                  "queue/iosched/read_expire=-5\n"), 0);
                chmod(p4, 0644);
                assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
                errs = ios_policy_errors(p, &n);
                assert_int_equal(n, 1);
                assert_non_null(strstr(errs[0].file, "20-broken.conf"));
                assert_int_equal(errs[0].line, 5);
                assert_int_equal(ios_strv_length(ios_policy_files(p)), 2);
                assert_int_equal(ios_policy_drift_interval_ms(p), 250);
                ios_policy_free(p);
                unlink(p4);
        }

}

/* Not owned by root: refused unless the test flag says otherwise (chown needs root). */
static void test_refuses_file_not_root_owned(void **state)
{
        const char *root = *state;
        struct ios_policy *p = NULL;
        struct ios_error err = {};
        char path[4096];
        size_t n = 0;

        if (getuid() != 0)
                skip();
        snprintf(path, sizeof(path), "%s/etc/iosched.d/10-a.conf", root);
        assert_int_equal(t_write_file(path, "[Daemon]\nDriftInterval=250ms\n"), 0);
        assert_int_equal(chmod(path, 0644), 0);
        assert_int_equal(chown(path, 65534, 65534), 0);
        assert_int_equal(ios_policy_load(root, NULL, 0, &p, &err), 0);
        assert_non_null(strstr(err.msg, "not owned by root"));
        (void)ios_policy_errors(p, &n);
        assert_true(n >= 1);
        assert_int_equal(ios_policy_drift_interval_ms(p), 0);   /* the file was skipped */
        ios_policy_free(p);
        /* the same file with the test flag: read */
        assert_int_equal(ios_policy_load(root, NULL, IOS_POLICY_ANY_OWNER, &p, &err), 0);
        assert_int_equal(ios_policy_drift_interval_ms(p), 250);
        ios_policy_free(p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_search_paths),
                cmocka_unit_test_setup_teardown(test_load_dirs_masking_and_modes, setup, teardown),
                cmocka_unit_test_setup_teardown(test_refuses_file_not_root_owned, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
