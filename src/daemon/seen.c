/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * seen.c: which disk the daemon last planned under each device number, by
 * its disk sequence number (diskseq, kernel 5.15 and later; 0 before).  A
 * drift check that finds a value off the policy on a disk it has planned
 * before, same diskseq, has found a change behind its back; on a disk it
 * has not (a new disk whose add uevent has not come yet, or one removed and
 * created again under a reused number) it has found the kernel's defaults.
 * Sorted by device number, at most DEVSET_MAX entries: a table that would
 * grow past that is emptied (its disks then count as new once).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "state.h"
#include "grow.h"

static size_t find(const struct iosd_daemon *d, dev_t dev, bool *found)
{
        size_t lo = 0, hi = d->n_seen;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (d->seen[mid].dev < dev)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        *found = lo < d->n_seen && d->seen[lo].dev == dev;
        return lo;
}

bool iosd_seen_is(const struct iosd_daemon *d, dev_t dev, uint64_t seq)
{
        bool found;
        size_t i = find(d, dev, &found);

        return found && d->seen[i].seq == seq;
}

void iosd_seen_set(struct iosd_daemon *d, dev_t dev, uint64_t seq)
{
        bool found;
        size_t i = find(d, dev, &found);
        struct iosd_seen *n;

        if (found) {
                d->seen[i].seq = seq;
                return;
        }
        if (d->n_seen >= DEVSET_MAX) {
                d->n_seen = 0;
                i = 0;
        }
        n = ios_grow(d->seen, &d->cap_seen, d->n_seen + 1, sizeof(*n));
        if (!n)
                return;         /* out of memory: the disk counts as new next time */
        d->seen = n;
        for (size_t j = d->n_seen; j > i; j--)
                d->seen[j] = d->seen[j - 1];
        d->seen[i] = (struct iosd_seen){ .dev = dev, .seq = seq };
        d->n_seen++;
}

/* The disk was removed: forget it, unless the number already holds another one. */
void iosd_seen_forget(struct iosd_daemon *d, dev_t dev, uint64_t seq)
{
        bool found;
        size_t i = find(d, dev, &found);

        if (!found || (seq && d->seen[i].seq && d->seen[i].seq != seq))
                return;
        for (size_t j = i + 1; j < d->n_seen; j++)
                d->seen[j - 1] = d->seen[j];
        d->n_seen--;
}
