/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * writers-list.c: the list of other writers that writers-tuned.c and
 * writers-udev.c fill, and how they read their files.
 */
#define _GNU_SOURCE
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "writers-internal.h"
#include "grow.h"
#include "readfile.h"

int ios_writers_read_text(const char *path, char **ret)
{
        return ios_read_regular_file(path, IOS_WRITERS_MAX_FILE, ret, NULL);
}

int ios_writers_add(struct ios_writers *ws, const char *kind, const char *name, const char *devglob,
                    const char *key, const char *value, const char *file, unsigned line)
{
        struct ios_writer *n = ios_grow(ws->w, &ws->cap, ws->n + 1, sizeof(*n));
        struct ios_writer *w;

        if (!n)
                return -ENOMEM;
        ws->w = n;
        w = &ws->w[ws->n];
        *w = (struct ios_writer){ .line = line, .op = IOS_WRITER_SET };
        w->kind = strdup(kind);
        w->name = name ? strdup(name) : NULL;
        w->devglob = devglob ? strdup(devglob) : NULL;
        w->key = strdup(key);
        w->value = strdup(value);
        w->file = strdup(file);
        ws->n++;
        if (!w->kind || (name && !w->name) || (devglob && !w->devglob) || !w->key || !w->value || !w->file)
                return -ENOMEM;
        return 0;
}
