/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: disks misread before issue 38, on the derived trees of
 * tests/fixtures (derive.sh, derive-raid-array.sh) and copies with one fact
 * changed: an LSI Integrated-RAID volume behind mptsas (channel 1, or the
 * IR firmware's INQUIRY strings in any case without a driver) is raid, a
 * SAS disk on its channel 0 keeps its own class; an HP cciss logical drive known by its
 * kernel name or udev's ID_BUS=cciss without a driver link is raid; an s390
 * DASD is named, ssd (IBM: none) on blk-mq and hdd (IBM: deadline) on the
 * single-queue block layer; an md device's MODEL is not lvm2's "LVM PV ..."
 * udev string.
 */
#define _GNU_SOURCE
#include <fcntl.h>
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

#define MPT_HBA "sys/devices/pci0000:00/0000:00:0d.0"
#define MPT_SDEV MPT_HBA "/host0/target0:1:0/0:1:0:0"

static bool has_evidence(const struct ios_device *d, const char *needle)
{
        for (char **e = d->evidence; e && *e; e++)
                if (strstr(*e, needle))
                        return true;
        return false;
}

/* the class of disk name in tree dir, and that one evidence line holds needle */
static void check(const char *dir, const char *name, enum ios_class cls, const char *needle)
{
        struct ios_ctx *r = NULL;
        struct ios_device *d = t_dev(&r, dir, name);

        if (needle && !has_evidence(d, needle)) {
                char *ev = ios_strv_join(d->evidence, " | ");

                fail_msg("%s (%s): no evidence \"%s\" in: %s", name, ios_class_to_string(d->cls), needle, ev);
        }
        assert_int_equal(d->cls, cls);
        ios_device_free(d);
        ios_ctx_free(r);
}

static void put(const char *dir, const char *rel, const char *text)
{
        char *p = NULL;

        assert_true(asprintf(&p, "%s/%s", dir, rel) > 0);
        assert_int_equal(t_write_file(p, text), 0);
        free(p);
}

/* the INQUIRY bytes' vendor (8) and product (16), as the derive.sh inquiry() writes them */
static void put_inquiry(const char *dir, const char *sdev, const char *vendor, const char *model)
{
        char p[4096], buf[64];
        int fd;

        snprintf(p, sizeof(p), "%s/%s/inquiry", dir, sdev);
        fd = open(p, O_RDWR);
        assert_true(fd >= 0);
        snprintf(buf, sizeof(buf), "%-8.8s%-16.16s", vendor, model);
        assert_int_equal(pwrite(fd, buf, 24, 8), 24);
        close(fd);
        snprintf(p, sizeof(p), "%s/vendor", sdev);
        put(dir, p, vendor);
        snprintf(p, sizeof(p), "%s/model", sdev);
        put(dir, p, model);
}

static void test_mptsas_ir(void **state)
{
        char *dir;

        (void)state;
        check(t_fixture("derived-mptsas-ir"), "sda", IOS_CLASS_RAID, "host driver mptsas");
        check(t_fixture("derived-mptsas-ir"), "sda", IOS_CLASS_RAID,
              "mptsas: Integrated RAID volumes on SCSI channel 1");
        check(t_fixture("derived-mptsas-ir"), "sda", IOS_CLASS_RAID, "logical drive at SCSI 0:1:0:0");

        /* no driver anywhere, the IR strings in another case: still a volume, by its strings */
        dir = t_fixture_copy("derived-mptsas-ir");
        assert_non_null(dir);
        put(dir, MPT_HBA "/host0/scsi_host/host0/proc_name", "(null)");
        {
                char p[4096];

                snprintf(p, sizeof(p), "%s/" MPT_HBA "/driver", dir);
                assert_int_equal(unlink(p), 0);
        }
        put_inquiry(dir, MPT_SDEV, "LSILogic", "LOGICAL VOLUME");
        check(dir, "sda", IOS_CLASS_RAID, "(a Fusion-MPT Integrated RAID volume)");
        /* other strings without a driver: what it spins says (rotational 1) */
        put_inquiry(dir, MPT_SDEV, "SEAGATE", "ST600MM0006");
        check(dir, "sda", IOS_CLASS_HDD, "rotational=1");
        t_rmtree(dir);

        /* a SAS disk on channel 0 of mptsas (a plain HBA first): its own class */
        dir = t_fixture_copy("derived-ipr-jbod");
        assert_non_null(dir);
        put(dir, MPT_HBA "/host0/scsi_host/host0/proc_name", "mptsas");
        check(dir, "sda", IOS_CLASS_HDD, "host driver mptsas");
        t_rmtree(dir);
}

static void test_cciss(void **state)
{
        char *dir;

        (void)state;
        check(t_fixture("derived-cciss-ld"), "cciss!c0d0", IOS_CLASS_RAID, "kernel name cciss!c0d0");
        check(t_fixture("derived-cciss-ld"), "cciss!c0d0", IOS_CLASS_RAID, "udev ID_BUS=cciss");
        check(t_fixture("derived-cciss-ld"), "cciss!c0d0", IOS_CLASS_RAID, "PCI 103c:3230");
        /* the udev entry alone says nothing more: the name is enough */
        dir = t_fixture_copy("derived-cciss-ld");
        assert_non_null(dir);
        put(dir, "run/udev/data/b104:0", "I:1\n");
        check(dir, "cciss!c0d0", IOS_CLASS_RAID, "a logical drive of the cciss block driver");
        t_rmtree(dir);
        /* ID_BUS=cciss on a disk of another name (a udev database that says it) */
        dir = t_fixture_copy("virtio-scsi-hdd");
        assert_non_null(dir);
        {
                char p[4096];
                const char *db = t_read_file(strcat(strcpy(p, dir), "/run/udev/data/b8:0"));
                char *text = NULL;

                assert_non_null(db);
                assert_true(asprintf(&text, "E:ID_BUS=cciss\n%s\n", db) > 0);
                put(dir, "run/udev/data/b8:0", text);
                free(text);
        }
        /* a virtio-scsi disk stays virtual: the paravirtual driver outranks a udev key */
        check(dir, "sda", IOS_CLASS_VIRTUAL, NULL);
        t_rmtree(dir);
}

static void test_dasd(void **state)
{
        char *dir;

        (void)state;
        check(t_fixture("derived-dasd-eckd"), "dasda", IOS_CLASS_SSD, "s390 DASD (driver dasd-eckd)");
        check(t_fixture("derived-dasd-eckd"), "dasda", IOS_CLASS_SSD,
              "IBM sets none for DASD on a blk-mq kernel");
        check(t_fixture("derived-dasd-eckd"), "dasda", IOS_CLASS_SSD, "rotational=0 not used");
        /* the single-queue block layer: IBM's deadline, class hdd */
        dir = t_fixture_copy("derived-dasd-eckd");
        assert_non_null(dir);
        put(dir, "sys/devices/css0/0.0.0000/0.0.0150/block/dasda/queue/scheduler", "noop [deadline] cfq ");
        check(dir, "dasda", IOS_CLASS_HDD, "IBM recommends deadline for DASD on a single-queue kernel");
        /* no driver link: the dasd driver's disk name under css0 */
        {
                char p[4096];

                snprintf(p, sizeof(p), "%s/sys/devices/css0/0.0.0000/0.0.0150/driver", dir);
                assert_int_equal(unlink(p), 0);
        }
        check(dir, "dasda", IOS_CLASS_HDD, "s390 DASD (name dasda)");
        t_rmtree(dir);
}

static void test_md_model(void **state)
{
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        (void)state;
        d = t_dev(&r, t_fixture("derived-md-lvm-pv"), "md127");
        assert_int_equal(d->cls, IOS_CLASS_MD);
        assert_string_equal(ios_props_get(&d->props, "ID_MODEL"),
                            "LVM PV 7rQm3k-Xc2V-9bLp-aT4e-Hn8W-Jd5s-Yf1GzK on /dev/md127");
        assert_null(d->model);
        ios_device_free(d);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_mptsas_ir),
                cmocka_unit_test(test_cciss),
                cmocka_unit_test(test_dasd),
                cmocka_unit_test(test_md_model),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
