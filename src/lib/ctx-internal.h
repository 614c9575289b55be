/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The library context's fields: root.c owns them, root-walk.c reads the root's descriptor. */
#ifndef IOS_CTX_INTERNAL_H
#define IOS_CTX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#define NF_BASES 2

struct ios_ctx {
        char *prefix;           /* "" for the host */
        char *prefix_real;      /* realpath(prefix), to strip /proc/self/fd answers */
        int fd;
        bool host;
        unsigned probe;
        bool force_walk;        /* tests: resolve with the walk even where openat2 works */
        unsigned n_openat2, n_walk;     /* lookups each resolver answered */
        char failed_disk[64];           /* the disk that made the last enumeration fail */
        int hz;                         /* the root's kernel's CONFIG_HZ: 0 unknown, -1 not read yet */
        int base_fd[NF_BASES];          /* sys/, run/: when no device node can be opened on it */
        /* root, those node-free (nodefree.c): 1, 0, -1 not looked yet */
        signed char root_nf, base_nf[NF_BASES];
};

#endif
