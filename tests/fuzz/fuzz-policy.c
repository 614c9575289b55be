/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-policy: the policy parser on whole files, and drop-in combinations.
 * The input is split at NUL bytes into up to 8 files (a policy file never
 * holds a NUL: policy-files.c refuses it), parsed in order into one policy
 * as ios_policy_load() does (/etc/iosched.conf, then drop-ins; a file that
 * does not parse is skipped whole), then everything that reads the merged
 * policy runs: the probe flags, the drift interval, warnings and errors,
 * and each rule matched and merged against fake disks of several classes.
 */
#include "fuzz-util.h"
#include "iosched.h"
#include "iosched-internal.h"
#include "strv.h"

static struct ios_ctx *ctx;

static struct ios_device fake[] = {
        { .name = "sda", .major = 8, .cls = IOS_CLASS_HDD, .rotational = 1, .removable = 0,
          .size = 4000787030016ull, .tran = "sata", .driver = "ahci", .pci_id = "8086:a282",
          .vendor = "ATA", .model = "ST4000DM004-2CV1", .serial = "ZFN0ABCD", .wwn = "0x5000c500b1234567" },
        { .name = "nvme0n1", .major = 259, .cls = IOS_CLASS_NVME, .rotational = 0, .removable = 0,
          .size = 1000204886016ull, .tran = "nvme", .driver = "nvme", .pci_id = "144d:a808",
          .model = "Samsung SSD 970 EVO Plus 1TB", .subtype = "pcie" },
        { .name = "sdb", .major = 8, .minor = 16, .cls = IOS_CLASS_USB, .rotational = -1, .removable = 1,
          .size = 31406948352ull, .tran = "usb", .driver = "usb-storage", .vendor = "SanDisk" },
        { .name = "nvme1n2", .major = 259, .minor = 3, .cls = IOS_CLASS_NVME, .rotational = 0,
          .zoned = IOS_ZONED_HOST_MANAGED, .removable = 0, .tran = "nvme" },
        { .name = "loop0", .major = 7, .cls = IOS_CLASS_LOOP, .rotational = 1, .removable = 0 },
        { .name = "md0", .major = 9, .cls = IOS_CLASS_MD, .rotational = -1, .removable = -1, .subtype = "raid1" },
};

static char *fake_props[] = { "ID_BUS=ata", "ID_MODEL=ST4000DM004", "ID_SERIAL_SHORT=ZFN0ABCD",
                              "ID_PATH=pci-0000:00:17.0-ata-1", "DEVTYPE=disk", NULL };

static void setup(void)
{
        char path[512];

        snprintf(path, sizeof(path), "%s/proc/sys/kernel/osrelease", fuzz_scratch_dir());
        if (fuzz_write(path, "6.1.0-18-amd64\n", 15) < 0 || ios_ctx_new(fuzz_scratch_dir(), &ctx) < 0)
                abort();
        for (size_t i = 0; i < sizeof(fake) / sizeof(fake[0]); i++) {
                fake[i].ctx = ctx;
                fake[i].fd = -1;
        }
        fake[0].props.kv = fake_props;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const char *names[] = { "/etc/iosched.conf", "/usr/lib/iosched/50-vendor.conf",
                "/etc/iosched.d/10-site.conf", "/etc/iosched.d/20-disks.conf", "/etc/iosched.d/90-late.conf",
                "/run/iosched.d/00-runtime.conf", "/run/iosched.d/50-override.conf", "/run/iosched.d/99-last.conf" };
        struct ios_device *devs[sizeof(fake) / sizeof(fake[0])];
        struct ios_policy *p = NULL;
        struct fuzz_parts parts;
        char **unmatched = NULL;
        size_t nerr = 0;

        if (!ctx)
                setup();
        if (size > 256 * 1024)
                return 0;       /* policy files are bounded; a huge input only measures speed */
        fuzz_split(data, size, 8, &parts);
        if (ios_policy_new_builtin(&p) < 0)
                abort();
        for (size_t i = 0; i < parts.n; i++) {
                struct ios_error err = {};
                char where[512];
                int e = ios_policy_parse(p, names[i], parts.p[i], &err);

                if (e < 0 && e != -ENOMEM) {
                        /* an error names the file, and a line inside it when it has one */
                        if (strcmp(err.file, names[i]) != 0 || !err.msg[0])
                                abort();
                        ios_error_where(&err, where, sizeof(where));
                }
        }
        (void)ios_policy_probe_flags(p);
        (void)ios_policy_drift_interval_ms(p);
        (void)ios_policy_errors(p, &nerr);
        for (char * const *w = ios_policy_warnings(p); w && *w; w++)
                if (!**w)
                        abort();
        for (size_t i = 0; i < sizeof(fake) / sizeof(fake[0]); i++) {
                struct ios_wanted w = {};

                devs[i] = &fake[i];
                if (ios_policy_resolve(p, &fake[i], &w) < 0)
                        continue;
                for (size_t k = 0; k < w.n; k++)
                        if (!w.s[k].key || !w.s[k].value || !w.s[k].source)
                                abort();
                ios_wanted_done(&w);
        }
        if (ios_policy_unmatched(p, devs, sizeof(fake) / sizeof(fake[0]), &unmatched) >= 0)
                ios_strv_free(unmatched);
        ios_policy_free(p);
        fuzz_parts_free(&parts);
        return 0;
}
