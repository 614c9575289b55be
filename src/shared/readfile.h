/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* readfile.h: a whole configuration file read, bounded (readfile.c). */
#ifndef IOS_READFILE_H
#define IOS_READFILE_H

#include <stddef.h>
#include <sys/types.h>

/* A whole configuration file at path (host paths, links followed),
 * NUL-terminated, -EFBIG past max bytes; opened without blocking, a regular
 * file only (-EISDIR, -EBADFD for a FIFO, socket or device node). */
int ios_read_regular_file(const char *path, size_t max, char **ret, size_t *ret_len);
/* A whole configuration file from fd, NUL-terminated; -EFBIG past max bytes. */
int ios_read_fd_max(int fd, size_t max, char **ret, size_t *ret_len);
/* ios_read_fd_max() for a descriptor whose size (st_size) the caller has from fstat already. */
int ios_read_fd_sized(int fd, size_t max, off_t size, char **ret, size_t *ret_len);

#endif
