#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the exit statuses of iosched-apply(8) and ioschedd(8) that no
# other test provokes, each from its real cause, on loop devices this test
# creates (the others: see docs/testing.md, "Exit codes"):
#   iosched-apply 3  a scheduler the kernel does not offer (dry-run and apply)
#   iosched-apply 4  a disk that disappears: removed before --udev runs; a
#                    write that meets ENODEV (the fault shim, at the write
#                    itself); and loop devices removed during runs (raced)
#   iosched-apply 5  a caller that is not root (setpriv to nobody)
#   iosched-apply 2  descriptor exhaustion: a 1500-disk tree under a hard
#                    limit of 64 descriptors fails loudly, never a short or
#                    misclassified list
#   policy file replaced or rewritten during runs: each run applies one
#                    whole version (0), or says file:line and exits 2
#   ioschedd 1       the event loop cannot be set up (no descriptor left)
# Every failure must be one line (or one per disk) starting with the
# program's name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"
d_require
shim=$top/$BUILDDIR/tests/libiosfault.so
pol=$T_TMP/policy.conf

# want RC CMD...: run, expect status RC and only lines naming the program
want() {
        w=$1; shift
        "$@" >"$T_TMP/out" 2>"$T_TMP/err"
        rc=$?
        [ $rc = "$w" ] || t_fail "$*: exit $rc, want $w: $(cat "$T_TMP/err")"
        if [ "$w" != 0 ]; then
                grep -q "^iosched-apply: \|^ioschedd: " "$T_TMP/err" || t_fail "$*: exit $rc without an error line"
                grep -v "^iosched-apply: \|^ioschedd: " "$T_TMP/err" | grep -q . &&
                        t_fail "$*: a line without the program's name: $(cat "$T_TMP/err")"
        fi
        return 0
}

t_loop l 16
orig=$(t_sched "$l")

# 3: a scheduler the kernel does not offer, also foreseen by --dry-run
printf '[Match]\nName=%s\n[Set]\nScheduler=no-such-sched\n' "$l" >"$pol"
want 3 $APPLY --no-builtin --config "$pol" --dry-run "$l"
want 3 $APPLY --no-builtin --config "$pol" "$l"
grep -q "$l: cannot set scheduler \"no-such-sched\": not offered by kernel" "$T_TMP/err" || t_fail "refused scheduler line: $(cat "$T_TMP/err")"
[ "$(t_sched "$l")" = "$orig" ] || t_fail "the scheduler changed"
echo "ok: exit 3 for a scheduler the kernel does not offer"

# 4: a write that meets a vanished disk (ENODEV at the write, from the shim)
printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\n' "$l" >"$pol"
[ "$orig" = none ] && sed -i 's/Scheduler=none/Scheduler=mq-deadline/' "$pol"
# read_ahead_kb must differ from the policy's for the write to be planned (a loop device's default
# follows its backing file's filesystem, and another test may have left 512 on a reused number)
[ "$(cat "/sys/block/$l/queue/read_ahead_kb")" = 512 ] && echo 256 > "/sys/block/$l/queue/read_ahead_kb"
if [ -f "$shim" ] && [ -z "${IOS_VALGRIND:-}" ]; then
        want 4 env IOS_FAULT=write:1:ENODEV ASAN_OPTIONS=verify_asan_link_order=0 LD_PRELOAD="$shim" \
                $APPLY --no-builtin --config "$pol" "$l"
        grep -q "$l: cannot set scheduler" "$T_TMP/err" || t_fail "vanished-write line: $(cat "$T_TMP/err")"
        grep -q "queue/read_ahead_kb: not applied" "$T_TMP/err" || t_fail "the setting not reached is not named: $(cat "$T_TMP/err")"
        echo "ok: exit 4 when the disk is gone at the write"
fi

# 4: --udev for a disk removed before the rule's program ran
n=$(d_free_loop_number)
f=$T_TMP/gone.img
truncate -s 16M "$f"
losetup "/dev/loop$n" "$f" 2>/dev/null || t_skip "cannot attach loop$n"
D_NEW_LOOPS="$D_NEW_LOOPS $n"
losetup -d "/dev/loop$n"
d_loop_remove "$n"
[ -e "/sys/block/loop$n" ] && t_skip "loop$n could not be removed"
want 4 $APPLY --no-builtin --config "$pol" --udev "loop$n"
echo "ok: exit 4 for --udev on a removed disk"

# 4 (or 0/2): loop devices removed while iosched-apply runs on them, raced
fours=0 twos=0 runs=0
for i in $(seq 1 ${EXIT_RACE_RUNS:-15}); do
        n=$(d_free_loop_number)
        truncate -s 16M "$f"
        losetup "/dev/loop$n" "$f" 2>/dev/null || continue
        D_NEW_LOOPS="$D_NEW_LOOPS $n"
        printf '[Match]\nName=loop%s\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\nqueue/nr_requests=64\n' "$n" >"$pol"
        $APPLY --no-builtin --config "$pol" "loop$n" >"$T_TMP/out" 2>"$T_TMP/err" &
        p=$!
        losetup -d "/dev/loop$n"; d_loop_remove "$n"
        wait $p
        rc=$?
        runs=$((runs + 1))
        case $rc in
        0) ;;
        2) twos=$((twos + 1))   # e.g. not a block device any more, or EBUSY from a queue being torn down
           grep -q "^iosched-apply: loop$n: " "$T_TMP/err" || t_fail "race exit 2 without naming the disk: $(cat "$T_TMP/err")" ;;
        4) fours=$((fours + 1)) ;;
        *) t_fail "disk removed during a run: exit $rc: $(cat "$T_TMP/err")" ;;
        esac
        if grep -v "^iosched-apply: " "$T_TMP/err" | grep -q .; then
                t_fail "race: a line without the program's name: $(cat "$T_TMP/err")"
        fi
done
echo "ok: $runs runs on a disk removed meanwhile: $fours exit 4, $twos exit 2 (naming the disk), the others 0"

# 5: not root; the binary and the policy must be readable by nobody
if command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 && [ -z "${IOS_VALGRIND:-}" ]; then
        pub=$(mktemp -d /tmp/iosched-nobody-XXXXXX)
        D_EXTRA_CLEANUP="rm -rf '$pub'"
        chmod 0755 "$pub"
        cp "$top/$BUILDDIR/iosched-apply" "$pub/"
        printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\n' "$l" >"$pub/p.conf"
        [ "$orig" = none ] && sed -i 's/Scheduler=none/Scheduler=mq-deadline/' "$pub/p.conf"
        chmod 0644 "$pub/p.conf"
        want 5 setpriv --reuid=nobody --regid=nogroup --clear-groups --inh-caps=-all \
                env ASAN_OPTIONS=detect_leaks=0 "$pub/iosched-apply" --no-builtin --config "$pub/p.conf" "$l"
        grep -q "$l: cannot set scheduler" "$T_TMP/err" || t_fail "non-root line: $(cat "$T_TMP/err")"
        [ "$(t_sched "$l")" = "$orig" ] || t_fail "a non-root caller changed the scheduler"
        echo "ok: exit 5 as nobody"
fi

# 2: descriptor exhaustion on 1500 fake disks: loud, never a silent misclassification
if command -v python3 >/dev/null && command -v prlimit >/dev/null; then
        python3 "$top/bench/mk-fake-tree.py" "$T_TMP/many" 1500 >/dev/null || t_fail "mk-fake-tree"
        want 2 prlimit --nofile=64:64 $APPLY list -n -r -o NAME,CLASS --sysroot "$T_TMP/many"
        grep -q "Too many open files" "$T_TMP/err" || t_fail "EMFILE not said: $(cat "$T_TMP/err")"
        [ -s "$T_TMP/out" ] && t_fail "a partial list was printed under EMFILE"
        want 2 prlimit --nofile=64:64 $APPLY --dry-run --config /dev/null --sysroot "$T_TMP/many"
        echo "ok: exit 2 and one line on descriptor exhaustion"
fi

# the policy replaced (rename) or rewritten in place during runs
printf '[Match]\nName=%s\n[Set]\nScheduler=none\nqueue/read_ahead_kb=256\n' "$l" >"$T_TMP/A"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=1024\n' "$l" >"$T_TMP/B"
chmod 0644 "$T_TMP/A" "$T_TMP/B"
cp "$T_TMP/A" "$pol"
for mode in rename rewrite; do
        ( i=0; while [ -e "$T_TMP/flip" ]; do
                i=$((i + 1)); v=A; [ $((i % 2)) = 0 ] && v=B
                if [ $mode = rename ]; then cp "$T_TMP/$v" "$pol.tmp" && mv "$pol.tmp" "$pol"; else cat "$T_TMP/$v" >"$pol"; fi
        done ) &
        : >"$T_TMP/flip"
        fl=$!
        bad=0 twos=0
        for i in $(seq 1 ${EXIT_FLIP_RUNS:-40}); do
                $APPLY --no-builtin --config "$pol" "$l" >"$T_TMP/out" 2>"$T_TMP/err"
                rc=$?
                s=$(t_sched "$l") ra=$(cat "/sys/block/$l/queue/read_ahead_kb")
                case "$rc:$s:$ra" in
                0:none:256|0:mq-deadline:1024) ;;
                2:*) twos=$((twos + 1))
                     [ $mode = rewrite ] || { bad=1; echo "rename gave exit 2: $(cat "$T_TMP/err")"; }
                     grep -q "^iosched-apply: $pol" "$T_TMP/err" || { bad=1; echo "exit 2 without file: $(cat "$T_TMP/err")"; } ;;
                *) bad=1; echo "run $i ($mode): exit $rc, scheduler $s, read_ahead_kb $ra: $(cat "$T_TMP/err")" ;;
                esac
        done
        rm -f "$T_TMP/flip"
        wait $fl
        [ $bad = 0 ] || t_fail "a policy changed during a run ($mode) was applied in part"
        echo "ok: policy changed by $mode during 40 runs: each run one whole version ($twos saw a partial file: exit 2)"
done

# ioschedd 1: no descriptor for the event loop (valgrind itself needs more than 6)
if [ -z "${IOS_VALGRIND:-}" ]; then
        want 1 prlimit --nofile=6:6 $DAEMON --no-builtin --config "$pol" --monitor none --sysroot "$T_TMP/many"
        echo "ok: ioschedd exit 1 when its event loop cannot be set up"
fi
d_check_host_untouched 2>/dev/null || true
echo "ok"
