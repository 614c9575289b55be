#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: ioschedd's sd_notify protocol, read from a datagram socket set
# as $NOTIFY_SOCKET: READY=1 after the start pass, STATUS= lines,
# RELOADING=1 with MONOTONIC_USEC= then READY=1 again on SIGHUP, STOPPING=1
# on SIGTERM; and with $JOURNAL_STREAM naming its stderr, log lines carry
# <N> priority prefixes.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || t_skip "no python3 for the notify socket"
t_loop L 16
P=$T_TMP/policy.conf
d_policy "$P" "[Match]
Name=$L
[Set]
Scheduler=mq-deadline"
echo none > "/sys/block/$L/queue/scheduler"

SOCK=$T_TMP/notify.sock
MSGS=$T_TMP/notify.txt
"$PY" - "$SOCK" "$MSGS" <<'EOF' &
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(15)
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

# stderr is a file: make $JOURNAL_STREAM name it, as systemd does for the journal
: > "$D_LOG"
js=$(stat -c '%d:%i' "$D_LOG")
NOTIFY_SOCKET=$SOCK JOURNAL_STREAM=$js d_start --config "$P" --no-builtin
d_wait 2000 grep -q "READY=1" "$MSGS" || t_fail "no READY=1"
grep -q "STATUS=.*change(s) made" "$MSGS" || t_fail "no STATUS= line"
d_sched_is "$L" mq-deadline || t_fail "policy not applied before READY=1"
grep -q '^<6>ready (' "$D_LOG" || t_fail "log lines lack the <N> prefix under \$JOURNAL_STREAM: $(head -n 3 "$D_LOG")"
grep -q "^<6>$L: scheduler: " "$D_LOG" || t_fail "the change is not logged at info (<6>)"

kill -HUP "$D_PID"
d_wait 2000 grep -q "RELOADING=1.*MONOTONIC_USEC=[0-9]" "$MSGS" || t_fail "no RELOADING=1 with MONOTONIC_USEC="
ready_twice() { [ "$(grep -c 'READY=1' "$MSGS")" -ge 2 ]; }
d_wait 2000 ready_twice || t_fail "no READY=1 after the reload"

d_stop
d_wait 2000 grep -q "STOPPING=1" "$MSGS" || t_fail "no STOPPING=1"
echo "notify messages:"
cat "$MSGS"
d_check_host_untouched
echo "PASS"
