/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel-release.c: which kernel the root runs: the host's from uname(),
 * a captured tree's from its proc/sys/kernel/osrelease; and its tick rate
 * (CONFIG_HZ), from the build configuration Debian installs beside it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"
#include "ctx-internal.h"

/* The root's kernel release into buf: the host's, or a captured tree's proc/sys/kernel/osrelease. */
int ios_ctx_kernel_release_into(struct ios_ctx *r, char *buf, size_t n)
{
        _cleanup_free_ char *file = NULL;
        struct utsname u;

        /* the host's is uname()'s: one system call, not a file */
        if (ios_ctx_is_host(r) && uname(&u) == 0)
                snprintf(buf, n, "%s", u.release);
        else if (ios_ctx_read_file(r, "/proc/sys/kernel/osrelease", &file, NULL) >= 0)
                snprintf(buf, n, "%.*s", (int)strcspn(file, "\n"), file);
        else
                return -ENOENT;
        return 0;
}

char *ios_ctx_kernel_release(struct ios_ctx *r)
{
        char rel[128];

        return ios_ctx_kernel_release_into(r, rel, sizeof(rel)) < 0 ? NULL : strdup(rel);
}

int ios_ctx_kernel_version(struct ios_ctx *r, unsigned *major, unsigned *minor)
{
        char rel[128];

        if (ios_ctx_kernel_release_into(r, rel, sizeof(rel)) < 0)
                return -ENOENT;
        if (sscanf(rel, "%u.%u", major, minor) != 2)
                return -EINVAL;
        return 0;
}

unsigned ios_ctx_hz(struct ios_ctx *r)
{
        _cleanup_free_ char *cfg = NULL, *path = NULL;
        char rel[128];
        const char *p;
        unsigned hz;

        if (r->hz >= 0)
                return (unsigned)r->hz;
        r->hz = 0;
        /* the kernel's build configuration, as Debian installs it beside the kernel: in
         * /boot up to 6.x, in the module tree from sid's 7.x (usr/lib/modules/RELEASE/config) */
        if (ios_ctx_kernel_release_into(r, rel, sizeof(rel)) < 0 || !strchr(rel, '.') || strchr(rel, '/') ||
            asprintf(&path, "/boot/config-%s", rel) < 0)
                return 0;
        if (ios_ctx_read_file(r, path, &cfg, NULL) < 0) {
                free(path);
                if (asprintf(&path, "/usr/lib/modules/%s/config", rel) < 0)
                        path = NULL;
                if (!path || ios_ctx_read_file(r, path, &cfg, NULL) < 0)
                        return 0;
        }
        for (p = cfg; p && (p = strstr(p, "CONFIG_HZ=")); p++)
                if ((p == cfg || p[-1] == '\n') && sscanf(p, "CONFIG_HZ=%u", &hz) == 1 && hz >= 24 &&
                    hz <= 10000) {
                        r->hz = (int)hz;
                        break;
                }
        return (unsigned)r->hz;
}
