/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * enumerate.c: every whole disk of sys/block, in natural name order.  The
 * dev_t and canonical directory of each come from one readlink of its
 * sys/dev/block link, and the facts disks share come from one controller
 * cache (ctrl-cache.c) for the whole enumeration.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "device-internal.h"

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
static int read_devlinks(struct ios_root *r, struct devlink **ret, size_t *ret_n)
{
        struct devlink *l = NULL;
        size_t n = 0, cap = 0;
        struct dirent *de;
        DIR *dir;
        int fd;

        *ret = NULL;
        *ret_n = 0;
        fd = ios_root_open(r, "/sys/dev/block", O_RDONLY | O_DIRECTORY);
        if (fd < 0)
                return 0;       /* old kernel or a partial tree: look each disk up */
        dir = fdopendir(fd);
        if (!dir) {
                close(fd);
                return -ENOMEM;
        }
        while ((de = readdir(dir))) {
                char target[PATH_MAX], *canon, *slash;
                unsigned maj, min;
                ssize_t k;

                if (sscanf(de->d_name, "%u:%u", &maj, &min) != 2)
                        continue;
                k = readlinkat(dirfd(dir), de->d_name, target, sizeof(target) - 1);
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
                if (n == cap) {
                        struct devlink *nl;
                        cap = cap ? cap * 2 : 64;
                        nl = realloc(l, cap * sizeof(*l));
                        if (!nl) {
                                free(canon);
                                break;
                        }
                        l = nl;
                }
                l[n] = (struct devlink){ .name = strdup(slash + 1), .canon = canon, .major = maj, .minor = min };
                if (!l[n].name) {
                        free(canon);
                        break;
                }
                n++;
        }
        closedir(dir);
        if (n)
                qsort(l, n, sizeof(*l), cmp_devlink);
        *ret = l;
        *ret_n = n;
        return 0;
}

int ios_device_enumerate(struct ios_root *r, struct ios_device ***ret, size_t *ret_n)
{
        struct ios_ctrl_cache cache = {};
        struct ios_device **l = NULL;
        struct devlink *links = NULL;
        size_t n = 0, cap = 0, nlinks = 0;
        struct dirent *de;
        DIR *dir;
        int fd, e = 0;

        e = read_devlinks(r, &links, &nlinks);
        if (e < 0)
                return e;
        fd = ios_root_open(r, "/sys/block", O_RDONLY | O_DIRECTORY);
        if (fd < 0) {
                e = fd;
                goto out;
        }
        dir = fdopendir(fd);
        if (!dir) {
                e = -errno;
                close(fd);
                goto out;
        }
        while ((de = readdir(dir))) {
                struct devlink key = { .name = de->d_name }, *dl;
                struct ios_device *d;

                if (de->d_name[0] == '.')
                        continue;
                dl = nlinks ? bsearch(&key, links, nlinks, sizeof(*links), cmp_devlink) : NULL;
                if (dl)
                        e = ios_device_open_known(r, dl->canon, dl->major, dl->minor, &cache, &d);
                else {
                        /* hidden disks (NVMe path devices) have no dev_t */
                        _cleanup_free_ char *path = NULL;

                        if (asprintf(&path, "/sys/block/%s", de->d_name) < 0) {
                                e = -ENOMEM;
                                break;
                        }
                        e = ios_device_open(r, path, false, &cache, &d);
                }
                if (e == -ENODEV || e == -ENOENT) {
                        e = 0;          /* vanished while we looked */
                        continue;
                }
                if (e < 0)
                        break;
                if (n == cap) {
                        struct ios_device **nl;
                        cap = cap ? cap * 2 : 16;
                        nl = realloc(l, cap * sizeof(*l));
                        if (!nl) {
                                ios_device_free(d);
                                e = -ENOMEM;
                                break;
                        }
                        l = nl;
                }
                l[n++] = d;
        }
        closedir(dir);
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
