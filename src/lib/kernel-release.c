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
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>

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

/*
 * CONFIG_HZ from a kernel build configuration, read up to its line: Debian's
 * is some 280 KiB, and the line is in its first tenth.  0 when the file has
 * none (or only values that are no tick rate), else -errno of the open.
 */
static int hz_from_config(struct ios_ctx *r, const char *path)
{
        _cleanup_close_ int fd = ios_ctx_open(r, path, O_RDONLY);
        char buf[8192 + 1];
        size_t keep = 0;
        unsigned hz;

        if (fd < 0)
                return fd;
        for (;;) {
                ssize_t n = read(fd, buf + keep, sizeof(buf) - 1 - keep);
                char *line, *nl;

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        break;          /* the end, or a FIFO on a node-free mount (EAGAIN): none */
                buf[keep + (size_t)n] = '\0';
                for (line = buf; (nl = strchr(line, '\n')); line = nl + 1)
                        if (startswith(line, "CONFIG_HZ=") && sscanf(line, "CONFIG_HZ=%u", &hz) == 1 &&
                            hz >= 24 && hz <= 10000)
                                return (int)hz;
                /* an unfinished line goes to the front; one longer than the buffer is no CONFIG_HZ */
                keep = strlen(line);
                if (keep >= sizeof(buf) - 1)
                        keep = 0;
                memmove(buf, line, keep);
        }
        buf[keep] = '\0';
        if (startswith(buf, "CONFIG_HZ=") && sscanf(buf, "CONFIG_HZ=%u", &hz) == 1 && hz >= 24 && hz <= 10000)
                return (int)hz;
        return 0;
}

unsigned ios_ctx_hz(struct ios_ctx *r)
{
        char rel[128], path[192];
        int hz;

        if (r->hz >= 0)
                return (unsigned)r->hz;
        r->hz = 0;
        /* the kernel's build configuration, as Debian installs it beside the kernel: in
         * /boot up to 6.x, in the module tree from sid's 7.x (usr/lib/modules/RELEASE/config) */
        if (ios_ctx_kernel_release_into(r, rel, sizeof(rel)) < 0 || !strchr(rel, '.') || strchr(rel, '/'))
                return 0;
        snprintf(path, sizeof(path), "/boot/config-%s", rel);
        hz = hz_from_config(r, path);
        if (hz < 0) {
                snprintf(path, sizeof(path), "/usr/lib/modules/%s/config", rel);
                hz = hz_from_config(r, path);
        }
        r->hz = hz > 0 ? hz : 0;
        return (unsigned)r->hz;
}
