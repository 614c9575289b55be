#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: every fio process iosched-bench starts is fenced from its
# first instruction, the reading of the job (--showcmd, --enghelp) as the
# run: a job file whose $mb_memory arithmetic makes fio run sh, which and
# bc runs no program; a library named by ioengine= from outside the
# system's directories is never loaded (its constructor would leave a
# marker), however the job hides it (an include, a comment line longer
# than fio's line buffer, an include of binary data, an include named
# with a blank in front, which fio keeps), nor does $ncpus arithmetic in
# any setting run a program, also with --unconfined without Landlock
# (the checks before fio reads the file alone); a job file whose includes
# pass 16 MiB together is no job file, nor do jobs run whose I/O buffers
# and pinned memory pass half the machine's; fio's nbd engine reaches no socket without
# --allow-net (a unix listener records every connection; with --allow-net
# it records one, so the listener is seen to work), and one line says what
# the fence stopped, what the run allows and the flag that allows it; a
# read job on /dev/zero (fio opens a character device read-write) runs;
# memory is bounded for any job file (/dev/zero as a job file, numjobs=256
# nrfiles=10000000, and 4,194,305 files of ioengine=null, which fio keeps
# in memory too: a clear error); a FIFO or a kernel interface's file
# (procfs) as the job file or an include is no job file, with or without
# --allow-exec (the bench opened a FIFO and waited for a writer forever,
# and read /proc/kmsg, the kernel's log, and waited for more); write_bw_log alone makes a log named
# after the job, as fio does with the job file, not "1"; a command run with
# --allow-exec gets EPERM for BLKROSET on a read target (the device stays
# read-write); nor changes a file's mode, owner, times or extended
# attributes (no Landlock right covers them: the filter denies them), and
# its clone3 fails with ENOSYS (CLONE_INTO_CGROUP would start a process
# out of the run's cgroup); a job named with a '/' whose command's output
# fio would write beside the job's name (../o/evil.prerun.txt, an existing
# o/keep.postrun.txt) is refused (exit 3), nothing made or truncated, nor
# is a command's output file made for a run refused for another reason.
# Each form with Landlock and on the path of kernels without
# it (IOSCHED_BENCH_LANDLOCK=0), where a job file is refused without
# --unconfined.
# Hang-guard: 900 (over 60 runs of iosched-bench in two modes, several
# reading 16 MiB of includes: 253 s under ASan beside the plain suite)
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v cc >/dev/null || b_skip "no cc (the library a job loads is built here)"
command -v python3 >/dev/null || b_skip "no python3 (the unix listener)"
cd "$B_TMP" || b_fail "cd"

b_loop l 64
dev=/dev/$l
head -c 1048576 /dev/zero >data
# what a command a job runs tries on a file it may not write, and clone3's errno
cat >meta.sh <<'EOS'
v=$1
chmod 4777 "$v" && echo chmod done
chown nobody "$v" && echo chown done
touch -d 2000-01-01 "$v" && echo touch done
python3 -c 'import os, sys; os.setxattr(sys.argv[1], "user.x", b"1"); print("xattr done")' "$v"
python3 -c 'import ctypes; l = ctypes.CDLL(None, use_errno=True); l.syscall(435, 0, 0); print("clone3 errno", ctypes.get_errno())'
EOS
# a library whose constructor leaves a marker, wherever and however it is loaded
cat >lib.c <<EOC
#include <fcntl.h>
#include <unistd.h>
__attribute__((constructor)) static void mark(void)
{
        int fd = open("$B_TMP/marker", O_WRONLY | O_CREAT | O_APPEND, 0644);

        if (fd >= 0) {
                (void)!write(fd, "loaded\n", 7);
                close(fd);
        }
}
EOC
cc -shared -fPIC -o x.so lib.c || b_fail "cc"
# stand-ins for the programs fio's $mb_memory arithmetic runs (sh -c 'which bc', sh -c 'echo ... | bc')
mkdir -p bin
for p in which bc; do
        printf '#!/bin/sh\necho %s >>%s/marker\nexec /usr/bin/%s "$@"\n' "$p" "$B_TMP" "$p" >"bin/$p"
        chmod +x "bin/$p"
done

# the job files
printf 'ioengine=%s/x.so\n' "$B_TMP" >inc.fio
printf '[x]\nfilename=%s/data\nsize=1m\nrw=read\ninclude inc.fio ; the engine\n' "$B_TMP" >include.fio
python3 - "$B_TMP" >long.fio <<'EOP'
import sys
print("[x]\nfilename=%s/data\nsize=1m\nrw=read" % sys.argv[1])
# fio reads a line 8,191 bytes at a time: the rest of this comment is a line of its own
print("#" + "c" * 8190 + "ioengine=%s/x.so" % sys.argv[1])
EOP
printf '[x]\nfilename=%s/data\nrw=read\nsize=$mb_memory/4096\n' "$B_TMP" >arith.fio
# fio reads an include the bench cannot (binary data), an include named with a blank in front (fio keeps
# it: " inc2.fio", not the harmless inc2.fio), and works out $ncpus arithmetic in any setting
printf '\0\nioengine=%s/x.so\nhipri=1\n' "$B_TMP" >nul.inc
printf '[x]\nfilename=%s/data\nsize=1m\nrw=read\ninclude nul.inc\n' "$B_TMP" >incnul.fio
printf 'rw=read\n' >inc2.fio
printf 'ioengine=%s/x.so\nhipri=1\n' "$B_TMP" >" inc2.fio"
printf '[x]\nfilename=%s/data\nsize=1m\nrw=read\ninclude  inc2.fio\n' "$B_TMP" >blank.fio
printf '[x]\nfilename=%s/data\nsize=1m\nrw=read\ndescription=$ncpus+1\n' "$B_TMP" >desc.fio
# a small job file that includes 2 x 9 MiB: past 16 MiB together
python3 -c 'import sys; open("desc.inc", "w").write(("description=" + "d" * 8000 + "\n") * 1150)'
printf '[x]\nfilename=%s/data\nsize=1m\nrw=read\ninclude desc.inc\ninclude desc.inc\n' "$B_TMP" >twice.fio
printf '[x]\nfilename=%s/data\nrw=read\nsize=64k\ninclude %s/self.fio\n' "$B_TMP" "$B_TMP" >self.fio
# one that includes itself 20 times: 20^16 readings for a walk with no bound on the bytes read
{ printf '[x]\nfilename=%s/data\nrw=read\nsize=64k\n' "$B_TMP"
  for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do echo "include $B_TMP/self20.fio"; done
} >self20.fio
mkfifo fifo
printf '[x]\nfilename=%s/data\nrw=read\nsize=64k\ninclude %s/fifo\n' "$B_TMP" "$B_TMP" >fifo.fio
sed "s|^include .*|include /proc/version|" fifo.fio >proc.fio
mkdir many
printf '[m]\ndirectory=%s/many\nnumjobs=256\nnrfiles=10000000\nsize=1m\nrw=read\n' "$B_TMP" >big.fio
printf '[m]\ndirectory=%s/many\nioengine=null\nnrfiles=4194305\nsize=64m\nrw=read\n' "$B_TMP" >bignull.fio
printf '[lj]\nfilename=%s/data\nrw=read\nsize=64k\nwrite_bw_log\n' "$B_TMP" >lj.fio
printf '[lu]\nfilename=%s/data\nioengine=null\nrw=read\nsize=64k\nuid=65534\nwrite_bw_log=lu\n' "$B_TMP" >lu.fio
# job files of many jobs: 4,097 (past fio's limit of 4,096), and 2,100 whose last one's file is on
# another disk (with --compare: refused after the checks, no fio run)
python3 - "$B_TMP" "$dev" <<'EOP'
import sys
with open("jobs4097.fio", "w") as f:
    f.write("[global]\nfilename=%s/data\nrw=read\nsize=4k\n" % sys.argv[1])
    f.write("".join("[j%d]\n" % i for i in range(4097)))
with open("jobs2100.fio", "w") as f:
    f.write("[global]\nfilename=%s/data\nrw=read\nsize=4k\n" % sys.argv[1])
    f.write("".join("[j%d]\n" % i for i in range(2099)))
    f.write("[last]\nfilename=%s\n" % sys.argv[2])
EOP

# run FORM...: iosched-bench on the form, its exit status in $rc, its error in err
run() {
        # shellcheck disable=SC2086 # the form's words
        PATH="$B_TMP/bin:$PATH" "$BENCH_BIN" --backend=fio --runtime=1 "$@" >out 2>err
        rc=$?
}

no_marker() {
        if [ -e marker ]; then
                b_fail "$mode: $1: fio ran or loaded code ($(tr '\n' ' ' <marker)); exit $rc: $(tail -3 err)"
        fi
}

for mode in landlock none; do
        if [ $mode = none ]; then
                export IOSCHED_BENCH_LANDLOCK=0
        else
                unset IOSCHED_BENCH_LANDLOCK
                [ -n "$(fio --version 2>/dev/null)" ] || b_fail "fio"
        fi
        # without Landlock no fio runs unasked, also on options the native engine knows: fio opens the
        # files by path again each round, following a link swapped in (before: run, "fio runs unconfined")
        if [ $mode = none ]; then
                run --filename="$B_TMP/data" --rw=read --size=64k
                [ $rc = 3 ] && grep -q "^iosched-bench: --backend=fio: this kernel has no Landlock to fence fio in; --unconfined" err ||
                        b_fail "none: --backend=fio on native options: exit $rc: $(tail -2 err)"
                run --unconfined --filename="$B_TMP/data" --rw=read --size=64k
                [ $rc = 0 ] || b_fail "none: --backend=fio --unconfined on native options: exit $rc: $(tail -2 err)"
        fi
        for job in include.fio long.fio arith.fio incnul.fio blank.fio desc.fio; do
                rm -f marker
                run "$job"
                no_marker "$job"
                [ $rc -ne 0 ] || b_fail "$mode: $job: exit 0 (the job's engine or size cannot be what fio ran)"
                # with --unconfined, without Landlock only the checks before fio reads the file hold it
                rm -f marker
                run --unconfined "$job"
                no_marker "--unconfined $job"
                [ $rc = 3 ] && grep -q "needs --allow-exec; fio has not read the file" err ||
                        b_fail "$mode: --unconfined $job: exit $rc: $(tail -2 err)"
        done
        # I/O buffers past half the machine's memory (64 jobs x 65,536 x 16 MiB): refused before fio starts
        run --unconfined --name=m --filename="$B_TMP/data" --rw=read --size=1m --bs=16m --iodepth=65536 --numjobs=64
        [ $rc = 3 ] && grep -q "would make fio take .* of memory .*more than half of this machine's" err ||
                b_fail "$mode: 64 TiB of I/O buffers: exit $rc: $(tail -2 err)"
        run --unconfined twice.fio
        [ $rc = 2 ] && grep -q "twice.fio: not a job file (with the files it includes, longer than 16 MiB)" err ||
                b_fail "$mode: a job file including 18 MiB: exit $rc: $(tail -2 err)"
        # a job file that includes itself: past 16 levels no engine line is looked for, so it is one
        run --unconfined self.fio
        [ $rc = 3 ] && grep -q "self.fio: includes nested deeper than 16 (one including itself?).*--allow-exec" err ||
                b_fail "$mode: a job file including itself: exit $rc: $(tail -2 err)"
        # the same 20 times over: the files fio reads, looked for before the fence is built, are bounded
        # as the gate's reading is (before: the bench read on, deaf to SIGTERM; the timeout only ends a
        # hang here, a pass takes a second)
        PATH="$B_TMP/bin:$PATH" timeout -s KILL 900 "$BENCH_BIN" --backend=fio --unconfined self20.fio >out 2>err
        rc=$?
        [ $rc = 2 ] && grep -q "self20.fio: not a job file (with the files it includes, longer than 16 MiB)" err ||
                b_fail "$mode: a job file including itself 20 times: exit $rc: $(tail -2 err)"
        # a FIFO included or given as the job file: the bench opens no file that is not regular (it
        # would wait for a writer forever; a device's open can act, a watchdog's arms it)
        (timeout 120 "$BENCH_BIN" --backend=fio --runtime=1 --unconfined fifo.fio >out 2>err)
        rc=$?
        [ $rc = 2 ] && grep -q "include $B_TMP/fifo: not a job file (not a regular file)" err ||
                b_fail "$mode: an include of a FIFO: exit $rc: $(tail -2 err)"
        (timeout 120 "$BENCH_BIN" --backend=fio --runtime=1 --unconfined fifo >out 2>err)
        rc=$?
        [ $rc = 2 ] && grep -q "fifo: not a job file (not a regular file)" err ||
                b_fail "$mode: a FIFO as the job file: exit $rc: $(tail -2 err)"
        # nor a kernel interface's file (procfs, sysfs...), regular as it says it is: reading
        # /proc/kmsg takes the kernel's log from its reader, and waits for more (before: read, and
        # the bench hung until SIGKILL; an include of one needed --allow-exec only)
        for form in "--allow-exec proc.fio" /proc/version; do
                # shellcheck disable=SC2086
                (timeout 120 "$BENCH_BIN" --backend=fio --runtime=1 --unconfined $form >out 2>err)
                rc=$?
                [ $rc = 2 ] && grep -q "/proc/version: not a job file (a kernel interface's file, on procfs" err ||
                        b_fail "$mode: $form: exit $rc: $(tail -2 err)"
        done
        # the network: nbd over a unix socket nobody named as a target
        rm -f nbd.sock conn conn.ready
        b_unix_listener "$B_TMP/nbd.sock" "$B_TMP/conn"
        nbd="--name=n --ioengine=nbd --uri=nbd+unix:///?socket=$B_TMP/nbd.sock --rw=read --size=1m --filename=$B_TMP/data"
        # shellcheck disable=SC2086
        run $nbd
        [ ! -e conn ] || b_fail "$mode: the nbd engine connected without --allow-net (exit $rc: $(tail -1 err))"
        [ $rc -ne 0 ] || b_fail "$mode: nbd without --allow-net: exit 0"
        if [ $mode = landlock ]; then   # what the fence stopped, in one line, with the flag that allows it
                grep -q "^iosched-bench: the fence stopped fio: .*socket: Permission denied; the run allows .*no socket; --allow-net allows it$" err ||
                        b_fail "nbd without --allow-net: no line for what the fence stopped: $(cat err)"
        fi
        if [ $mode = landlock ]; then
                # shellcheck disable=SC2086
                run --allow-net $nbd
                [ -e conn ] || b_fail "--allow-net: the nbd engine did not reach the listener: $(tail -1 err)"
        fi
        # a read job on a character device that holds no data (fio opens it read-write)
        run --name=z --filename=/dev/zero --rw=read --size=1m
        if [ $mode = landlock ]; then
                [ $rc -eq 0 ] || b_fail "a read job on /dev/zero: exit $rc: $(tail -2 err)"
        fi
        # memory bounded whatever the job file: /dev/zero as one, 256 x 10,000,000 files
        # (in a shell limited to 1 GB of address space: past it the run would fail otherwise;
        # not under AddressSanitizer, whose shadow memory alone reserves terabytes of it)
        vlimit=1048576
        ldd "$BENCH_BIN" 2>/dev/null | grep -q libasan && vlimit=unlimited
        for form in "/dev/zero" "--unconfined big.fio" "--unconfined bignull.fio"; do
                # shellcheck disable=SC2086
                (ulimit -v $vlimit; exec "$BENCH_BIN" --backend=fio $form) >out 2>err
                rc=$?
                case $form in
                */dev/zero) [ $rc = 2 ] && grep -q "not a job file (not a regular file)" err ;;
                *) [ $rc = 3 ] && grep -q "more than [0-9]* files" err ;;
                esac || b_fail "$mode: $form: exit $rc: $(tail -2 err)"
        done
        # a job file of more jobs than fio runs: said with its line (before: "Argument list too long")
        run --unconfined jobs4097.fio
        [ $rc = 2 ] && grep -q "^iosched-bench: jobs4097.fio:4101: \[j4096\]: more than 4096 jobs$" err ||
                b_fail "$mode: 4,097 jobs: exit $rc: $(tail -2 err)"
        # 2,100 jobs, each followed by a marker in fio's reading (fionamed.c), would be past fio's limit
        # there: not asked, said (before: fio failed, "failed to setup shm segment")
        if [ $mode = landlock ]; then
                run --compare=none,mq-deadline jobs2100.fio
                [ $rc = 3 ] && grep -q "^iosched-bench: note: the jobs and their clones are 2100, too many" err &&
                        grep -q "are on 2 disks" err || b_fail "2,100 jobs: exit $rc: $(tail -2 err)"
        fi
        # a command a job runs (--allow-exec) makes no device request that changes a device: on the
        # no-Landlock path it runs (its output file, r.prerun.txt, made in the current directory by
        # the bench: --allow-write) and BLKROSET fails
        if [ $mode = none ]; then
                rm -f r.prerun.txt
                run --allow-exec --allow-write --unconfined --name=r --filename="$dev" --rw=read --size=1m \
                        "--exec_prerun=blockdev --setro $dev"
                [ "$(blockdev --getro "$dev")" = 0 ] || b_fail "exec_prerun made $dev read-only: $(cat r.prerun.txt)"
                grep -q "BLKROSET: Operation not permitted" r.prerun.txt ||
                        b_fail "exec_prerun: the command did not run or was not denied: exit $rc: $(tail -2 err)"
        fi
        # a command a job runs changes no file's mode, owner, times or attributes, and cannot start
        # a process in another cgroup (clone3: ENOSYS, the C library falls back to clone)
        rm -f m.prerun.txt victim
        echo secret >victim && chmod 600 victim && touch -d 2001-02-03 victim
        meta0=$(stat -c '%a %U %Y' victim)
        run --allow-exec --allow-write --unconfined --name=m --filename="$dev" --rw=read --size=1m \
                "--exec_prerun=sh $B_TMP/meta.sh $B_TMP/victim"
        grep -q "^clone3 errno 38$" m.prerun.txt ||
                b_fail "$mode: exec_prerun: clone3 not ENOSYS: exit $rc: $(cat m.prerun.txt) $(tail -2 err)"
        meta1=$(stat -c '%a %U %Y' victim)
        xattr=$(python3 -c 'import os, sys; print(os.listxattr(sys.argv[1]))' victim)
        if [ "$meta1" != "$meta0" ] || [ "$xattr" != "[]" ] || grep -qx '[a-z]* done' m.prerun.txt; then
                b_fail "$mode: exec_prerun changed the victim's attributes: $meta0 -> $meta1, xattrs $xattr:" \
                        "$(cat m.prerun.txt)"
        fi
        # a job's name with a '/': fio writes its commands' output beside that name, elsewhere
        mkdir -p o w && rm -f o/evil.prerun.txt && echo kept >o/keep.postrun.txt
        printf '[../o/evil]\nfilename=%s\nrw=read\nsize=1m\nexec_prerun=echo owned\n' "$dev" >w/evil.fio
        printf '[%s/o/keep]\nfilename=%s\nrw=read\nsize=1m\nexec_postrun=true\n' "$B_TMP" "$dev" >w/keep.fio
        for f in evil keep; do
                cd w || b_fail "cd w"
                run --allow-exec --allow-write --unconfined $f.fio
                cd "$B_TMP" || b_fail "cd"
                [ $rc = 3 ] && grep -q "outside the working directory: not with a '/' in the job's name" w/err ||
                        b_fail "$mode: job name with '/' ($f): exit $rc: $(tail -2 w/err)"
        done
        [ ! -e o/evil.prerun.txt ] && [ "$(cat o/keep.postrun.txt)" = kept ] ||
                b_fail "$mode: job name with '/': $(ls o) $(cat o/keep.postrun.txt)"
        # a run refused for another reason (cgroup=) makes no file for its commands' output either
        # (before: an empty refused.prerun.txt and refused.postrun.txt were left)
        printf '[refused]\nfilename=%s\nrw=read\nsize=1m\nexec_prerun=true\nexec_postrun=true\ncgroup=x\n' \
                "$dev" >w/refused.fio
        cd w || b_fail "cd w"
        run --allow-exec --allow-write --unconfined refused.fio
        cd "$B_TMP" || b_fail "cd"
        [ $rc = 3 ] && [ ! -e w/refused.prerun.txt ] && [ ! -e w/refused.postrun.txt ] ||
                b_fail "$mode: a refused run: exit $rc, made $(ls w): $(tail -2 w/err)"
        # a log named by the job (write_bw_log alone: fio names it after the job, not "1")
        rm -f lj_bw.1.log 1_bw.1.log
        run --allow-write --unconfined lj.fio
        [ $rc = 0 ] && [ -f lj_bw.1.log ] && [ ! -e 1_bw.1.log ] ||
                b_fail "$mode: write_bw_log alone: exit $rc, logs: $(ls ./*_bw.* 2>/dev/null): $(tail -2 err)"
        # a log fio cannot write (its job runs as uid=65534) fails the run: fio says so and exits 0
        # (before: exit 0, no log)
        run --allow-write --unconfined lu.fio
        [ $rc = 1 ] && grep -q "fio wrote no log it was asked for: fopen log: Permission denied" err &&
                [ ! -e lu_bw.1.log ] ||
                b_fail "$mode: a log fio cannot write: exit $rc: $(tail -2 err)"
done
exit 0
