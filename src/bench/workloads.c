/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * workloads.c: the --workload presets, the seeds' questions as fio job
 * files.  This table is the one definition: bench_jobs_finish() parses the
 * text as a job file on top of the command line's global options (which
 * give the target, --runtime and so on), and iosched-bench(8) shows each
 * text verbatim (tests/integration/bench-man.sh checks that it does).
 * Every job runs for the run's runtime= (time_based=1): one that reads or
 * writes the target once would end, on a small fast disk, inside the
 * ramp a --compare gives each round to settle after a switch.
 */
#define _GNU_SOURCE
#include <string.h>

#include "jobs.h"
#include "macro.h"

static const struct {
        const char *name;
        const char *text;
} presets[] = {
        /* blk-mq study: a latency-sensitive reader while a writer floods the disk */
        { "mixed-latency",
          "; a latency-sensitive reader while a writer floods the disk\n"
          "[global]\n"
          "time_based=1\n"
          "\n"
          "[reader]\n"
          "rw=randread\n"
          "bs=4k\n"
          "iodepth=1\n"
          "\n"
          "[writer]\n"
          "rw=write\n"
          "bs=128k\n"
          "iodepth=32\n" },
        /* the same question without writes: what a bare --compare and validate run without --allow-write */
        { "mixed-read",
          "; a latency-sensitive reader while a deep sequential reader streams (no writes)\n"
          "[global]\n"
          "time_based=1\n"
          "\n"
          "[reader]\n"
          "rw=randread\n"
          "bs=4k\n"
          "iodepth=1\n"
          "\n"
          "[streamer]\n"
          "rw=read\n"
          "bs=128k\n"
          "iodepth=32\n" },
        /* a database: small random I/O, mostly reads, a deep queue */
        { "oltp",
          "; a database: 70% random reads, 30% random writes, 8k pages, 16 in flight\n"
          "[global]\n"
          "time_based=1\n"
          "\n"
          "[oltp]\n"
          "rw=randrw\n"
          "rwmixread=70\n"
          "bs=8k\n"
          "iodepth=16\n" },
        /* media streaming: large sequential reads */
        { "seq-stream",
          "; streaming: large sequential reads, a few in flight\n"
          "[global]\n"
          "time_based=1\n"
          "\n"
          "[stream]\n"
          "rw=read\n"
          "bs=1m\n"
          "iodepth=4\n" },
        /* the SD-card shoot-out: small synchronous writes beside reads */
        { "sd-card",
          "; an SD card: small synchronous random writes beside random reads\n"
          "[global]\n"
          "time_based=1\n"
          "ioengine=psync\n"
          "bs=4k\n"
          "\n"
          "[writer]\n"
          "rw=randwrite\n"
          "\n"
          "[reader]\n"
          "rw=randread\n" },
};

const char *bench_workload_text(const char *name)
{
        for (size_t i = 0; name && i < ELEMENTSOF(presets); i++)
                if (streq(name, presets[i].name))
                        return presets[i].text;
        return NULL;
}

const char *bench_workload_name(unsigned i)
{
        return i < ELEMENTSOF(presets) ? presets[i].name : NULL;
}
