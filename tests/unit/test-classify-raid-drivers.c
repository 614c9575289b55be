/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the RAID drivers whose rule comes from their kernel source
 * (src/lib/classify-raid.c): ips's logical drives on bus 0 with the
 * driver's own INQUIRY ("IBM" "SERVERAID"), a disk on another ips bus not
 * one; hptiop, stex, mvumi, arcmsr and esas2r saying why every disk is a logical
 * drive; an iSCSI LUN of a LIO target and a multipath map over iSCSI paths
 * (class array, built-in none).  On the derived-* trees of
 * tests/fixtures/derive-raid-array.sh and copies with one fact changed.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "iosched.h"
#include "helpers.h"
#include "policy-helpers.h"
#include "strv.h"

/* proc_name of the SCSI host in the trees made by pci_hba() */
#define HBA_PROC_NAME "sys/devices/pci0000:00/0000:00:0d.0/host0/scsi_host/host0/proc_name"

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

                fail_msg("%s (%s): no evidence \"%s\" in: %s", d->name, ios_class_to_string(d->cls),
                         needle, ev);
        }
}

/* Class and one evidence line of sda in a copy of FIXTURE whose host driver is DRIVER. */
static void check_as(const char *fixture, const char *driver, enum ios_class cls, const char *needle)
{
        char *dir = t_fixture_copy(fixture);
        char path[4096];
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        assert_non_null(dir);
        if (driver) {
                snprintf(path, sizeof(path), "%s/%s", dir, HBA_PROC_NAME);
                assert_int_equal(t_write_file(path, driver), 0);
        }
        d = t_dev(&r, dir, "sda");
        check_evidence(d, needle);
        assert_int_equal(d->cls, cls);
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* ips: the driver's own logical drive on bus 0 is raid, with the rule said. */
static void test_ips_logical_drive(void **state)
{
        (void)state;
        check_as("derived-ips-ld", NULL, IOS_CLASS_RAID, "host driver ips (IBM ServeRAID)");
        check_as("derived-ips-ld", NULL, IOS_CLASS_RAID, "ips: logical drives on SCSI channel 0");
        check_as("derived-ips-ld", NULL, IOS_CLASS_RAID,
                 "logical drive at SCSI 0:0:0:0, vendor IBM, model SERVERAID");
        /* a disk on bus 0 of ips is a logical drive whatever its strings */
        check_as("derived-ipr-jbod", "ips\n", IOS_CLASS_RAID, "logical drive at SCSI 0:0:3:0");
}

/* ips: a disk on a physical bus (here 2) is no logical drive: its own class (hdd, it spins). */
static void test_ips_physical_bus(void **state)
{
        (void)state;
        check_as("derived-ipr-vset", "ips\n", IOS_CLASS_HDD,
                 "pass-through disk on the RAID controller (SCSI 0:2:0:0");
}

/* ips's INQUIRY strings ("IBM" "SERVERAID", upper case) name a logical drive on a host no table knows. */
static void test_serveraid_strings(void **state)
{
        (void)state;
        check_as("derived-ips-ld", "ips_unknown\n", IOS_CLASS_RAID,
                 "SCSI vendor \"IBM\" model \"SERVERAID\" is a RAID logical drive");
}

/* The drivers with no pass-through kind say so in the evidence. */
static void test_firmware_only_drivers(void **state)
{
        static const struct {
                const char *driver, *ev;
        } t[] = {
                { "hptiop\n",
                  "hptiop: every disk on channel 0 is a device the controller's firmware presents" },
                { "mvumi\n",
                  "mvumi: every disk on channel 0 is a device the controller's firmware presents" },
                { "stex\n", "stex: every disk is a logical drive of the firmware" },
                { "arcmsr\n", "arcmsr: every disk is a volume set of the firmware" },
                { "esas2r\n", "esas2r: RAID partitions and pass-through disks share channel 0" },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
                check_as("derived-ipr-jbod", t[i].driver, IOS_CLASS_RAID, t[i].ev);
}

/* The scheduler the built-in policy wants for a disk, and the rule behind it. */
static char *builtin_wants(const char *fixture, const char *dev, char **src)
{
        struct ios_policy *p = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        struct ios_wanted w = {};
        char *v = NULL;

        assert_int_equal(ios_policy_new_builtin(&p), 0);
        d = t_dev(&r, t_fixture(fixture), dev);
        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        for (size_t i = 0; i < w.n; i++)
                if (strcmp(w.s[i].key, "scheduler") == 0) {
                        v = strdup(w.s[i].value);
                        *src = strdup(w.s[i].source);
                }
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        ios_policy_free(p);
        return v;
}

/* An iSCSI LUN of a LIO target, and a multipath map over two iSCSI sessions' paths: none. */
static void test_iscsi_array(void **state)
{
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        char *v, *src = NULL;

        (void)state;
        d = t_dev(&r, t_fixture("derived-iscsi-lun"), "sda");
        assert_int_equal(d->cls, IOS_CLASS_ARRAY);
        check_evidence(d, "SCSI vendor \"LIO-ORG\" model \"IBLOCK\" (Linux LIO target)");
        check_evidence(d, "transport iscsi (iSCSI session in the device path)");
        check_evidence(d, "rotational=1 ignored");
        ios_device_free(d);
        ios_ctx_free(r);
        v = builtin_wants("derived-iscsi-lun", "sda", &src);
        assert_non_null(v);
        assert_string_equal(v, "none noop");
        assert_string_equal(src, "built-in:5");
        free(v);
        free(src);
        r = NULL;
        d = t_dev(&r, t_fixture("derived-dm-multipath-iscsi"), "dm-0");
        assert_int_equal(d->cls, IOS_CLASS_MULTIPATH);
        check_evidence(d, "path sda: array");
        check_evidence(d, "path sdb: array");
        ios_device_free(d);
        ios_ctx_free(r);
        src = NULL;
        v = builtin_wants("derived-dm-multipath-iscsi", "dm-0", &src);
        assert_non_null(v);
        assert_string_equal(v, "none noop");
        assert_string_equal(src, "built-in:5");
        free(v);
        free(src);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_ips_logical_drive),
                cmocka_unit_test(test_ips_physical_bus),
                cmocka_unit_test(test_serveraid_strings),
                cmocka_unit_test(test_firmware_only_drivers),
                cmocka_unit_test(test_iscsi_array),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
