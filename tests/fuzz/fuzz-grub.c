/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-grub: the GRUB and kernel command line reader behind --import-grub
 * (src/apply/grub.c, grub-sh.c).  The input is split at NUL bytes: the
 * first part is /proc/cmdline of a fake root, the second /etc/default/grub,
 * the others /etc/default/grub.d/NN.cfg.  apply_import_grub() reads them
 * as iosched-apply --import-grub does and prints the policy (to /dev/null).
 */
#include "fuzz-util.h"
#include "apply.h"
#include "iosched.h"
#include "strv.h"

static struct ios_ctx *ctx;
static FILE *devnull;
static char root[512], conf[512];
static size_t nfiles = 6;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        struct fuzz_parts parts;
        char path[1024], *msg = NULL, **notes = NULL;

        if (!ctx) {
                snprintf(root, sizeof(root), "%s/root", fuzz_scratch_dir());
                snprintf(conf, sizeof(conf), "%s/conf", fuzz_scratch_dir());
                snprintf(path, sizeof(path), "%s/proc/cmdline", root);
                if (fuzz_write(path, "", 0) < 0 || ios_ctx_new(root, &ctx) < 0)
                        abort();
                devnull = fopen("/dev/null", "we");
                if (!devnull)
                        abort();
        }
        if (size > 256 * 1024)
                return 0;
        fuzz_split(data, size, 6, &parts);
        snprintf(path, sizeof(path), "%s/proc/cmdline", root);
        fuzz_write(path, parts.n > 0 ? parts.p[0] : "", parts.n > 0 ? parts.len[0] : 0);
        /* files of the last input that this one does not have go */
        for (size_t i = parts.n; i < nfiles; i++) {
                if (i == 1)
                        snprintf(path, sizeof(path), "%s/etc/default/grub", conf);
                else
                        snprintf(path, sizeof(path), "%s/etc/default/grub.d/%02zu-fuzz.cfg", conf, i * 10);
                unlink(path);
        }
        nfiles = parts.n;
        for (size_t i = 1; i < parts.n; i++) {
                if (i == 1)
                        snprintf(path, sizeof(path), "%s/etc/default/grub", conf);
                else
                        snprintf(path, sizeof(path), "%s/etc/default/grub.d/%02zu-fuzz.cfg", conf, i * 10);
                if (fuzz_write(path, parts.p[i], parts.len[i]) < 0)
                        abort();
        }
        (void)apply_import_grub(devnull, ctx, conf, &msg, &notes);
        for (char **n = notes; n && *n; n++)
                if (!**n)
                        abort();
        free(msg);
        ios_strv_free(notes);
        fuzz_parts_free(&parts);
        return 0;
}
