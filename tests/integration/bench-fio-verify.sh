#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: fio's verify state, which a writing job with verify= saves
# (AUX/local-JOB-N-verify.state) and a job with verify_state_load=1 reads
# before it starts.  A read job that verifies what a fio run wrote, with
# the state that run saved, runs without --allow-write (it writes
# nothing: fio opens its files O_RDONLY) and leaves data and state byte
# for byte (before: refused as a write of the data and of the state, and
# with --allow-write fio looked for the state in a scratch directory).
# The state is read where the job names it: a byte changed in the data
# fails the run with fio's own reason.  A job whose state is missing is
# refused before fio starts (exit 3), as is a job that would save a new
# state beside the one loaded (fio has one --aux-path, so it cannot go to a
# scratch directory; fio saves it under the job's name cut to 63 bytes).
# verify_only=1 on the writing job, with
# --allow-write, writes only the state.  A trigger (--trigger-timeout,
# --trigger-file) saves every job's state, verify= or not: it needs
# --allow-write and goes to the scratch directory (before: the working
# directory, without Landlock); an existing trigger file, which fio
# removes, is refused.  verify_dump=1 (fio writes a block that fails
# verification to new files) needs --allow-write; the dumps are made in
# the scratch directory and moved to --aux-path's directory, over nothing
# there (before: written there without the flag, without Landlock).  With Landlock and on the path
# without it (IOSCHED_BENCH_LANDLOCK=0 --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"

D=$B_TMP/d
mkdir -p "$D" || b_fail "mkdir"
cd "$D" || b_fail "cd"
# the run to check: fio itself writes the data and saves the state in its working directory
fio --name=v --filename="$D/data" --rw=write --size=256k --verify=crc32c >"$B_TMP/fio.out" 2>&1 ||
        b_fail "fio's own write: $(cat "$B_TMP/fio.out")"
[ -f local-v-0-verify.state ] || b_skip "this fio saved no verify state: $(ls -A)"
sums() { md5sum data local-v-0-verify.state; }
before=$(sums)
for mode in landlock unconfined; do
        case $mode in
        landlock) run() { env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio "$@"; } ;;
        *) run() { IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined "$@"; } ;;
        esac
        job="--filename=$D/data --rw=read --size=256k --verify=crc32c"
        # shellcheck disable=SC2086 # one word per option
        run --name=v $job --verify_state_load=1 >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: verify with the saved state: exit $?: $(cat "$B_TMP/err")"
        # shellcheck disable=SC2086
        run --name=v $job >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: a read job that verifies: exit $?: $(cat "$B_TMP/err")"
        [ "$(sums)" = "$before" ] || b_fail "$mode: the data or the state was changed"
        [ "$(ls -A)" = "$(printf 'data\nlocal-v-0-verify.state')" ] || b_fail "$mode: files left: $(ls -A)"
        # fio's verify_only=1 on the writing job, with --allow-write: nothing written but the state, which
        # fio saves again where it read it
        # shellcheck disable=SC2086
        run --allow-write --name=v --filename="$D/data" --rw=write --size=256k --verify=crc32c \
                --verify_only=1 --verify_state_load=1 >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: verify_only with the saved state: exit $?: $(cat "$B_TMP/err")"
        [ "$(md5sum data)" = "$(echo "$before" | grep ' data$')" ] ||
                b_fail "$mode: verify_only wrote the data"
        [ "$(ls -A)" = "$(printf 'data\nlocal-v-0-verify.state')" ] || b_fail "$mode: files left: $(ls -A)"
        # the state as fio saved it again, for the checks below and the next mode: its bytes are the
        # engine's (fio 3.39's io_uring keeps more completions in it than psync)
        before=$(sums)
        # another job saving a new state beside the one loaded (one --aux-path): refused
        # shellcheck disable=SC2086
        run --allow-write --name=v $job --verify_state_load=1 \
                --name=x --filename="$D/x" --rw=write --size=64k --verify=crc32c >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a new state beside the loaded one: exit $rc: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: job 'x': fio would save its verify state local-x-1-verify.state where" \
                "$B_TMP/err" || b_fail "$mode: a new state beside the loaded one: $(cat "$B_TMP/err")"
        [ ! -e x ] || b_fail "$mode: fio ran before the refusal"
        # fio saves a state under the job's name cut to 63 bytes (verify-state.h's name[64]), where a
        # state under the whole name is no guide
        long=$(printf 'L%.0s' $(seq 70)) cut=$(printf 'L%.0s' $(seq 63))
        : >"local-$long-1-verify.state"
        # shellcheck disable=SC2086
        run --allow-write --name=v $job --verify_state_load=1 \
                --name="$long" --filename="$D/x" --rw=write --size=64k --verify=crc32c >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a new state under a cut name: exit $rc: $(cat "$B_TMP/err")"
        grep -q "fio would save its verify state local-$cut-1-verify.state where" "$B_TMP/err" ||
                b_fail "$mode: a new state under a cut name: $(cat "$B_TMP/err")"
        [ ! -e x ] && [ ! -e "local-$cut-1-verify.state" ] || b_fail "$mode: fio ran: $(ls -A)"
        rm -f "local-$long-1-verify.state"
        # a job with no saved state: refused before fio starts
        # shellcheck disable=SC2086
        run --name=w $job --verify_state_load=1 >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: no saved state: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: job 'w': verify_state_load=1 and no saved verify state local-w-0-verify" \
                "$B_TMP/err" || b_fail "$mode: no saved state: $(cat "$B_TMP/err")"
        # the state is the one read: a changed block fails the run, with fio's reason
        cp data data.good
        printf 'XXXXXXXX' | dd of=data bs=1 seek=8192 conv=notrunc 2>/dev/null
        # shellcheck disable=SC2086
        run --name=v $job --verify_state_load=1 >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 1 ] || b_fail "$mode: a changed block: exit $rc, want 1: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: fio failed (exit status 1): .*err=84/.*func=io_u_.*_complete" "$B_TMP/err" ||
                b_fail "$mode: a changed block: not fio's reason: $(cat "$B_TMP/err")"
        # verify_dump=1: fio writes the failing block to new files named after the target and the offset,
        # in --aux-path's directory: without --allow-write refused; with it made in the scratch directory
        # and moved there at the end, over nothing; beside a loaded state (one --aux-path) refused
        rm -rf "$B_TMP/dumps" && mkdir "$B_TMP/dumps"
        # shellcheck disable=SC2086
        run --name=v $job --verify_dump=1 --aux-path="$B_TMP/dumps" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: verify_dump without --allow-write: exit $rc: $(cat "$B_TMP/err")"
        want="each block that fails verification to a new file in $B_TMP/dumps: needs --allow-write"
        grep -q "^iosched-bench: job 'v': verify_dump=1: fio would write $want" "$B_TMP/err" || b_fail "$mode: verify_dump without --allow-write: $(cat "$B_TMP/err")"
        [ -z "$(ls -A "$B_TMP/dumps")" ] || b_fail "$mode: fio dumped without --allow-write: $(ls -A "$B_TMP/dumps")"
        # shellcheck disable=SC2086
        run --allow-write --name=v $job --verify_dump=1 --aux-path="$B_TMP/dumps" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 1 ] || b_fail "$mode: verify_dump: exit $rc, want 1: $(cat "$B_TMP/err")"
        dumps=$(ls -A "$B_TMP/dumps")
        echo "$dumps" | grep -q '^data\.8192\.' || b_fail "$mode: verify_dump: no dump of the block in: $dumps"
        [ -z "$(echo "$dumps" | grep -v '^data\.8192\.[a-z_]*$')" ] || b_fail "$mode: verify_dump: left: $dumps"
        grep -q "^iosched-bench: note: fio dumped [0-9]* blocks* that failed verification in $B_TMP/dumps\$" \
                "$B_TMP/err" || b_fail "$mode: verify_dump: not said: $(cat "$B_TMP/err")"
        for f in $dumps; do printf 'keep\n' >"$B_TMP/dumps/$f"; done
        # shellcheck disable=SC2086
        run --allow-write --name=v $job --verify_dump=1 --aux-path="$B_TMP/dumps" >"$B_TMP/out" 2>"$B_TMP/err"
        for f in $dumps; do
                [ "$(cat "$B_TMP/dumps/$f")" = keep ] || b_fail "$mode: verify_dump replaced $f"
        done
        [ "$(ls -A "$B_TMP/dumps")" = "$dumps" ] || b_fail "$mode: verify_dump: left: $(ls -A "$B_TMP/dumps")"
        want="/data\.8192\.[a-z_]* not moved to $B_TMP/dumps: File exists"
        grep -q "^iosched-bench: note: fio's verify dump .*$want" "$B_TMP/err" || b_fail "$mode: verify_dump over a file: not said: $(cat "$B_TMP/err")"
        # shellcheck disable=SC2086
        run --allow-write --name=v $job --verify_state_load=1 --verify_dump=1 >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: verify_dump beside a loaded state: exit $rc: $(cat "$B_TMP/err")"
        want="the blocks that fail verification in the working directory, where a job of the run loads"
        grep -q "^iosched-bench: job 'v': verify_dump=1: fio would write $want" "$B_TMP/err" || b_fail "$mode: verify_dump beside a loaded state: $(cat "$B_TMP/err")"
        mv data.good data
        # a trigger (--trigger-timeout here; the time-based job ends when it fires) saves every job's
        # state, verify= or not: without --allow-write refused, with it made in the scratch directory
        t="--name=t --filename=$D/data --rw=read --size=256k --time_based --runtime=600 --trigger-timeout=1"
        # shellcheck disable=SC2086
        run $t >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a trigger's state without --allow-write: exit $rc: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: job 't': fio would save its verify state local-t-0-verify.state when its trigger" \
                "$B_TMP/err" || b_fail "$mode: a trigger's state: $(cat "$B_TMP/err")"
        # shellcheck disable=SC2086
        run --allow-write $t >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: a trigger with --allow-write: exit $?: $(cat "$B_TMP/err")"
        [ "$(ls -A)" = "$(printf 'data\nlocal-v-0-verify.state')" ] || b_fail "$mode: files left: $(ls -A)"
        # an existing trigger file: fio removes it as it starts
        printf 'keep\n' >"$B_TMP/trig"
        # shellcheck disable=SC2086
        run --allow-write $t --trigger-file="$B_TMP/trig" >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: an existing trigger file: exit $rc: $(cat "$B_TMP/err")"
        [ "$(cat "$B_TMP/trig")" = keep ] || b_fail "$mode: the trigger file was removed"
done
exit 0
