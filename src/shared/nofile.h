/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* nofile.h: the descriptor limit (nofile.c). */
#ifndef IOS_NOFILE_H
#define IOS_NOFILE_H

/* Raise RLIMIT_NOFILE's soft limit to the hard one: 1 raised, 0 already there, or -errno. */
int ios_raise_nofile(void);

#endif
