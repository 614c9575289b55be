/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * clock.c: the benchmark's timestamp.  Like fio's clocksource=cpu, it reads
 * the TSC when the CPU says it is invariant (constant_tsc and nonstop_tsc)
 * and the kernel itself trusts it as its clocksource, calibrated once against
 * CLOCK_MONOTONIC; otherwise it falls back to clock_gettime() through the
 * vDSO.  A tick costs a few ns either way, which matters because every I/O
 * takes one (its start time) and every submit and reap batch another.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"
#include "macro.h"

uint64_t bench_clock_mult = 1ull << 32;
bool bench_clock_use_tsc;

uint64_t bench_clock_gettime_ns(void)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t bench_ns_to_ticks(uint64_t ns)
{
        return (uint64_t)(((unsigned __int128)ns << 32) / bench_clock_mult);
}

const char *bench_clock_name(void)
{
        return bench_clock_use_tsc ? "cpu" : "clock_gettime";
}

#if defined(__x86_64__) || defined(__i386__)
static bool tsc_trusted(struct ios_ctx *r)
{
        _cleanup_close_ int dfd = -1;
        _cleanup_free_ char *cs = NULL;
        char line[4096];
        bool constant = false, nonstop = false;
        FILE *f;

        /* The kernel drops the TSC as clocksource when it finds it unstable. */
        if (!r)
                return false;
        dfd = ios_ctx_open(r, "/sys/devices/system/clocksource/clocksource0", O_PATH | O_DIRECTORY);
        if (dfd < 0 || ios_sysfs_read_string(dfd, "current_clocksource", &cs) < 0 || !streq(cs, "tsc"))
                return false;
        f = fopen("/proc/cpuinfo", "re");
        if (!f)
                return false;
        while (fgets(line, sizeof(line), f)) {
                if (!startswith(line, "flags"))
                        continue;
                constant = strstr(line, " constant_tsc") != NULL;
                nonstop = strstr(line, " nonstop_tsc") != NULL;
                break;
        }
        fclose(f);
        return constant && nonstop;
}

static int tsc_calibrate(void)
{
        struct timespec req = { .tv_nsec = 20 * 1000 * 1000 };
        uint64_t t0, t1, c0, c1, best = 0;

        /* Two 20 ms windows; keep the second (the first warms the path). */
        for (int i = 0; i < 2; i++) {
                t0 = bench_clock_gettime_ns();
                c0 = __builtin_ia32_rdtsc();
                nanosleep(&req, NULL);
                t1 = bench_clock_gettime_ns();
                c1 = __builtin_ia32_rdtsc();
                if (c1 <= c0 || t1 <= t0)
                        return -EINVAL;
                best = (uint64_t)(((unsigned __int128)(t1 - t0) << 32) / (c1 - c0));
        }
        if (best == 0)
                return -EINVAL;
        bench_clock_mult = best;
        return 0;
}
#endif

int bench_clock_init(enum bench_clocksource cs, struct ios_ctx *r)
{
        bench_clock_use_tsc = false;
        bench_clock_mult = 1ull << 32;
        if (cs == BENCH_CLOCK_GETTIME)
                return 0;
#if defined(__x86_64__) || defined(__i386__)
        if (cs == BENCH_CLOCK_CPU || tsc_trusted(r)) {
                if (tsc_calibrate() == 0) {
                        bench_clock_use_tsc = true;
                        return 0;
                }
                bench_clock_mult = 1ull << 32;
                if (cs == BENCH_CLOCK_CPU)
                        return -ENOTSUP;
        }
        return 0;
#else
        (void)r;
        return cs == BENCH_CLOCK_CPU ? -ENOTSUP : 0;
#endif
}
