/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine-uring.c: io_uring through liburing, set up the way fio's engine
 * and t/io_uring are when tuned: SINGLE_ISSUER + DEFER_TASKRUN (completion
 * work runs only when we enter to reap, in one batch, never interrupting the
 * submit loop), falling back to COOP_TASKRUN and then to plain rings on
 * older kernels; a registered ring fd, the target registered as fixed file 0
 * and the thread's whole buffer region registered as fixed buffer 0, each
 * optional and each with a fallback.  Every staged SQE goes to the kernel in
 * one io_uring_enter, and every ready CQE is taken with one head update.
 * Submission and waiting stay two separate enters so the issue time can be
 * stamped when the submit returns, where fio stamps it.
 */
#define _GNU_SOURCE
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "worker.h"

/* Registered buffers are limited to 1 GiB each. */
#define URING_MAX_FIXED_BUF (1ull << 30)

struct uring_priv {
        struct io_uring ring;
        bool ring_ok, fixed_file, fixed_buf, reg_ring, defer;
        unsigned inflight;              /* submitted to the kernel, CQE not yet taken */
        const char *mode;
};

static int uring_setup(struct bench_thread *t, struct uring_priv *p)
{
        static const struct {
                unsigned flags;
                const char *name;
        } tries[] = {
                { IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, "defer_taskrun" },
                { IORING_SETUP_COOP_TASKRUN, "coop_taskrun" },
                { 0, "plain" },
        };
        int r = -EINVAL;

        for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
                struct io_uring_params par;

                memset(&par, 0, sizeof(par));
                par.flags = tries[i].flags;
                r = io_uring_queue_init_params(t->depth, &p->ring, &par);
                if (r == 0) {
                        p->mode = tries[i].name;
                        p->defer = tries[i].flags & IORING_SETUP_DEFER_TASKRUN;
                        return 0;
                }
                if (r != -EINVAL)
                        break;          /* ENOMEM, EPERM (io_uring_disabled): no point */
        }
        return r;
}

static int uring_init(struct bench_thread *t)
{
        struct uring_priv *p = calloc(1, sizeof(*p));
        int r;

        if (!p)
                return -ENOMEM;
        t->priv = p;
        r = uring_setup(t, p);
        if (r < 0)
                return r;
        p->ring_ok = true;
        /* Each is an optimisation only; a refusal leaves the slower path. */
        p->reg_ring = io_uring_register_ring_fd(&p->ring) == 1;
        if (t->o->registerfiles && t->fd >= 0)
                p->fixed_file = io_uring_register_files(&p->ring, &t->fd, 1) == 0;
        if (t->o->fixedbufs && t->buf_len <= URING_MAX_FIXED_BUF) {
                struct iovec iov = { .iov_base = t->buf, .iov_len = t->buf_len };

                p->fixed_buf = io_uring_register_buffers(&p->ring, &iov, 1) == 0;
        }
        snprintf(t->engine_note, sizeof(t->engine_note), "%s%s%s%s", p->mode,
                 p->reg_ring ? " registered_ring" : "",
                 p->fixed_file ? " registerfiles" : "",
                 p->fixed_buf ? " fixedbufs" : "");
        return 0;
}

static int uring_queue(struct bench_thread *t, struct bench_io *io)
{
        struct uring_priv *p = t->priv;
        struct io_uring_sqe *sqe = io_uring_get_sqe(&p->ring);
        int fd = p->fixed_file ? 0 : t->fd;

        /* never NULL: at most depth in flight and the SQ has depth entries */
        if (!sqe)
                return -EBUSY;
        if (io->dir == BENCH_READ) {
                if (p->fixed_buf)
                        io_uring_prep_read_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
                else
                        io_uring_prep_read(sqe, fd, io->buf, io->len, io->offset);
        } else {
                if (p->fixed_buf)
                        io_uring_prep_write_fixed(sqe, fd, io->buf, io->len, io->offset, 0);
                else
                        io_uring_prep_write(sqe, fd, io->buf, io->len, io->offset);
        }
        if (p->fixed_file)
                sqe->flags |= IOSQE_FIXED_FILE;
        io_uring_sqe_set_data(sqe, io);
        return 0;
}

static int uring_submit(struct bench_thread *t)
{
        struct uring_priv *p = t->priv;
        int r;

        /*
         * With DEFER_TASKRUN completions are posted only when we enter with
         * GETEVENTS, so the submit enter asks for it too (without waiting):
         * whatever finished meanwhile, including I/O that completed during
         * this very call, is in the CQ ring afterwards and the next reap
         * needs no system call.  Without it, task work runs on the way out
         * of any enter anyway.
         */
        r = p->defer ? io_uring_submit_and_get_events(&p->ring) : io_uring_submit(&p->ring);

        /* unsubmitted SQEs stay in the ring and go with the next enter */
        if (r == -EAGAIN || r == -EBUSY || r == -EINTR)
                return 0;
        if (r > 0)
                p->inflight += (unsigned)r;
        return r;
}

static int uring_reap(struct bench_thread *t, unsigned min, unsigned max, struct bench_cqe *out)
{
        struct uring_priv *p = t->priv;
        struct io_uring_cqe *cqe;
        unsigned head, n = 0;
        int r;

        if (io_uring_cq_ready(&p->ring) < (min ? min : 1)) {
                if (min)
                        r = io_uring_wait_cqe_nr(&p->ring, &cqe, min);
                else
                        r = io_uring_get_events(&p->ring);      /* run deferred work, no wait */
                if (r < 0 && r != -EINTR && r != -EAGAIN && r != -ETIME)
                        return r;
        }
        io_uring_for_each_cqe(&p->ring, head, cqe) {
                out[n].io = io_uring_cqe_get_data(cqe);
                out[n].res = cqe->res;
                if (++n == max)
                        break;
        }
        io_uring_cq_advance(&p->ring, n);
        p->inflight -= n < p->inflight ? n : p->inflight;
        return (int)n;
}

/*
 * Wait for every I/O the kernel still has.  The I/O loop reaps everything
 * before it returns, except when a reap itself failed: then requests may
 * still hold the target (a reference to the fixed file's table slot, or
 * to the file itself), and a ring closed with them in flight is torn down
 * by a kernel workqueue after this process has exited.  An error or, with
 * timed waits, 30 s without a completion gives up.
 */
static void uring_drain(struct uring_priv *p)
{
        unsigned idle = 0;

        while (p->inflight > 0) {
                struct __kernel_timespec ts = { .tv_sec = 1 };
                struct io_uring_cqe *cqe;
                unsigned head, n = 0;
                int r;

                /* a timed wait needs no SQE only with EXT_ARG (5.11+); else wait as the loop does */
                if (p->ring.features & IORING_FEAT_EXT_ARG)
                        r = io_uring_wait_cqe_timeout(&p->ring, &cqe, &ts);
                else
                        r = io_uring_wait_cqe(&p->ring, &cqe);
                if (r == -ETIME && ++idle < 30)
                        continue;
                if (r < 0 && r != -EINTR && r != -EAGAIN)
                        break;
                io_uring_for_each_cqe(&p->ring, head, cqe)
                        n++;
                io_uring_cq_advance(&p->ring, n);
                p->inflight -= n < p->inflight ? n : p->inflight;
                if (n)
                        idle = 0;
        }
}

/*
 * Closing the ring only starts its teardown: the kernel drops the ring's
 * registered files and buffers later, from a workqueue, after this process
 * may have exited.  The target is a registered file opened O_EXCL, so a
 * second run started right after this one would find the device still
 * claimed.  Unregistering is synchronous: the last reference to the file
 * goes before the call returns once no I/O is in flight (the loop reaped
 * it all; uring_drain() covers a loop stopped by a failed reap), so the
 * device is released when the benchmark closes the target and exits.
 */
static void uring_cleanup(struct bench_thread *t)
{
        struct uring_priv *p = t->priv;

        if (p && p->ring_ok) {
                uring_drain(p);
                if (p->fixed_file)
                        (void)io_uring_unregister_files(&p->ring);
                if (p->fixed_buf)
                        (void)io_uring_unregister_buffers(&p->ring);
                io_uring_queue_exit(&p->ring);
        }
        free(p);
        t->priv = NULL;
}

const struct bench_engine_ops bench_engine_io_uring = {
        .name = "io_uring",
        .init = uring_init,
        .queue = uring_queue,
        .submit = uring_submit,
        .reap = uring_reap,
        .cleanup = uring_cleanup,
};
