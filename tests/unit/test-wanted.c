/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the settings list's own functions (wanted.c: set adds or
 * replaces by key where it stands, get, unset, copy); a rule's [Set] and the merged settings of a disk are
 * such lists (a key set twice: the later value and source, at the first
 * place).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "helpers.h"
#include "policy-helpers.h"

static void test_set_get(void **state)
{
        struct ios_wanted w = {};
        const struct ios_setting *s;

        (void)state;
        assert_null(ios_wanted_get(&w, "scheduler"));
        assert_null(ios_wanted_get(NULL, "scheduler"));
        assert_null(ios_wanted_value(NULL, "scheduler"));
        assert_int_equal(ios_wanted_set(&w, "scheduler", "bfq none", "a.conf:3"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/nr_requests", "64", "a.conf:4"), 0);
        assert_int_equal(ios_wanted_set(&w, "queue/read_ahead_kb", "1024", "a.conf:5"), 0);
        assert_int_equal(w.n, 3);
        assert_true(w.cap >= 3);
        s = ios_wanted_get(&w, "queue/nr_requests");
        assert_non_null(s);
        assert_ptr_equal(s, &w.s[1]);
        assert_string_equal(s->value, "64");
        assert_string_equal(s->source, "a.conf:4");
        assert_string_equal(ios_wanted_value(&w, "scheduler"), "bfq none");
        assert_null(ios_wanted_get(&w, "queue/iosched/read_expire"));

        /* replace by key: value and source change, the place and the count do not */
        assert_int_equal(ios_wanted_set(&w, "queue/nr_requests", "128", "b.conf:9"), 0);
        assert_int_equal(w.n, 3);
        assert_string_equal(w.s[0].key, "scheduler");
        assert_string_equal(w.s[1].key, "queue/nr_requests");
        assert_string_equal(w.s[1].value, "128");
        assert_string_equal(w.s[1].source, "b.conf:9");
        assert_string_equal(w.s[2].key, "queue/read_ahead_kb");

        /* copies: the caller's strings stay the caller's */
        {
                char key[] = "queue/iosched/fifo_batch", val[] = "16";

                assert_int_equal(ios_wanted_set(&w, key, val, "c"), 0);
                key[0] = val[0] = 'X';
                assert_string_equal(ios_wanted_value(&w, "queue/iosched/fifo_batch"), "16");
        }
        /* a held key has no value and no source */
        assert_int_equal(ios_wanted_set(&w, "queue/rotational", NULL, NULL), 0);
        s = ios_wanted_get(&w, "queue/rotational");
        assert_non_null(s);
        assert_null(s->value);
        assert_null(s->source);
        assert_null(ios_wanted_value(&w, "queue/rotational"));
        assert_int_equal(w.n, 5);
        ios_wanted_done(&w);
        assert_int_equal(w.n, 0);
        assert_null(w.s);
        assert_int_equal(w.cap, 0);
}

static void test_unset_copy(void **state)
{
        struct ios_wanted w = {}, c = {};
        char key[32];

        (void)state;
        for (int i = 0; i < 100; i++) {
                snprintf(key, sizeof(key), "queue/k%d", i);
                assert_int_equal(ios_wanted_set(&w, key, key + 6, "src"), 0);
        }
        assert_int_equal(w.n, 100);
        /* the room doubles: far fewer than 100 sizes */
        assert_true(w.cap >= 100 && w.cap < 200);
        /* the last takes the place of the one dropped */
        ios_wanted_unset(&w, "queue/k10");
        assert_int_equal(w.n, 99);
        assert_null(ios_wanted_get(&w, "queue/k10"));
        assert_string_equal(w.s[10].key, "queue/k99");
        ios_wanted_unset(&w, "queue/nothing");
        assert_int_equal(w.n, 99);

        assert_int_equal(ios_wanted_copy(&w, &c), 0);
        assert_int_equal(c.n, w.n);
        for (size_t i = 0; i < w.n; i++) {
                assert_string_equal(c.s[i].key, w.s[i].key);
                assert_string_equal(c.s[i].value, w.s[i].value);
                assert_string_equal(c.s[i].source, w.s[i].source);
                assert_ptr_not_equal(c.s[i].key, w.s[i].key);
                assert_ptr_not_equal(c.s[i].value, w.s[i].value);
        }
        ios_wanted_unset(&w, NULL);
        assert_int_equal(w.n, 0);
        assert_string_equal(ios_wanted_value(&c, "queue/k5"), "k5");
        ios_wanted_done(&w);
        ios_wanted_done(&c);
}

static void test_rule_set_twice(void **state)
{
        struct ios_policy *p = t_parse("[Match]\nName=sda\n[Set]\n"
                                       "queue/read_ahead_kb=128\n"
                                       "queue/nr_requests=32\n"
                                       "queue/read_ahead_kb=4096\n"
                                       "[Match]\nName=sda\n[Set]\n"
                                       "queue/nr_requests=64\n", false);
        struct ios_ctx *r;
        struct ios_device *d = t_dev(&r, t_fixture("virtio-scsi-rot"), "sda");
        struct ios_wanted w = {};

        (void)state;
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        assert_int_equal(w.n, 2);
        assert_string_equal(w.s[0].key, "queue/read_ahead_kb");
        assert_string_equal(w.s[0].value, "4096");
        assert_string_equal(w.s[0].source, "test.conf:6");
        assert_string_equal(w.s[1].key, "queue/nr_requests");
        assert_string_equal(w.s[1].value, "64");
        assert_string_equal(w.s[1].source, "test.conf:10");
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_set_get),
                cmocka_unit_test(test_unset_copy),
                cmocka_unit_test(test_rule_set_twice),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
