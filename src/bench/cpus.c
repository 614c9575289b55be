/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * cpus.c: --cpus_allowed.  fio's CPU list syntax ("0-3,6") checked against
 * the CPUs this process may run on, the CPUs each job thread gets
 * (--cpus_allowed_policy=shared or split), and the list printed back as fio
 * writes it.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdlib.h>

#include "bench.h"

/* The CPUs this process may run on: what --cpus_allowed may name. */
int bench_usable_cpus(cpu_set_t *ret, struct bench_error *e)
{
        if (sched_getaffinity(0, sizeof(*ret), ret) < 0)
                return bench_error_set(e, BENCH_ERR_SYSTEM, errno, "cannot read this process's CPU affinity: %m");
        return 0;
}

int bench_parse_cpu_list(const char *s, cpu_set_t *ret, unsigned *n, struct bench_error *e)
{
        cpu_set_t avail;
        const char *p = s;
        int r;

        CPU_ZERO(ret);
        *n = 0;
        r = bench_usable_cpus(&avail, e);
        if (r < 0)
                return r;
        do {
                unsigned long lo, hi;
                char *end;

                if (!isdigit((unsigned char)*p))
                        goto bad;
                lo = hi = strtoul(p, &end, 10);
                if (*end == '-') {
                        if (!isdigit((unsigned char)end[1]))
                                goto bad;
                        hi = strtoul(end + 1, &end, 10);
                }
                if (lo > hi || hi >= CPU_SETSIZE)
                        goto bad;
                for (unsigned long c = lo; c <= hi; c++) {
                        if (!CPU_ISSET(c, &avail))
                                return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                                                       "invalid --cpus_allowed '%s': CPU %lu is offline or not "
                                                       "in this process's affinity (%d usable)",
                                                       s, c, CPU_COUNT(&avail));
                        if (!CPU_ISSET(c, ret))
                                (*n)++;
                        CPU_SET(c, ret);
                }
                p = end;
        } while (*p++ == ',');
        if (p[-1] == '\0')
                return 0;
bad:
        return bench_error_set(e, BENCH_ERR_USAGE, EINVAL,
                               "invalid --cpus_allowed '%s' (expected a CPU list such as 0-3,6)", s);
}

void bench_job_cpus(const struct bench_opts *o, unsigned job, cpu_set_t *ret)
{
        unsigned want, k = 0;

        if (!o->cpus_split) {
                *ret = o->cpus;
                return;
        }
        /* split: the jobs take the CPUs in order, wrapping round as fio does */
        want = job % o->ncpus;
        CPU_ZERO(ret);
        for (unsigned c = 0; c < CPU_SETSIZE; c++)
                if (CPU_ISSET(c, &o->cpus) && k++ == want) {
                        CPU_SET(c, ret);
                        return;
                }
}

const char *bench_fmt_cpus(char *buf, size_t len, const cpu_set_t *set)
{
        size_t used = 0;

        buf[0] = '\0';
        for (unsigned c = 0; c < CPU_SETSIZE; c++) {
                unsigned hi = c;
                int n;

                if (!CPU_ISSET(c, set))
                        continue;
                while (hi + 1 < CPU_SETSIZE && CPU_ISSET(hi + 1, set))
                        hi++;
                n = hi == c ? snprintf(buf + used, len - used, "%s%u", used ? "," : "", c)
                            : snprintf(buf + used, len - used, "%s%u-%u", used ? "," : "", c, hi);
                if (n < 0 || (size_t)n >= len - used) {
                        buf[used] = '\0';      /* what fits, never half a number */
                        break;
                }
                used += (size_t)n;
                c = hi;
        }
        return buf;
}
