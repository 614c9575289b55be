/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine-null.c: completes every I/O the moment it is submitted and touches
 * no file.  Everything a run costs with this engine is the harness itself
 * (offset generation, timestamps, statistics, the loop), so 1e9 / IOPS is
 * iosched-bench's own overhead per I/O in ns, the figure fio's
 * ioengine=null gives for fio.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "worker.h"

struct null_priv {
        struct bench_io **fifo;         /* submitted, not yet reaped */
        unsigned head, count, staged, depth;
};

static int null_init(struct bench_thread *t)
{
        struct null_priv *p = calloc(1, sizeof(*p));

        if (!p)
                return -ENOMEM;
        p->fifo = calloc(t->depth, sizeof(*p->fifo));
        if (!p->fifo) {
                free(p);
                return -ENOMEM;
        }
        p->depth = t->depth;
        t->priv = p;
        return 0;
}

static int null_queue(struct bench_thread *t, struct bench_io *io)
{
        struct null_priv *p = t->priv;

        p->fifo[(p->head + p->count + p->staged) % p->depth] = io;
        p->staged++;
        return 0;
}

static int null_submit(struct bench_thread *t)
{
        struct null_priv *p = t->priv;
        unsigned n = p->staged;

        p->count += n;
        p->staged = 0;
        return (int)n;
}

static int null_reap(struct bench_thread *t, unsigned min, unsigned max, struct bench_cqe *out)
{
        struct null_priv *p = t->priv;
        unsigned n = 0;

        (void)min;
        while (n < max && p->count) {
                struct bench_io *io = p->fifo[p->head];

                out[n].io = io;
                out[n].res = (int)io->len;
                n++;
                p->head = (p->head + 1) % p->depth;
                p->count--;
        }
        return (int)n;
}

static void null_cleanup(struct bench_thread *t)
{
        struct null_priv *p = t->priv;

        if (p)
                free(p->fifo);
        free(p);
        t->priv = NULL;
}

const struct bench_engine_ops bench_engine_null = {
        .name = "null",
        .flags = BENCH_ENGINE_NOFILE,
        .init = null_init,
        .queue = null_queue,
        .submit = null_submit,
        .reap = null_reap,
        .cleanup = null_cleanup,
};
