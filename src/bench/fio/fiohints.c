/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiohints.c: the write hints of the run's targets, put back after each
 * fio run.  fio sets a job's write_hint= on the inode of each file or
 * device the job opens (fcntl F_SET_RW_HINT), which keeps it after fio
 * ends; such a job needs --allow-write (fiochanges.c), so each of its
 * existing files is a write target.  Each write target is opened once,
 * read only, before fio's first run and its hint read; after each run
 * (whatever its end) the hint is set back on that descriptor and read
 * back: the same inode, never resolved again by path.  Files fio makes
 * are removed with their scratch directory.  The guard is given each
 * descriptor and hint too, and puts them back after a kill -9 of
 * iosched-bench (guard.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "bench.h"
#include "fio.h"
#include "guard.h"

struct bench_fio_hint {
        int fd;                 /* the target, open for reading */
        uint64_t hint;          /* its write hint before fio's first run */
        const char *path;       /* f->access.write's entry */
};

int bench_fio_hints_keep(struct bench_fio *f, struct bench_error *e)
{
        size_t n = 0;

        for (char **p = f->access.write; p && *p; p++)
                n++;
        if (!f->sets_hints || n == 0)
                return 0;
        f->hints = calloc(n, sizeof(*f->hints));
        if (!f->hints)
                return bench_error_set(e, BENCH_ERR_SYSTEM, ENOMEM, "out of memory");
        for (size_t i = 0; i < n; i++) {
                struct bench_fio_hint *h = &f->hints[f->nhints];
                const char *path = f->access.write[i];
                int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), err = errno;

                if (fd < 0)
                        return bench_error_set(e, BENCH_ERR_SYSTEM, err,
                                               "%s: cannot open it to keep its write hint: %s", path,
                                               ios_strerror(err));
                *h = (struct bench_fio_hint){ .fd = fd, .path = path };
                err = -bench_rw_hint_get(fd, &h->hint);
                if (err) {
                        close(fd);
                        if (err == EINVAL)
                                continue;       /* a kernel without write hints: fio cannot set one either */
                        return bench_error_set(e, BENCH_ERR_SYSTEM, err, "%s: cannot read its write hint: %s",
                                               path, ios_strerror(err));
                }
                bench_guard_hint(fd, h->hint, path);
                f->nhints++;
        }
        return 0;
}

int bench_fio_hints_restore(struct bench_fio *f, struct bench_error *e)
{
        int r = 0;

        for (size_t i = 0; i < f->nhints; i++) {
                const struct bench_fio_hint *h = &f->hints[i];
                uint64_t now;
                char b1[24], b2[24];
                int k = bench_rw_hint_put(h->fd, h->hint, &now);

                if (k == -EIO && r >= 0)
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, EIO,
                                            "%s: cannot put its write hint back to %s: the kernel keeps %s",
                                            h->path, bench_rw_hint_name(h->hint, b1, sizeof(b1)),
                                            bench_rw_hint_name(now, b2, sizeof(b2)));
                else if (k < 0 && r >= 0)
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, -k,
                                            "%s: cannot put its write hint back to %s: %s", h->path,
                                            bench_rw_hint_name(h->hint, b1, sizeof(b1)), ios_strerror(-k));
        }
        return r;
}

void bench_fio_hints_done(struct bench_fio *f)
{
        if (f->nhints)
                bench_guard_hints_done();
        for (size_t i = 0; i < f->nhints; i++)
                close(f->hints[i].fd);
        free(f->hints);
        f->hints = NULL;
        f->nhints = 0;
}
