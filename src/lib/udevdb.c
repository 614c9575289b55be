/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * udevdb.c: udev properties of a block device, read from the udev database
 * file run/udev/data/b<maj>:<min> through the root (so a captured tree
 * carries its own properties).  Only "E:KEY=value" lines are properties;
 * the rest (S: symlinks, I: init time, G: tags) is ignored.  Reading the
 * file directly keeps iosched-apply --udev free of libudev's start-up cost.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "iosched-internal.h"
#include "macro.h"
#include "strv.h"

int ios_props_load(struct ios_ctx *r, unsigned major, unsigned minor, struct ios_props *p)
{
        _cleanup_free_ char *buf = NULL;
        char path[64], *line, *save = NULL;
        char **kv = NULL;
        size_t n = 0, cap = 0;
        int e;

        p->kv = NULL;
        snprintf(path, sizeof(path), "/run/udev/data/b%u:%u", major, minor);
        e = ios_ctx_read_file(r, path, &buf, NULL);
        if (e < 0)
                return e;       /* -ENOENT: udev has not seen it (or no udev) */
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                const char *v = startswith(line, "E:");
                if (!v || !strchr(v, '='))
                        continue;
                e = ios_strv_push_fast(&kv, &n, &cap, strdup(v));
                if (e < 0) {
                        ios_strv_free(kv);
                        return e;
                }
        }
        p->kv = kv;
        return 0;
}

const char *ios_props_get(const struct ios_props *p, const char *key)
{
        size_t kl = strlen(key);

        for (char **i = p ? p->kv : NULL; i && *i; i++)
                if (strncmp(*i, key, kl) == 0 && (*i)[kl] == '=')
                        return *i + kl + 1;
        return NULL;
}

void ios_props_done(struct ios_props *p)
{
        p->kv = ios_strv_free(p->kv);
}
