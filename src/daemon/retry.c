/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * retry.c: transient failures and when each is due again.  Only what
 * ios_errno_class() calls GONE (ENODEV, ENOENT, ENXIO) means that a disk is
 * gone; any other failure to look up or plan a disk (EAGAIN from a lookup
 * that kept racing renames, EMFILE, ENOMEM, EIO) keeps its event alive in
 * this small table: tried again after 10, 20, 40 ... ms, given up on after
 * RETRY_TRIES attempts.  A "remove" uevent or a success forgets it.
 *
 * Bookkeeping only: the table says what is due and when; apply.c logs each
 * verdict, and daemon.c arms the one-shot timerfd for iosd_retry_next()
 * (open only while the table is not empty) and applies what is due.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "state.h"
#include "grow.h"

static struct iosd_retry *find(const struct iosd_retries *t, dev_t dev)
{
        for (size_t i = 0; i < t->n; i++)
                if (t->v[i].dev == dev)
                        return &t->v[i];
        return NULL;
}

static void drop(struct iosd_retries *t, struct iosd_retry *r)
{
        *r = t->v[--t->n];
}

/* The last attempt for dev failed, not because it is gone. */
enum iosd_retry_verdict iosd_retry_failed(struct iosd_retries *t, dev_t dev, uint64_t now_ms,
                                          unsigned *tries, uint64_t *delay_ms)
{
        struct iosd_retry *r = find(t, dev);

        *tries = 0;
        *delay_ms = 0;
        if (!r) {
                struct iosd_retry *v = t->n < RETRY_MAX ? ios_grow(t->v, &t->cap, t->n + 1, sizeof(*v)) : NULL;

                if (!v)
                        return IOSD_RETRY_FULL;
                t->v = v;
                r = &t->v[t->n++];
                *r = (struct iosd_retry){ .dev = dev };
        }
        *tries = ++r->tries;
        if (r->tries >= RETRY_TRIES) {
                drop(t, r);
                return IOSD_RETRY_GIVE_UP;
        }
        *delay_ms = (uint64_t)RETRY_FIRST_MS << (r->tries - 1);
        r->due_ms = now_ms + *delay_ms;
        return IOSD_RETRY_LATER;
}

bool iosd_retry_forget(struct iosd_retries *t, dev_t dev)
{
        struct iosd_retry *r = find(t, dev);

        if (r)
                drop(t, r);
        return r;
}

uint64_t iosd_retry_next(const struct iosd_retries *t)
{
        uint64_t first = UINT64_MAX;

        for (size_t i = 0; i < t->n; i++)
                if (t->v[i].due_ms < first)
                        first = t->v[i].due_ms;
        return first;
}

size_t iosd_retry_due(const struct iosd_retries *t, uint64_t now_ms, dev_t *out)
{
        size_t n = 0;

        for (size_t i = 0; i < t->n; i++)
                if (t->v[i].due_ms <= now_ms)
                        out[n++] = t->v[i].dev;
        return n;
}

void iosd_retry_done(struct iosd_retries *t)
{
        free(t->v);
        *t = (struct iosd_retries){};
}
