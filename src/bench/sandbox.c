/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * sandbox.c: the kernel's fence around fio (Landlock).  What the running
 * kernel offers is asked once; IOSCHED_BENCH_LANDLOCK=0 in the environment
 * makes iosched-bench behave as on a kernel without Landlock (5.10), so
 * that path can be tested on any kernel.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fio.h"
#include "macro.h"

#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

int bench_sandbox_abi(void)
{
        const char *env = getenv("IOSCHED_BENCH_LANDLOCK");
        long v;

        if (env && streq(env, "0"))
                return 0;
#ifdef SYS_landlock_create_ruleset
        v = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
#else
        v = -1;
#endif
        return v > 0 ? (int)v : 0;
}
