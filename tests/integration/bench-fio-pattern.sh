#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a pattern read from a file (buffer_pattern='FILE',
# verify_pattern='FILE'), which fio reads as it reads the setting, in a
# job file (through fio's fenced reading) and on the command line: the
# fence lets fio read that file, and the target holds the pattern after
# the run.  A pattern file that is not a regular file, is an ELF object
# (fio could load it) or is writable by another user is refused before
# fio starts (exit 3).  With Landlock (before: "failed parsing", fio could
# not read the file) and on the path without it (IOSCHED_BENCH_LANDLOCK=0
# --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"

D=$B_TMP/d
mkdir -p "$D/pat" || b_fail "mkdir"
printf 'ABCD' >"$D/pat/p"
printf '[w]\nfilename=%s/t\nrw=write\nsize=64k\nbuffer_pattern="ab"'"'"'%s/pat/p'"'"'\n' "$D" "$D" >"$D/job.fio"
for mode in landlock unconfined; do
        case $mode in
        landlock) run() { (cd "$D" && env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio "$@"); } ;;
        *) run() { (cd "$D" && IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined "$@"); } ;;
        esac
        head -c 65536 /dev/zero >"$D/t"
        run --allow-write "$D/job.fio" >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: buffer_pattern in a job file: exit $?: $(cat "$B_TMP/err")"
        [ "$(head -c 12 "$D/t")" = abABCDabABCD ] || b_fail "$mode: the target does not hold the pattern"

        head -c 65536 /dev/zero >"$D/t"
        run --allow-write --name=v --filename="$D/t" --rw=write --size=64k --verify=pattern \
                --verify_pattern="'$D/pat/p'" >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: verify_pattern on the command line: exit $?: $(cat "$B_TMP/err")"
        [ "$(head -c 8 "$D/t")" = ABCDABCD ] || b_fail "$mode: the target does not hold the verify pattern"

        run --allow-write --name=v --filename="$D/t" --rw=write --size=64k --buffer_pattern="'/dev/zero'" \
                >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a device as the pattern's file: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "the pattern's file /dev/zero is not a regular file" "$B_TMP/err" ||
                b_fail "$mode: the refusal does not say why: $(cat "$B_TMP/err")"
        # a pattern's file fio could load (an ELF object), or another user could rewrite: refused
        cp /bin/true "$D/pat/elf" && chmod 0644 "$D/pat/elf"
        printf '[w]\nfilename=%s/t\nrw=write\nsize=64k\nbuffer_pattern='"'"'%s/pat/elf'"'"'\n' "$D" "$D" \
                >"$D/elf.fio"
        printf 'ABCD' >"$D/pat/shared" && chmod 0666 "$D/pat/shared"
        for form in "$D/elf.fio" "--name=v --filename=$D/t --rw=write --size=64k --buffer_pattern='$D/pat/shared'"; do
                run --allow-write $form >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ $rc = 3 ] || b_fail "$mode: $form: exit $rc, want 3: $(cat "$B_TMP/err")"
                grep -q -e "is a program or library" -e "is writable by another user" "$B_TMP/err" ||
                        b_fail "$mode: $form: the refusal does not say why: $(cat "$B_TMP/err")"
        done
done
exit 0
