/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: RAID drivers' logical drives told from pass-through disks
 * per driver (ipr's volume sets on channel 2, pmcraid's on 1, myrb's every
 * disk), a PCIe card reader by udev's ID_DRIVE_MEDIA_FLASH_SD alone, an
 * external array's LUN (built-in none, Class=array), and dm-multipath: a map
 * over array LUNs gets none, a map over local HDDs keeps mq-deadline.  On
 * the derived-* trees of tests/fixtures/derive-raid-array.sh, and copies of
 * them with one fact changed.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "helpers.h"
#include "policy-helpers.h"
#include "strv.h"

#define IPR_HOST "sys/devices/pci0000:00/0000:00:0d.0/host0/scsi_host/host0/proc_name"
#define MP_SDEV(t) "sys/devices/pci0000:00/0000:00:0d.0/virtio4/host0/target0:0:" t "/0:0:" t ":0"

static bool has_evidence(const struct ios_device *d, const char *needle)
{
        for (char **e = d->evidence; e && *e; e++)
                if (strstr(*e, needle))
                        return true;
        return false;
}

static void check_evidence(const struct ios_device *d, const char *needle)
{
        if (!has_evidence(d, needle)) {
                char *ev = ios_strv_join(d->evidence, " | ");

                fail_msg("%s (%s): no evidence \"%s\" in: %s", d->name, ios_class_to_string(d->cls), needle, ev);
        }
}

static void put(const char *dir, const char *rel, const char *content)
{
        char path[4096];

        snprintf(path, sizeof(path), "%s/%s", dir, rel);
        assert_int_equal(t_write_file(path, content), 0);
}

/* The scheduler the policy wants for a disk, and the rule behind it (NULL: none). */
static char *wanted(const struct ios_policy *p, const char *root, const char *dev, char **src)
{
        struct ios_ctx *r = NULL;
        struct ios_device *d = t_dev(&r, root, dev);
        struct ios_wanted w = {};
        char *v = NULL;

        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        for (size_t i = 0; i < w.n; i++)
                if (strcmp(w.s[i].key, "scheduler") == 0) {
                        v = strdup(w.s[i].value);
                        if (src)
                                *src = strdup(w.s[i].source);
                }
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        return v;
}

/* The ipr trees with another RAID driver's proc_name: that driver's rule decides. */
static void test_driver_rules(void **state)
{
        static const struct {
                const char *fx, *driver;
                enum ios_class cls;
                const char *ev;
        } t[] = {
                /* pmcraid: VSETs on channel 1 (PMCRAID_VSET_BUS_ID), so 0:2:0:0 is not one */
                { "derived-ipr-vset", "pmcraid\n", IOS_CLASS_HDD,
                  "pass-through disk on the RAID controller (SCSI 0:2:0:0, model IPR-0   6B8C4700)" },
                /* myrb: physical devices get no_uld_attach, every sd disk is a logical drive */
                { "derived-ipr-jbod", "myrb\n", IOS_CLASS_RAID, "host driver myrb (Mylex DAC960 (myrb))" },
                { "derived-ipr-jbod", "myrs\n", IOS_CLASS_RAID, "logical drive at SCSI 0:0:3:0, vendor IBM" },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                char *dir = t_fixture_copy(t[i].fx);
                struct ios_ctx *r = NULL;
                struct ios_device *d;

                assert_non_null(dir);
                put(dir, IPR_HOST, t[i].driver);
                d = t_dev(&r, dir, "sda");
                check_evidence(d, t[i].ev);
                assert_int_equal(d->cls, t[i].cls);
                ios_device_free(d);
                ios_ctx_free(r);
                t_rmtree(dir);
        }
}

/* A card reader on a driver no table knows: udev's medium key alone says mmc. */
static void test_card_reader_by_udev(void **state)
{
        char *dir = t_fixture_copy("derived-rts5208");
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        char path[4096], *db, *line;

        (void)state;
        assert_non_null(dir);
        put(dir, IPR_HOST, "rtsx_pci_sdmmc\n");
        snprintf(path, sizeof(path), "%s/run/udev/data/b8:0", dir);
        db = strdup(t_read_file(path));
        assert_non_null(db);
        line = strstr(db, "E:ID_DRIVE_FLASH_SD=1\n");
        assert_non_null(line);
        memmove(line, line + strlen("E:ID_DRIVE_FLASH_SD=1\n"), strlen(line + strlen("E:ID_DRIVE_FLASH_SD=1\n")) + 1);
        assert_int_equal(t_write_file(path, db), 0);
        free(db);
        d = t_dev(&r, dir, "sda");
        check_evidence(d, "udev ID_DRIVE_MEDIA_FLASH_SD=1 (a flash card reader)");
        check_evidence(d, "rotational=1 ignored: a flash card");
        assert_int_equal(d->cls, IOS_CLASS_MMC);
        assert_false(has_evidence(d, "Realtek"));
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* An array's LUN and its multipath map get none whatever rotational says; Class=array names them. */
static void test_array_policy(void **state)
{
        struct ios_policy *p = NULL;
        char *v, *src = NULL;

        (void)state;
        assert_int_equal(ios_class_from_string("array"), IOS_CLASS_ARRAY);
        assert_string_equal(ios_class_to_string(IOS_CLASS_ARRAY), "array");
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        v = wanted(p, t_fixture("derived-fc-lun"), "sda", &src);
        assert_non_null(v);
        assert_string_equal(v, "none noop");
        assert_string_equal(src, "built-in:5");
        free(v);
        free(src);
        src = NULL;
        v = wanted(p, t_fixture("derived-dm-multipath-fc"), "dm-0", &src);
        assert_non_null(v);
        assert_string_equal(v, "none noop");
        assert_string_equal(src, "built-in:5");
        free(v);
        free(src);
        src = NULL;
        assert_null(wanted(p, t_fixture("derived-dm-multipath-fc"), "sda", NULL));
        /* a map over one dual-ported local SAS HDD keeps mq-deadline */
        v = wanted(p, t_fixture("derived-dm-multipath-sas-hdd"), "dm-0", &src);
        assert_string_equal(v, "mq-deadline deadline");
        assert_string_equal(src, "built-in:15");
        free(v);
        free(src);
        src = NULL;
        v = wanted(p, t_fixture("derived-ipr-vset"), "sda", NULL);
        assert_string_equal(v, "none noop");
        free(v);
        v = wanted(p, t_fixture("derived-ipr-jbod"), "sda", NULL);
        assert_string_equal(v, "mq-deadline deadline");
        free(v);
        ios_policy_free(p);
        p = t_parse("[Match]\nClass=array\n[Set]\nScheduler=kyber\n", true);
        v = wanted(p, t_fixture("derived-fc-lun"), "sda", &src);
        assert_string_equal(v, "kyber");
        assert_string_equal(src, "test.conf:4");
        free(v);
        free(src);
        ios_policy_free(p);
}

/* A LUN on a SAS host (a sas_host class entry for its host): the transport is named. */
static void test_array_sas_transport(void **state)
{
        char *dir = t_fixture_copy("derived-dm-multipath");
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        (void)state;
        assert_non_null(dir);
        put(dir, "sys/class/sas_host/host0/.keep", "");
        d = t_dev(&r, dir, "sda");
        assert_int_equal(d->cls, IOS_CLASS_ARRAY);
        check_evidence(d, "transport sas (SAS host)");
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* The same map over two local SAS HDDs (no array's strings): every path spins, mq-deadline. */
static void test_multipath_local_hdd(void **state)
{
        char *dir = t_fixture_copy("derived-dm-multipath");
        struct ios_policy *p = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        char *v, *src = NULL;

        (void)state;
        assert_non_null(dir);
        for (int i = 0; i < 2; i++) {
                char path[4096];

                snprintf(path, sizeof(path), "%s/%s/inquiry", dir, i ? MP_SDEV("1") : MP_SDEV("0"));
                assert_int_equal(unlink(path), 0);
                put(dir, i ? MP_SDEV("1") "/vendor" : MP_SDEV("0") "/vendor", "SEAGATE \n");
                put(dir, i ? MP_SDEV("1") "/model" : MP_SDEV("0") "/model", "ST4000NM0023    \n");
        }
        d = t_dev(&r, dir, "sda");
        assert_int_equal(d->cls, IOS_CLASS_HDD);
        ios_device_free(d);
        ios_ctx_free(r);
        r = NULL;
        d = t_dev(&r, dir, "dm-0");
        assert_int_equal(d->cls, IOS_CLASS_MULTIPATH);
        assert_int_equal(d->rotational, 1);
        check_evidence(d, "rotational=1 from its paths (every path spins)");
        ios_device_free(d);
        ios_ctx_free(r);
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        v = wanted(p, dir, "dm-0", &src);
        assert_non_null(v);
        assert_string_equal(v, "mq-deadline deadline");
        assert_string_equal(src, "built-in:15");
        free(v);
        free(src);
        ios_policy_free(p);
        t_rmtree(dir);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_driver_rules),
                cmocka_unit_test(test_card_reader_by_udev),
                cmocka_unit_test(test_array_policy),
                cmocka_unit_test(test_array_sas_transport),
                cmocka_unit_test(test_multipath_local_hdd),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
