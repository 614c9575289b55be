/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * engine.c: the engines iosched-bench has, by their --ioengine names.  Each
 * engine is one file (engine-*.c) behind struct bench_engine_ops.
 */
#define _GNU_SOURCE
#include <string.h>

#include "bench.h"
#include "macro.h"

const struct bench_engine_ops *bench_engine_find(const char *name)
{
        static const struct bench_engine_ops * const engines[] = {
                &bench_engine_io_uring, &bench_engine_libaio, &bench_engine_psync, &bench_engine_null,
                &bench_engine_sync, &bench_engine_pvsync,
        };

        for (size_t i = 0; name && i < ELEMENTSOF(engines); i++)
                if (streq(name, engines[i]->name))
                        return engines[i];
        return NULL;
}
