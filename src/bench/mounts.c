/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mounts.c: the kernel's mount table, read by util-linux's libmount (the
 * parser mount(8), findmnt(8) and lsblk use, escapes and optional fields
 * included): which of a set of devices is mounted, where, and with which
 * filesystem.  The text comes from the caller (the host's
 * /proc/self/mountinfo for the write refusal, the root's for the up-front
 * line), so both read one table one way; and where the filesystems of a
 * type are mounted (cgroup2 for the run's cgroup, devtmpfs for the fence).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <libmount.h>

#include "iosched.h"
#include "macro.h"
#include "grow.h"
#include "strv.h"
#include "bench.h"

void bench_mounts_free(struct bench_mount *m, size_t n)
{
        for (size_t i = 0; m && i < n; i++) {
                free(m[i].target);
                free(m[i].fstype);
        }
        free(m);
}

static bool wanted(dev_t d, const dev_t *devs, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (devs[i] == d)
                        return true;
        return false;
}

int bench_mounts_of(const char *mountinfo, const dev_t *devs, size_t n, struct bench_mount **ret, size_t *ret_n)
{
        struct libmnt_table *tb = NULL;
        struct libmnt_iter *it = NULL;
        struct libmnt_fs *fs;
        struct bench_mount *l = NULL;
        size_t nl = 0, cap = 0, len = strlen(mountinfo);
        FILE *f = NULL;
        int e = 0;

        *ret = NULL;
        *ret_n = 0;
        if (len == 0)
                return 0;
        f = fmemopen((void *)mountinfo, len, "r");
        tb = mnt_new_table();
        it = mnt_new_iter(MNT_ITER_FORWARD);
        if (!f || !tb || !it) {
                e = -ENOMEM;
                goto out;
        }
        e = mnt_table_parse_stream(tb, f, "mountinfo");
        if (e < 0)
                goto out;
        while (mnt_table_next_fs(tb, it, &fs) == 0) {
                const char *target = mnt_fs_get_target(fs), *type = mnt_fs_get_fstype(fs);
                struct bench_mount *g;

                if (!wanted(mnt_fs_get_devno(fs), devs, n))
                        continue;
                g = ios_grow(l, &cap, nl + 1, sizeof(*l));
                if (!g) {
                        e = -ENOMEM;
                        goto out;
                }
                l = g;
                l[nl] = (struct bench_mount){ .dev = mnt_fs_get_devno(fs),
                                              .target = strdup(target ? target : "?"),
                                              .fstype = strdup(type ? type : "?") };
                if (!l[nl].target || !l[nl++].fstype) {
                        e = -ENOMEM;
                        goto out;
                }
        }
        *ret = TAKE_PTR(l);
        *ret_n = nl;
        e = 0;
out:
        bench_mounts_free(l, nl);
        mnt_free_iter(it);
        mnt_unref_table(tb);
        if (f)
                fclose(f);
        return e;
}

int bench_mountinfo_find(const char *mountinfo, const unsigned *majors, const unsigned *minors,
                         size_t n, char **ret_mnt)
{
        _cleanup_free_ dev_t *devs = calloc(n ? n : 1, sizeof(*devs));
        struct bench_mount *m = NULL;
        size_t nm = 0;
        int e;

        if (!devs)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                devs[i] = makedev(majors[i], minors[i]);
        e = bench_mounts_of(mountinfo, devs, n, &m, &nm);
        if (e < 0)
                return e;
        if (nm > 0 && ret_mnt) {
                *ret_mnt = strdup(m[0].target);
                if (!*ret_mnt)
                        e = -ENOMEM;
        }
        bench_mounts_free(m, nm);
        return e < 0 ? e : nm > 0;
}

int bench_mounts_typed(const char * const *types, char ***ret)
{
        struct libmnt_table *tb;
        struct libmnt_iter *it;
        struct libmnt_fs *fs;
        char **l = NULL;
        int e = 0;

        *ret = NULL;
        tb = mnt_new_table_from_file("/proc/self/mountinfo");
        it = mnt_new_iter(MNT_ITER_FORWARD);
        if (!tb || !it)
                e = -ENOMEM;
        while (e >= 0 && mnt_table_next_fs(tb, it, &fs) == 0) {
                const char *t = mnt_fs_get_fstype(fs), *target = mnt_fs_get_target(fs);

                if (t && target && ios_strv_contains((char * const *)types, t))
                        e = ios_strv_pushf(&l, "%s", target);
        }
        mnt_free_iter(it);
        mnt_unref_table(tb);
        if (e < 0)
                ios_strv_free(l);
        else
                *ret = l;
        return e < 0 ? e : 0;
}

int bench_mounts_cgroup2(char **ret)
{
        _cleanup_(ios_strv_freep) char **l = NULL;
        int e = bench_mounts_typed((const char * const[]){ "cgroup2", NULL }, &l);

        *ret = NULL;
        if (e < 0)
                return e;
        if (!l || !l[0])
                return -ENOENT;
        return (*ret = strdup(l[0])) ? 0 : -ENOMEM;
}
