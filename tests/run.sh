#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the whole suite: cmocka unit tests ($BUILDDIR/tests/test-*), golden CLI
# tests and loop-device integration tests (tests/integration/*.sh).
# Every test is an executable with the 0 = pass, 77 = skip, else = fail contract.
# Environment: BUILDDIR (default build), VALGRIND=1 runs binaries under valgrind,
# TESTS="pattern ..." limits the run, TIMEOUT per test (default 300 s).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
BUILDDIR=${BUILDDIR:-build}
export BUILDDIR
export IOS_TOP="$top"
export IOS_FIXTURES="$top/$BUILDDIR/fixtures"
export LC_ALL=C
TIMEOUT=${TIMEOUT:-300}

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

pass=0 fail=0 skip=0 failed=""
run_one() {
        name=$1; shift
        case "${TESTS:-}" in
        "") ;;
        *) ok=0; for p in $TESTS; do case "$name" in *$p*) ok=1;; esac; done
           [ $ok = 1 ] || return 0;;
        esac
        log="$top/$BUILDDIR/test-logs/$name.log"
        mkdir -p "$(dirname "$log")"
        start=$(date +%s.%N)
        timeout -k 10 "$TIMEOUT" "$@" >"$log" 2>&1
        rc=$?
        secs=$(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo "?")
        case $rc in
        0) pass=$((pass + 1))
           # a cmocka skip() is not a pass: name the cases it skipped
           skipped=$(sed -n 's/^\[  SKIPPED \] \([A-Za-z0-9_]*\)$/\1/p' "$log" | sort -u | tr '\n' ' ')
           if [ -n "$skipped" ]; then
                   printf 'PASS  %-44s %6.2fs  (cases skipped: %s)\n' "$name" "$secs" "${skipped% }"
           else
                   printf 'PASS  %-44s %6.2fs\n' "$name" "$secs"
           fi ;;
        77) skip=$((skip + 1)); printf 'SKIP  %-44s %s\n' "$name" "$(tail -n 1 "$log")" ;;
        *) fail=$((fail + 1)); failed="$failed $name"
           printf 'FAIL  %-44s (exit %d)\n' "$name" "$rc"; sed 's/^/      | /' "$log" | tail -n 40 ;;
        esac
}

vg=""
if [ "${VALGRIND:-0}" = 1 ]; then
        vg="valgrind --quiet --fair-sched=yes --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
        export IOS_VALGRIND="$vg"
fi

for t in "$BUILDDIR"/tests/test-*; do
        [ -x "$t" ] || continue
        run_one "unit/$(basename "$t")" $vg "$t"
done
for t in tests/golden/*.sh tests/integration/*.sh; do
        [ -x "$t" ] || continue
        run_one "${t#tests/}" "$t"
done

echo "== $pass passed, $fail failed, $skip skipped ($BUILDDIR)"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
exit 0
