/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * devset.c: the bounded, coalescing set of devices that have events
 * pending.  Kept sorted so lookups are a binary search and a batch is
 * processed in device-number order; a few thousand entries at most.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon.h"
#include "grow.h"

void iosd_devset_init(struct iosd_devset *s, size_t max)
{
        *s = (struct iosd_devset){ .max = max ? max : 1 };
}

/* Index of d, or where it would go. */
static size_t find(const struct iosd_devset *s, dev_t d, bool *found)
{
        size_t lo = 0, hi = s->n;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (s->v[mid] < d)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        *found = lo < s->n && s->v[lo] == d;
        return lo;
}

int iosd_devset_add(struct iosd_devset *s, dev_t d)
{
        bool found;
        size_t i;

        if (s->all)
                return 0;
        i = find(s, d, &found);
        if (found)
                return 0;
        if (s->n == s->max) {
                /* storm: forget the members, re-check every disk instead */
                iosd_devset_set_all(s);
                return 0;
        }
        {
                dev_t *nv = ios_grow(s->v, &s->cap, s->n + 1, sizeof(*nv));

                if (!nv) {
                        iosd_devset_set_all(s);
                        return -ENOMEM;
                }
                s->v = nv;
        }
        memmove(s->v + i + 1, s->v + i, (s->n - i) * sizeof(*s->v));
        s->v[i] = d;
        s->n++;
        return 1;
}

bool iosd_devset_remove(struct iosd_devset *s, dev_t d)
{
        bool found;
        size_t i = find(s, d, &found);

        if (!found)
                return false;
        memmove(s->v + i, s->v + i + 1, (s->n - i - 1) * sizeof(*s->v));
        s->n--;
        return true;
}

bool iosd_devset_contains(const struct iosd_devset *s, dev_t d)
{
        bool found;

        if (s->all)
                return true;
        (void)find(s, d, &found);
        return found;
}

void iosd_devset_set_all(struct iosd_devset *s)
{
        s->all = true;
        s->n = 0;
}

bool iosd_devset_empty(const struct iosd_devset *s)
{
        return !s->all && s->n == 0;
}

void iosd_devset_clear(struct iosd_devset *s)
{
        s->all = false;
        s->n = 0;
}

void iosd_devset_done(struct iosd_devset *s)
{
        free(s->v);
        *s = (struct iosd_devset){ .max = s->max };
}
