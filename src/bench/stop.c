/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * stop.c: the flag a signal sets to stop the run (main.c's handler:
 * SIGINT, SIGTERM).  Every loop reads it, on both backends: the native
 * runner's I/O loops stop at their next reap, fio's reading and runs end
 * fio, the trial loop restores and leaves.
 */
#include "bench.h"

volatile int bench_stop_signal;
