/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Description: the machines people have (issue 20): optical and floppy
 * drives, emulated and hypervisor disks, RAM-backed devices, dm-multipath
 * (the device planned, its paths left to site rules), a driver link
 * missing, a disk without a dev file, a legacy (pre-blk-mq) queue.  On the
 * derived-* trees (tests/fixtures/derive.sh) and variants of them.
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
#include "helpers.h"
#include "policy-helpers.h"
#include "strv.h"

#define MP_SDA "sys/devices/pci0000:00/0000:00:0d.0/virtio4/host0/target0:0:0/0:0:0:0/block/sda"
#define MP_SDB "sys/devices/pci0000:00/0000:00:0d.0/virtio4/host0/target0:0:1/0:0:1:0/block/sdb"
#define VBLK "sys/devices/pci0000:00/0000:00:03.0"

static bool has_evidence(const struct ios_device *d, const char *needle)
{
        for (char **e = d->evidence; e && *e; e++)
                if (strstr(*e, needle))
                        return true;
        return false;
}

static void show(const struct ios_device *d)
{
        char *ev = ios_strv_join(d->evidence, " | ");

        print_message("%s: %s: %s\n", d->name, ios_class_to_string(d->cls), ev ? ev : "");
        free(ev);
}

static void put(const char *dir, const char *rel, const char *content)
{
        char path[4096];

        snprintf(path, sizeof(path), "%s/%s", dir, rel);
        assert_int_equal(t_write_file(path, content), 0);
}

static bool streq0(const char *a, const char *b)
{
        return strcmp(a, b) == 0;
}

/* dir/rel in a static buffer. */
static const char *t_path(const char *dir, const char *rel)
{
        static char path[4096];

        snprintf(path, sizeof(path), "%s/%s", dir, rel);
        return path;
}

static void rm(const char *dir, const char *rel)
{
        char path[4096];

        snprintf(path, sizeof(path), "%s/%s", dir, rel);
        assert_int_equal(unlink(path), 0);
}

/* Every derived shape: its class and the evidence that names what was seen. */
static void test_shapes(void **state)
{
        static const struct {
                const char *fx, *dev;
                enum ios_class cls;
                const char *ev[3];
        } t[] = {
                { "derived-ahci-dvd", "sr0", IOS_CLASS_OPTICAL,
                  { "SCSI device type 5 (CD/DVD drive)", "udev ID_CDROM=1", "model \"QEMU DVD-ROM\" (an optical drive)" } },
                { "derived-virtio-scsi-cdrom", "sr0", IOS_CLASS_OPTICAL,
                  { "SCSI device type 5", "udev ID_TYPE=cd", "the built-in policy leaves it alone" } },
                { "derived-floppy", "fd0", IOS_CLASS_FLOPPY,
                  { "fd0: the floppy driver's name (fd)", "driver floppy", "the built-in policy leaves it alone" } },
                { "derived-ahci-vbox", "sdd", IOS_CLASS_VIRTUAL,
                  { "host driver ahci", "ATA model \"VBOX HARDDISK\" (VirtualBox's emulated disk)",
                    "rotational=1 ignored" } },
                { "ahci-sata-hdd", "sdd", IOS_CLASS_VIRTUAL,
                  { "ATA model \"QEMU HARDDISK\" (QEMU's emulated ATA disk)", "rotational=1 ignored", NULL } },
                { "derived-piix-qemu", "sdd", IOS_CLASS_VIRTUAL,
                  { "host driver ata_piix", "PCI 8086:7010", "ATA model \"QEMU HARDDISK\"" } },
                { "derived-pvscsi", "sda", IOS_CLASS_VIRTUAL,
                  { "host driver vmw_pvscsi (VMware PVSCSI)", "PCI 15ad:07c0 (VMware PVSCSI)",
                    "SCSI vendor \"VMware\" model \"Virtual disk\" (VMware's virtual disk)" } },
                { "derived-hyperv", "sda", IOS_CLASS_VIRTUAL,
                  { "host driver storvsc (Hyper-V storvsc)", "SCSI vendor \"Msft\" model \"Virtual Disk\"", NULL } },
                { "derived-xen-xvda", "xvda", IOS_CLASS_VIRTUAL, { "driver vbd (Xen blkfront)", NULL, NULL } },
                { "derived-virtio-blk-nodriver", "vdb", IOS_CLASS_VIRTUAL,
                  { "PCI 1af4:1001 (virtio-blk), no driver link", NULL, NULL } },
                { "derived-scsi-debug", "sda", IOS_CLASS_RAM,
                  { "host driver scsi_debug (scsi_debug: a RAM-backed SCSI test disk)", NULL, NULL } },
                { "derived-pmem", "pmem0", IOS_CLASS_RAM, { "persistent memory namespace (driver nd_pmem)", NULL, NULL } },
                { "derived-brd-ram0", "ram0", IOS_CLASS_RAM, { "brd RAM disk", NULL, NULL } },
                { "derived-legacy-cfq-4.19", "sdd", IOS_CLASS_HDD, { "ID_ATA_ROTATION_RATE_RPM=7200", NULL, NULL } },
                { "derived-no-dev", "sys/block/sdd", IOS_CLASS_VIRTUAL, { "no dev file in sys/block/sdd", NULL, NULL } },
                { "derived-dm-multipath", "dm-0", IOS_CLASS_MULTIPATH,
                  { "device-mapper multipath (dm/uuid mpath-", "path sdb: array",
                    "rotational=0 from its paths (LUNs of an external array, which schedules them itself)" } },
                { "derived-dm-multipath", "sda", IOS_CLASS_ARRAY,
                  { "not a hypervisor's model: a disk passed through", "path of dm-multipath device dm-0 (holders/dm-0)",
                    "SCSI vendor \"NETAPP\" model \"LUN C-Mode\" (NetApp ONTAP): a LUN of an external storage array" } },
                { "derived-ipr-vset", "sda", IOS_CLASS_RAID,
                  { "host driver ipr (IBM Power RAID (ipr))",
                    "ipr: volume sets on SCSI channel 2 (IPR_VSET_VIRTUAL_BUS), JBOD disks on 0",
                    "logical drive at SCSI 0:2:0:0, vendor IBM, model IPR-0   6B8C4700" } },
                { "derived-ipr-jbod", "sda", IOS_CLASS_HDD,
                  { "PCI 1014:034a (RAID bus controller)",
                    "pass-through disk on the RAID controller (SCSI 0:0:3:0, model ST600MM0006)", "rotational=1" } },
                { "derived-rts5208", "sda", IOS_CLASS_MMC,
                  { "host driver rts5208 (Realtek PCIe card reader, the card driven as a SCSI disk)",
                    "udev ID_DRIVE_FLASH_SD=1 (a flash card reader)", "rotational=1 ignored: a flash card" } },
                { "derived-fc-lun", "sda", IOS_CLASS_ARRAY,
                  { "SCSI vendor \"IBM\" model \"2145\" (IBM SAN Volume Controller / Storwize / FlashSystem): "
                    "a LUN of an external storage array",
                    "transport fc (FC remote port in the device path)",
                    "rotational=1 ignored: the array caches and schedules the LUN itself" } },
                { "derived-dm-multipath-fc", "dm-0", IOS_CLASS_MULTIPATH,
                  { "path sda: array", "path sdb: array", "queue/rotational=1 of the multipath device itself ignored" } },
                { "derived-dm-multipath-sas-hdd", "dm-0", IOS_CLASS_MULTIPATH,
                  { "path sda: hdd", "path sdb: hdd", "rotational=1 from its paths (every path spins)" } },
                { "derived-dm-multipath-sas-hdd", "sdb", IOS_CLASS_HDD,
                  { "host driver mpt3sas", "pass-through disk on the RAID controller (SCSI 0:0:1:0, model ST4000NM0023)",
                    "path of dm-multipath device dm-0 (holders/dm-0)" } },
                { "derived-dm-multipath-fc", "sdb", IOS_CLASS_ARRAY,
                  { "transport fc (FC remote port in the device path)", "host driver qla2xxx",
                    "path of dm-multipath device dm-0 (holders/dm-0)" } },
                { "virtio-scsi-hdd", "sda", IOS_CLASS_VIRTUAL,
                  { "host driver virtio_scsi (virtio-scsi)", "(QEMU's emulated SCSI disk)", NULL } },
                { "dm-linear", "dm-0", IOS_CLASS_DM, { "device-mapper (dm/ present", NULL, NULL } },
        };

        (void)state;
        for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
                struct ios_ctx *r = NULL;
                struct ios_device *d = NULL;
                char name[64];

                /* a disk without dev is found by its directory */
                snprintf(name, sizeof(name), "%s%s", strncmp(t[i].dev, "sys/", 4) == 0 ? "/" : "", t[i].dev);
                assert_int_equal(ios_ctx_new(t_fixture(t[i].fx), &r), 0);
                assert_int_equal(ios_device_new(r, name, &d), 0);
                if (d->cls != t[i].cls)
                        show(d);
                assert_int_equal(d->cls, t[i].cls);
                for (size_t k = 0; k < 3 && t[i].ev[k]; k++) {
                        if (!has_evidence(d, t[i].ev[k])) {
                                show(d);
                                fail_msg("%s %s: no evidence \"%s\"", t[i].fx, t[i].dev, t[i].ev[k]);
                        }
                }
                ios_device_free(d);
                ios_ctx_free(r);
        }
}

/* The scheduler the policy wants for a disk of a tree, or NULL; its source in *src. */
static char *wanted(const struct ios_policy *p, const char *root, const char *dev, char **src, char ***notes)
{
        struct ios_ctx *r = NULL;
        struct ios_device *d = t_dev(&r, root, dev);
        struct ios_wanted w = {};
        char *v = NULL;

        assert_int_equal(ios_policy_resolve(p, d, &w), 0);
        for (size_t i = 0; i < w.n; i++)
                if (streq0(w.s[i].key, "scheduler")) {
                        v = strdup(w.s[i].value);
                        if (src)
                                *src = strdup(w.s[i].source);
                }
        if (notes) {
                *notes = w.notes;
                w.notes = NULL;
        }
        ios_wanted_done(&w);
        ios_device_free(d);
        ios_ctx_free(r);
        return v;
}

/*
 * The built-in policy: a multipath map over an array's LUNs gets none
 * whatever rotational says, its paths nothing (with a note); optical and
 * floppy drives nothing; RAM-backed and virtual disks none; a legacy queue
 * deadline for its hdd.  (A map over local HDDs: test-classify-raid-array.)
 */
static void test_builtin_policy(void **state)
{
        struct ios_policy *p = NULL;
        char *v, *src = NULL, **notes = NULL;

        (void)state;
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        v = wanted(p, t_fixture("derived-dm-multipath"), "dm-0", &src, NULL);
        assert_non_null(v);
        assert_string_equal(v, "none noop");
        assert_string_equal(src, "built-in:5");
        free(v);
        free(src);
        src = NULL;
        v = wanted(p, t_fixture("derived-dm-multipath"), "sdb", NULL, &notes);
        assert_null(v);
        assert_non_null(notes);
        assert_non_null(strstr(notes[0], "path of dm-multipath device dm-0"));
        ios_strv_free(notes);
        notes = NULL;
        assert_null(wanted(p, t_fixture("derived-ahci-dvd"), "sr0", NULL, NULL));
        assert_null(wanted(p, t_fixture("derived-virtio-scsi-cdrom"), "sr0", NULL, NULL));
        assert_null(wanted(p, t_fixture("derived-floppy"), "fd0", NULL, NULL));
        v = wanted(p, t_fixture("derived-scsi-debug"), "sda", NULL, NULL);
        assert_string_equal(v, "none noop");
        free(v);
        v = wanted(p, t_fixture("derived-ahci-vbox"), "sdd", NULL, NULL);
        assert_string_equal(v, "none noop");
        free(v);
        v = wanted(p, t_fixture("derived-legacy-cfq-4.19"), "sdd", NULL, NULL);
        assert_string_equal(v, "mq-deadline deadline");
        free(v);
        ios_policy_free(p);
}

/* Site rules: Class=multipath names the device, a path can still be named, Class=optical works. */
static void test_site_rules(void **state)
{
        struct ios_policy *p = t_parse("[Match]\nClass=multipath\n[Set]\nScheduler=kyber\n"
                                       "[Match]\nName=sdb\n[Set]\nScheduler=none\n"
                                       "[Match]\nClass=optical floppy\n[Set]\nScheduler=bfq\n", true);
        char *v, *src = NULL, **notes = NULL;

        (void)state;
        v = wanted(p, t_fixture("derived-dm-multipath"), "dm-0", &src, NULL);
        assert_string_equal(v, "kyber");
        assert_string_equal(src, "test.conf:4");
        free(v);
        free(src);
        src = NULL;
        v = wanted(p, t_fixture("derived-dm-multipath"), "sdb", &src, &notes);
        assert_string_equal(v, "none");
        assert_string_equal(src, "test.conf:8");
        assert_non_null(notes);         /* the built-in rules still left it */
        ios_strv_free(notes);
        free(v);
        free(src);
        src = NULL;
        assert_null(wanted(p, t_fixture("derived-dm-multipath"), "sda", NULL, NULL));
        v = wanted(p, t_fixture("derived-ahci-dvd"), "sr0", NULL, NULL);
        assert_string_equal(v, "bfq");
        free(v);
        v = wanted(p, t_fixture("derived-floppy"), "fd0", NULL, NULL);
        assert_string_equal(v, "bfq");
        free(v);
        ios_policy_free(p);
}

/* Flash paths (and RAID logical drives) make a flash LUN: none (local SSD strings in place of the NetApp's). */
static void test_multipath_flash(void **state)
{
        char *dir = t_fixture_copy("derived-dm-multipath");
        struct ios_policy *p = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        char *v;

        (void)state;
        assert_non_null(dir);
        /* local SAS SSDs, not an array's LUNs (those are array: test-classify-raid-array) */
        rm(dir, MP_SDA "/../../inquiry");
        rm(dir, MP_SDB "/../../inquiry");
        put(dir, MP_SDA "/../../vendor", "SEAGATE \n");
        put(dir, MP_SDB "/../../vendor", "SEAGATE \n");
        put(dir, MP_SDA "/../../model", "ST800FM0053     \n");
        put(dir, MP_SDB "/../../model", "ST800FM0053     \n");
        put(dir, MP_SDA "/queue/rotational", "0\n");
        put(dir, MP_SDB "/queue/rotational", "0\n");
        d = t_dev(&r, dir, "dm-0");
        assert_int_equal(d->cls, IOS_CLASS_MULTIPATH);
        assert_int_equal(d->rotational, 0);
        assert_true(has_evidence(d, "path sda: ssd"));
        assert_true(has_evidence(d, "rotational=0 from its paths (not every path spins)"));
        assert_true(has_evidence(d, "queue/rotational=1 of the multipath device itself ignored"));
        ios_device_free(d);
        ios_ctx_free(r);
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        v = wanted(p, dir, "dm-0", NULL, NULL);
        assert_string_equal(v, "none noop");
        free(v);
        /* one spinning path and one flash path: not every path spins */
        put(dir, MP_SDA "/queue/rotational", "1\n");
        v = wanted(p, dir, "dm-0", NULL, NULL);
        assert_string_equal(v, "none noop");
        free(v);
        ios_policy_free(p);
        t_rmtree(dir);
}

/* A bio-based multipath table (queue_mode bio) stays dm: no scheduler. */
static void test_multipath_bio_based(void **state)
{
        char *dir = t_fixture_copy("derived-dm-multipath");
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        (void)state;
        assert_non_null(dir);
        put(dir, "sys/devices/virtual/block/dm-0/queue/scheduler", "none\n");
        rm(dir, "sys/devices/virtual/block/dm-0/mq/0/nr_tags");
        rm(dir, "sys/devices/virtual/block/dm-0/mq/0/nr_reserved_tags");
        rm(dir, "sys/devices/virtual/block/dm-0/mq/0/cpu_list");
        assert_int_equal(rmdir(t_path(dir, "sys/devices/virtual/block/dm-0/mq/0")), 0);
        assert_int_equal(rmdir(t_path(dir, "sys/devices/virtual/block/dm-0/mq")), 0);
        d = t_dev(&r, dir, "dm-0");
        assert_int_equal(d->cls, IOS_CLASS_DM);
        assert_true(has_evidence(d, "bio-based"));
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* Before the multipath device exists (a new LUN): udev's DM_MULTIPATH_DEVICE_PATH=1 says it. */
static void test_path_by_udev(void **state)
{
        char *dir = t_fixture_copy("derived-dm-multipath");
        struct ios_policy *p = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        (void)state;
        assert_non_null(dir);
        rm(dir, MP_SDB "/holders/dm-0");
        d = t_dev(&r, dir, "sdb");
        assert_true(d->mpath_path);
        assert_null(d->mpath_holder);
        assert_true(has_evidence(d, "udev DM_MULTIPATH_DEVICE_PATH=1"));
        ios_device_free(d);
        ios_ctx_free(r);
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        assert_null(wanted(p, dir, "sdb", NULL, NULL));
        ios_policy_free(p);
        t_rmtree(dir);
}

/* No driver link and no PCI id: the device path's virtioN still says virtual. */
static void test_virtio_by_path(void **state)
{
        char *dir = t_fixture_copy("derived-virtio-blk-nodriver");
        struct ios_ctx *r = NULL;
        struct ios_device *d;

        (void)state;
        assert_non_null(dir);
        rm(dir, VBLK "/vendor");
        d = t_dev(&r, dir, "vdb");
        assert_int_equal(d->cls, IOS_CLASS_VIRTUAL);
        assert_true(has_evidence(d, "device path component virtio1 (a virtio device), no driver link"));
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* A USB DVD writer is optical (udev's cdrom_id), not usb. */
static void test_usb_optical(void **state)
{
        char *dir = t_fixture_copy("usb-stick");
        struct ios_ctx *r = NULL;
        struct ios_device *d;
        char path[4096], *db;
        FILE *f;

        (void)state;
        assert_non_null(dir);
        snprintf(path, sizeof(path), "%s/run/udev/data/b8:64", dir);
        db = strdup(t_read_file(path));
        assert_non_null(db);
        f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "E:ID_CDROM=1\n%s\n", db);
        fclose(f);
        free(db);
        d = t_dev(&r, dir, "sde");
        assert_int_equal(d->cls, IOS_CLASS_OPTICAL);
        assert_true(has_evidence(d, "udev ID_CDROM=1"));
        ios_device_free(d);
        ios_ctx_free(r);
        t_rmtree(dir);
}

/* A disk without a dev file is enumerated, not dropped. */
static void test_enumerate_no_dev(void **state)
{
        struct ios_ctx *r = NULL;
        struct ios_device **l = NULL;
        size_t n = 0;

        (void)state;
        assert_int_equal(ios_ctx_new(t_fixture("derived-no-dev"), &r), 0);
        assert_int_equal(ios_device_enumerate(r, &l, &n), 1);
        assert_string_equal(l[0]->name, "sdd");
        assert_true(l[0]->no_dev);
        ios_device_list_free(l, n);
        ios_ctx_free(r);
}

/* A legacy queue: a scheduler to choose, no mq/, and the legacy names. */
static void test_legacy_queue(void **state)
{
        struct ios_policy *p = NULL;
        struct ios_ctx *r = NULL;
        struct ios_device *d = t_dev(&r, t_fixture("derived-legacy-cfq-4.19"), "sdd");
        struct ios_plan pl = {};

        (void)state;
        assert_false(d->blk_mq);
        assert_string_equal(d->sched_current, "cfq");
        assert_int_equal(ios_policy_new_builtin(&p), 0);
        assert_int_equal(ios_plan_build(p, d, &pl), 0);
        assert_true(pl.n >= 1);
        assert_string_equal(pl.c[0].key, "scheduler");
        assert_string_equal(pl.c[0].wanted, "deadline");
        assert_int_equal(pl.c[0].state, IOS_CHANGE_DRIFT);
        ios_plan_done(&pl);
        ios_policy_free(p);
        ios_device_free(d);
        ios_ctx_free(r);
}

int main(void)
{
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_shapes),
                cmocka_unit_test(test_builtin_policy),
                cmocka_unit_test(test_site_rules),
                cmocka_unit_test(test_multipath_flash),
                cmocka_unit_test(test_multipath_bio_based),
                cmocka_unit_test(test_path_by_udev),
                cmocka_unit_test(test_virtio_by_path),
                cmocka_unit_test(test_usb_optical),
                cmocka_unit_test(test_enumerate_no_dev),
                cmocka_unit_test(test_legacy_queue),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
