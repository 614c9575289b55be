/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Library-private parts of root.c and beneath.c (sysfs.c uses them; so do the unit tests). */
#ifndef IOS_ROOT_INTERNAL_H
#define IOS_ROOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

struct ios_ctx;
/* The component walk that ios_ctx_realpath() falls back to without openat2. */
int ios_ctx_realpath_walk(struct ios_ctx *r, const char *path, char **ret);
/* Resolve every later lookup in r with that walk, as on a kernel without openat2. */
void ios_ctx_force_walk(struct ios_ctx *r);
/* How many lookups in r openat2(RESOLVE_IN_ROOT) and the walk answered. */
void ios_ctx_resolver_counts(const struct ios_ctx *r, unsigned *openat2, unsigned *walk);

/* beneath.c:
 *
 * Open PATH (relative, without "..") beneath dirfd without following any
 * symlink on the way or at the end: openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS), else a walk with O_NOFOLLOW per component.  A data
 * open (neither O_PATH nor O_DIRECTORY) gets a regular file only, opened
 * O_NONBLOCK|O_NOCTTY: -ELOOP for a link, -EISDIR, -EBADFD for a FIFO,
 * socket or device node (never opened: it is looked at with O_PATH first).
 */
int ios_open_beneath(int dirfd, const char *path, int flags);
/* 0 for a regular file, else -ELOOP, -EISDIR or -EBADFD (or fstat's error). */
int ios_fd_verify_regular(int fd);
/*
 * beneath.c: open path with open_once(arg, path, flags) (either resolver).  A
 * data open (neither O_PATH nor O_DIRECTORY) looks at the file through an
 * O_PATH descriptor first, so a device node is never opened (that can have
 * effects of its own), then opens it O_NONBLOCK|O_NOCTTY and checks the
 * descriptor it returns again: a regular file, else -ELOOP, -EISDIR, -EBADFD.
 */
int ios_open_checked(int (*open_once)(void *arg, const char *path, int flags), void *arg,
                     const char *path, int flags);
/* Tests: use the walk of ios_open_beneath() even where openat2 works. */
void ios_beneath_force_walk(bool on);
/* How many ios_open_beneath() lookups openat2 and the walk answered. */
void ios_beneath_counts(unsigned *openat2, unsigned *walk);

/* sysfs.c: 1 if ATTR is beneath dirfd, 0 if absent (ENOENT, ENOTDIR), else -errno. */
int ios_sysfs_present(int dirfd, const char *attr);

/* root.c: the openat2-or-walk choice, made once per process, for both resolvers. */
struct open_how;
/* openat2() again while it fails with EAGAIN (a rename or mount raced a ".."), bounded. */
int ios_openat2_retry(int dirfd, const char *path, struct open_how *how);
/* After a failed openat2(): true (and the walk from now on) for ENOSYS/EPERM. */
bool ios_openat2_unusable(void);
/* Whether the walk answers every lookup: openat2 answered ENOSYS/EPERM (old
 * kernel, seccomp, valgrind 3.19). */
bool ios_openat2_missing(void);

/* kernel-release.c: the root's kernel release ("6.18.4-amd64") into buf, or -ENOENT. */
int ios_ctx_kernel_release_into(struct ios_ctx *r, char *buf, size_t n);

/* enumerate.c: the disk whose lookup made ios_device_enumerate() fail (NULL: none). */
void ios_ctx_set_failed_disk(struct ios_ctx *r, const char *name);

#endif
