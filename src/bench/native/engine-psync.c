/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine-psync.c: the synchronous engines, one I/O at a time (iodepth is
 * forced to 1): psync, pread(2)/pwrite(2); sync, lseek(2) then
 * read(2)/write(2), as fio's sync; pvsync, preadv(2)/pwritev(2) with one
 * vector, as fio's pvsync.  As for fio's sync engines the issue time is
 * taken just before the system call, so clat is the call itself and slat is
 * only the harness's own time between preparing and issuing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include "worker.h"

struct psync_priv {
        struct bench_io *staged, *done;
        int own_fd;                     /* sync: a file position of its own, or -1 */
};

static int psync_init(struct bench_thread *t)
{
        struct psync_priv *p = calloc(1, sizeof(struct psync_priv));

        t->priv = p;
        if (!p)
                return -ENOMEM;
        p->own_fd = -1;
        return 0;
}

/*
 * sync seeks: threads that share the target's descriptor would share its
 * file position, so each opens the file again (a descriptor of its own,
 * same access mode and O_DIRECT; no O_EXCL, the target's open holds that).
 */
static int sync_init(struct bench_thread *t)
{
        struct psync_priv *p;
        char path[64];
        int r = psync_init(t), fl;

        if (r < 0 || t->fd < 0)
                return r;
        p = t->priv;
        fl = fcntl(t->fd, F_GETFL);
        if (fl < 0)
                return -errno;
        snprintf(path, sizeof(path), "/proc/self/fd/%d", t->fd);
        p->own_fd = open(path, (fl & (O_ACCMODE | O_DIRECT)) | O_CLOEXEC);
        if (p->own_fd < 0)
                return -errno;
        return 0;
}

static int psync_queue(struct bench_thread *t, struct bench_io *io)
{
        struct psync_priv *p = t->priv;

        if (p->staged)
                return -EBUSY;
        p->staged = io;
        return 0;
}

enum sync_kind { PSYNC, SYNC, PVSYNC };

static ssize_t do_io(int fd, const struct bench_io *io, enum sync_kind k)
{
        struct iovec v = { .iov_base = io->buf, .iov_len = io->len };

        switch (k) {
        case SYNC:
                if (lseek(fd, (off_t)io->offset, SEEK_SET) < 0)
                        return -1;
                return io->dir == BENCH_READ ? read(fd, io->buf, io->len) : write(fd, io->buf, io->len);
        case PVSYNC:
                return io->dir == BENCH_READ ? preadv(fd, &v, 1, (off_t)io->offset) :
                                               pwritev(fd, &v, 1, (off_t)io->offset);
        case PSYNC:
                break;
        }
        return io->dir == BENCH_READ ? pread(fd, io->buf, io->len, (off_t)io->offset) :
                                       pwrite(fd, io->buf, io->len, (off_t)io->offset);
}

static int submit_kind(struct bench_thread *t, enum sync_kind k)
{
        struct psync_priv *p = t->priv;
        struct bench_io *io = p->staged;
        ssize_t n;

        if (!io)
                return 0;
        do
                n = do_io(p->own_fd >= 0 ? p->own_fd : t->fd, io, k);
        while (n < 0 && errno == EINTR);
        io->res = n < 0 ? -errno : (int)n;
        p->staged = NULL;
        p->done = io;
        return 1;
}

static int psync_submit(struct bench_thread *t)
{
        return submit_kind(t, PSYNC);
}

static int sync_submit(struct bench_thread *t)
{
        return submit_kind(t, SYNC);
}

static int pvsync_submit(struct bench_thread *t)
{
        return submit_kind(t, PVSYNC);
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
        struct psync_priv *p = t->priv;

        if (p && p->own_fd >= 0)
                close(p->own_fd);
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

const struct bench_engine_ops bench_engine_sync = {
        .name = "sync",
        .flags = BENCH_ENGINE_SYNC,
        .init = sync_init,
        .queue = psync_queue,
        .submit = sync_submit,
        .reap = psync_reap,
        .cleanup = psync_cleanup,
};

const struct bench_engine_ops bench_engine_pvsync = {
        .name = "pvsync",
        .flags = BENCH_ENGINE_SYNC,
        .init = psync_init,
        .queue = psync_queue,
        .submit = pvsync_submit,
        .reap = psync_reap,
        .cleanup = psync_cleanup,
};
