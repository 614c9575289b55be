/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine-libaio.c: Linux native AIO through libaio.  One iocb per slot,
 * prepared in place (no allocation), every staged iocb handed over in one
 * io_submit(), and completions taken first straight from the kernel's
 * completion ring mapped into our memory (struct aio_ring, as fio's
 * userspace_reap does) and only when it is empty through io_getevents(),
 * which then waits for at least the minimum.  The kernel reads the ring head
 * back from that shared page, so consuming events in user space is
 * supported; the ring is only used when its magic and feature words are the
 * ones this layout was written for.
 */
#define _GNU_SOURCE
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "worker.h"

#define AIO_RING_MAGIC 0xa10a10a1u

/* The kernel's layout (fs/aio.c), at the address io_setup() returned. */
struct aio_ring {
        unsigned id, nr, head, tail;
        unsigned magic, compat_features, incompat_features, header_length;
        struct io_event io_events[];
};

struct aio_priv {
        io_context_t ctx;
        bool ctx_ok;
        struct iocb *iocbs;             /* one per slot */
        struct iocb **staged;           /* FIFO of prepared, unsubmitted iocbs */
        unsigned nstaged;
        struct io_event *events;
        struct aio_ring *ring;          /* NULL: io_getevents() only */
};

static int aio_init(struct bench_thread *t)
{
        struct aio_priv *p = calloc(1, sizeof(*p));
        int r;

        if (!p)
                return -ENOMEM;
        t->priv = p;
        p->iocbs = calloc(t->depth, sizeof(*p->iocbs));
        p->staged = calloc(t->depth, sizeof(*p->staged));
        p->events = calloc(t->depth, sizeof(*p->events));
        if (!p->iocbs || !p->staged || !p->events)
                return -ENOMEM;
        r = io_queue_init((int)t->depth, &p->ctx);
        if (r < 0)
                return r;
        p->ctx_ok = true;
        p->ring = (struct aio_ring *)p->ctx;
        if (p->ring->magic != AIO_RING_MAGIC || p->ring->incompat_features != 0 || p->ring->nr == 0)
                p->ring = NULL;
        snprintf(t->engine_note, sizeof(t->engine_note), "%s",
                 p->ring ? "userspace_reap" : "io_getevents");
        return 0;
}

static int aio_queue(struct bench_thread *t, struct bench_io *io)
{
        struct aio_priv *p = t->priv;
        struct iocb *cb = &p->iocbs[io->index];

        if (io->dir == BENCH_READ)
                io_prep_pread(cb, t->fd, io->buf, io->len, (long long)io->offset);
        else
                io_prep_pwrite(cb, t->fd, io->buf, io->len, (long long)io->offset);
        cb->data = io;
        p->staged[p->nstaged++] = cb;
        return 0;
}

static int aio_submit(struct bench_thread *t)
{
        struct aio_priv *p = t->priv;
        int r;

        if (!p->nstaged)
                return 0;
        r = io_submit(p->ctx, (long)p->nstaged, p->staged);
        if (r == -EAGAIN || r == -EINTR)
                return 0;               /* reap, then try the rest again */
        if (r < 0)
                return r;
        if ((unsigned)r < p->nstaged)
                memmove(p->staged, p->staged + r, (p->nstaged - (unsigned)r) * sizeof(*p->staged));
        p->nstaged -= (unsigned)r;
        return r;
}

static unsigned ring_reap(struct aio_priv *p, unsigned max, struct bench_cqe *out)
{
        struct aio_ring *ring = p->ring;
        unsigned head = ring->head, tail, n = 0, nr = ring->nr;

        tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
        while (head != tail && n < max) {
                struct io_event *ev = &ring->io_events[head];

                out[n].io = ev->data;
                out[n].res = (int)(long)ev->res;
                n++;
                head = head + 1 == nr ? 0 : head + 1;
        }
        if (n)
                __atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
        return n;
}

static int aio_reap(struct bench_thread *t, unsigned min, unsigned max, struct bench_cqe *out)
{
        struct aio_priv *p = t->priv;
        unsigned n = 0;
        int r;

        if (p->ring) {
                n = ring_reap(p, max, out);
                if (n >= min && n > 0)
                        return (int)n;
                if (min == 0)
                        return (int)n;
        }
        do
                r = io_getevents(p->ctx, (long)(min > n ? min - n : 0), (long)(max - n), p->events, NULL);
        while (r == -EINTR);
        if (r < 0)
                return r;
        for (int i = 0; i < r; i++) {
                out[n].io = p->events[i].data;
                out[n].res = (int)(long)p->events[i].res;
                n++;
        }
        return (int)n;
}

/*
 * io_destroy() (io_queue_release) waits until every request of the context
 * has completed, and each drops its reference to the target before that,
 * so nothing of this engine holds the device afterwards, even when the loop
 * stopped on a failed reap with I/O still in flight.  The main thread
 * closes the target only after every worker has returned from here.
 */
static void aio_cleanup(struct bench_thread *t)
{
        struct aio_priv *p = t->priv;

        if (!p)
                return;
        if (p->ctx_ok)
                io_queue_release(p->ctx);
        free(p->iocbs);
        free(p->staged);
        free(p->events);
        free(p);
        t->priv = NULL;
}

const struct bench_engine_ops bench_engine_libaio = {
        .name = "libaio",
        .init = aio_init,
        .queue = aio_queue,
        .submit = aio_submit,
        .reap = aio_reap,
        .cleanup = aio_cleanup,
};
