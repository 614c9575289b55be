#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd's uevent source is udev only when udevd really runs.
# In a private mount namespace with its own /run, /run/udev/control is made
# a stale socket (bound, nobody listening: what a stopped udevd leaves), or
# left out.  With --monitor auto and with --monitor udev the daemon says
# clearly that udevd is not running, listens to kernel uevents, and a loop
# device attached afterwards gets its policy.  With a socket someone listens
# on, auto picks udev.
# Exit 0 pass, 77 skip, 1 fail.
set -u
if [ "${IOS_IN_PRIVATE_NS:-}" != 1 ]; then
        [ "$(id -u)" = 0 ] || { echo "SKIP: needs root"; exit 77; }
        command -v unshare >/dev/null || { echo "SKIP: no unshare"; exit 77; }
        unshare -m --propagation private true 2>/dev/null || { echo "SKIP: no mount namespaces"; exit 77; }
        IOS_IN_PRIVATE_NS=1 exec unshare -m --propagation private "$0" "$@"
fi
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
command -v perl >/dev/null || t_skip "no perl (needed to remove the loop device again)"
command -v python3 >/dev/null || t_skip "no python3"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
mount -t tmpfs -o mode=0755 iosched-test-run /run || t_skip "cannot mount a tmpfs on /run"
mkdir -p /run/udev

stale_socket() {
        rm -f /run/udev/control
        python3 -c 'import socket; s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET); s.bind("/run/udev/control")' ||
                t_fail "cannot make a stale socket"
        [ -S /run/udev/control ] || t_fail "no stale socket"
}

# hotplug WHAT ARGS...: start ioschedd, attach a new loop device, it must get its policy
hotplug() {
        what=$1; shift
        n=$(d_free_loop_number)
        L=loop$n
        d_policy "$T_TMP/policy.conf" "[Match]
Name=$L
[Set]
Scheduler=kyber mq-deadline"
        d_start --config "$T_TMP/policy.conf" --no-builtin -v "$@"
        d_log_has "ready (monitor kernel" || t_fail "$what: not on kernel uevents: $(cat "$D_LOG")"
        f=$(mktemp "$T_TMP/backing-XXXXXX")
        truncate -s 16M "$f"
        D_NEW_LOOPS="$D_NEW_LOOPS $n"
        losetup "/dev/$L" "$f" || t_skip "cannot create /dev/$L"
        T_LOOPS="$T_LOOPS $L"
        d_wait 3000 d_sched_is "$L" kyber || d_sched_is "$L" mq-deadline ||
                t_fail "$what: $L did not get its policy after hotplug: $(t_sched "$L")"
        echo "$what: hot-added $L got $(t_sched "$L")"
        d_stop
}

stale_socket
hotplug "auto, stale socket"
d_log_has "udevd is not running (/run/udev/control: nobody listens on it" ||
        t_fail "auto: no warning about the stale socket: $(cat "$D_LOG")"
grep "udevd" "$D_LOG"

stale_socket
hotplug "--monitor udev, stale socket" --monitor udev
d_log_has "--monitor udev: udevd is not running (/run/udev/control: nobody listens on it" ||
        t_fail "--monitor udev: no warning: $(cat "$D_LOG")"
grep "udevd" "$D_LOG"

rm -f /run/udev/control
hotplug "--monitor udev, no socket" --monitor udev
d_log_has "--monitor udev: udevd is not running (/run/udev/control: it does not exist)" ||
        t_fail "--monitor udev without a socket: no warning: $(cat "$D_LOG")"

# someone listens: auto picks udev (no udevd here relays events, so only the choice is checked)
python3 -c '
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
s.bind("/run/udev/control"); s.listen(4)
print("listening", flush=True)
time.sleep(30)' > "$T_TMP/listener.log" 2>&1 &
lpid=$!
D_EXTRA_CLEANUP="kill $lpid 2>/dev/null"
d_wait 5000 grep -q listening "$T_TMP/listener.log" || t_fail "listener did not start"
d_policy "$T_TMP/policy.conf" "[Match]
Name=loop-none-such
[Set]
Scheduler=none"
d_start --config "$T_TMP/policy.conf" --no-builtin -v
d_log_has "ready (monitor udev" || t_fail "auto with a live control socket: $(cat "$D_LOG")"
d_stop
kill "$lpid" 2>/dev/null
d_check_host_untouched
echo "PASS"
