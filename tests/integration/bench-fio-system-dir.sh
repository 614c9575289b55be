#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: on the fio backend, with --allow-write, a job that would make
# files in a system directory ("/", beneath /usr, /etc, /var but its tmp)
# is refused before fio starts (exit 3, the directory named): the fence
# grants a layout directory's rights to its whole subtree, so a new file in
# "/" opened every file of the system to fio's writes (--mem=mmap:FILE
# extended any FILE).  Nothing is made there.  A layout in a directory of
# the test's own, and a log fio writes there, still run; from the
# working directory "/" a job without filename= is refused the same way.
# With Landlock and on the no-Landlock path (IOSCHED_BENCH_LANDLOCK=0
# --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"

name=iosched-test-$$
for mode in landlock unconfined; do
        case $mode in
        landlock) run() { env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio --allow-write "$@"; } ;;
        *) run() { IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined --allow-write "$@"; } ;;
        esac
        for f in "/$name" "/usr/local/$name" "/etc/$name" "/var/lib/$name"; do
                dir=${f%/*}
                run --filename="$f" --size=1m --rw=write --runtime=1 >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "$mode: a new file $f: exit $rc, want 3: $(cat "$B_TMP/err")"
                grep -q "fio would make files in ${dir:-/}, a system directory" "$B_TMP/err" ||
                        b_fail "$mode: $f: the refusal does not name the directory: $(cat "$B_TMP/err")"
                [ ! -e "$f" ] || { rm -f "$f"; b_fail "$mode: $f was made"; }
        done
        # a job with no filename= lays out in the working directory
        (cd / && run --name=j --size=1m --rw=write --runtime=1) >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a layout in the working directory /: exit $rc, want 3: $(cat "$B_TMP/err")"
        [ ! -e /j.0.0 ] || { rm -f /j.0.0; b_fail "$mode: /j.0.0 was made"; }
        # a directory of the test's own: laid out, measured, removed
        run --filename="$B_TMP/new" --size=1m --rw=write --runtime=1 --write_bw_log="$B_TMP/bw" \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: a layout in $B_TMP: exit $?: $(cat "$B_TMP/err")"
        [ ! -e "$B_TMP/new" ] || b_fail "$mode: $B_TMP/new left after the run"
done
echo ok
