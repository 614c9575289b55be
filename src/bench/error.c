/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * error.c: the one error a failed step of iosched-bench reports: its
 * message and its class; main.c turns the class into the exit code.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "bench.h"
#include "strv.h"

int bench_error_set(struct bench_error *e, enum bench_error_class cls, int err, const char *fmt, ...)
{
        va_list ap;

        if (e && !e->msg[0]) {
                e->cls = cls;
                va_start(ap, fmt);
                vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
                va_end(ap);
                /* one line, with no terminal escape from what it quotes (a value fio echoes) */
                ios_mask_controls(e->msg, strlen(e->msg), false);
        }
        return -(err > 0 ? err : EINVAL);
}
