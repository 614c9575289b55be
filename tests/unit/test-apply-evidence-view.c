/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the validation evidence of iosched-apply's views: the run
 * model (src/apply/model.c) reads a disk's document only when asked (the
 * views), against the rule and scheduler in force, and a document that is
 * not one is the disk's note, not a failure; evidence-view.c words each
 * verdict truly, fills status's VALIDATED cell, says the stale and
 * against-the-policy warnings and prints the "validation" JSON member.
 */
#define _GNU_SOURCE
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-evidence.h"
#include "helpers.h"
#include "policy-helpers.h"
#include "../../src/apply/apply.h"
#include "strv.h"

#define T0 1796000000LL /* 2026-11-30T00:53:20Z */

/* A record of a comparison of none and mq-deadline on the disk d's root. */
static void record(const char *root, struct ios_device *d, const char *kernel, enum ios_evidence_verdict v,
                   char **ret_path)
{
        struct ios_evidence_id id = {};
        struct ios_evidence ev = {
                .time = T0, .tool = strdup("iosched-apply validate"), .version = strdup("test"),
                .kernel = strdup(kernel), .device = strdup(d->name), .rule = strdup("test.conf:4"),
                .policy_scheduler = strdup("mq-deadline"), .backend = strdup("native"),
                .objective = strdup("reader:p99"), .lower_is_better = true, .rounds = 5,
                .best = strdup(v == IOS_EVIDENCE_BEATEN ? "none" : "mq-deadline"),
                .runner_up = strdup("none"),
                .verdict = v, .against = strdup("none"), .label = strdup("12% lower reader p99"),
                .effect_pct = 12, .p_value = 0.01, .significant = true,
        };

        assert_int_equal(ios_evidence_id_of(d, &id), 0);
        assert_int_equal(ios_evidence_record(root, &id, &ev, 0, ret_path), 0);
        ios_evidence_id_done(&id);
        ios_evidence_done(&ev);
}

static char *text_of(void (*fn)(FILE *f, const struct apply_disk *d), const struct apply_disk *d)
{
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);

        assert_non_null(f);
        fn(f, d);
        assert_int_equal(fclose(f), 0);
        return buf;
}

/* The model reads the evidence for the views only, against the rule in force; a broken document is a note. */
static void test_model(void **state)
{
        char *tree = t_fixture_copy("megaraid-ld"), *path = NULL, *kernel, *s;
        struct ios_policy *p = t_parse("[Match]\nName=sdb\n[Set]\nScheduler=mq-deadline\n", false);
        struct apply_model_opts view = { .report = true, .evidence = true, .evidence_root = tree };
        struct ios_ctx *r;
        struct ios_device *d;
        struct apply_model m;
        char **w;

        (void)state;
        d = t_dev(&r, tree, "sdb");
        kernel = ios_ctx_kernel_release(r);
        assert_non_null(kernel);

        /* never validated: no directory is no error */
        assert_int_equal(apply_model_build(&m, &view, p, &d, 1), 0);
        assert_true(m.evidence);
        assert_null(m.disks[0].ev.last);
        assert_int_equal(m.disks[0].ev_error, 0);
        assert_string_equal(m.disks[0].wanted_source, "test.conf:4");
        s = apply_evidence_cell(&m.disks[0]);
        assert_string_equal(s, "-");
        free(s);
        assert_null(apply_evidence_warnings(&m.disks[0]));
        apply_model_done(&m);

        record(tree, d, kernel, IOS_EVIDENCE_BEST, &path);
        assert_int_equal(apply_model_build(&m, &view, p, &d, 1), 0);
        assert_non_null(m.disks[0].ev.last);
        assert_int_equal(m.disks[0].ev.stale, 0);
        assert_false(m.disks[0].ev.against_policy);
        assert_null(apply_evidence_warnings(&m.disks[0]));
        s = apply_evidence_cell(&m.disks[0]);
        assert_string_equal(s, "2026-11-30");
        free(s);
        apply_model_done(&m);

        /* apply (and --udev) do not read it */
        assert_int_equal(apply_model_build(&m, &(struct apply_model_opts){ .mode = APPLY_MODE_APPLY,
                                                                          .evidence_root = tree },
                                           p, &d, 1),
                         0);
        assert_false(m.evidence);
        assert_null(m.disks[0].ev.last);
        apply_model_done(&m);

        /* another rule in force: stale for the rule */
        ios_policy_free(p);
        p = t_parse("# moved\n[Match]\nName=sdb\n[Set]\nScheduler=mq-deadline\n", false);
        assert_int_equal(apply_model_build(&m, &view, p, &d, 1), 0);
        assert_int_equal(m.disks[0].ev.stale, IOS_EVIDENCE_STALE_RULE);
        s = apply_evidence_cell(&m.disks[0]);
        assert_string_equal(s, "2026-11-30,stale");
        free(s);
        w = apply_evidence_warnings(&m.disks[0]);
        assert_non_null(w);
        assert_string_equal(w[0], "warning: the validation of 2026-11-30 is stale, changed since: "
                                  "rule (test.conf:4, mq-deadline then); validate again");
        assert_null(w[1]);
        ios_strv_free(w);
        apply_model_done(&m);

        /* not an evidence document: a note, and the view goes on */
        assert_int_equal(t_write_file(path, "{\n"), 0);
        assert_int_equal(apply_model_build(&m, &view, p, &d, 1), 0);
        assert_int_equal(m.disks[0].ev_error, -EBADMSG);
        assert_null(m.disks[0].ev.last);
        assert_int_equal(m.outcome, APPLY_OK);
        s = apply_evidence_cell(&m.disks[0]);
        assert_string_equal(s, "?");
        free(s);
        w = apply_evidence_warnings(&m.disks[0]);
        assert_string_equal(w[0], "note: its validation evidence in " IOS_EVIDENCE_DIR
                                  " cannot be read: not an evidence document");
        ios_strv_free(w);
        s = text_of(apply_evidence_json, &m.disks[0]);
        assert_string_equal(s, ",\n     \"validation\": null, \"validation_error\": "
                               "\"its validation evidence in " IOS_EVIDENCE_DIR
                               " cannot be read: not an evidence document\"");
        free(s);
        apply_model_done(&m);

        free(path);
        free(kernel);
        ios_policy_free(p);
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(tree);
}

/* Each verdict in words that are true of it, and the against-the-policy warning of a beaten one. */
static void test_words(void **state)
{
        struct ios_device dev = { .name = (char *)"sdb" };
        struct ios_evidence r = {
                .time = T0, .kernel = (char *)"6.12.48", .rule = (char *)"/etc/iosched.d/60-perc.conf:5",
                .policy_scheduler = (char *)"mq-deadline", .rounds = 5, .best = (char *)"mq-deadline",
                .against = (char *)"none", .label = (char *)"12% lower reader p99", .p_value = 0.01,
        };
        struct apply_disk d = { .dev = &dev, .ev = { .last = &r } };
        static const struct {
                enum ios_evidence_verdict v;
                const char *best, *against, *want;
        } cases[] = {
                { IOS_EVIDENCE_BEST, "mq-deadline", "none",
                  "mq-deadline best, 12% lower reader p99 than none, p=0.01" },
                { IOS_EVIDENCE_BEST, "mq-deadline", NULL,
                  "mq-deadline best (nothing else completed a run)" },
                { IOS_EVIDENCE_WITHIN_NOISE, "none", "none",
                  "mq-deadline within the noise of none "
                  "(none: 12% lower reader p99, p=0.01, not significant)" },
                { IOS_EVIDENCE_BEATEN, "none", "none",
                  "none beat mq-deadline, 12% lower reader p99, p=0.01" },
                { IOS_EVIDENCE_NONE, "none", NULL, "no verdict about mq-deadline" },
        };
        char want[256], *s;
        char **w;

        (void)state;
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                r.verdict = cases[i].v;
                r.best = (char *)cases[i].best;
                r.against = (char *)cases[i].against;
                snprintf(want, sizeof(want), "validated 2026-11-30 on 6.12.48: %s, 5 rounds", cases[i].want);
                s = text_of(apply_evidence_line, &d);
                assert_string_equal(s, want);
                free(s);
        }
        d.ev.last = NULL;
        s = text_of(apply_evidence_line, &d);
        assert_string_equal(s, "never validated");
        free(s);

        /* beaten with significance, on another kernel since */
        d.ev.last = &r;
        r.verdict = IOS_EVIDENCE_BEATEN;
        r.best = r.against = (char *)"none";
        r.p_value = NAN;
        d.ev.against_policy = true;
        d.ev.stale = IOS_EVIDENCE_STALE_KERNEL;
        s = apply_evidence_cell(&d);
        assert_string_equal(s, "2026-11-30,stale,against");
        free(s);
        w = apply_evidence_warnings(&d);
        assert_string_equal(w[0], "warning: the validation of 2026-11-30 is stale, changed since: "
                                  "kernel (6.12.48 then); validate again");
        assert_string_equal(w[1], "warning: the validation of 2026-11-30 is against the policy: none beat "
                                  "mq-deadline with significance (12% lower reader p99)");
        assert_null(w[2]);
        ios_strv_free(w);
        s = text_of(apply_evidence_json, &d);
        assert_non_null(strstr(s, "\"verdict\": \"beaten\""));
        assert_non_null(strstr(s, "\"p_value\": null"));
        assert_non_null(strstr(s, "\"stale\": [\"kernel\"], \"against_policy\": true}"));
        assert_null(strstr(s, "validation_error"));
        free(s);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_model),
                cmocka_unit_test(test_words),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
