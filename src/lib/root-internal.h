/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Library-private parts of root.c, exposed for the unit tests. */
#ifndef IOS_ROOT_INTERNAL_H
#define IOS_ROOT_INTERNAL_H

struct ios_root;
/* The component walk that ios_root_realpath() falls back to without openat2. */
int ios_root_realpath_walk(struct ios_root *r, const char *path, char **ret);

#endif
