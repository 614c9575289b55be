#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: a typo under ioschedd moves no disk.  A loop device of the
# test's own is put on mq-deadline by 60-perc.conf over a lower 10-low.conf
# that says none.  Saving read_ahead_kb=1M in 60-perc.conf is an error: the
# daemon keeps the policy in force (journal and STATUS=), the disk stays on
# mq-deadline (before: it fell to 10-low's none at once); saving the fixed
# file applies it.  The same broken file on the udev path (--udev) and
# under --check holds the disk too, naming file:line and the disk.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || t_skip "no python3 for the notify socket"
t_loop L 16
grep -qw mq-deadline "/sys/block/$L/queue/scheduler" || t_skip "kernel offers no mq-deadline"
R=$T_TMP/root
mkdir -p "$R/etc/iosched.d" && chmod 0755 "$R" "$R/etc" "$R/etc/iosched.d"
LOW=$R/etc/iosched.d/10-low.conf
P=$R/etc/iosched.d/60-perc.conf
d_policy "$LOW" "[Match]
Name=$L
[Set]
Scheduler=none"
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/read_ahead_kb=512"
echo none > "/sys/block/$L/queue/scheduler"

SOCK=$T_TMP/notify.sock
MSGS=$T_TMP/notify.txt
"$PY" - "$SOCK" "$MSGS" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(20)
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        try:
            m = s.recv(4096).decode()
        except socket.timeout:
            break
        out.write(m.replace("\n", " | ") + "\n")
        if "STOPPING=1" in m:
            break
EOF
LISTENER=$!
D_EXTRA_CLEANUP="kill $LISTENER 2>/dev/null"
d_wait 5000 test -S "$SOCK" || t_fail "the notify listener did not start"

NOTIFY_SOCKET=$SOCK d_start --config-root "$R" --no-builtin --monitor none
d_wait 2000 d_sched_is "$L" mq-deadline || t_fail "$L: not on mq-deadline at start: $(t_sched "$L")"
d_wait 1000 d_attr_is "$L" read_ahead_kb 512 || t_fail "$L: read_ahead_kb not set at start"

# the typo: the daemon keeps the policy in force, the disk stays where it is
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/read_ahead_kb=1M"
d_wait 3000 d_log_has "policy error: $P:5:" || t_fail "the error does not name $P:5"
d_log_has "keeping the policy in force" || t_fail "keeping the policy in force is not logged"
d_wait 2000 grep -q "STATUS=policy error: $P:5: .*keeping the policy in force" "$MSGS" ||
        t_fail "STATUS= does not say it: $(tail -n 3 "$MSGS")"
sleep 0.5
d_sched_is "$L" mq-deadline || t_fail "a broken file moved the disk: $(t_sched "$L")"
d_attr_is "$L" read_ahead_kb 512 || t_fail "read_ahead_kb changed under a broken file"
d_log_has "$L: scheduler: mq-deadline -> none" && t_fail "the disk fell to the lower rule"

# the udev path and --check with the broken file: held, exit 2, one line naming file:line and the disk
out=$($APPLY --config-root "$R" --no-builtin --check "$L" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--check with a broken file: exit $rc, want 2 ($out)"
echo "$out" | grep -q "$P:5: .*; held: $L keeps its scheduler, queue/read_ahead_kb" ||
        t_fail "--check does not name the disk held: $out"
echo "$out" | grep -q "$L: scheduler" && t_fail "--check reports the held scheduler as drift: $out"
$APPLY --config-root "$R" --no-builtin --udev "$L" >/dev/null 2>&1; rc=$?
[ $rc = 2 ] || t_fail "--udev with a broken file: exit $rc, want 2"
d_sched_is "$L" mq-deadline || t_fail "--udev moved the disk: $(t_sched "$L")"
out=$($APPLY --config-root "$R" --no-builtin "$L" 2>&1); rc=$?
[ $rc = 2 ] || t_fail "apply with a broken file: exit $rc, want 2"
d_sched_is "$L" mq-deadline || t_fail "apply moved the disk: $(t_sched "$L")"
d_attr_is "$L" read_ahead_kb 512 || t_fail "apply changed read_ahead_kb: $out"

# the fix is applied when it is saved
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline
queue/read_ahead_kb=1024"
d_wait 3000 d_attr_is "$L" read_ahead_kb 1024 || t_fail "the fixed file was not applied"
d_sched_is "$L" mq-deadline || t_fail "the fixed file moved the scheduler"

d_stop
d_check_host_untouched
echo "PASS"
