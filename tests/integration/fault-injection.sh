#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: fault injection (tests/fault/sweep.sh with the LD_PRELOAD shim
# tests/fault/fault.c): the N-th allocation, open, read, write or close fails
# through whole runs of iosched-apply list, --dry-run, apply on a fake tree,
# and an ioschedd start; never a crash, a sanitizer or leak report (in the
# ASan build), an undocumented exit, an unexplained failure, a result
# changed silently or a half-applied disk left unsaid.  make check runs
# N = 1..6 and then a stride (about 16 faulted runs per sweep);
# FAULT_FULL=1 tests/fault/sweep.sh runs every N.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
FAULT_DENSE=${FAULT_DENSE:-6} FAULT_RUNS=${FAULT_RUNS:-10} exec "$top/tests/fault/sweep.sh"
