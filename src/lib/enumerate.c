/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * enumerate.c: every whole disk of sys/block, in natural name order.  The
 * dev_t and canonical directory of each come from one readlink of its
 * sys/dev/block link, and the facts disks share come from one controller
 * cache (ctrl-cache.c) for the whole enumeration.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "device-internal.h"
#include "root-internal.h"
#include "strv.h"

static int cmp_dev(const void *a, const void *b)
{
        const struct ios_device *x = *(struct ios_device * const *)a, *y = *(struct ios_device * const *)b;

        return strverscmp(x->name, y->name);
}

struct devlink {
        char *name, *canon;
        unsigned major, minor;
};

static int cmp_devlink(const void *a, const void *b)
{
        return strcmp(((const struct devlink *)a)->name, ((const struct devlink *)b)->name);
}

/* Lexically join a sysfs link's relative target to the link's directory. */
static char *join_link(const char *dir, const char *target)
{
        char *out = malloc(strlen(dir) + strlen(target) + 2);
        char *p;

        if (!out)
                return NULL;
        strcpy(out, target[0] == '/' ? "" : dir);
        p = out + strlen(out);
        for (const char *t = target; *t;) {
                size_t n = strcspn(t, "/");

                if (n == 2 && t[0] == '.' && t[1] == '.') {
                        while (p > out && *--p != '/')
                                ;
                        *p = '\0';
                } else if (n && !(n == 1 && t[0] == '.')) {
                        *p++ = '/';
                        memcpy(p, t, n);
                        p += n;
                        *p = '\0';
                }
                t += n;
                t += *t == '/';
        }
        if (!*out)
                strcpy(out, "/");
        return out;
}

/*
 * sys/dev/block names every disk and partition with a dev_t: one readlinkat
 * per entry gives both the dev_t and the canonical directory, so nothing has
 * to be looked up or read for them.  Partitions are in it too; they are
 * never asked for, since only the names in sys/block are looked up.
 */
static int read_devlinks(struct ios_ctx *r, struct devlink **ret, size_t *ret_n)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        _cleanup_close_ int fd = -1;
        struct devlink *l = NULL;
        size_t n = 0;
        int e;

        *ret = NULL;
        *ret_n = 0;
        fd = ios_ctx_open(r, "/sys/dev/block", O_PATH | O_DIRECTORY);
        if (fd < 0)
                return 0;       /* old kernel or a partial tree: look each disk up */
        e = ios_sysfs_list(fd, ".", &names);
        if (e <= 0)
                return e == -ENOMEM ? e : 0;
        l = calloc((size_t)e, sizeof(*l));
        if (!l)
                return -ENOMEM;
        for (char **nm = names; *nm; nm++) {
                char target[PATH_MAX], *canon, *slash;
                unsigned maj, min;
                ssize_t k;

                if (sscanf(*nm, "%u:%u", &maj, &min) != 2)
                        continue;
                k = readlinkat(fd, *nm, target, sizeof(target) - 1);
                if (k <= 0)
                        continue;
                target[k] = '\0';
                canon = join_link("/sys/dev/block", target);
                if (!canon)
                        break;
                slash = strrchr(canon, '/');
                if (!startswith(canon, "/sys/devices/") || !slash[1]) {
                        free(canon);
                        continue;
                }
                l[n] = (struct devlink){ .name = strdup(slash + 1), .canon = canon, .major = maj, .minor = min };
                if (!l[n].name) {
                        free(canon);
                        break;
                }
                n++;
        }
        if (n)
                qsort(l, n, sizeof(*l), cmp_devlink);
        *ret = l;
        *ret_n = n;
        return 0;
}

int ios_device_enumerate(struct ios_ctx *r, struct ios_device ***ret, size_t *ret_n)
{
        _cleanup_(ios_strv_freep) char **names = NULL;
        struct ios_ctrl_cache cache = {};
        struct ios_device **l = NULL;
        struct devlink *links = NULL;
        size_t n = 0, nlinks = 0;
        int fd, e;

        assert(r && ret && ret_n);
        ios_ctx_set_failed_disk(r, NULL);
        e = read_devlinks(r, &links, &nlinks);
        if (e < 0)
                return e;
        fd = ios_ctx_open(r, "/sys/block", O_PATH | O_DIRECTORY);
        if (fd < 0) {
                e = fd;
                goto out;
        }
        e = ios_sysfs_list(fd, ".", &names);
        close(fd);
        if (e < 0)
                goto out;
        l = calloc((size_t)e + 1, sizeof(*l));
        if (!l) {
                e = -ENOMEM;
                goto out;
        }
        e = 0;
        for (char **nm = names; *nm; nm++) {
                struct devlink key = { .name = *nm }, *dl;
                struct ios_device *d;

                dl = nlinks ? bsearch(&key, links, nlinks, sizeof(*links), cmp_devlink) : NULL;
                if (dl)
                        e = ios_device_open_known(r, dl->canon, dl->major, dl->minor, &cache, &d);
                else {
                        /* hidden disks (NVMe path devices) have no dev_t */
                        _cleanup_free_ char *path = NULL;

                        if (asprintf(&path, "/sys/block/%s", *nm) < 0) {
                                e = -ENOMEM;
                                break;
                        }
                        e = ios_device_open(r, path, false, &cache, &d);
                }
                if (ios_errno_class(e) == IOS_ERRNO_GONE) {
                        e = 0;          /* vanished while we looked */
                        continue;
                }
                if (e < 0) {
                        ios_ctx_set_failed_disk(r, *nm);
                        break;
                }
                l[n++] = d;
        }
out:
        ios_ctrl_cache_done(&cache);
        for (size_t i = 0; i < nlinks; i++) {
                free(links[i].name);
                free(links[i].canon);
        }
        free(links);
        if (e < 0) {
                ios_device_list_free(l, n);
                return e;
        }
        if (n)
                qsort(l, n, sizeof(*l), cmp_dev);
        *ret = l;
        *ret_n = n;
        return (int)n;
}

void ios_device_list_free(struct ios_device **l, size_t n)
{
        for (size_t i = 0; l && i < n; i++)
                ios_device_free(l[i]);
        free(l);
}
