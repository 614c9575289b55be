#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: what a program a fio job runs with --allow-exec (as root,
# inside the fence) can reach beyond the run, the kernel's way of saying
# no to each: a log it makes setuid in the run's scratch directory leaves
# it with read and write bits only (the bench moves it out: it would be a
# root program anyone may run); it opens no socket without --allow-net
# (a unix listener outside the run records every connection: none; with
# --allow-net one, so the listener is seen to work), so it cannot ask the
# machine's daemons (systemd's, D-Bus) to act for it; it adds no key to
# root's keyring and reaches no action of the kernel's log (syslog(2):
# EPERM, where a bad console level would be EINVAL); it makes no io_uring
# (whose requests, no system calls, set extended attributes and reach
# sockets past the filter), and a job of the io_uring engine with
# --allow-exec is refused before fio runs (exit 3; the default engine is
# libaio then); it sets no flag of a file (file_setattr, 6.17's: EPERM,
# ENOSYS before); it writes through no
# descriptor the bench's caller left open (a file it appends to); it
# reads nothing of the bench's standard input (a terminal's typing); it
# sets no write hint on a file it opened for reading (the inode keeps it:
# fcntl F_SET_RW_HINT fails with EPERM when no job has write_hint=); it
# changes no priority or limit of a process outside the run, by its pid
# or over all of a user's (fio runs in a PID namespace of its own, where
# the kernel lets the run see only its own processes); with --allow-net
# too, it changes no address of the machine's network (CAP_NET_ADMIN is
# out of the bounding set: ip addr add fails, nothing is added to lo).
# Each form with Landlock and on the path of kernels without it
# (IOSCHED_BENCH_LANDLOCK=0 with --unconfined); with Landlock also: it
# reads and runs anywhere but opens no device node (a watchdog's open arms
# it), in /dev or in a devtmpfs or devpts mounted elsewhere (the test's;
# a build chroot's dev/pts), while a file outside the system's directories
# still opens.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v fio >/dev/null || b_skip "no fio"
command -v python3 >/dev/null || b_skip "no python3 (the programs the jobs run)"
cd "$B_TMP" || b_fail "cd"

b_loop l 16
dev=/dev/$l
mkdir -p logs

# a program that makes a log of the job's name in the scratch directory, setuid root and executable
cat >mklog.py <<'EOS'
#!/usr/bin/python3
import glob, os, shutil, sys
os.umask(0)
for d in glob.glob(sys.argv[1] + "/.iosched-bench.*"):
    fd = os.open(d + "/x_iops.1.log", os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o6755)
    with open("/bin/true", "rb") as f:
        os.write(fd, f.read())
    os.close(fd)
EOS
chmod 755 mklog.py

# a program that adds a key to root's user keyring and asks syslog(2) for a console level of 99
cat >sys.py <<'EOS'
import ctypes, platform, struct, sys
nr = {"x86_64": (248, 103), "aarch64": (217, 116)}[platform.machine()]
l = ctypes.CDLL(None, use_errno=True)
k = l.syscall(nr[0], b"user", b"iosched-bench-it", b"x", 1, -4)
print("add_key", k, "errno", ctypes.get_errno())
if k > 0:
    l.syscall(250 if nr[0] == 248 else 219, 9, k, -4)     # KEYCTL_UNLINK: leave the keyring as found
l.syscall(nr[1], 8, 0, 99)
print("syslog errno", ctypes.get_errno())
p = ctypes.create_string_buffer(120)
r = l.syscall(425, 8, p)        # io_uring_setup: its requests are no system calls the filter sees
print("io_uring_setup", "ok" if r >= 0 else ctypes.get_errno())
# file_setattr (6.17; ENOSYS before): FS_NODUMP_FL on a file the program may only read
a = ctypes.create_string_buffer(struct.pack("QIIII", 0x40, 0, 0, 0, 0), 24)
r = l.syscall(469, -100, sys.argv[1].encode(), a, 24, 0)
print("file_setattr", "ok" if r >= 0 else ctypes.get_errno())
EOS
# a program that lowers the priority and the file limit of a process by its pid, and of all of a user's
cat >prio.py <<'EOS'
import os, resource, sys
pid, uid = int(sys.argv[1]), int(sys.argv[2])
for what, f in (("nice", lambda: os.setpriority(os.PRIO_PROCESS, pid, 15)),
                ("user", lambda: os.setpriority(os.PRIO_USER, uid, 16)),
                ("limit", lambda: resource.prlimit(pid, resource.RLIMIT_NOFILE, (77, 77)))):
    try:
        f()
        print(what, "done")
    except OSError as e:
        print(what, e.errno)
EOS
# a program that opens each path it is given, read-only
cat >open.py <<'EOS'
import os, sys
for f in sys.argv[1:]:
    try:
        os.close(os.open(f, os.O_RDONLY))
        print(f, "open")
    except OSError as e:
        print(f, e.errno)
EOS
echo text >readable
mkdir devt && mount -t devtmpfs devtmpfs devt || b_fail "mount devtmpfs"
B_MOUNTS="$B_MOUNTS $B_TMP/devt"
mkdir pts && mount --bind /dev/pts pts || b_fail "bind /dev/pts"   # a build chroot's terminals
B_MOUNTS="$B_MOUNTS $B_TMP/pts"
# a program that sets a write hint (RWH_WRITE_LIFE_EXTREME) on a file it opens for reading
cat >hint.py <<'EOS'
import fcntl, os, struct, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
try:
    fcntl.fcntl(fd, 1036, struct.pack("Q", 5))
    print("hint set")
except OSError as e:
    print("hint", e.errno)
EOS
# the write hint of a file, read from outside the run
hint_of() { python3 -c 'import fcntl, os, struct, sys
print(struct.unpack("Q", fcntl.fcntl(os.open(sys.argv[1], os.O_RDONLY), 1035, bytes(8)))[0])' "$1"; }
# a program that connects to a unix socket
cat >conn.py <<'EOS'
#!/usr/bin/python3
import socket, sys
socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).connect(sys.argv[1])
EOS
chmod 755 conn.py
b_unix_listener "$B_TMP/l.sock" "$B_TMP/conn"

run() {
        "$BENCH_BIN" --backend=fio "$@" >out 2>err
        rc=$?
}

for mode in landlock none; do
        unc=
        case $mode in
        landlock) unset IOSCHED_BENCH_LANDLOCK ;;
        *) export IOSCHED_BENCH_LANDLOCK=0; unc=--unconfined ;;
        esac
        # a file the fence let a program make leaves the run with no setuid, setgid or execute bit
        rm -f logs/x_*
        run $unc --allow-exec --allow-write --name=j --ioengine=exec "--program=$B_TMP/mklog.py" \
                "--arguments=$B_TMP/logs" --std_redirect=0 --runtime=1 --time_based=1 \
                "--write_lat_log=$B_TMP/logs/x"
        [ -f logs/x_iops.1.log ] || b_fail "$mode: the program's log was not moved out: exit $rc: $(tail -2 err)"
        m=$(stat -c %a logs/x_iops.1.log)
        [ "$m" = 644 ] || b_fail "$mode: the log a program made setuid left the run mode $m"
        # no key added, no action of the kernel's log (where the test knows the system calls' numbers)
        case $(uname -m) in
        x86_64|aarch64)
                rm -f k.prerun.txt
                echo data >flagged
                run $unc --allow-exec --allow-write --name=k --filename="$dev" --rw=read --size=1m \
                        "--exec_prerun=python3 $B_TMP/sys.py $B_TMP/flagged"
                grep -q "^add_key -1 errno 1$" k.prerun.txt && grep -q "^syslog errno 1$" k.prerun.txt &&
                        grep -q "^io_uring_setup 1$" k.prerun.txt && grep -q "^file_setattr \(1\|38\)$" k.prerun.txt ||
                        b_fail "$mode: keyring, syslog(2), io_uring or file flags reached: exit $rc:" \
                                "$(cat k.prerun.txt) $(tail -2 err)"
                ! command -v lsattr >/dev/null || ! lsattr flagged 2>/dev/null | cut -d' ' -f1 | grep -q d ||
                        b_fail "$mode: a program a job runs set a file's nodump flag"
                ;;
        esac
        # reading anywhere opens no device node: not in /dev, not in a devtmpfs or devpts mounted elsewhere
        if [ $mode = landlock ]; then
                rm -f o.prerun.txt
                paths="$B_TMP/readable /dev/loop-control $B_TMP/devt/loop-control $B_TMP/pts/ptmx"
                run --allow-exec --allow-write --name=o --filename="$dev" --rw=read --size=1m \
                        "--exec_prerun=python3 $B_TMP/open.py $paths"
                [ "$(cat o.prerun.txt)" = "$B_TMP/readable open
/dev/loop-control 13
$B_TMP/devt/loop-control 13
$B_TMP/pts/ptmx 13" ] || b_fail "$mode: a program a job runs opened a device node: exit $rc:" \
                        "$(cat o.prerun.txt) $(tail -2 err)"
        fi
        # no write hint set on a file a program opened for reading (the inode would keep it)
        rm -f hinted h.prerun.txt
        : >hinted
        run $unc --allow-exec --allow-write --name=h --filename="$dev" --rw=read --size=1m \
                "--exec_prerun=python3 $B_TMP/hint.py $B_TMP/hinted"
        [ "$(cat h.prerun.txt)" = "hint 1" ] && [ "$(hint_of hinted)" = 0 ] ||
                b_fail "$mode: a program a job runs set a write hint: $(cat h.prerun.txt), now $(hint_of hinted)"
        # with --allow-exec no io_uring: its engine refused before fio runs, the default engine libaio
        run $unc --allow-exec --allow-write --name=u --filename="$dev" --rw=read --size=1m --ioengine=io_uring \
                --exec_prerun=true
        [ $rc = 3 ] && grep -q "job 'u': ioengine=io_uring with --allow-exec: the fence closes io_uring" err ||
                b_fail "$mode: io_uring with --allow-exec: exit $rc: $(tail -2 err)"
        run $unc --allow-exec --allow-write --name=u --filename="$dev" --rw=read --size=1m --exec_prerun=true
        [ $rc = 0 ] && grep -q "ioengine=libaio" out ||
                b_fail "$mode: --allow-exec: exit $rc, the default engine is not libaio: $(head -3 out) $(tail -2 err)"
        # the bench's standard input (a terminal) reaches no program a job runs
        rm -f in.prerun.txt
        echo typed-secret >typed
        "$BENCH_BIN" --backend=fio $unc --allow-exec --allow-write --name=in --filename="$dev" --rw=read \
                --size=1m "--exec_prerun=head -c 12" <typed >out 2>err
        [ -f in.prerun.txt ] && ! grep -q secret in.prerun.txt ||
                b_fail "$mode: a program a job runs read the bench's standard input: $(cat in.prerun.txt) $(tail -2 err)"
        # a descriptor the bench's caller leaves open reaches no program a job runs
        rm -f outside fd.prerun.txt
        : >outside
        (exec 7>>outside; "$BENCH_BIN" --backend=fio $unc --allow-exec --allow-write --name=fd --filename="$dev" \
                --rw=read --size=1m "--exec_prerun=sh -c 'echo leaked >&7'" >out 2>err)
        [ ! -s outside ] || b_fail "$mode: a program a job runs wrote through the caller's descriptor 7"
        grep -q "7: Bad file descriptor" fd.prerun.txt ||
                b_fail "$mode: the program did not run, or fd 7 was open: $(cat fd.prerun.txt) $(tail -2 err)"
        # no priority or limit of a process outside the run: by its pid, or as one of a user's
        if command -v setpriv >/dev/null; then
                setpriv --reuid=65534 --regid=65534 --clear-groups sleep 300 &
                out_pid=$!
                B_PIDS="$B_PIDS $out_pid"
                i=0     # (until setpriv has become the sleep of uid 65534)
                while [ "$(ps -o uid= -p $out_pid | tr -d ' ')" != 65534 ] && [ $i -lt 100 ]; do
                        sleep 0.1; i=$((i + 1))
                done
                state0=$(echo nice $(ps -o ni= -p $out_pid), $(grep "open files" /proc/$out_pid/limits))
                rm -f pr.prerun.txt
                run $unc --allow-exec --allow-write --name=pr --filename="$dev" --rw=read --size=1m \
                        "--exec_prerun=python3 $B_TMP/prio.py $out_pid 65534"
                state1=$(echo nice $(ps -o ni= -p $out_pid), $(grep "open files" /proc/$out_pid/limits))
                [ "$state1" = "$state0" ] ||
                        b_fail "$mode: a program a job ran changed a process outside: $state0 -> $state1:" \
                                "$(cat pr.prerun.txt)"
                grep -q "^nice 3$" pr.prerun.txt && grep -q "^limit 3$" pr.prerun.txt ||
                        b_fail "$mode: the program did not run, or saw the process outside: $(cat pr.prerun.txt)"
                kill $out_pid
        fi
        # no capability to configure the network, even with sockets: lo keeps its addresses
        rm -f na.prerun.txt
        run $unc --allow-exec --allow-write --allow-net --name=na --filename="$dev" --rw=read --size=1m \
                "--exec_prerun=grep CapEff /proc/self/status"
        eff=$(sed -n 's/^CapEff:[[:space:]]*//p' na.prerun.txt)
        [ -n "$eff" ] && [ $((0x$eff >> 12 & 1)) = 0 ] ||
                b_fail "$mode: a program a job runs has CAP_NET_ADMIN: $(cat na.prerun.txt) $(tail -2 err)"
        if command -v ip >/dev/null; then
                run $unc --allow-exec --allow-write --allow-net --name=na --filename="$dev" --rw=read --size=1m \
                        "--exec_prerun=ip addr add 127.0.0.77/32 dev lo"
                if ip addr show dev lo | grep -q "127\.0\.0\.77/"; then
                        ip addr del 127.0.0.77/32 dev lo
                        b_fail "$mode: a program a job ran added an address to lo: $(cat na.prerun.txt)"
                fi
        fi
        # no socket without --allow-net, --allow-exec or not
        rm -f conn
        conn="--name=c --ioengine=exec --program=$B_TMP/conn.py --arguments=$B_TMP/l.sock --std_redirect=0"
        conn="$conn --runtime=1 --time_based=1"
        # shellcheck disable=SC2086 # the form's words
        run $unc --allow-exec $conn
        [ ! -e conn ] || b_fail "$mode: a program a job runs connected to a unix socket without --allow-net"
        # shellcheck disable=SC2086
        run $unc --allow-exec --allow-net $conn
        [ -e conn ] || b_fail "$mode: --allow-net: the program did not reach the listener: exit $rc: $(tail -2 err)"
done
exit 0
