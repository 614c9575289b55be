/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * root-walk.c: a path resolved inside the root one component at a time,
 * where openat2(RESOLVE_IN_ROOT) is missing (root.c falls back to it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iosched.h"
#include "macro.h"
#include "root-internal.h"
#include "ctx-internal.h"

/*
 * The portable fallback: resolve one component at a time with readlinkat()
 * relative to the root fd.  "out" is always canonical, so the kernel never
 * follows a symlink while we ask about the next component.
 */
int ios_ctx_realpath_walk(struct ios_ctx *r, const char *path, char **ret)
{
        char out[PATH_MAX] = "", rest[PATH_MAX], link[PATH_MAX], tmp[PATH_MAX];
        unsigned links = 0;
        size_t ol = 0;

        if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
                return -ENAMETOOLONG;

        for (char *p = rest; *p;) {
                char *comp, *slash;
                ssize_t n;

                while (*p == '/')
                        p++;
                if (!*p)
                        break;
                comp = p;
                slash = strchr(p, '/');
                if (slash) {
                        *slash = '\0';
                        p = slash + 1;
                } else
                        p += strlen(p);

                if (streq(comp, "."))
                        continue;
                if (streq(comp, "..")) {
                        char *s = strrchr(out, '/');
                        if (s)
                                *s = '\0';
                        ol = strlen(out);
                        continue;
                }
                if (ol + 1 + strlen(comp) >= sizeof(out))
                        return -ENAMETOOLONG;
                out[ol] = '/';
                strcpy(out + ol + 1, comp);

                n = readlinkat(r->fd, out + 1, link, sizeof(link) - 1);
                if (n < 0) {
                        if (errno != EINVAL)
                                return -errno;
                        ol = strlen(out);       /* not a symlink: keep it */
                        continue;
                }
                if (++links > 40)
                        return -ELOOP;
                link[n] = '\0';
                out[ol] = '\0';                 /* drop the link itself */
                if (link[0] == '/') {
                        out[0] = '\0';
                        ol = 0;
                }
                if (snprintf(tmp, sizeof(tmp), "%s/%s", link, p) >= (int)sizeof(tmp))
                        return -ENAMETOOLONG;
                strcpy(rest, tmp);
                p = rest;
        }

        *ret = strdup(ol ? out : "/");
        return *ret ? 0 : -ENOMEM;
}
