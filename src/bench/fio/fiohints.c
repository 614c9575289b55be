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
 * are removed with their scratch directory.  After a kill -9 of
 * iosched-bench the hints stay as fio left them.
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
#include "macro.h"

#ifndef F_GET_RW_HINT
#define F_GET_RW_HINT 1035      /* F_LINUX_SPECIFIC_BASE + 11, Linux 4.13 */
#define F_SET_RW_HINT 1036
#endif

struct bench_fio_hint {
        int fd;                 /* the target, open for reading */
        uint64_t hint;          /* its write hint before fio's first run */
        const char *path;       /* f->access.write's entry */
};

/* fio's names for the hints (RWH_WRITE_LIFE_*), "not set" for 0 */
static const char *hint_name(uint64_t h, char *buf, size_t size)
{
        static const char * const names[] = { "not set", "none", "short", "medium", "long", "extreme" };

        if (h < ELEMENTSOF(names))
                return names[h];
        snprintf(buf, size, "%ju", (uintmax_t)h);
        return buf;
}

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
                if (fcntl(fd, F_GET_RW_HINT, &h->hint) < 0) {
                        int err = errno;

                        close(fd);
                        if (err == EINVAL)
                                continue;       /* a kernel without write hints: fio cannot set one either */
                        return bench_error_set(e, BENCH_ERR_SYSTEM, err, "%s: cannot read its write hint: %s",
                                               path, ios_strerror(err));
                }
                f->nhints++;
        }
        return 0;
}

int bench_fio_hints_restore(struct bench_fio *f, struct bench_error *e)
{
        int r = 0;

        for (size_t i = 0; i < f->nhints; i++) {
                const struct bench_fio_hint *h = &f->hints[i];
                uint64_t want = h->hint, now = UINT64_MAX;
                char b1[24], b2[24];
                int err = 0;

                if (fcntl(h->fd, F_SET_RW_HINT, &want) < 0)
                        err = errno;
                else if (fcntl(h->fd, F_GET_RW_HINT, &now) < 0)
                        err = errno;
                if (err && r >= 0)
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, err,
                                            "%s: cannot put its write hint back to %s: %s", h->path,
                                            hint_name(h->hint, b1, sizeof(b1)), ios_strerror(err));
                else if (!err && now != h->hint && r >= 0)
                        r = bench_error_set(e, BENCH_ERR_SYSTEM, EIO,
                                            "%s: cannot put its write hint back to %s: the kernel keeps %s",
                                            h->path, hint_name(h->hint, b1, sizeof(b1)),
                                            hint_name(now, b2, sizeof(b2)));
        }
        return r;
}

void bench_fio_hints_done(struct bench_fio *f)
{
        for (size_t i = 0; i < f->nhints; i++)
                close(f->hints[i].fd);
        free(f->hints);
        f->hints = NULL;
        f->nhints = 0;
}
