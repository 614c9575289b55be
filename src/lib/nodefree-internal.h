/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Library-private parts of nodefree.c: which directory handles sit on a
 * mount where no device node can be opened, so that an attribute below
 * one is read with open, read and close alone (root.c, beneath.c and
 * sysfs.c use it; so do the unit tests).
 */
#ifndef IOS_NODEFREE_INTERNAL_H
#define IOS_NODEFREE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/* 1 when no device node can be opened on fd's mount (sysfs, or mounted nodev), 0 if one can, or -errno. */
int ios_fs_node_free(int fd);

/*
 * The record of directory handles opened on such a mount, by descriptor
 * number.  root.c and beneath.c set it (true or false) for every directory
 * handle they return; whoever closes one that may be marked clears it first
 * (ios_dirfd_close).  Descriptors past the record's size are never marked.
 */
void ios_dirfd_set_node_free(int fd, bool on);
bool ios_dirfd_node_free(int fd);
/* Clear the mark, then close; -1 is ignored. */
void ios_dirfd_close(int fd);
static inline void ios_dirfd_closep(int *fd) { ios_dirfd_close(*fd); }
/* A directory handle from ios_ctx_open_dir() closed at the end of its scope. */
#define _cleanup_dirfd_ __attribute__((cleanup(ios_dirfd_closep)))

/*
 * Open path below dirfd, which is on a node-free mount, with resolve
 * (RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS, or RESOLVE_IN_ROOT for a root on
 * such a mount) plus RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS, so what it
 * opens is on that mount too; a data open gets O_NONBLOCK | O_NOCTTY.  One
 * openat2() and no stat.  Returns the descriptor, -ENOENT or -ENOTDIR for a
 * name that is not there, or 0 - IOS_NF_SLOW when the caller must take the
 * checked path to learn what is there (a link, a mount, a node refused,
 * no openat2): its answer is the precise one.
 */
#define IOS_NF_SLOW 100000
int ios_open_node_free(int dirfd, const char *path, int flags, uint64_t resolve);

struct ios_ctx;
/*
 * root.c: a disk's directory handle (O_PATH | O_DIRECTORY), opened below
 * the root's node-free sys/ (or root) when there is one, and marked so;
 * its canonical path in *ret_canon when asked.  Close it with ios_dirfd_close().
 */
int ios_ctx_open_dir(struct ios_ctx *r, const char *path, char **ret_canon);

#endif
