/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * kernel-release.c: which kernel the root runs: the host's from uname(),
 * a captured tree's from its proc/sys/kernel/osrelease.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"

/* The root's kernel release into buf: the host's, or a captured tree's proc/sys/kernel/osrelease. */
int ios_ctx_kernel_release(struct ios_ctx *r, char *buf, size_t n)
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

int ios_ctx_kernel_version(struct ios_ctx *r, unsigned *major, unsigned *minor)
{
        char rel[128];

        if (ios_ctx_kernel_release(r, rel, sizeof(rel)) < 0)
                return -ENOENT;
        if (sscanf(rel, "%u.%u", major, minor) != 2)
                return -EINVAL;
        return 0;
}
