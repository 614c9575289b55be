/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * names.c: the spellings of the workload (--rw, fio's names) and of the
 * --compare objectives, shared by the parser and the reports.
 */
#define _GNU_SOURCE
#include <string.h>

#include "bench.h"
#include "macro.h"

static const char * const rw_names[_BENCH_RW_MAX] = {
        [BENCH_RW_READ] = "read",           [BENCH_RW_WRITE] = "write",
        [BENCH_RW_RANDREAD] = "randread",   [BENCH_RW_RANDWRITE] = "randwrite",
        [BENCH_RW_READWRITE] = "readwrite", [BENCH_RW_RANDRW] = "randrw",
};

const char *bench_rw_to_string(enum bench_rw rw)
{
        return rw < _BENCH_RW_MAX ? rw_names[rw] : NULL;
}

int bench_rw_from_string(const char *s)
{
        if (!s)
                return -EINVAL;
        for (int i = 0; i < _BENCH_RW_MAX; i++)
                if (streq(s, rw_names[i]))
                        return i;
        if (streq(s, "rw"))             /* fio's alias */
                return BENCH_RW_READWRITE;
        return -EINVAL;
}

static const char * const obj_names[_BENCH_OBJ_MAX] = {
        [BENCH_OBJ_IOPS] = "iops", [BENCH_OBJ_BW] = "bw",
        [BENCH_OBJ_P99] = "p99", [BENCH_OBJ_READ_P99] = "read-p99",
        [BENCH_OBJ_AWAIT] = "await", [BENCH_OBJ_READ_AWAIT] = "read-await",
};

const char *bench_objective_to_string(enum bench_objective o)
{
        return o < _BENCH_OBJ_MAX ? obj_names[o] : NULL;
}

bool bench_objective_lower_is_better(enum bench_objective o)
{
        return o == BENCH_OBJ_P99 || o == BENCH_OBJ_READ_P99 || o == BENCH_OBJ_AWAIT ||
               o == BENCH_OBJ_READ_AWAIT;
}

int bench_objective_from_string(const char *s)
{
        for (int i = 0; s && i < _BENCH_OBJ_MAX; i++)
                if (streq(s, obj_names[i]))
                        return i;
        return -EINVAL;
}
