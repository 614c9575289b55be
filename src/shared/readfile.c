/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * readfile.c: reading a whole configuration file that someone else wrote
 * (GRUB's files, TuneD profiles, udev rules, policy files), bounded.  The
 * open never blocks (a FIFO in place of the file would hang every run that
 * looks at it), only a regular file is read, and never more than max bytes:
 * -EFBIG for a file that is larger, or grows past max while it is read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "readfile.h"

int ios_read_fd_max(int fd, size_t max, char **ret, size_t *ret_len)
{
        struct stat st;

        return ios_read_fd_sized(fd, max, fstat(fd, &st) == 0 ? st.st_size : 0, ret, ret_len);
}

int ios_read_fd_sized(int fd, size_t max, off_t size, char **ret, size_t *ret_len)
{
        _cleanup_free_ char *buf = NULL;
        size_t len = 0, cap;

        /* room for the size fstat gave and one byte more (to see the end
         * in one read), doubled if the file is longer (proc files say 0) */
        cap = size > 0 && (uint64_t)size < max ? (size_t)size + 2 : 4096;
        for (;;) {
                ssize_t n;

                if (len + 1 >= cap || !buf) {
                        size_t want = !buf ? cap : cap > max / 2 ? max + 2 : 2 * cap;
                        char *nb = realloc(buf, want);

                        if (!nb)
                                return -ENOMEM;
                        buf = nb;
                        cap = want;
                }
                n = read(fd, buf + len, cap - 1 - len);
                if (n < 0 && errno == EINTR)
                        continue;
                if (n < 0)
                        return -errno;
                if (n == 0)
                        break;
                len += (size_t)n;
                if (len > max)
                        return -EFBIG;
        }
        buf[len] = '\0';
        if (ret_len)
                *ret_len = len;
        *ret = TAKE_PTR(buf);
        return 0;
}

int ios_read_regular_file(const char *path, size_t max, char **ret, size_t *ret_len)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        struct stat st;

        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (S_ISDIR(st.st_mode))
                return -EISDIR;
        if (!S_ISREG(st.st_mode))
                return -EBADFD;
        if ((uint64_t)st.st_size > max)
                return -EFBIG;
        return ios_read_fd_max(fd, max, ret, ret_len);
}
