/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fuzz-udevdb: the udev database reader (src/lib/udevdb.c).  The input is
 * the file run/udev/data/b8:0 of a fake root; it is read through the root
 * as iosched-apply does, then the properties a policy matches on are
 * looked up.  Every property returned must be an "E:" line's KEY=value.
 */
#include "fuzz-util.h"
#include "iosched.h"
#include "iosched-internal.h"

static struct ios_ctx *ctx;
static char dbpath[512];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
        static const char *keys[] = { "ID_BUS", "ID_MODEL", "ID_SERIAL", "ID_PATH", "DEVTYPE", "ID_WWN",
                                      "ID_FS_TYPE", "DM_UUID", "MD_LEVEL", "", "E", "=" };
        struct ios_props p = {};

        if (!ctx) {
                snprintf(dbpath, sizeof(dbpath), "%s/run/udev/data/b8:0", fuzz_scratch_dir());
                if (fuzz_write(dbpath, "", 0) < 0 || ios_ctx_new(fuzz_scratch_dir(), &ctx) < 0)
                        abort();
        }
        if (fuzz_write(dbpath, data, size) < 0)
                abort();
        if (ios_props_load(ctx, 8, 0, &p) < 0)
                return 0;
        for (char **kv = p.kv; kv && *kv; kv++)
                if (!strchr(*kv, '=') || strchr(*kv, '\n'))
                        abort();
        for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
                const char *v = ios_props_get(&p, keys[i]);
                if (v && strchr(v, '\n'))
                        abort();
        }
        ios_props_done(&p);
        if (p.kv)
                abort();
        return 0;
}
