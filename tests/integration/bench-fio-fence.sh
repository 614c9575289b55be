#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench's fio runs touch only what the run allows, and
# fio's failures are iosched-bench's.  Job forms that read on their face
# but write (a layout of a smaller file, unlink=1, ioengine=filedelete,
# write_iolog=, exec_prerun=) leave the file byte for byte and run
# nothing, whichever layer stops them (refused up front, exit 3, or
# EACCES inside fio under the kernel's fence, exit 1 with fio's own
# reason in the one error line).  A job process's failure (polled I/O,
# hipri=1, on a tmpfs file: EOPNOTSUPP), which fio writes before its
# report, is named in that line.  fio's abort with exit status 0 (its
# "appears mounted ... Aborting", from a stand-in fio) is a failure (exit
# 1) that names fio's reason, not a report of no I/O.  Files on tmpfs.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
[ -w /dev/shm ] || b_skip "no /dev/shm"
d=/dev/shm/iosched-bench-it-${B_TMP##*-}-fence
mkdir -p "$d" || b_fail "mkdir"
cd "$d" || b_fail "cd"

if command -v fio >/dev/null; then
        head -c 1048576 /dev/zero >"$d/data"
        i=0
        for form in "--rw=read --size=1m" "--rw=read --size=4k --unlink=1" \
                    "--ioengine=filedelete --rw=read --size=4k" \
                    "--rw=read --size=64k --filename=$d/data --write_iolog=$d/victim" \
                    "--rw=read --size=64k --filename=$d/data --exec_prerun=touch\\ $d/marker"; do
                i=$((i + 1))
                printf 'precious data\n' >"$d/victim"
                rm -f "$d/marker"
                # shellcheck disable=SC2086 # one word per option (the \\ keeps exec_prerun's command whole)
                eval "\$BENCH_BIN --backend=fio --name=j$i --filename=\$d/victim $form --runtime=1" \
                        >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ "$(cat "$d/victim" 2>/dev/null)" = "precious data" ] || b_fail "$form: the file was changed or removed"
                [ ! -e "$d/marker" ] || b_fail "$form: the job ran a command"
                case $rc in
                1) grep -q "^iosched-bench: fio failed (exit status [0-9]*): .*Permission denied" "$B_TMP/err" ||
                        b_fail "$form: exit 1 without fio's reason: $(cat "$B_TMP/err")" ;;
                2|3) ;;
                *) b_fail "$form: exit $rc: $(cat "$B_TMP/err")" ;;
                esac
        done
        # a job process's own failure: fio writes it to its standard output, before the report
        # (io_uring polls only direct I/O: a buffered read of a tmpfs file with hipri=1 fails with
        # EOPNOTSUPP), and the error line names it
        for mode in landlock unconfined; do
                b_in_mode $mode $BENCH_BIN --backend=fio --filename="$d/data" --rw=read --size=64k --direct=0 \
                        --ioengine=io_uring --hipri=1 --unconfined >"$B_TMP/out" 2>"$B_TMP/err"
                rc=$?
                [ $rc = 1 ] || b_fail "polled I/O on a file ($mode): exit $rc: $(cat "$B_TMP/err")"
                grep -q "^iosched-bench: fio failed (exit status 1): io_u error on file .*: Operation not supported" \
                        "$B_TMP/err" || b_fail "polled I/O on a file ($mode): not fio's reason: $(cat "$B_TMP/err")"
        done
else
        echo "no fio: the fenced job forms are skipped"
fi

# fio's abort with exit status 0: fio's own report of a write to a mounted device (fio refuses it
# before any I/O), replayed by a stand-in fio (unconfined: the fence lets only fio itself run)
command -v fio >/dev/null || exit 0
command -v mkfs.ext4 >/dev/null || b_skip "no mkfs.ext4"
b_loop l 64
mkfs.ext4 -q "/dev/$l" || b_fail "mkfs"
mkdir -p "$B_TMP/mnt"
mount "/dev/$l" "$B_TMP/mnt" || b_skip "cannot mount"
B_MOUNTS="$B_TMP/mnt $B_MOUNTS"
fio --output-format=json+ --name=x --filename="/dev/$l" --rw=write --size=1m >"$B_TMP/abort.json" 2>"$B_TMP/abort.err"
grep -q "Aborting" "$B_TMP/abort.err" || b_skip "this fio does not abort on a mounted device: $(cat "$B_TMP/abort.err")"
mkdir -p "$B_TMP/bin"
cat >"$B_TMP/bin/fio" <<EOS
#!/bin/sh
cat "$B_TMP/abort.err" >&2
cat "$B_TMP/abort.json"
exit 0
EOS
chmod +x "$B_TMP/bin/fio"
head -c 65536 /dev/zero >"$d/small"
PATH="$B_TMP/bin:$PATH" IOSCHED_BENCH_LANDLOCK=0 $BENCH_BIN --backend=fio --unconfined --filename="$d/small" \
        --rw=read --runtime=1 >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 1 ] || b_fail "fio's abort: exit $rc: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: fio ran no job: /dev/$l appears mounted, and 'allow_mounted_write' isn't set. Aborting.$" \
        "$B_TMP/err" || b_fail "fio's abort: not fio's reason: $(cat "$B_TMP/err")"
exit 0
