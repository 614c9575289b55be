/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the evidence records (src/lib/evidence*.c): an
 * iosched-bench --compare -J report into a record (workload text and
 * digest, variants, tunables, vs_best), the verdict about a scheduler by
 * the bench's pairwise rule (best, within the noise, beaten), a record
 * written under a root and read back (ios_evidence_load), the document
 * bounded to the last N, mode 0644, no temporary file left; a symbolic
 * link on the way or a group-writable directory refused, a file there that
 * is no document left as it is; the file name of an identity (one per
 * model, one per disk without a model); a disk's document of earlier
 * versions read for it alone and taken into its model's; what makes a
 * record stale (kernel, firmware, device, rule; not a sibling disk of the
 * model) and against the policy;
 * and what the views get for a disk of a captured tree (ios_evidence_of_disk:
 * never validated, then the latest record, stale when the tree's kernel
 * release or the rule changes) and its facts -J "validation" object.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <math.h>
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
#include "iosched-evidence.h"
#include "iosched-internal.h"
#include "evidence-internal.h"
#include "macro.h"
#include "helpers.h"
#include "readfile.h"

#define SIG \
        "{ \"best\" : \"none\", \"margin_pct\" : 45, \"ratio\" : 1.45, \"p_value\" : 0.01, " \
        "\"significant\" : true, \"label\" : \"31% lower reader p99\" }"
#define NOISE \
        "{ \"best\" : \"none\", \"margin_pct\" : 3, \"ratio\" : 1.03, \"p_value\" : 0.35, " \
        "\"significant\" : false, \"label\" : \"3% lower reader p99\" }"

/* a report of none (best) and mq-deadline, the runner-up, beaten as vs says */
static char *report(const char *vs)
{
        char *s = NULL;

        static const char fmt[] =
                "{ \"backend\" : \"native\", \"global options\" : { \"filename\" : \"/dev/sdx\" },\n"
                "  \"compare\" : { \"objective\" : \"reader:p99\", \"lower_is_better\" : true,"
                " \"loops\" : 5,\n"
                "  \"schedulers\" : [\n"
                "   { \"name\" : \"none\", \"scheduler\" : \"none\", \"tunables\" : {}, \"runs\" : 5,"
                " \"median\" : 100, \"min\" : 90, \"max\" : 110, \"spread_pct\" : 20,"
                " \"vs_best\" : null },\n"
                "   { \"name\" : \"mq-deadline\", \"scheduler\" : \"mq-deadline\", \"tunables\" : "
                "{ \"queue/iosched/read_expire\" : \"250\" }, \"runs\" : 5, \"median\" : 145,"
                " \"min\" : 140, \"max\" : 150, \"spread_pct\" : 7, \"vs_best\" : %s } ],\n"
                "  \"best\" : \"none\", \"runner_up\" : \"mq-deadline\" },\n"
                "  \"jobs\" : [ { \"jobname\" : \"r.none.1\","
                " \"job options\" : { \"rw\" : \"randread\" } },\n"
                "              { \"jobname\" : \"r.none.2\","
                " \"job options\" : { \"rw\" : \"randread\" } } ] }";

        assert_true(asprintf(&s, fmt, vs) > 0);
        return s;
}

static void from_compare(const char *vs, struct ios_evidence *ev)
{
        _cleanup_free_ char *text = report(vs), *msg = NULL;

        assert_int_equal(ios_evidence_from_compare(text, strlen(text), ev, &msg), 0);
        assert_null(msg);
}

static void test_from_compare(void **state)
{
        struct ios_evidence ev;

        (void)state;
        from_compare(SIG, &ev);
        assert_string_equal(ev.objective, "reader:p99");
        assert_true(ev.lower_is_better);
        assert_int_equal(ev.rounds, 5);
        assert_string_equal(ev.backend, "native");
        assert_string_equal(ev.job_text, "[global]\nfilename=/dev/sdx\n[r]\nrw=randread");
        assert_true(startswith(ev.job_digest, "fnv1a64:") && strlen(ev.job_digest) == 24);
        {
                _cleanup_free_ char *d = ios_evidence_digest(ev.job_text),
                                    *o = ios_evidence_digest("[global]");

                assert_string_equal(d, ev.job_digest);  /* the digest is of the text */
                assert_string_not_equal(o, ev.job_digest);
        }
        assert_int_equal(ev.nv, 2);
        assert_string_equal(ev.v[1].tunables[0], "queue/iosched/read_expire=250");
        assert_false(ev.v[0].has_vs);
        assert_true(ev.v[1].has_vs && ev.v[1].vs_significant);
        assert_true(ev.v[1].median == 145 && ev.v[0].spread_pct == 20);
        ios_evidence_done(&ev);
}

static void test_not_a_comparison(void **state)
{
        struct ios_evidence ev;
        char *msg = NULL;

        (void)state;
        assert_int_equal(ios_evidence_from_compare("{\"jobs\": []}", 12, &ev, &msg), -EINVAL);
        assert_non_null(msg);
        free(msg);
        assert_int_equal(ios_evidence_from_compare("{", 1, &ev, &msg), -EINVAL);
        free(msg);
}

static void test_judge(void **state)
{
        struct ios_evidence ev;

        (void)state;
        from_compare(SIG, &ev);
        assert_int_equal(ios_evidence_judge(&ev, "mq-deadline", NULL), 0);
        assert_int_equal(ev.verdict, IOS_EVIDENCE_BEATEN);
        assert_string_equal(ev.against, "none");
        assert_string_equal(ev.label, "31% lower reader p99");
        assert_true(ios_evidence_against_policy(&ev));
        assert_int_equal(ios_evidence_judge(&ev, "none", NULL), 0);
        assert_int_equal(ev.verdict, IOS_EVIDENCE_BEST);
        assert_string_equal(ev.against, "mq-deadline");
        assert_false(ios_evidence_against_policy(&ev));
        assert_int_equal(ios_evidence_judge(&ev, "bfq", NULL), -ENOENT);
        ios_evidence_done(&ev);
        from_compare(NOISE, &ev);
        assert_int_equal(ios_evidence_judge(&ev, "mq-deadline", NULL), 0);
        assert_int_equal(ev.verdict, IOS_EVIDENCE_WITHIN_NOISE);
        assert_int_equal(ios_evidence_judge(&ev, "none", NULL), 0);
        assert_int_equal(ev.verdict, IOS_EVIDENCE_WITHIN_NOISE);
        assert_string_equal(ios_evidence_verdict_name(ev.verdict), "within_noise");
        assert_int_equal(ios_evidence_verdict_from_name("beaten"), IOS_EVIDENCE_BEATEN);
        assert_int_equal(ios_evidence_verdict_from_name("x"), IOS_EVIDENCE_NONE);
        ios_evidence_done(&ev);
}

static struct ios_evidence_id ident(const char *fw)
{
        return (struct ios_evidence_id){ .vendor = (char *)"DELL",
                                         .model = (char *)"PERC H700",
                                         .firmware = (char *)fw,
                                         .wwn = (char *)"0x6a4badb0",
                                         .cls = (char *)"raid" };
}

static void test_file_name(void **state)
{
        struct ios_evidence_id id = ident("2.130");
        _cleanup_free_ char *a = ios_evidence_file_name(&id), *b = NULL, *c = NULL;

        (void)state;
        assert_string_equal(a, "DELL_PERC-H700.json");         /* one per model */
        assert_true(ios_evidence_id_per_model(&id));
        id.firmware = (char *)"2.140";          /* the same document across firmware and disks */
        id.wwn = (char *)"0x6a4badb1";
        b = ios_evidence_file_name(&id);
        assert_string_equal(a, b);
        free(b);
        b = ios_evidence_file_name_per_disk(&id);               /* earlier versions' name */
        assert_string_equal(b, "DELL_PERC-H700_0x6a4badb1.json");
        id = (struct ios_evidence_id){ .vendor = (char *)"../..",
                                       .model = (char *)"a/b",
                                       .serial = (char *)"S 1" };
        c = ios_evidence_file_name(&id);
        assert_string_equal(c, "-.-.._a-b.json");          /* no "/", no leading "." */
        free(c);
        /* no model: one per disk, by WWN or serial */
        id = (struct ios_evidence_id){
                .vendor = (char *)"ATA", .serial = (char *)"S 1", .cls = (char *)"ssd" };
        assert_false(ios_evidence_id_per_model(&id));
        c = ios_evidence_file_name(&id);
        assert_string_equal(c, "ATA_unknown_S-1.json");
        free(c);
        id = (struct ios_evidence_id){ .wwn = (char *)"0x5000c5", .cls = (char *)"hdd" };
        c = ios_evidence_file_name(&id);
        assert_string_equal(c, "hdd_unknown_0x5000c5.json");
}

static char *tmp_root(void)
{
        char *d = strdup("/tmp/test-evidence-XXXXXX");

        assert_non_null(mkdtemp(d));
        return d;
}

static void rm_rf(const char *d)
{
        _cleanup_free_ char *cmd = NULL;

        assert_true(asprintf(&cmd, "rm -rf '%s'", d) > 0);
        assert_int_equal(system(cmd), 0);
}

static void record_as(const struct ios_evidence_id *id, const char *root, const char *kernel, unsigned keep,
                      int want);

static void record_one(const char *root, const char *kernel, unsigned keep, int want)
{
        struct ios_evidence_id id = ident("2.130");

        record_as(&id, root, kernel, keep, want);
}

/* a record of the comparison SIG measured on the disk id */
static void record_as(const struct ios_evidence_id *id, const char *root, const char *kernel, unsigned keep,
                      int want)
{
        struct ios_evidence ev;
        _cleanup_free_ char *path = NULL;

        from_compare(SIG, &ev);
        ev.time = 1796000000;
        ev.kernel = strdup(kernel);
        ev.rule = strdup("/etc/iosched.d/60-perc.conf:3");
        ev.policy_scheduler = strdup("mq-deadline");
        ev.tool = strdup("iosched-apply validate");
        assert_int_equal(ios_evidence_judge(&ev, "mq-deadline", NULL), 0);
        assert_int_equal(ios_evidence_record(root, id, &ev, keep, &path), want);
        if (want == 0)
                assert_true(strstr(path, "/var/lib/iosched/evidence/DELL_PERC-H700.json") != NULL);
        ios_evidence_done(&ev);
}

static void test_record_load(void **state)
{
        _cleanup_free_ char *root = tmp_root(), *path = NULL;
        struct ios_evidence_id id = ident("2.140");
        struct ios_evidence_doc doc;
        struct stat st;
        DIR *dir;
        struct dirent *de;
        char buf[64];

        (void)state;
        assert_int_equal(ios_evidence_load(root, &id, &doc), -ENOENT);
        for (int i = 0; i < 5; i++) {
                snprintf(buf, sizeof(buf), "6.1.%d", i);
                record_one(root, buf, 3, 0);
        }
        assert_int_equal(ios_evidence_load(root, &id, &doc), 0);
        assert_int_equal(doc.n, 3);                             /* bounded: the last 3 */
        assert_string_equal(doc.r[0].kernel, "6.1.2");
        assert_string_equal(doc.r[2].kernel, "6.1.4");
        assert_null(doc.id.firmware);                           /* the model's: each record names its disk */
        assert_null(doc.id.wwn);
        assert_string_equal(doc.r[2].firmware, "2.130");
        assert_string_equal(doc.r[2].wwn, "0x6a4badb0");
        assert_int_equal(doc.r[2].verdict, IOS_EVIDENCE_BEATEN);
        assert_int_equal(doc.r[2].time, 1796000000);
        assert_string_equal(doc.r[2].v[1].tunables[0], "queue/iosched/read_expire=250");
        assert_string_equal(doc.r[2].job_text, "[global]\nfilename=/dev/sdx\n[r]\nrw=randread");
        assert_true(fabs(doc.r[2].p_value - 0.01) < 1e-9);
        /* stale: the firmware of id, the kernel, the rule; nothing when all agree */
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, "6.1.4", "/etc/iosched.d/60-perc.conf:3",
                                            "mq-deadline"), IOS_EVIDENCE_STALE_FIRMWARE);
        id.firmware = (char *)"2.130";
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, "6.1.4", "/etc/iosched.d/60-perc.conf:3",
                                            "mq-deadline"), 0);
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, "6.12.1", "/etc/iosched.d/70-x.conf:2",
                                            "mq-deadline"),
                         IOS_EVIDENCE_STALE_KERNEL | IOS_EVIDENCE_STALE_RULE);
        /* a sibling of the model: not stale, and another disk */
        id.wwn = (char *)"0x6a4badb1";
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, "6.1.4", "/etc/iosched.d/60-perc.conf:3",
                                            "mq-deadline"), 0);
        assert_true(ios_evidence_other_disk(&doc.r[2], &id));
        id.wwn = (char *)"0x6a4badb0";
        assert_false(ios_evidence_other_disk(&doc.r[2], &id));
        id.cls = (char *)"ssd";
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, NULL, NULL, NULL),
                         IOS_EVIDENCE_STALE_DEVICE);
        assert_string_equal(ios_evidence_stale_text(IOS_EVIDENCE_STALE_KERNEL | IOS_EVIDENCE_STALE_RULE, buf,
                                                    sizeof(buf)), "kernel, rule");
        ios_evidence_doc_done(&doc);
        /* 0644, and no temporary file left */
        assert_true(asprintf(&path, "%s/var/lib/iosched/evidence", root) > 0);
        dir = opendir(path);
        assert_non_null(dir);
        while ((de = readdir(dir)))
                assert_true(streq(de->d_name, ".") || streq(de->d_name, "..") ||
                            streq(de->d_name, "DELL_PERC-H700.json"));
        closedir(dir);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0755);
        free(path);
        assert_true(asprintf(&path, "%s/var/lib/iosched/evidence/DELL_PERC-H700.json", root) > 0);
        assert_int_equal(stat(path, &st), 0);
        assert_int_equal(st.st_mode & 07777, 0644);
        rm_rf(root);
}

static void test_refused(void **state)
{
        _cleanup_free_ char *root = tmp_root(), *p = NULL, *other = tmp_root(), *doc = NULL;
        FILE *f;

        (void)state;
        /* a symbolic link on the way: nothing written through it */
        assert_true(asprintf(&p, "%s/var", root) > 0);
        assert_int_equal(mkdir(p, 0755), 0);
        free(p);
        assert_true(asprintf(&p, "%s/var/lib", root) > 0);
        assert_int_equal(mkdir(p, 0755), 0);
        free(p);
        assert_true(asprintf(&p, "%s/var/lib/iosched", root) > 0);
        assert_int_equal(symlink(other, p), 0);
        record_one(root, "6.1", 0, -ELOOP);
        assert_int_equal(unlink(p), 0);
        /* a directory others may write */
        assert_int_equal(mkdir(p, 0775), 0);
        assert_int_equal(chmod(p, 0775), 0);
        free(p);
        assert_true(asprintf(&p, "%s/var/lib/iosched/evidence", root) > 0);
        assert_int_equal(mkdir(p, 0777), 0);
        assert_int_equal(chmod(p, 0777), 0);
        record_one(root, "6.1", 0, -EPERM);
        assert_int_equal(chmod(p, 0755), 0);
        /* a file that is not a document: left as it is */
        assert_true(asprintf(&doc, "%s/DELL_PERC-H700.json", p) > 0);
        f = fopen(doc, "w");
        assert_non_null(f);
        fputs("{\"something\": \"else\"}\n", f);
        fclose(f);
        record_one(root, "6.1", 0, -EBADMSG);
        {
                _cleanup_free_ char *text = NULL;

                assert_int_equal(ios_read_regular_file(doc, 4096, &text, NULL), 0);
                assert_string_equal(text, "{\"something\": \"else\"}\n");
        }
        rm_rf(root);
        rm_rf(other);
}

/* a disk's document of earlier versions (no "disk" in its records): read for that disk alone, taken in */
static void test_per_disk_document(void **state)
{
        _cleanup_free_ char *root = tmp_root(), *dir = NULL, *own = NULL, *model = NULL;
        struct ios_evidence_id id = ident("2.130"), sibling = ident("2.130");
        struct ios_evidence_doc doc;
        FILE *f;

        (void)state;
        sibling.wwn = (char *)"0x6a4badb1";
        record_one(root, "6.1.0", 0, 0);                        /* makes the directory */
        assert_true(asprintf(&dir, "%s/var/lib/iosched/evidence", root) > 0);
        assert_true(asprintf(&model, "%s/DELL_PERC-H700.json", dir) > 0);
        assert_true(asprintf(&own, "%s/DELL_PERC-H700_0x6a4badb0.json", dir) > 0);
        assert_int_equal(unlink(model), 0);
        /* as an earlier version wrote it: the identity names the disk, the record does not */
        f = fopen(own, "w");
        assert_non_null(f);
        fputs("{\"schema\": 1, \"kind\": \"iosched-evidence\",\n \"identity\": {\"vendor\": \"DELL\", "
              "\"model\": \"PERC H700\", \"firmware\": \"2.130\", \"wwn\": \"0x6a4badb0\", \"serial\": null, "
              "\"class\": \"raid\"},\n \"records\": [\n  {\"date\": \"2026-11-30T08:53:20Z\", "
              "\"time\": 1796000000, \"tool\": \"iosched-apply validate\", \"version\": \"0.1.0\", "
              "\"kernel\": \"6.1.0\", \"device\": \"sdb\", \"rule\": null, "
              "\"policy_scheduler\": \"mq-deadline\", "
              "\"rounds\": 3, \"variants\": [], \"best\": \"none\", \"verdict\": \"beaten\"}\n ]}\n", f);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(ios_evidence_load(root, &sibling, &doc), -ENOENT);    /* another disk's */
        assert_int_equal(ios_evidence_load(root, &id, &doc), 0);
        assert_int_equal(doc.n, 1);
        assert_string_equal(doc.id.wwn, "0x6a4badb0");
        assert_string_equal(doc.r[0].wwn, "0x6a4badb0");        /* from the identity */
        assert_string_equal(doc.r[0].firmware, "2.130");
        assert_int_equal(ios_evidence_stale(&doc.r[0], &doc.id, &id, "6.1.0", NULL, NULL), 0);
        ios_evidence_doc_done(&doc);
        /* the model's first record, on that disk, takes it in, and it goes; a sibling's adds to it */
        record_as(&id, root, "6.1.1", 0, 0);
        assert_int_equal(access(own, F_OK), -1);
        record_as(&sibling, root, "6.1.1", 0, 0);
        assert_int_equal(ios_evidence_load(root, &id, &doc), 0);
        assert_int_equal(doc.n, 3);
        assert_string_equal(doc.r[0].device, "sdb");
        assert_string_equal(doc.r[0].wwn, "0x6a4badb0");
        assert_string_equal(doc.r[1].wwn, "0x6a4badb0");
        assert_string_equal(doc.r[2].wwn, "0x6a4badb1");
        assert_true(ios_evidence_other_disk(&doc.r[2], &id));
        assert_int_equal(ios_evidence_stale(&doc.r[2], &doc.id, &id, "6.1.1", NULL, NULL), 0);
        ios_evidence_doc_done(&doc);
        rm_rf(root);
}

/* the record of a captured PERC logical drive, then what a view of that tree is told */
static void test_of_disk(void **state)
{
        char *tree = t_fixture_copy("megaraid-ld"), *osr = NULL, *out = NULL;
        struct ios_ctx *ctx = NULL;
        struct ios_device *d = NULL;
        struct ios_evidence_id id = {};
        struct ios_evidence_state st;
        struct ios_evidence ev;
        size_t len = 0;
        FILE *f;

        (void)state;
        assert_int_equal(ios_ctx_new(tree, &ctx), 0);
        assert_int_equal(ios_device_new(ctx, "sdb", &d), 0);
        assert_int_equal(ios_device_classify(d), 0);
        assert_int_equal(ios_evidence_of_disk(tree, d, NULL, NULL, &st), 0);
        assert_null(st.last);                                   /* never validated */
        f = open_memstream(&out, &len);
        ios_evidence_state_json(f, &st);
        fclose(f);
        assert_string_equal(out, "null");
        free(out);
        ios_evidence_state_done(&st);

        assert_int_equal(ios_evidence_id_of(d, &id), 0);
        from_compare(SIG, &ev);
        ev.time = 1796000000;
        ev.kernel = ios_ctx_kernel_release(ctx);
        assert_non_null(ev.kernel);
        ev.rule = strdup("/etc/iosched.d/60-perc.conf:4");
        ev.policy_scheduler = strdup("mq-deadline");
        assert_int_equal(ios_evidence_judge(&ev, "mq-deadline", NULL), 0);
        assert_int_equal(ios_evidence_record(tree, &id, &ev, 0, NULL), 0);
        ios_evidence_done(&ev);

        assert_int_equal(ios_evidence_of_disk(tree, d, "/etc/iosched.d/60-perc.conf:4", "mq-deadline", &st),
                         0);
        assert_non_null(st.last);
        assert_int_equal(st.stale, 0);
        assert_true(st.against_policy);
        ios_evidence_state_done(&st);
        /* another rule, and another kernel in the tree: stale for both */
        assert_true(asprintf(&osr, "%s/proc/sys/kernel/osrelease", tree) > 0);
        assert_int_equal(t_write_file(osr, "9.9.9-test\n"), 0);
        assert_int_equal(ios_evidence_of_disk(tree, d, "/etc/iosched.d/70-x.conf:2", "mq-deadline", &st), 0);
        assert_int_equal(st.stale, IOS_EVIDENCE_STALE_KERNEL | IOS_EVIDENCE_STALE_RULE);
        out = NULL;
        f = open_memstream(&out, &len);
        ios_evidence_state_json(f, &st);
        fclose(f);
        assert_true(startswith(out, "{\"verdict\": \"beaten\", \"date\": \"2026-"));
        assert_non_null(strstr(out, "\"stale\": [\"kernel\", \"rule\"], \"against_policy\": true}"));
        free(out);
        ios_evidence_state_done(&st);
        ios_evidence_id_done(&id);
        free(osr);
        ios_device_free(d);
        ios_ctx_free(ctx);
        t_rmtree(tree);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_from_compare),
                cmocka_unit_test(test_not_a_comparison),
                cmocka_unit_test(test_judge),
                cmocka_unit_test(test_file_name),
                cmocka_unit_test(test_record_load),
                cmocka_unit_test(test_refused),
                cmocka_unit_test(test_per_disk_document),
                cmocka_unit_test(test_of_disk),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
