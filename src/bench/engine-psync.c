/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine-psync.c: the synchronous baseline, pread(2)/pwrite(2) one I/O at a
 * time (iodepth is forced to 1).  As for fio's sync engines the issue time is
 * taken just before the system call, so clat is the call itself and slat is
 * only the harness's own time between preparing and issuing.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include "worker.h"

struct psync_priv {
        struct bench_io *staged, *done;
};

static int psync_init(struct bench_thread *t)
{
        t->priv = calloc(1, sizeof(struct psync_priv));
        return t->priv ? 0 : -ENOMEM;
}

static int psync_queue(struct bench_thread *t, struct bench_io *io)
{
        struct psync_priv *p = t->priv;

        if (p->staged)
                return -EBUSY;
        p->staged = io;
        return 0;
}

static int psync_submit(struct bench_thread *t)
{
        struct psync_priv *p = t->priv;
        struct bench_io *io = p->staged;
        ssize_t n;

        if (!io)
                return 0;
        do {
                if (io->dir == BENCH_READ)
                        n = pread(t->fd, io->buf, io->len, (off_t)io->offset);
                else
                        n = pwrite(t->fd, io->buf, io->len, (off_t)io->offset);
        } while (n < 0 && errno == EINTR);
        io->res = n < 0 ? -errno : (int)n;
        p->staged = NULL;
        p->done = io;
        return 1;
}

static int psync_reap(struct bench_thread *t, unsigned min, unsigned max, struct bench_cqe *out)
{
        struct psync_priv *p = t->priv;

        (void)min;
        if (!p->done || max == 0)
                return 0;
        out[0].io = p->done;
        out[0].res = p->done->res;
        p->done = NULL;
        return 1;
}

static void psync_cleanup(struct bench_thread *t)
{
        free(t->priv);
        t->priv = NULL;
}

const struct bench_engine_ops bench_engine_psync = {
        .name = "psync",
        .flags = BENCH_ENGINE_SYNC,
        .init = psync_init,
        .queue = psync_queue,
        .submit = psync_submit,
        .reap = psync_reap,
        .cleanup = psync_cleanup,
};
