#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: fio's option list read as a hostile job would use it, each
# form without --allow-write or --allow-exec (and the code-running ones
# with --allow-write but no --allow-exec): whatever the exit status, a
# file in another directory stays byte for byte, no marker is made, no
# file appears there nor is removed, the disk keeps its scheduler and no
# cgroup is left.  Forms: write_iolog, write_lat_log,
# exec_prerun/exec_postrun, --trigger-file/--trigger-cmd,
# ioengine=external:, filename_format with directory=, opendir= (also
# of an empty tree, which leaves fio its own names),
# create_on_open, unlink=1 (also with ioengine=null, which opens no file,
# and with --allow-write), pre_read, a read job's start past its file's
# end (offset_increment= with numjobs, offset=N%, file_append=: fio lays
# the file out anew; size= or offset= over 100%, which fio reads as bytes;
# a share or a zone count followed by bytes, which fio
# keeps in force), a later nrfiles= (each file of the list then needs all
# of size=), a name behind an empty one in a filename= list (":F",
# "A::F"), a log named "0", ioengine=libpmem (fills and sizes a read
# job's file), gfapi (logs to /tmp), rados with a conf= anyone may write,
# rbd with a ceph.conf anyone may write in the working directory
# (ceph logs where it says), verify_state_save, verify_dump,
# --mem=mmap:/mmaphuge: (and mmap,x: and mmapshared,x:, which fio takes as
# mmap and mmapshared), --profile=tiobench, --ioscheduler=, --cgroup with
# cgroup_nodelete, ioengine=dirdelete and dirstat with unlink=1 (fio
# 3.37's, which remove a directory), write_hint= on a file and a device
# (its inode keeps the hint), a unix socket net's receiver makes where a
# file is (with --allow-net; also protocol=unix,x and unix:x, fio's unix), --server/--client, include and
# $-arithmetic in a job file, a job named after a link in the working
# directory (fio opens DIRECTORY/NAME), filename_format with keywords in
# the job name, ioengine=pmemblk, profile= on a job whose file exists (its
# jobs write .fio.tio.N in the working directory), a fio-dump-status in
# $TMPDIR (fio removes it and spoils its report), ${TMPDIR} in a job file
# (the user's, not the run's).  With Landlock and on the path of kernels
# without it (IOSCHED_BENCH_LANDLOCK=0), where what only fio knows is
# refused without --unconfined.
# Hang-guard: 900 (over 200 runs of iosched-bench in three modes, each
# starting fio up to three times: 31 s alone on 2 cores, 588 s in CI when each check started python3)
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v cc >/dev/null || b_skip "no cc (the library a job names is built here)"
b_loop l 64
dev=/dev/$l
cd "$B_TMP" || b_fail "cd"
mkdir -p other/j.0.0 work empty
head -c 1048576 /dev/zero >work/data
head -c 8192 /dev/urandom >other/big
# decoys: the names the checks would take where fio opens another file
head -c 1048576 /dev/zero >other/lnk.0.0
truncate -s 64m "other/pool,4096,64"
ln -s ../other/big work/lnk
cu='$clientuid$clientuid$clientuid$clientuid$clientuid$clientuid$clientuid$clientuid$clientuid$clientuid'
big0=$(cksum <other/big)
printf 'int x;\n__attribute__((constructor)) static void m(void) { extern int creat(const char *, int); creat("%s/marker", 0644); }\n' \
        "$B_TMP" >lib.c
cc -shared -fPIC -o other/x.so lib.c || b_fail "cc"
printf '[j]\nfilename=%s/work/data\nrw=read\nsize=64k\ninclude %s/other/inc.fio\n' "$B_TMP" "$B_TMP" >inc-job.fio
printf 'write_iolog=%s/other/victim\n' "$B_TMP" >other/inc.fio
printf '[j]\nfilename=%s/work/data\nrw=read\nsize=$mb_memory/1024\n' "$B_TMP" >arith.fio
printf '[j]\nfilename=%s/work/data\nrw=read\nsize=1m\nruntime=1\nprofile=tiobench\n' "$B_TMP" >prof.fio
printf '[j]\nfilename=${TMPDIR}/../work/data\nrw=read\nsize=64k\nruntime=1\n' >tmpdir.fio
printf '[global]\nlog_file = %s/other/cephlog\nmon_host = 127.0.0.1\nclient_mount_timeout = 2\n' "$B_TMP" \
        >ceph.conf
chmod 666 ceph.conf
cp ceph.conf work/ceph.conf     # where rbd looks for its cluster's configuration, beside the job
gl0=$(ls -d /tmp/fio_gfapi.log 2>/dev/null)      # gfapi's log, unless another program made one
sched0=$(b_sched "$l")
cg0=$(ls /sys/fs/cgroup 2>/dev/null | wc -l)
V="$B_TMP/other/victim"
cgname=iosched-bench-it-${B_TMP##*-}    # a cgroup=: a name no other run of this test (another lane) uses
M="$B_TMP/marker"
base="--name=j --filename=$B_TMP/work/data --rw=read --size=64k --runtime=1"

# the write hint of a file or device (F_GET_RW_HINT, 1035), which its inode keeps: a program built
# here, as a check runs after each of some 200 forms (python3 took 0.4 s a start, twice a check)
printf '%s\n' '#include <fcntl.h>' '#include <stdint.h>' '#include <stdio.h>' 'int main(int c, char **v)' \
        '{' '        uint64_t h = 0;' '        int fd = c == 2 ? open(v[1], O_RDONLY) : -1;' \
        '        if (fd < 0 || fcntl(fd, 1035, &h) < 0)' '                return 1;' \
        '        printf("%llu\n", (unsigned long long)h);' '}' \
        >hint.c
cc -Wall -Werror -o hint hint.c || b_fail "cc hint.c"
hint() {
        "$B_TMP/hint" "$1"
}
hints0=$(hint work/data) && hints0="$hints0 $(hint "$dev")" || b_fail "cannot read the write hints"
check() {  # check FORM: nothing outside the run changed
        [ "$(hint work/data) $(hint "$dev")" = "$hints0" ] ||
                b_fail "$mode: $1: a write hint was set (exit $rc): $(tail -2 err)"
        [ "$(cat "$V" 2>/dev/null)" = "precious data" ] || b_fail "$mode: $1: the victim was changed or removed (exit $rc): $(tail -2 err)"
        [ "$(cksum <other/big)" = "$big0" ] || b_fail "$mode: $1: other/big was changed (exit $rc): $(tail -2 err)"
        [ ! -e "$M" ] || b_fail "$mode: $1: code ran (exit $rc): $(tail -2 err)"
        [ -d other/j.0.0 ] || b_fail "$mode: $1: a directory was removed (exit $rc): $(tail -2 err)"
        extra=$(ls other | grep -v -e '^victim$' -e '^x.so$' -e '^inc.fio$' -e '^j.0.0$' -e '^big$' \
                -e '^lnk.0.0$' -e '^pool,4096,64$')
        [ -z "$extra" ] || b_fail "$mode: $1: made $extra in another directory (exit $rc): $(tail -2 err)"
        [ "$(b_sched "$l")" = "$sched0" ] || b_fail "$mode: $1: the disk's scheduler is $(b_sched "$l") (exit $rc)"
        [ "$(ls /sys/fs/cgroup 2>/dev/null | wc -l)" = "$cg0" ] || b_fail "$mode: $1: a cgroup was left (exit $rc)"
        [ -n "$gl0" ] || [ ! -e /tmp/fio_gfapi.log ] ||
                { rm -f /tmp/fio_gfapi.log; b_fail "$mode: $1: /tmp/fio_gfapi.log was made (exit $rc)"; }
        # the job's cgroup, in any hierarchy (cgroup v1: beneath blkio/)
        left=$(find /sys/fs/cgroup -maxdepth 4 -type d -name "$cgname" 2>/dev/null)
        [ -z "$left" ] || { rmdir $left; b_fail "$mode: $1: the job's cgroup was left: $left (exit $rc)"; }
        [ -L work/lnk ] || b_fail "$mode: $1: work/lnk is no longer a link (exit $rc)"
        [ -z "$(ls -A work | grep -v -e '^data$' -e '^lnk$' -e '^ceph.conf$')" ] ||
                b_fail "$mode: $1: made $(ls -A work | grep -v -e '^data$' -e '^lnk$' -e '^ceph.conf$') beside the target"
}

form() {  # form FLAGS...: one form, then the check
        printf 'precious data\n' >"$V"
        rm -f "$M"
        (cd work && eval "\"\$BENCH_BIN\" --backend=fio $unc $*" >../out 2>../err)
        rc=$?
        case $rc in 0|1|2|3) ;; *) b_fail "$mode: $*: exit $rc: $(tail -2 err)" ;; esac
        check "$*"
}

for mode in landlock none unconfined; do
        unc=
        case $mode in
        landlock) unset IOSCHED_BENCH_LANDLOCK ;;
        none) export IOSCHED_BENCH_LANDLOCK=0 ;;
        *) export IOSCHED_BENCH_LANDLOCK=0; unc=--unconfined ;;
        esac
        form "$base --write_iolog=$V"
        form "$base --write_lat_log=$B_TMP/other/lat"
        form "--allow-write $base '--exec_prerun=touch $M'"
        form "--allow-write $base '--exec_postrun=touch $M'"
        form "$base --trigger-file=$V"
        form "--allow-write $base --trigger-file=$B_TMP/work/t '--trigger=touch $M'"
        form "--allow-write $base --ioengine=external:$B_TMP/other/x.so"
        form "--allow-write $base --ioengine=$B_TMP/other/x.so"
        form "--name=j --directory=$B_TMP/other --filename_format=victim --rw=write --size=64k"
        form "--name=j --opendir=$B_TMP/other --rw=write --size=4k"
        # an empty tree names no file: with a later nrfiles= fio takes its own names, here other/big,
        # which it lays out anew
        form "--name=j --opendir=$B_TMP/empty --directory=$B_TMP/other --filename_format=big --nrfiles=1" \
                "--rw=read --size=64k"
        form "--name=j --filename=$B_TMP/other/new --create_on_open=1 --rw=read --size=64k"
        form "--name=j --filename=$V --unlink=1 --rw=read --size=14"
        form "--name=j --filename=$V --pre_read=1 --rw=read --size=14"
        # where I/O starts past a read job's file, fio lays the file out anew (get_start_offset())
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --numjobs=2 --offset_increment=4k --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --offset=50% --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --offset_increment=50% --numjobs=2 --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=4k --file_append=1 --runtime=1"
        # a share is 0% to 100% only: fio reads 101% as 2^64 - 102 bytes and lays a read job's file out
        # anew, an empty one (parse.h parse_is_percent(); before: read as a share, other/big emptied)
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=101% --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=4k --offset=200% --runtime=1"
        # bytes after a share or a zone count leave it in force (options.c str_offset_cb, str_size_cb)
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --offset=50% --offset=0 --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --numjobs=2 --offset_increment=50%" \
                "--offset_increment=0 --runtime=1"
        form "--name=j --filename=$B_TMP/other/big --rw=read --zonemode=strided --zonesize=8k --size=2z" \
                "--size=8k --runtime=1"
        # a later nrfiles= gives each file of the list all of size= (str_filename_cb counts, nrfiles= sets)
        form "--name=j --filename=$B_TMP/work/data:$B_TMP/other/big --rw=read --size=16k --nrfiles=1 --runtime=1"
        # fio skips a ':' where a name would start: no name is hidden behind an empty one
        form "--name=j --filename=:$B_TMP/other/big --rw=write --size=8k --runtime=1"
        form "--name=j --filename=$B_TMP/work/data::$B_TMP/other/big --rw=write --size=8k --runtime=1"
        # engines that write where no job names: libpmem fills and sizes its files, gfapi logs to
        # /tmp/fio_gfapi.log, rados logs where a ceph configuration anyone could write says
        form "--name=j --filename=$B_TMP/other/big --rw=read --size=8k --runtime=1 --ioengine=libpmem"
        form "$base --ioengine=gfapi --volume=vol --brick=localhost"
        form "$base --ioengine=rados --pool=p --clientname=admin --conf=$B_TMP/ceph.conf"
        # rbd reads CLUSTER.conf in the working directory (anyone's), which says where ceph logs
        form "$base --allow-net --ioengine=rbd --pool=p --rbdname=img --clientname=admin"
        # any value of a log option is its prefix, "0" too
        form "$base --write_bw_log=0"
        form "--name=j --filename=$V --ioengine=null --unlink=1 --size=4k --runtime=1"
        form "--allow-write --name=j --filename=$V --ioengine=null --unlink_each_loop=1 --loops=2 --size=4k"
        form "$base --verify=crc32c --verify_state_save=1 --aux-path=$B_TMP/other"
        form "$base --verify=crc32c --verify_dump=1 --aux-path=$B_TMP/other"
        form "$base --mem=mmap:$V"
        form "$base --mem=mmaphuge:$V"
        # fio takes a value's type before a ',' (else a ':'), the file after the first ':'
        form "$base --mem=mmap,x:$V"
        form "$base --mem=mmapshared,x:$V"
        form "--allow-write --name=j --filename=$B_TMP/work/data --rw=write --size=64k --ioengine=e4defrag --donorname=$V"
        form "--allow-write --name=j --filename=$B_TMP/work/data --rw=write --size=64k --ioengine=e4defrag --inplace=1 --donorname=$B_TMP/other/new"
        form "--profile=tiobench --size=1m"
        # a profile's jobs write .fio.tio.N in the working directory, sizes from sh and bc, on a job
        # whose own file exists: on the command line and in a job file
        form "$base --profile=tiobench"
        form "$B_TMP/prof.fio"
        form "--name=j --directory=$B_TMP/other --ioengine=dirdelete --nrfiles=1 --size=4k"
        form "--allow-write --name=j --directory=$B_TMP/other --ioengine=dirstat --unlink=1 --nrfiles=1 --size=4k"
        form "--name=j --filename=$dev --rw=read --size=1m --runtime=1 --ioscheduler=kyber"
        # the refusal names the option that does it, one --help lists (before: --scheduler, none)
        if [ $mode != none ]; then
                grep -q "iosched-bench switches it (--compare, one scheduler or more) and puts it back" err ||
                        b_fail "$mode: --ioscheduler: $(tail -1 err)"
                "$BENCH_BIN" --help | grep -q -- "--compare\[=VARIANT" || b_fail "no --compare in --help"
        fi
        form "--name=j --filename=$dev --rw=read --size=1m --runtime=1 --cgroup=$cgname --cgroup_nodelete=1"
        form "$base --client=localhost"
        form "--allow-net --allow-write --name=j --ioengine=net --protocol=unix --filename=$V --size=4k"
        form "--allow-net --allow-write --name=j --ioengine=net --protocol=unix,x --filename=$V --size=4k"
        form "--allow-net --allow-write --name=j --ioengine=net --protocol=unix:x --filename=$V --size=4k"
        # a job alone on a link of its name: fio opens DIRECTORY/NAME (init.c exists_and_not_regfile(), lstat)
        form "--name=lnk --directory=$B_TMP/other --rw=read --size=64k --runtime=1"
        # filename_format's keywords replaced in the job name too; $clientuid is empty (make_filename())
        form "'--name=$cu' '--filename_format=$V\$jobname\$jobname\$jobname' --rw=write --bs=7 --size=14 --runtime=1"
        # pmemblk: PATH,BSIZE,FSIZE names the pool PATH, made and opened for writing on a read job
        form "--name=j --ioengine=pmemblk --thread=1 --filename=$B_TMP/other/pool,4096,64 --rw=read --bs=4k" \
                "--size=1m --runtime=1"
        form "$base --write_hint=extreme"
        form "--name=j --filename=$dev --rw=read --size=1m --runtime=1 --write_hint=long"
        form "--server"
        form "$B_TMP/inc-job.fio"
        form "$B_TMP/arith.fio"
        # fio removes $TMPDIR/fio-dump-status while jobs run and prints its running figures into the
        # report: a file any user may make in /tmp (here in a TMPDIR of the test's)
        mkdir -p tmpd && printf 'anyone\n' >tmpd/fio-dump-status && chown 65534 tmpd/fio-dump-status
        export TMPDIR="$B_TMP/tmpd"
        form "$base"
        [ -f tmpd/fio-dump-status ] || b_fail "$mode: fio removed \$TMPDIR/fio-dump-status (exit $rc)"
        # (without Landlock and --unconfined no fio runs: refused, exit 3)
        [ $rc = 0 ] || { [ $mode = none ] && [ $rc = 3 ]; } ||
                b_fail "$mode: with a fio-dump-status in \$TMPDIR: exit $rc: $(tail -2 err)"
        # fio's reading of a job file expands ${TMPDIR} as the user has it (the run's is not the user's)
        if [ $mode != none ]; then
                form "$B_TMP/tmpdir.fio"
                [ $rc = 0 ] || b_fail "$mode: \${TMPDIR} in a job file is not the user's: exit $rc: $(tail -2 err)"
        fi
        unset TMPDIR
done
exit 0
