/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * rmtree.c: a directory the run made (a scratch directory, fio/fioscratch.c)
 * removed whole, beneath its parent's handle and only while it is the
 * directory made: at the end (fioscratch.c) and by the guard after a kill -9
 * (guard.c).  No link is followed; at most 64 levels are entered.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guard.h"
#include "macro.h"

/* What directory fd holds, depth levels deep at most; regular files counted. */
static int empty(int fd, int depth)
{
        DIR *d = fdopendir(fd);
        int n = 0;

        if (!d) {
                close(fd);
                return 0;
        }
        for (struct dirent *de; (de = readdir(d));) {
                struct stat st;
                int sub;

                if (streq(de->d_name, ".") || streq(de->d_name, "..") ||
                    fstatat(fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (!S_ISDIR(st.st_mode)) {
                        n += unlinkat(fd, de->d_name, 0) == 0 && S_ISREG(st.st_mode);
                        continue;
                }
                sub = depth > 0 ? openat(fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                                : -1;
                if (sub >= 0)
                        n += empty(sub, depth - 1);
                (void)unlinkat(fd, de->d_name, AT_REMOVEDIR);
        }
        closedir(d);
        return n;
}

int bench_remove_tree(int dfd, const char *name, dev_t dev, ino_t ino)
{
        int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), n;
        struct stat st;

        if (fd < 0 || fstat(fd, &st) < 0 || st.st_dev != dev || st.st_ino != ino) {
                if (fd >= 0)
                        close(fd);
                return 0;       /* not the directory made any more: left where it is */
        }
        n = empty(fd, 64);
        return unlinkat(dfd, name, AT_REMOVEDIR) < 0 ? -errno : n;
}
