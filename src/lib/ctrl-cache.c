/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * ctrl-cache.c: what many disks share.  Many disks hang off one controller,
 * one SCSI host or one NVMe controller: while enumerating, remember the last
 * few of each instead of reading them again for every disk (every attribute
 * read is three system calls).  Filled and read by probe-bus.c, owned by
 * enumerate.c for the length of one enumeration.
 */
#define _GNU_SOURCE
#include <string.h>

#include "iosched.h"
#include "macro.h"
#include "device-internal.h"

static void entry_clear(struct ios_cache_entry *e)
{
        free(e->key);
        for (size_t i = 0; i < ELEMENTSOF(e->v); i++)
                free(e->v[i]);
        *e = (struct ios_cache_entry){};
}

void ios_ctrl_cache_done(struct ios_ctrl_cache *c)
{
        for (size_t i = 0; i < IOS_CACHE_SLOTS; i++) {
                entry_clear(&c->ctrl[i]);
                entry_clear(&c->host[i]);
                entry_clear(&c->devdir[i]);
        }
}

struct ios_cache_entry *ios_cache_find(struct ios_cache_entry *slots, const char *key)
{
        for (size_t i = 0; key && i < IOS_CACHE_SLOTS; i++)
                if (slots[i].key && streq(slots[i].key, key))
                        return &slots[i];
        return NULL;
}

struct ios_cache_entry *ios_cache_put(struct ios_cache_entry *slots, unsigned *next, const char *key)
{
        struct ios_cache_entry *e = &slots[(*next)++ % IOS_CACHE_SLOTS];

        entry_clear(e);
        e->key = strdup(key);
        return e->key ? e : NULL;
}
