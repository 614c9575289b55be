/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Library-private parts of root.c, exposed for the unit tests. */
#ifndef IOS_ROOT_INTERNAL_H
#define IOS_ROOT_INTERNAL_H

struct ios_ctx;
/* The component walk that ios_ctx_realpath() falls back to without openat2. */
int ios_ctx_realpath_walk(struct ios_ctx *r, const char *path, char **ret);
/* Resolve every later lookup in r with that walk, as on a kernel without openat2. */
void ios_ctx_force_walk(struct ios_ctx *r);
/* How many lookups in r openat2(RESOLVE_IN_ROOT) and the walk answered. */
void ios_ctx_resolver_counts(const struct ios_ctx *r, unsigned *openat2, unsigned *walk);

#endif
