#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the fio backend touches only what the run allows (issue 27,
# the up-front layer): the job is read as fio reads it and every file it
# names is resolved before fio starts.  Refused, with the target unchanged
# (checksums) and no marker file made: the space form --filename DEV with
# --verify, ${VAR}, include, readwrite=, filename= twice (fio keeps both),
# filename_format, directory lists, a read job against a smaller existing
# file, unlink=1 with --readonly, ioengine=filedelete, write_iolog=,
# exec_prerun, --trigger, ioengine=exec and an engine from a path without
# --allow-exec; all problems in one refusal.  Run: two sections on one
# device (stonewall, wait_for) with --allow-write, a job on standard input
# with both backends, numjobs=1024 nrfiles=1024 reaching fio in seconds
# (and SIGINT meanwhile ending the pre-check, fio never started);
# --target-device refusing another device; --compare across two disks
# refused; without Landlock (IOSCHED_BENCH_LANDLOCK=0) a note that fio runs
# unconfined, --backend=fio and an option only fio knows refused unless
# --unconfined, and
# with it a job the model cannot resolve refused.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
b_loop l 64
dev=/dev/$l
sum() { md5sum <"$1" | cut -d' ' -f1; }
s0=$(sum "$dev")
cd "$B_TMP" || b_fail "cd"
printf 'fourteen bytes' >small
f0=$(sum small)
refused() {  # refused NAME ARGS...: exit 3, nothing changed
        what=$1
        shift
        $BENCH "$@" >/dev/null 2>"$B_TMP/err"
        rc=$?
        [ $rc = 3 ] || b_fail "$what: exit $rc, expected 3 (refused): $(cat "$B_TMP/err")"
        [ "$(sum "$dev")" = "$s0" ] || b_fail "$what: the device changed"
        [ -f small ] && [ "$(sum small)" = "$f0" ] || b_fail "$what: the small file changed or went"
        [ ! -e MARK ] || b_fail "$what: a command ran"
}

refused "space form" --filename "$dev" --rw=write --size=1m --verify=crc32c
printf '[x]\nfilename=${TGT}\nsize=1m\nreadwrite=write\nverify=md5\n' >var.fio
TGT=$dev refused "filename=\${VAR}, readwrite=" --backend=fio var.fio
printf 'filename=%s\nrw=randwrite\n' "$dev" >inc2.fio
printf '[x]\nsize=1m\nruntime=1\ninclude inc2.fio\n' >incl.fio
refused "include" incl.fio
printf '[x]\nfilename=/dev/null\nfilename=%s\nrw=write\nsize=1m\n' "$dev" >twice.fio
refused "filename= twice" --backend=fio twice.fio
printf '[x]\nfilename_format=small\nrw=read\nsize=1m\n' >fmt.fio
refused "filename_format onto a smaller file" --backend=fio fmt.fio
refused "read job against a smaller file" --backend=fio --filename=small --rw=read --size=1m
refused "unlink=1 --readonly" --backend=fio --readonly --filename=small --rw=read --unlink=1
refused "ioengine=filedelete" --backend=fio --filename=small --ioengine=filedelete
refused "write_iolog" --backend=fio --filename="$dev" --rw=read --size=1m --write_iolog="$B_TMP/small"
mkdir d1 d2
printf '[x]\ndirectory=%s/d1:%s/d2\nnumjobs=2\nrw=read\nsize=1m\n' "$B_TMP" "$B_TMP" >dirs.fio
refused "directory list, new files" --backend=fio dirs.fio
[ -z "$(find d1 d2 -type f)" ] || b_fail "directory list: files were made"
refused "exec_prerun" --backend=fio --name=x --ioengine=null --size=1m --runtime=1 --exec_prerun="touch $B_TMP/MARK"
refused "trigger" --backend=fio --trigger="touch $B_TMP/MARK" --name=x --ioengine=null --size=1m --runtime=1
printf '[x]\nioengine=exec\nprogram=/usr/bin/touch\narguments=%s/MARK\n' "$B_TMP" >exec.fio
refused "ioengine=exec" exec.fio
printf '[x]\nioengine=%s/evil.so\nhipri\n' "$B_TMP" >ext.fio
refused "an engine from a path" ext.fio
# all at once: one refusal names every problem
$BENCH --backend=fio --filename=small --rw=read --size=1m --exec_prerun="touch MARK" >/dev/null 2>err
grep -q "exec_prerun" err && grep -q "smaller than the job's offset plus size" err || b_fail "not every problem named: $(cat err)"

# two sections on one device, with --allow-write: one open of the device for both
printf '[global]\nfilename=%s\nsize=1m\nruntime=1\n[a]\nrw=write\n[b]\nrw=write\nstonewall\n[c]\nrw=randwrite\nwait_for=a\n' "$dev" >two.fio
$BENCH --backend=fio --allow-write two.fio >/dev/null 2>err || b_fail "two sections on one device: $(cat err)"

# a job on standard input, both backends
for b in native fio; do
        printf '[x]\nfilename=%s\nrw=randread\nsize=1m\nruntime=1\n' "$dev" |
                $BENCH -J --backend=$b - >out.json 2>err || b_fail "stdin via $b: $(cat err)"
        grep -q '"jobname"' out.json || b_fail "stdin via $b: no report"
done

# --target-device: every target must be the device
$BENCH --backend=fio --target-device=/dev/null --filename="$dev" --rw=read --runtime=1 >/dev/null 2>err
[ $? = 3 ] && grep -q "is not --target-device" err || b_fail "--target-device (fio): $(cat err)"
$BENCH --target-device=/dev/null --filename="$dev" --rw=read --runtime=1 >/dev/null 2>err
rc=$?; [ $rc = 3 ] || [ $rc = 2 ]; [ $? = 0 ] && grep -q "target-device" err || b_fail "--target-device (native): $(cat err)"
$BENCH --backend=fio --target-device="$l" --filename="$dev" --rw=read --runtime=1 >/dev/null 2>err ||
        b_fail "--target-device=$l on $dev: $(cat err)"

# --compare: every target on the one disk whose scheduler switches
b_loop l2 64
dev=/dev/$l     # b_loop sets dev to the new one
$BENCH --backend=fio --compare=none,mq-deadline --name=a --filename="$dev" --rw=read --runtime=1 \
        --name=b --filename=/dev/$l2 --rw=read >/dev/null 2>err
rc=$?
[ $rc = 3 ] && grep -q "on 2 disks" err && grep -q "$l2" err || b_fail "--compare on two disks: exit $rc $(cat err)"

# without Landlock: one line that fio runs unconfined; a job the model cannot resolve is refused
IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --unconfined --filename="$dev" --rw=read --runtime=1 >/dev/null 2>err ||
        b_fail "unconfined run: $(cat err)"
grep -q "no Landlock: fio runs unconfined" err || b_fail "no unconfined note: $(cat err)"
IOSCHED_BENCH_LANDLOCK=0 $BENCH --backend=fio --name=o --directory="$B_TMP/d1" --opendir="$B_TMP/d2" --rw=read \
        --runtime=1 >/dev/null 2>err
rc=$?
[ $rc = 3 ] && grep -q "no Landlock to fence fio in.*--unconfined" err ||
        b_fail "fio's option without Landlock: exit $rc $(cat err)"
IOSCHED_BENCH_LANDLOCK=0 $BENCH --unconfined --backend=fio --name=o --directory="$B_TMP/d1" --opendir="$B_TMP/d2" \
        --rw=read --runtime=1 >/dev/null 2>err
rc=$?
[ $rc = 3 ] && grep -q "cannot confine fio on this kernel" err || b_fail "unresolved without Landlock: exit $rc $(cat err)"

# numjobs=1024 nrfiles=1024: a million files are within the job-file limits and fio is
# started for them (how long that takes is docs/bench.md's, not a test's).  A fio in PATH
# before the real one notes that it is started to run the job, and ends it there.
mkdir many shim
cat >shim/fio <<EOT
#!/bin/sh
case "\$*" in *--showcmd*|*--enghelp*) exec $(command -v fio) "\$@";; esac
date +%s >$B_TMP/started
exit 1
EOT
chmod +x shim/fio
# (the shim writes its note: unfenced, as on a kernel without Landlock; the fence is bench-fio-fence.sh's)
PATH="$B_TMP/shim:$PATH" IOSCHED_BENCH_LANDLOCK=0 $BENCH --unconfined --backend=fio --allow-write --name=m --directory="$B_TMP/many" \
        --numjobs=1024 --nrfiles=1024 --size=1m --ioengine=psync --runtime=1 >/dev/null 2>err
[ -f started ] || b_fail "numjobs=1024 nrfiles=1024: fio never started: $(cat err)"
# SIGINT during the pre-check ends it: the interrupted exit, fio never started
rm -f started
PATH="$B_TMP/shim:$PATH" $BENCH --backend=fio --allow-write --name=m --directory="$B_TMP/many" \
        --numjobs=1024 --nrfiles=4096 --size=1m --ioengine=psync --runtime=1 >/dev/null 2>err &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
[ $rc = 1 ] && grep -q "interrupted by signal 2" err || b_fail "SIGINT in the pre-check: exit $rc $(cat err)"
[ ! -f started ] || b_fail "SIGINT in the pre-check: fio started"
echo "PASS"
