#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: on the fio backend a job that reads a driver's character
# device is refused (exit 3, the device named): one of a storage class
# without --allow-write, as a descriptor open only for reading still
# takes passthrough commands from root (io_uring_cmd on an NVMe generic
# device, SG_IO on a SCSI generic one), writes too, where neither
# Landlock's read right nor the ioctl filter sees them; one of no storage
# class always.  The test's device is a node of its own (mknod) of the
# local-use major 60 (no driver, so no class); nothing is opened on it.  The harmless
# character devices (/dev/zero here) are read as before, without it.  A
# pipe (a FIFO, /dev/stdout) is refused (exit 3), and so is ioengine=sg
# (SG_IO, which the fence denies on every device).  With Landlock and on the
# no-Landlock path (IOSCHED_BENCH_LANDLOCK=0 --unconfined).
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
mknod "$B_TMP/door" c 60 0 || b_skip "cannot make a device node in $B_TMP"  # local/experimental: no driver

printf '[r]\nfilename=%s\nrw=read\nsize=1m\nbs=4k\n' "$B_TMP/door" >"$B_TMP/door.fio"
# with Landlock, and on the path of kernels without it (--unconfined: fio runs outside a fence)
for mode in landlock unconfined; do
        case $mode in
        landlock) env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio "$B_TMP/door.fio" >"$B_TMP/out" 2>"$B_TMP/err" ;;
        *) IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined "$B_TMP/door.fio" >"$B_TMP/out" 2>"$B_TMP/err" ;;
        esac
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: a read job on a character device: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "job 'r': $B_TMP/door is a character device of class unknown, not storage" "$B_TMP/err" ||
                b_fail "$mode: the refusal does not say why: $(cat "$B_TMP/err")"
done

# a pipe (a FIFO, or /dev/stdout: fio's own output, where its report goes) is no file to measure:
# refused before fio starts, on both paths (before: with Landlock the fence could not be built)
mkfifo "$B_TMP/fifo" || b_fail "mkfifo"
for mode in landlock unconfined; do
        for form in "--name=p --filename=$B_TMP/fifo --rw=read --size=64k" \
                    "--allow-write --name=p --filename=/dev/stdout --rw=write --size=64k"; do
                # standard output a pipe, as /dev/stdout is then
                {
                        case $mode in
                        landlock) env -u IOSCHED_BENCH_LANDLOCK $BENCH --backend=fio $form 2>"$B_TMP/err" ;;
                        *) IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined $form 2>"$B_TMP/err" ;;
                        esac
                        echo $? >"$B_TMP/rc"
                } | cat >"$B_TMP/out"
                rc=$(cat "$B_TMP/rc")
                [ $rc = 3 ] || b_fail "$mode: $form: exit $rc, want 3: $(cat "$B_TMP/err")"
                grep -q "is a pipe, not a file or a device" "$B_TMP/err" ||
                        b_fail "$mode: $form: the refusal does not say why: $(cat "$B_TMP/err")"
        done
done

# ioengine=sg: every command is SG_IO, which the fence denies on every device (a read-only descriptor
# takes SCSI writes from root): refused before fio starts, with why (before: fio failed in the fence
# with "fio_sgio_read_capacity, error=Success"); a loop device the test attaches
b_loop l 16
for mode in landlock unconfined; do
        # shellcheck disable=SC2086 # $BENCH: a wrapper's words, then the bench
        b_in_mode $mode $BENCH --backend=fio --unconfined --name=s --ioengine=sg --filename=/dev/$l --rw=read --size=64k \
                >"$B_TMP/out" 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$mode: ioengine=sg: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "^iosched-bench: job 's': ioengine=sg sends every SCSI command by the SG_IO ioctl" "$B_TMP/err" ||
                b_fail "$mode: ioengine=sg: the refusal does not say why: $(cat "$B_TMP/err")"
done

# /dev/zero: read as any fenced process may
printf '[z]\nfilename=/dev/zero\nrw=read\nsize=1m\nbs=4k\n' >"$B_TMP/zero.fio"
$BENCH --backend=fio "$B_TMP/zero.fio" >"$B_TMP/out" 2>"$B_TMP/err" ||
        b_fail "a read job on /dev/zero: exit $?: $(cat "$B_TMP/err")"
echo ok
