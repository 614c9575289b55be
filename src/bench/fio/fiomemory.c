/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fiomemory.c: the memory a job makes fio take, bounded before fio
 * starts.  Each of the job's numjobs processes pins lockmem= (memory.c
 * fio_pin_memory(): mmap and mlock, capped by fio only at the machine's
 * memory less 128 MiB, per process) and allocates its I/O buffers,
 * iodepth= times the largest block size (backend.c init_io_u()), which
 * its I/O touches.  The run's jobs together may take at most
 * bench_memory_max() (membound.c); past it the run is refused, said with
 * the figures (fiojob.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "fioread.h"

/* the largest size in a block size setting: bs=4k,64k, bsrange=4k-1m, bssplit=4k/50:1m/50 */
static uint64_t largest(const char *v, uint64_t max)
{
        char tok[64];

        while (v && *v) {
                size_t n = strcspn(v, ",:-/");
                uint64_t s;

                if (n < sizeof(tok)) {
                        memcpy(tok, v, n);
                        tok[n] = '\0';
                        if (bench_parse_size_most(tok, &s) == 0 && s > max)
                                max = s;
                }
                v += n + (v[n] != '\0');
        }
        return max;
}

int bench_fio_memory(const struct bench_fio_def *j, uint64_t *ret)
{
        static const char * const bs_keys[] = { "bs", "bsrange", "bssplit" };
        const char *lock = bench_fio_kv_get(&j->kv, "lockmem"), *depth = bench_fio_kv_get(&j->kv, "iodepth");
        const char *nj = bench_fio_kv_get(&j->kv, "numjobs");
        uint64_t pinned = 0, bs = 4096, per, all;
        unsigned d = 1, n = 1;

        if (lock && bench_parse_size_most(lock, &pinned) < 0)
                return -EINVAL;
        for (size_t i = 0; i < sizeof(bs_keys) / sizeof(bs_keys[0]); i++)
                bs = largest(bench_fio_kv_get(&j->kv, bs_keys[i]), bs);
        if (depth)
                (void)bench_parse_uint(depth, 1, 1u << 30, &d);
        if (nj)
                (void)bench_parse_uint(nj, 1, 1u << 20, &n);
        if (__builtin_mul_overflow(bs, (uint64_t)d, &per) || __builtin_add_overflow(per, pinned, &per) ||
            __builtin_mul_overflow(per, (uint64_t)n, &all))
                all = UINT64_MAX;
        *ret = all;
        return 0;
}
