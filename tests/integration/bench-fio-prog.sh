#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: fio's program options that take fio's report away from
# iosched-bench, or run no job, are refused on the fio backend before fio
# starts (exit 2, the option named), whether the native engine lacks them
# or ignores them: --status-interval (fio writes a whole report every
# interval, and the one read at the end could not be parsed: exit 1
# before), --inflate-log (fio prints a log file and runs nothing; before,
# it read the file it was given), --debug (fio's debug lines go to its
# standard output, with the report: exit 1 before), --bandwidth-log,
# --minimal.  The native engine still ignores --status-interval, with its
# note.  A --section that names none of a job file's jobs is said so.
. "$(dirname "$0")/bench-lib.sh"
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"

head -c 65536 /dev/zero >"$B_TMP/f" || b_fail "the target"
printf 'precious\n' >"$B_TMP/log"
job="--name=p --filename=$B_TMP/f --rw=read --size=64k"
for opt in --status-interval=1 --inflate-log="$B_TMP/log" --bandwidth-log --minimal --debug=io; do
        # shellcheck disable=SC2086 # one word per option
        $BENCH --backend=fio $job "$opt" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 2 ] || b_fail "$opt: exit $rc, want 2: $(cat "$B_TMP/err")"
        name=${opt%%=*}
        grep -q "^iosched-bench: $name: fio's report is iosched-bench's to read" "$B_TMP/err" ||
                b_fail "$opt: $(cat "$B_TMP/err")"
        [ ! -s "$B_TMP/out" ] || b_fail "$opt: a report was written: $(head -3 "$B_TMP/out")"
done
# shellcheck disable=SC2086
$BENCH --backend=native $job --status-interval=1 >"$B_TMP/out" 2>"$B_TMP/err" ||
        b_fail "native, --status-interval: exit $?: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: note: ignored, .*--status-interval=1" "$B_TMP/err" ||
        b_fail "native, --status-interval: no note: $(cat "$B_TMP/err")"
# --section naming none of a job file's jobs: said so (before: "cannot read fio's reading of the job: ")
printf '[j]\nfilename=%s\nrw=read\nsize=64k\n' "$B_TMP/f" >"$B_TMP/s.fio"
$BENCH --backend=fio --section=x "$B_TMP/s.fio" >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 2 ] || b_fail "--section=x: exit $rc, want 2: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: $B_TMP/s.fio: fio reads no job in it (--section=x names none of its jobs)$" "$B_TMP/err" ||
        b_fail "--section=x: $(cat "$B_TMP/err")"
$BENCH --backend=fio --section=j "$B_TMP/s.fio" >"$B_TMP/out" 2>"$B_TMP/err" ||
        b_fail "--section=j: exit $?: $(cat "$B_TMP/err")"
echo ok
