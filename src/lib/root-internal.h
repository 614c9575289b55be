/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Library-private parts of root.c, exposed for the unit tests. */
#ifndef IOS_ROOT_INTERNAL_H
#define IOS_ROOT_INTERNAL_H

struct ios_root;
/* The component walk that ios_root_realpath() falls back to without openat2. */
int ios_root_realpath_walk(struct ios_root *r, const char *path, char **ret);
/* Resolve every later lookup in r with that walk, as on a kernel without openat2. */
void ios_root_force_walk(struct ios_root *r);
/* How many lookups in r openat2(RESOLVE_IN_ROOT) and the walk answered. */
void ios_root_resolver_counts(const struct ios_root *r, unsigned *openat2, unsigned *walk);

#endif
