#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: on the fio backend with Landlock, the jobs' files are the
# ones fio itself names (fio run first inside a fence with no file right,
# create_only=1, --debug=file), each checked as iosched-bench's own reading
# of the job checks its names.  The forms are ones that reading does not
# resolve (fio reads nrfiles=0x2 and numjobs=0x2; iosched-bench reads
# decimals): a read job on two existing files reads both; two clones
# writing their existing files (--allow-write) write both; a second file
# that is a link to a mounted device is refused before fio starts (exit 3,
# the first file unchanged), as is a second file that does not exist
# (fio would make it outside the run's scratch directory).  opendir='s
# tree is listed by fio inside the fence, and size= split over its files
# (with Landlock and without).  A job fio cannot read fails with fio's
# own first reason (exit 2).  On the path
# without Landlock (IOSCHED_BENCH_LANDLOCK=0 --unconfined) such a job is
# refused (exit 3) and nothing is changed.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v mkfs.ext4 >/dev/null || b_skip "no mkfs.ext4"
if [ -r /sys/kernel/security/lsm ] && ! grep -qw landlock /sys/kernel/security/lsm; then
        b_skip "no Landlock in this kernel"
fi

D=$B_TMP/d
mkdir -p "$D" "$B_TMP/mnt" || b_fail "mkdir"
b_loop l 64
mkfs.ext4 -q -F "/dev/$l" >/dev/null 2>&1 || b_fail "mkfs.ext4"
mount "/dev/$l" "$B_TMP/mnt" || b_skip "cannot mount ext4"
B_MOUNTS="$B_TMP/mnt"
sums() { (cd "$D" && md5sum -- "$@"); }
# with Landlock as the kernel has it (LL=0: as without it)
LL=1
run() { (cd "$D" && env IOSCHED_BENCH_LANDLOCK=$LL $BENCH --backend=fio "$@") >"$B_TMP/out" 2>"$B_TMP/err"; }

# a read job on two existing files, the second named only by fio (nrfiles=0x2)
for f in r.0.0 r.0.1; do head -c 1048576 /dev/urandom >"$D/$f"; done
run --name=r --rw=read --nrfiles=0x2 --size=1m --runtime=1 ||
        b_fail "read of fio's two files: exit $?: $(cat "$B_TMP/err")"

# two clones writing their existing files (numjobs=0x2): both written
for f in w.0.0 w.1.0; do head -c 1048576 /dev/urandom >"$D/$f"; done
before=$(sums w.0.0 w.1.0)
run --allow-write --name=w --rw=write --numjobs=0x2 --size=1m --runtime=1 ||
        b_fail "two clones writing: exit $?: $(cat "$B_TMP/err")"
after=$(sums w.0.0 w.1.0)
for f in w.0.0 w.1.0; do
        [ "$(echo "$before" | grep " $f\$")" != "$(echo "$after" | grep " $f\$")" ] ||
                b_fail "clone's file $f was not written: $(cat "$B_TMP/err")"
done

# refused P TEXT: a write job whose second file (P1) fio alone names is refused before fio starts
# (exit 3, TEXT said), its first file (P0) unchanged
refused() {
        head -c 1048576 /dev/urandom >"$D/${1}0"
        before=$(sums "${1}0")
        run --allow-write --name="$1" --rw=write --nrfiles=0x2 --filename_format="$1\$filenum" --size=1m \
                --runtime=1
        rc=$?
        [ $rc = 3 ] || b_fail "$1: a second file named by fio alone: exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "$2" "$B_TMP/err" || b_fail "$1: the refusal does not say '$2': $(cat "$B_TMP/err")"
        [ "$(sums "${1}0")" = "$before" ] || b_fail "${1}0 was written before the refusal"
}
# a link to a mounted device
ln -s "/dev/$l" "$D/m1"
refused m "refusing to write: mounted on $B_TMP/mnt"
mountpoint -q "$B_TMP/mnt" || b_fail "the mount is gone"
# a file that does not exist: it would be made outside the scratch directory
refused n "fio would make n1, a new file iosched-bench's reading of the job did not find"
[ ! -e "$D/n1" ] || b_fail "fio made n1"
[ -z "$(ls -A "$D" | grep '^\.iosched-bench')" ] || b_fail "a scratch directory stays: $(ls -A "$D")"

# opendir=: fio lists the tree as it reads the setting, inside the fence (before: "failed parsing"),
# and splits size= over the files it finds: 16k over two files of 8k reads them as they are (before:
# refused as "smaller than the job's offset plus size"); 24k asks 12k of each, which fio would lay out
mkdir -p "$D/tree/sub" && head -c 8192 /dev/urandom >"$D/tree/a" && head -c 8192 /dev/urandom >"$D/tree/sub/b"
before=$(sums tree/a tree/sub/b)
for LL in 1 0; do
        run --unconfined --name=o --opendir="$D/tree" --rw=read --size=16k ||
                b_fail "opendir= (Landlock $LL): exit $?: $(cat "$B_TMP/err")"
        run --unconfined --name=o --opendir="$D/tree" --rw=read --size=24k
        rc=$?
        [ $rc = 3 ] || b_fail "opendir= with 12k a file (Landlock $LL): exit $rc, want 3: $(cat "$B_TMP/err")"
        grep -q "smaller than the job's offset plus size" "$B_TMP/err" ||
                b_fail "opendir= with 12k a file (Landlock $LL): $(cat "$B_TMP/err")"
        [ "$(sums tree/a tree/sub/b)" = "$before" ] || b_fail "opendir= (Landlock $LL): a file was changed"
done

# a job fio cannot read (a size under one block): fio's own first reason, not what follows from it
# (before: "No job(s) defined")
printf 'small\n' >"$D/s"
LL=1 run --name=s --filename="$D/s" --rw=read --size=6
rc=$?
[ $rc = 2 ] || b_fail "a job fio cannot read: exit $rc, want 2: $(cat "$B_TMP/err")"
grep -q "^iosched-bench: fio did not read the jobs to their end: size too small" "$B_TMP/err" ||
        b_fail "a job fio cannot read: not fio's reason: $(cat "$B_TMP/err")"

# without Landlock: what iosched-bench cannot resolve is refused
before=$(sums w.0.0 w.1.0)
(cd "$D" && IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined --allow-write --name=w --rw=write \
        --numjobs=0x2 --size=1m --runtime=1) >"$B_TMP/out" 2>"$B_TMP/err"
rc=$?
[ $rc = 3 ] || b_fail "no Landlock, numjobs=0x2: exit $rc, want 3: $(cat "$B_TMP/err")"
[ "$(sums w.0.0 w.1.0)" = "$before" ] || b_fail "no Landlock: a file was written"
exit 0
