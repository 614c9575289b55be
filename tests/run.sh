#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the whole suite: cmocka unit tests ($BUILDDIR/tests/test-*), golden CLI
# tests and loop-device integration tests (tests/integration/*.sh).
# Every test is an executable with the 0 = pass, 77 = skip, else = fail contract.
# Environment: BUILDDIR (default build), VALGRIND=1 runs binaries under valgrind,
# TESTS="pattern ..." limits the run, TESTS_SKIP="pattern ..." leaves out the
# tests it names (they ran already on this build: .ci/run's quick stage runs
# unit/ and golden/ before make check), TIMEOUT per test (default 300 s; a
# test's "# Hang-guard: SECONDS" line raises its own),
# RUN_JOBS=N runs up to N tests at a time (default 1; make check: 2),
# RUN_TAG="name" prefixes every result line (make -j2 check runs two suites
# side by side), IOS_TEST_LOCK the lock file of the machine-wide tests (below).
# In a git work tree the run fails when the tests leave an untracked file in
# it (tests/style/tree.sh: one that was not there when the run began).
#
# Machine-wide tests: an integration test that sources daemon-lib.sh (starts
# ioschedd, which hears every uevent of the machine, or creates loop devices by
# number through /dev/loop-control) or runs `udevadm control|trigger|test`
# (rules in /run/udev, events on the live udevd), or sets IOS_TEST_EXCLUSIVE=1
# (it needs the machine's disks to hold still), holds an exclusive flock on
# $IOS_TEST_LOCK while it runs.  A test that runs benchmarks on its loop
# devices (sources bench-lib.sh, or runs `iosched-apply validate`) holds it
# shared: a benchmark's lock on a disk makes a starting ioschedd arm a timer
# for that disk, which daemon-idle.sh counts as a failure.  So no two
# machine-wide tests run at once, nor one beside a benchmark, whichever suite
# or build directory they come from.  A test that finds the lock held is put
# off to the end of the run and the run goes on with the next test; the
# others (unit, golden, the rest of the loop-device tests, each on loop
# devices of its own) run in parallel freely.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
BUILDDIR=${BUILDDIR:-build}
export BUILDDIR
export IOS_TOP="$top"
export IOS_FIXTURES="$top/$BUILDDIR/fixtures"
export LC_ALL=C
TIMEOUT=${TIMEOUT:-300}
TIMEOUT0=$TIMEOUT
RUN_TAG=${RUN_TAG:+$RUN_TAG }
if [ -z "${IOS_TEST_LOCK:-}" ]; then
        IOS_TEST_LOCK=/run/iosched-tests.lock
        [ -w /run ] || IOS_TEST_LOCK=${TMPDIR:-/tmp}/iosched-tests-$(id -u).lock
fi
command -v flock >/dev/null || IOS_TEST_LOCK=""

# Fixtures are kept as tarballs (git and file copies keep their symlinks and
# empty stub directories that way); unpack them fresh for every run.
rm -rf "$IOS_FIXTURES"
mkdir -p "$IOS_FIXTURES"
for t in tests/fixtures/*.tar.gz; do
        [ -e "$t" ] || continue
        n=$(basename "$t" .tar.gz)
        mkdir -p "$IOS_FIXTURES/$n"
        tar -xzf "$t" -C "$IOS_FIXTURES/$n" || { echo "cannot unpack $t"; exit 1; }
done

# lock_mode FILE: x (exclusive), s (shared) or nothing (see the top)
lock_mode() {
        [ -n "$IOS_TEST_LOCK" ] || return 0
        case $1 in tests/integration/*.sh) ;; *) return 0 ;; esac
        if grep -qE '^[^#]*(daemon-lib\.sh|udevadm +(control|trigger|test)|IOS_TEST_EXCLUSIVE=1)' "$1"; then
                echo x
        elif grep -qE '^[^#]*(bench-lib\.sh|[$A-Z_{}]+ +validate )' "$1"; then
                echo s
        fi
}

LOCK_BUSY=200   # flock -n's status when the lock is held
# wanted NAME: true if TESTS (when set) names it and TESTS_SKIP does not
# (a skipped one is counted in done_before)
done_before=0
wanted() {
        case "${TESTS:-}" in
        "") ;;
        *) ok=0; for p in $TESTS; do case "$1" in *$p*) ok=1;; esac; done
           [ $ok = 1 ] || return 1;;
        esac
        for p in ${TESTS_SKIP:-}; do
                case "$1" in *$p*) done_before=$((done_before + 1)); return 1;; esac
        done
        return 0
}
# run_one NAME LOCK CMD...: LOCK is "" (no lock), "try-x", "try-s" (return
# $LOCK_BUSY if the lock cannot be had now), "wait-x" or "wait-s".  Prints
# the test's result line (with the tail of its log when it fails) and writes
# the outcome, "pass", "skip" or "fail", to $OUTCOME
run_one() {
        name=$1; lock=$2; shift 2
        log="$top/$BUILDDIR/test-logs/$name.log"
        mkdir -p "$(dirname "$log")"
        start=$(date +%s.%N)
        # a hang guard, not a duration: a test that runs many programs or
        # whole builds says its own with a "# Hang-guard: SECONDS" line
        # in its first 60 lines (its header); the larger of it and TIMEOUT
        # holds
        TIMEOUT=$TIMEOUT0
        case $1 in *.sh)
                g=$(sed -n '1,60s/^# Hang-guard: *\([0-9][0-9]*\).*$/\1/p' "$1" | head -n 1)
                [ -n "$g" ] && [ "$g" -gt "$TIMEOUT" ] && TIMEOUT=$g ;;
        esac
        case $lock in
        "") timeout -k 10 "$TIMEOUT" "$@" >"$log" 2>&1 ;;
        # -o: the test's own children (a daemon) do not inherit the lock
        try-*) flock -o "-${lock#try-}" -n -E $LOCK_BUSY "$IOS_TEST_LOCK" \
                        timeout -k 10 "$TIMEOUT" "$@" >"$log" 2>&1 ;;
        # wait until the lock is free, then take it as above (the time
        # printed is the test's own, not the wait)
        wait-*) while :; do
                        flock "-${lock#wait-}" "$IOS_TEST_LOCK" true
                        start=$(date +%s.%N)
                        flock -o "-${lock#wait-}" -n -E $LOCK_BUSY "$IOS_TEST_LOCK" \
                                timeout -k 10 "$TIMEOUT" "$@" >"$log" 2>&1
                        rc=$?
                        [ $rc = $LOCK_BUSY ] || break
                done
                (exit $rc) ;;
        esac
        rc=$?
        case $lock in try-*) [ $rc = $LOCK_BUSY ] && return $LOCK_BUSY ;; esac
        secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
        case $rc in
        0) echo pass >"$OUTCOME"
           # a cmocka skip() is not a pass: name the cases it skipped
           skipped=$(sed -n 's/^\[  SKIPPED \] \([A-Za-z0-9_]*\)$/\1/p' "$log" | sort -u | tr '\n' ' ')
           if [ -n "$skipped" ]; then
                   printf '%sPASS  %-44s %6.2fs  (cases skipped: %s)\n' "$RUN_TAG" "$name" "$secs" "${skipped% }"
           else
                   printf '%sPASS  %-44s %6.2fs\n' "$RUN_TAG" "$name" "$secs"
           fi ;;
        77) echo skip >"$OUTCOME"; printf '%sSKIP  %-44s %s\n' "$RUN_TAG" "$name" "$(tail -n 1 "$log")" ;;
        *) echo fail >"$OUTCOME"
           printf '%sFAIL  %-44s (exit %d)\n' "$RUN_TAG" "$name" "$rc"; sed "s/^/$RUN_TAG      | /" "$log" | tail -n 40 ;;
        esac
}

vg=""
if [ "${VALGRIND:-0}" = 1 ]; then
        vg="valgrind --quiet --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
        export IOS_VALGRIND="$vg"
fi

# Up to RUN_JOBS tests at a time (default 1: one after the other); the locks
# above keep the machine-wide tests apart whatever runs.  Each test runs in
# the background once one of RUN_JOBS tokens (a FIFO) is free; its result
# line is printed in one piece when it ends, its outcome kept in $res.
RUN_JOBS=${RUN_JOBS:-1}
res=$(mktemp -d "${TMPDIR:-/tmp}/iosched-run.XXXXXX") || exit 1
trap 'rm -rf "$res"' EXIT
# the untracked files before the run (none on a clean clone); 77: not git
tests/style/tree.sh list >"$res/untracked" 2>/dev/null
tree_rc=$?
mkfifo "$res/tokens" || exit 1
exec 3<>"$res/tokens"
i=0
while [ $i -lt "$RUN_JOBS" ]; do echo >&3; i=$((i + 1)); done
seq=0
# spawn NAME LOCK CMD...: run_one in the background, the test without the
# token descriptor; the outcome in $res/SEQ.NAME (slashes as colons), "fail"
# until run_one says otherwise, "busy" if a try- lock was held
spawn() {
        read -r _ <&3
        seq=$((seq + 1))
        out=$res/$(printf '%05d' $seq).$(printf '%s' "$1" | tr / :)
        echo fail >"$out"
        (
                OUTCOME=$out
                run_one "$@" >"$out.txt" 2>&1 3>&-
                [ $? = $LOCK_BUSY ] && echo busy >"$out"
                [ -s "$out.txt" ] && cat "$out.txt"
                echo >&3
        ) &
}

for t in "$BUILDDIR"/tests/test-*; do
        [ -x "$t" ] || continue
        n="unit/$(basename "$t")"
        wanted "$n" || continue
        spawn "$n" "" $vg "$t"
done
for t in tests/golden/*.sh tests/integration/*.sh; do
        [ -x "$t" ] || continue
        wanted "${t#tests/}" || continue
        m=$(lock_mode "$t")
        spawn "${t#tests/}" "${m:+try-$m}" "$t"
done
wait
# the tests that found the lock held, now waiting for it (in their order)
for f in "$res"/[0-9]*.*; do
        case $f in *.txt) continue ;; esac
        [ "$(cat "$f")" = busy ] || continue
        n=$(printf '%s' "${f#"$res"/*.}" | tr : /)
        rm -f "$f" "$f.txt"
        spawn "$n" "wait-$(lock_mode "tests/$n")" "tests/$n"
done
wait

pass=0 fail=0 skip=0 failed=""
for f in "$res"/[0-9]*.*; do
        case $f in *.txt) continue ;; esac
        case $(cat "$f") in
        pass) pass=$((pass + 1)) ;;
        skip) skip=$((skip + 1)) ;;
        *) fail=$((fail + 1)); failed="$failed $(printf '%s' "${f#"$res"/*.}" | tr : /)" ;;
        esac
done
if [ $tree_rc = 0 ] && ! tests/style/tree.sh untracked "$res/untracked" >"$res/left" 2>&1; then
        printf '%sFAIL  %-44s\n' "$RUN_TAG" "the work tree after the run"
        sed "s/^/$RUN_TAG      | /" "$res/left"
        fail=$((fail + 1)); failed="$failed (untracked files)"
fi
echo "== ${RUN_TAG}$pass passed, $fail failed, $skip skipped ($BUILDDIR)${TESTS_SKIP:+; $done_before run before (TESTS_SKIP=$TESTS_SKIP)}"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
exit 0
