#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# run-one.sh BUILDDIR NAME SECONDS [libFuzzer flags...]: one fuzz campaign.
# Fuzzes BUILDDIR/fuzz/fuzz-NAME for SECONDS seconds from the committed
# seeds (tests/fuzz/corpus/NAME) and what earlier runs found
# (BUILDDIR/corpus/NAME), with the target's dictionary; prints one line of
# figures (executions, exec/s, corpus size) and fails on any finding: a
# crash, a leak, a timeout or an out-of-memory, saved under
# BUILDDIR/artifacts/ (add it to tests/fuzz/regressions/NAME once fixed).
set -u
b=$1 t=$2 secs=$3
shift 3
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
bin=$b/fuzz/fuzz-$t
mkdir -p "$b/corpus/$t" "$b/artifacts" "$b/logs"
log=$b/logs/$t.log
dict=
[ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
regs=
[ -d "tests/fuzz/regressions/$t" ] && regs="tests/fuzz/regressions/$t"
IOS_TOP=$top ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
        -artifact_prefix="$b/artifacts/$t-" $dict "$@" "$b/corpus/$t" "tests/fuzz/corpus/$t" $regs >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
corp=$(ls "$b/corpus/$t" | wc -l)
printf 'fuzz-%-14s %4ss  %10s executions  %7s exec/s  %5s new corpus inputs  exit %d\n' \
        "$t" "$secs" "${runs:-?}" "${rate:-?}" "$corp" "$rc"
if [ $rc != 0 ]; then
        grep -E 'ERROR|SUMMARY|==[0-9]+==|runtime error|Test unit written' "$log" | head -n 20
        exit 1
fi
exit 0
