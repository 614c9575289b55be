/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: iosched-bench --compare --policy (and so `iosched-apply
 * validate`) tunes each candidate with the rules that match the disk, those
 * on Size= and Removable= too: loading the policy sets the root's probe flags,
 * so the disk, looked up afterwards (as main.c does), has those facts.
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

#include "../../src/bench/bench.h"
#include "../../src/bench/compare.h"
#include "helpers.h"

struct fx {
        char *dir;              /* holds the policy file */
        struct ios_ctx *root;
        struct ios_device *dev;         /* looked up by the test, after the policy */
};

static int setup(void **state)
{
        struct fx *f = calloc(1, sizeof(*f));
        char tmpl[] = "/tmp/iosched-test-XXXXXX";

        if (!f || !mkdtemp(tmpl) || !(f->dir = strdup(tmpl)))
                return -1;
        *state = f;
        /* as iosched-bench opens the root: no probe flags before the policy */
        if (ios_ctx_new(t_fixture("virtio-scsi-rot"), &f->root) < 0)
                return -1;
        return 0;
}

static int teardown(void **state)
{
        struct fx *f = *state;

        if (!f)
                return 0;
        ios_device_free(f->dev);
        ios_ctx_free(f->root);
        t_rmtree(f->dir);
        free(f);
        return 0;
}

static const char *wanted(const struct ios_wanted *w, const char *key)
{
        for (size_t i = 0; w && i < w->n; i++)
                if (strcmp(w->s[i].key, key) == 0)
                        return w->s[i].value;
        return NULL;
}

static void test_size_rule_reaches_the_hook(void **state)
{
        struct fx *f = *state;
        struct bench_compare_hooks h = {};
        struct bench_error e = {};
        const struct ios_wanted *w = NULL;
        char conf[4096];

        if (getuid() != 0)
                skip();         /* the hook reads the policy as root does: root-owned files only */
        snprintf(conf, sizeof(conf), "%s/size.conf", f->dir);
        assert_int_equal(t_write_file(conf, "[Match]\nSize=512M-2G\n[Set]\nqueue/nomerges=1\n"
                                            "[Match]\nSize=1T-\n[Set]\nqueue/nomerges=2\n"), 0);
        assert_int_equal(chmod(conf, 0644), 0);
        assert_int_equal(ios_ctx_get_probe(f->root), 0);

        assert_int_equal(bench_policy_hooks(conf, f->root, &h, &e), 0);
        assert_true(ios_ctx_get_probe(f->root) & IOS_PROBE_EXTRA);    /* the policy asks for size */
        assert_int_equal(ios_device_new(f->root, "sda", &f->dev), 0);
        assert_true(f->dev->size > 0);
        assert_non_null(h.tune);
        assert_int_equal(h.tune(h.userdata, f->dev, &w), 0);
        assert_non_null(wanted(w, "queue/nomerges"));
        assert_string_equal(wanted(w, "queue/nomerges"), "1");         /* a 1 GiB disk */
        /* the next switch asks again: same answer */
        assert_int_equal(h.tune(h.userdata, f->dev, &w), 0);
        assert_string_equal(wanted(w, "queue/nomerges"), "1");
        bench_policy_hooks_done(&h);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_size_rule_reaches_the_hook, setup, teardown),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
