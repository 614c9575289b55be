#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: IOSCHED_DEBUG=1 makes iosched-apply say on stderr each sysfs
# read (with the value or the error), each disk's class with its evidence,
# and each rule that sets a value on a disk; without it (or with any other
# value) nothing of that is said, and stdout is the same either way.  A
# write is said with its value and result (a fake tree takes any write).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="${IOS_VALGRIND:-} $top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}/virtio-blk
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
[ -d "$fx/sys/block" ] || { echo "no virtio-blk fixture"; exit 1; }

env -u IOSCHED_DEBUG $bin --dry-run --config /dev/null --sysroot "$fx" >"$t/out0" 2>"$t/err0"
rc0=$?
IOSCHED_DEBUG=1 $bin --dry-run --config /dev/null --sysroot "$fx" >"$t/out1" 2>"$t/err1"
rc1=$?
IOSCHED_DEBUG=yes $bin --dry-run --config /dev/null --sysroot "$fx" >"$t/out2" 2>"$t/err2"
[ $rc0 = $rc1 ] || t_fail "exit $rc0 without the trace, $rc1 with it"
cmp -s "$t/out0" "$t/out1" || t_fail "stdout differs with the trace: $(diff "$t/out0" "$t/out1")"
grep -q "debug:" "$t/err0" && t_fail "a trace without IOSCHED_DEBUG: $(cat "$t/err0")"
grep -q "debug:" "$t/err2" && t_fail "a trace with IOSCHED_DEBUG=yes (only 1 turns it on): $(cat "$t/err2")"
grep -v "debug:" "$t/err1" | cmp -s "$t/err0" - || t_fail "the other stderr lines differ with the trace"

# each kind of line, with the fixture's values
want() {
        grep -qE "$1" "$t/err1" || t_fail "no line matching '$1' in the trace:
$(cat "$t/err1")"
}
want '^iosched-apply: debug: read /.*/block/vdb/queue/scheduler: "\[none\] mq-deadline"$'
want '^iosched-apply: debug: read /.*/vdb/serial: "VBLK-TEST"$'
want '^iosched-apply: debug: read /.*/virtio1/model: No such file or directory$'
want '^iosched-apply: debug: vdb: class virtual: driver virtio_blk \(virtio-blk\)$'
want '^iosched-apply: debug: vdb: class virtual$'
want '^iosched-apply: debug: vdb: scheduler = none noop \(built-in:[0-9]+\)$'

# a write: apply on a copy of the fixture (mq-deadline is wanted by the rule below)
cp -a "$fx" "$t/tree" || exit 1
printf '[Match]\nClass=virtual\n[Set]\nScheduler=mq-deadline\n' > "$t/p.conf"
IOSCHED_DEBUG=1 $bin --config "$t/p.conf" --sysroot "$t/tree" >"$t/out3" 2>"$t/err3"
grep -qE '^iosched-apply: debug: vdb: scheduler = mq-deadline \(.*p\.conf:4\)$' "$t/err3" ||
        t_fail "the site rule's decision not said: $(cat "$t/err3")"
# (a fake tree's scheduler file is written whole, as the kernel would show it)
grep -qE '^iosched-apply: debug: write /.*/block/vdb/queue/scheduler: "(none \[mq-deadline\] \\n|mq-deadline)": ok$' "$t/err3" ||
        t_fail "the write not said: $(cat "$t/err3")"
exit $fail
