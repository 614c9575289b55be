#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: write_hint= with --allow-write: fio sets the hint on the
# inode of each file and device the job opens (F_SET_RW_HINT), which
# keeps it after fio ends (shown first with fio alone); iosched-bench puts
# back the hint each target had, after each fio run: a file, a loop
# device, and a --compare of two schedulers on the device; and after a
# kill -9 of iosched-bench while fio runs with the file and the device
# hinted, its guard puts both back and says so.  With Landlock and on the
# path without it (IOSCHED_BENCH_LANDLOCK=0 --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v python3 >/dev/null || b_skip "no python3 (reads and sets the write hints)"
b_loop l 64
dev=/dev/$l
F=$B_TMP/data
head -c 1048576 /dev/zero >"$F"

# hint PATH [VALUE]: the write hint of PATH's inode (F_GET_RW_HINT), set to VALUE first (F_SET_RW_HINT)
hint() {
        python3 -c 'import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
if len(sys.argv) > 2:
    fcntl.fcntl(fd, 1036, struct.pack("Q", int(sys.argv[2])))
print(struct.unpack("Q", fcntl.fcntl(fd, 1035, bytes(8)))[0])' "$@"
}
[ "$(hint "$F" 2 2>/dev/null)" = 2 ] || b_skip "this kernel keeps no write hint on a file"
[ "$(hint "$dev" 3 2>/dev/null)" = 3 ] || b_skip "this kernel keeps no write hint on a device"

# fio alone leaves the hint it set: what the bench has to put back
fio --name=j --filename="$F" --rw=write --size=64k --write_hint=extreme >"$B_TMP/fio.out" 2>&1 ||
        b_fail "fio alone: $(cat "$B_TMP/fio.out")"
[ "$(hint "$F")" = 5 ] || b_skip "fio left the file's hint at $(hint "$F"), not extreme (5)"
hint "$F" 2 >/dev/null

avail=$(sed 's/[][]//g' "/sys/block/$l/queue/scheduler")
case " $avail " in *" mq-deadline "*) ;; *) b_skip "$l offers only: $avail" ;; esac
# buffered: fio sets a direct=1 job's hint on its descriptor alone (F_SET_FILE_RW_HINT), which kernels
# since 5.18 refuse, and the bench's default is direct=1
for mode in landlock unconfined; do
        flags="--direct=0"
        [ $mode = unconfined ] && flags="--direct=0 --unconfined"
        b_in_mode $mode $BENCH --backend=fio $flags --allow-write --name=j --filename="$F" --rw=write \
                --size=64k --runtime=1 --write_hint=extreme >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: file: exit $?: $(cat "$B_TMP/err")"
        [ "$(hint "$F")" = 2 ] || b_fail "$mode: the file's write hint is $(hint "$F"), not short (2) as before"
        b_in_mode $mode $BENCH --backend=fio $flags --allow-write --name=j --filename="$dev" --rw=write \
                --size=1m --runtime=1 --write_hint=long >"$B_TMP/out" 2>"$B_TMP/err" ||
                b_fail "$mode: device: exit $?: $(cat "$B_TMP/err")"
        [ "$(hint "$dev")" = 3 ] || b_fail "$mode: the device's write hint is $(hint "$dev"), not medium (3) as before"
        b_in_mode $mode $BENCH --backend=fio $flags --allow-write --compare=none,mq-deadline --loops=1 \
                --ramp_time=0 --name=j \
                --filename="$dev" --rw=randwrite --size=1m --runtime=1 --time_based=1 --write_hint=none \
                >"$B_TMP/out" 2>"$B_TMP/err" || b_fail "$mode: compare: exit $?: $(cat "$B_TMP/err")"
        [ "$(hint "$dev")" = 3 ] || b_fail "$mode: after --compare the device's write hint is $(hint "$dev"), not 3"

        # killed while fio runs, both targets hinted: the guard puts them back (env execs the bench: its pid)
        lenv="env IOSCHED_BENCH_LANDLOCK=0"
        [ $mode = landlock ] && lenv="env -u IOSCHED_BENCH_LANDLOCK"
        $lenv $BENCH --backend=fio $flags --allow-write --name=a --filename="$F" --rw=write --size=64k \
                --time_based=1 --runtime=600 --write_hint=extreme --name=b --filename="$dev" --rw=write \
                --size=1m --time_based=1 --runtime=600 --write_hint=extreme >"$B_TMP/out" 2>"$B_TMP/err" &
        bench=$!
        B_PIDS="$B_PIDS $bench"
        hinted() { [ "$(hint "$F") $(hint "$dev")" = "5 5" ]; }
        wait_for 120000 hinted || b_fail "$mode: fio never set the hints (file $(hint "$F"), device $(hint "$dev")):" \
                "$(cat "$B_TMP/err")"
        kill -9 $bench
        wait $bench 2>/dev/null
        said() { grep -q "guard: .*put back the write hints of 2 targets" "$B_TMP/err"; }
        wait_for 120000 said || b_fail "$mode: after a kill -9 the guard did not say it put the hints back:" \
                "$(cat "$B_TMP/err")"
        [ "$(hint "$F") $(hint "$dev")" = "2 3" ] ||
                b_fail "$mode: after a kill -9 the hints are $(hint "$F") and $(hint "$dev"), not 2 and 3 as before"
done
exit 0
