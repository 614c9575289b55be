#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the files a run creates are removed by directory handle.  A
# run (native, and fio) whose target file it creates sits in a directory
# a user owns; during the run that directory is renamed and a symbolic
# link to another directory, holding a file of the same name, is put in
# its place.  At the end the run's own file (in the renamed directory;
# fio's in the run's scratch directory there) is removed and the other
# file is left in place, byte for byte.  On tmpfs
# (/dev/shm): no disk is written.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
[ -w /dev/shm ] || b_skip "no /dev/shm"
top_dir=/dev/shm/iosched-bench-it-${B_TMP##*-}-swap
mkdir -p "$top_dir" || b_fail "mkdir"


swap() {
        mode=$1; shift
        u=$top_dir/$mode
        mkdir -p "$u/dir" "$u/other"
        chown nobody "$u" "$u/dir" 2>/dev/null     # a user's own directories
        echo "another file, not the bench's" >"$u/other/file"
        cp "$u/other/file" "$B_TMP/expected"
        "$BENCH_BIN" --filename="$u/dir/file" --size=4m --rw=read --direct=0 --runtime=2 --time_based "$@" \
                >"$B_TMP/out.$mode" 2>"$B_TMP/err.$mode" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        end=$(( $(now_ms) + 60000 ))
        # fio makes it in the run's scratch directory there (fioscratch.c), our engine in place
        made() {
                for f in "$u/dir/file" "$u/dir"/.iosched-bench.*/file; do
                        [ -f "$f" ] && [ "$(stat -c %s "$f")" = 4194304 ] && return 0
                done
                return 1
        }
        until made; do
                [ "$(now_ms)" -lt $end ] || b_fail "$mode: the bench never laid out its file: $(cat "$B_TMP/err.$mode")"
                sleep 0.05
        done
        sleep 0.5
        mv "$u/dir" "$u/dir.old" && ln -s "$u/other" "$u/dir" || b_fail "$mode: cannot swap the directory"
        kill -0 $bench 2>/dev/null || b_fail "$mode: the run ended before the swap: the case proves nothing"
        wait $bench || b_fail "$mode: the run failed: $(cat "$B_TMP/err.$mode")"
        cmp -s "$u/other/file" "$B_TMP/expected" || b_fail "$mode: the cleanup removed or changed another file"
        [ -z "$(ls -A "$u/dir.old")" ] || b_fail "$mode: what the bench made was not removed: $(ls -A "$u/dir.old")"
}

swap native --backend=native --allow-write
if command -v fio >/dev/null; then
        swap fio --backend=fio --time_based --allow-write      # fio ends a job by size without it; fio lays out a new file only with --allow-write
else
        echo "no fio: the fio case is skipped"
fi
exit 0
