#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a value the kernel recomputes because of iosched-bench's own
# write is not another program's.  From 6.11 a queue-limits write (rotational,
# add_random, iostats, stable_writes, write_cache, max_sectors_kb) makes the
# kernel recompute read_ahead_kb (src/lib/tunables.c, resets[]).  A --compare
# whose variant sets rotational must neither report read_ahead_kb as "set by
# another program" nor keep the kernel's recomputed value at the restore:
# every file ends as found.  Skipped where the running kernel keeps
# read_ahead_kb on such a write (5.10, 6.1).
# Exit 0 pass, 77 skip, 1 fail.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 32
q=/sys/block/$l/queue
grep -qw none $q/scheduler || b_skip "kernel offers no none"
echo none >$q/scheduler
# does this kernel recompute read_ahead_kb on a rotational write?
echo 0 >$q/rotational
echo 64 >$q/read_ahead_kb
echo 0 >$q/rotational
[ "$(cat $q/read_ahead_kb)" != 64 ] || b_skip "this kernel ($(uname -r)) keeps read_ahead_kb on a queue-limits write"
echo 64 >$q/read_ahead_kb
b_queue_state $l >"$B_TMP/before"
grep -q "^read_ahead_kb=64$" "$B_TMP/before" || b_fail "could not set read_ahead_kb: $(grep read_ahead "$B_TMP/before")"

$BENCH --filename=/dev/$l --rw=randread --runtime=0.3 --ramp_time=0 --loops=2 --compare='none,none:rotational=1' \
        >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "compare: exit $?: $(cat "$B_TMP/err")"
! grep -q "another program" "$B_TMP/err" "$B_TMP/out" ||
        b_fail "the kernel's own reset called another program's: $(grep -h "another program" "$B_TMP/err" "$B_TMP/out")"
grep -q "as found$" "$B_TMP/out" || b_fail "no restore line: $(cat "$B_TMP/out")"
b_queue_state $l >"$B_TMP/after"
diff "$B_TMP/before" "$B_TMP/after" >"$B_TMP/diff" || b_fail "not as found after the restore: $(cat "$B_TMP/diff")"
exit 0
