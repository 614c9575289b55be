/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * yield.c: the disks ioschedd leaves alone while iosched-bench switches
 * their scheduler (the benchmark's lock, src/lib/benchlock.c).  A drift
 * check in the middle of a --compare would put the policy's scheduler back,
 * and the benchmark would measure the policy's scheduler under another name.
 * A disk is said once when it is left alone and once when the benchmark has
 * ended (the benchmark restores what it found), seen by a one-second timerfd
 * that is open only while some disk waits, or by whatever looks at the disk
 * first; the policy is then applied to it.
 *
 * Bookkeeping only: the table records which disks are held and returns the
 * ones whose benchmark has ended; apply.c asks the lock and says what
 * happened, daemon.c runs the timer and applies the policy to what ended.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "state.h"
#include "grow.h"

static struct iosd_yield *find(const struct iosd_yields *t, dev_t dev)
{
        for (size_t i = 0; i < t->n; i++)
                if (t->v[i].dev == dev)
                        return &t->v[i];
        return NULL;
}

static void drop(struct iosd_yields *t, struct iosd_yield *y)
{
        *y = t->v[--t->n];
}

enum iosd_yield_state iosd_yield_note(struct iosd_yields *t, dev_t dev, const char *name, bool held)
{
        struct iosd_yield *y = find(t, dev);

        if (!held) {
                if (!y)
                        return IOSD_FREE;
                drop(t, y);
                return IOSD_ENDED;
        }
        if (y)
                return IOSD_HELD;               /* said already */
        if (t->n < YIELD_MAX) {
                struct iosd_yield *v = ios_grow(t->v, &t->cap, t->n + 1, sizeof(*v));

                if (!v)
                        return IOSD_YIELDED;    /* not recorded: said again next time */
                t->v = v;
                y = &t->v[t->n++];
                *y = (struct iosd_yield){ .dev = dev };
                snprintf(y->name, sizeof(y->name), "%s", name);
        }
        return IOSD_YIELDED;
}

size_t iosd_yield_ended(struct iosd_yields *t, bool (*held)(void *arg, dev_t dev), void *arg,
                        struct iosd_yield *out)
{
        size_t n = 0;

        /* downwards: drop() moves the last entry into i, one already looked at */
        for (size_t i = t->n; i-- > 0;) {
                if (held(arg, t->v[i].dev))
                        continue;
                out[n++] = t->v[i];
                drop(t, &t->v[i]);
        }
        return n;
}

/* The disk was removed. */
bool iosd_yield_forget(struct iosd_yields *t, dev_t dev)
{
        struct iosd_yield *y = find(t, dev);

        if (y)
                drop(t, y);
        return y;
}

void iosd_yield_done(struct iosd_yields *t)
{
        free(t->v);
        *t = (struct iosd_yields){};
}
