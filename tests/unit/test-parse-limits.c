/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the policy parser and the udev database reader take time
 * linear in their input, and a policy file or line over its limit is
 * refused with file:line.  Linearity is measured, not assumed: four times
 * the input must cost less than eight times the CPU time (a quadratic
 * parser costs sixteen; the best of three runs evens out a busy machine).
 * Before the fix a 1 MiB Name= line took 40 s and a 200,000-line udev
 * database 9.4 s.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"

/* "[Match]\nName=a a a ...\n[Set]\nScheduler=none\n" with n words */
static char *name_policy(size_t n)
{
        char *s = malloc(2 * n + 64), *p;

        assert_non_null(s);
        p = stpcpy(s, "[Match]\nName=");
        for (size_t i = 0; i < n; i++) {
                *p++ = 'a';
                *p++ = ' ';
        }
        strcpy(p, "\n[Set]\nScheduler=none\n");
        return s;
}

static double cpu_now(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double parse_cost(size_t words)
{
        char *text = name_policy(words);
        double best = 1e9;

        for (int run = 0; run < 3; run++) {
                struct ios_policy *p = NULL;
                struct ios_error err;
                double t0;

                assert_int_equal(ios_policy_new_builtin(&p), 0);
                t0 = cpu_now();
                assert_int_equal(ios_policy_parse(p, "lin.conf", text, &err), 0);
                if (cpu_now() - t0 < best)
                        best = cpu_now() - t0;
                ios_policy_free(p);
        }
        free(text);
        return best;
}

static void test_policy_linear(void **state)
{
        double small, big;

        (void)state;
        small = parse_cost(8000);
        big = parse_cost(32000);        /* 64,000 bytes: just under the line limit */
        print_message("Name= with 8,000 words: %.4f s, 32,000 words: %.4f s (ratio %.1f)\n",
                      small, big, big / small);
        assert_true(big < 8 * small || big < 0.005);
}

static void test_policy_limits(void **state)
{
        struct ios_policy *p = NULL;
        struct ios_error err = {};
        char *text, *s;

        (void)state;
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        /* a line of exactly the limit is read, one byte more is refused at its line */
        text = malloc(IOS_POLICY_LINE_MAX + 64);
        assert_non_null(text);
        s = stpcpy(text, "# x\n[Match]\n");
        {
                char *line = s;

                s = stpcpy(s, "Name=");
                while ((size_t)(s - line) < IOS_POLICY_LINE_MAX)
                        *s++ = 'b';
        }
        strcpy(s, "\n[Set]\nScheduler=none\n");
        assert_int_equal(ios_policy_parse(p, "edge.conf", text, &err), 0);
        memmove(s + 1, s, strlen(s) + 1);
        *s = 'b';
        assert_int_equal(ios_policy_parse(p, "long.conf", text, &err), -EFBIG);
        assert_string_equal(err.file, "long.conf");
        assert_int_equal(err.line, 3);
        assert_non_null(strstr(err.msg, "line longer than 64 KiB"));
        free(text);

        /* a whole text over the file limit, whatever its lines */
        text = malloc(IOS_POLICY_FILE_MAX + 2);
        assert_non_null(text);
        for (size_t i = 0; i < IOS_POLICY_FILE_MAX + 1; i++)
                text[i] = (i % 64 == 63) ? '\n' : '#';
        text[IOS_POLICY_FILE_MAX + 1] = '\0';
        assert_int_equal(ios_policy_parse(p, "huge.conf", text, &err), -EFBIG);
        assert_int_equal(err.line, 0);
        text[IOS_POLICY_FILE_MAX] = '\0';
        assert_int_equal(ios_policy_parse(p, "huge.conf", text, &err), 0);
        free(text);
        ios_policy_free(p);
}

static double udevdb_cost(const char *dir, size_t lines)
{
        char path[4096];
        FILE *f;
        double best = 1e9;

        snprintf(path, sizeof(path), "%s/run/udev/data/b7:99", dir);
        f = fopen(path, "w");
        assert_non_null(f);
        fputs("S:disk/by-id/x\nI:1\n", f);
        for (size_t i = 0; i < lines; i++)
                fprintf(f, "E:KEY%zu=value%zu\n", i, i);
        assert_int_equal(fclose(f), 0);
        for (int run = 0; run < 3; run++) {
                struct ios_ctx *r = NULL;
                struct ios_props pr = {};
                char key[32];
                double t0;

                assert_int_equal(ios_ctx_new(dir, &r), 0);
                t0 = cpu_now();
                assert_int_equal(ios_props_load(r, 7, 99, &pr), 0);
                if (cpu_now() - t0 < best)
                        best = cpu_now() - t0;
                snprintf(key, sizeof(key), "KEY%zu", lines - 1);
                assert_non_null(ios_props_get(&pr, key));
                assert_null(ios_props_get(&pr, "S"));
                ios_props_done(&pr);
                ios_ctx_free(r);
        }
        return best;
}

static void test_udevdb_linear(void **state)
{
        char *dir = t_fixture_copy("loop"), p[4096];
        double small, big;

        (void)state;
        assert_non_null(dir);
        snprintf(p, sizeof(p), "%s/run/udev/data/.keep", dir);
        assert_int_equal(t_write_file(p, ""), 0);
        small = udevdb_cost(dir, 50000);
        big = udevdb_cost(dir, 200000);
        print_message("udev database with 50,000 lines: %.4f s, 200,000 lines: %.4f s (ratio %.1f)\n",
                      small, big, big / small);
        assert_true(big < 8 * small || big < 0.02);
        t_rmtree(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_policy_limits),
                cmocka_unit_test(test_policy_linear),
                cmocka_unit_test(test_udevdb_linear),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
