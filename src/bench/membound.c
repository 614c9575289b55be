/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * membound.c: the memory a run's jobs may take together, half of the
 * machine's.  It bounds our engines' I/O buffers (native/worker.c
 * bench_workers_memory) and what a job makes fio take (fio/fiomemory.c),
 * checked before anything runs: no cgroup limits them here (the run's
 * cgroup has no memory controller where the bench's own cgroup holds
 * processes), and a job file is the admin's or anyone's.
 */
#define _GNU_SOURCE
#include <sys/sysinfo.h>

#include "bench.h"

uint64_t bench_memory_max(void)
{
        struct sysinfo si;

        if (sysinfo(&si) < 0)
                return UINT64_MAX;
        return (uint64_t)si.totalram * si.mem_unit / 2;
}
