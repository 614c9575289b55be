#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: daemon soak on the host kernel's uevents: ioschedd --monitor
# kernel with a test policy under a private config root, while loop devices of
# this test are created, attached, detached and removed round after round
# (tests/vm/guest/soak-loops.sh: add, change, change, remove per device and
# round), with a SIGHUP storm and a policy-edit storm from other shells and one
# broken policy edit in the middle that is fixed later.  Asserts: every hot-added
# device checked during the run got its scheduler, every device attached at the
# end is on its policy (iosched-apply --check), RSS, descriptor and timerfd
# counts after warm-up and at the end are flat, the log has no line per event
# (only lines for settings changed, reloads and the policy error), and the
# daemon never exited.  Prints one "soak: ..." line with the figures.
#
# Short by default (IOS_SOAK_EVENTS=200 add+remove events, a few seconds);
# IOS_SOAK_EVENTS=10000 for the long run.  IOS_SOAK_DEVICES (8) devices per
# round, IOS_SOAK_HOLD_MS (60) the longest random hold of a round.  Under
# valgrind (VALGRIND=1 tests/run.sh) or ASan the RSS bound is not checked
# (quarantine, shadow memory), the figures are printed.
# Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/daemon-lib.sh"

d_require
command -v perl >/dev/null || t_skip "no perl (the event generator)"
[ -e /dev/loop-control ] || t_skip "no /dev/loop-control"
perl -MTime::HiRes -e 1 2>/dev/null || t_skip "no perl Time::HiRes"

EVENTS=${IOS_SOAK_EVENTS:-200}
NDEV=${IOS_SOAK_DEVICES:-8}
HOLD=${IOS_SOAK_HOLD_MS:-60}
GEN=$top/tests/vm/guest/soak-loops.sh
ROOT=$T_TMP/root
POL=$ROOT/etc/iosched.d/50-soak.conf
EDIT=$ROOT/etc/iosched.d/60-soak-edit.conf
STATE=$T_TMP/gen.state
STOP=$T_TMP/stop
BACKING=/dev/shm/iosched-soak-$$.img
NAMES=""

# our devices go at numbers far from the ones other tests and losetup -f pick
release_all() {
        touch "$STOP"
        [ -n "$NAMES" ] && "$GEN" release "$BACKING" $NAMES $(sed -n 's/^names=//p' "$STATE" 2>/dev/null)
        rm -f "$BACKING"
}
D_EXTRA_CLEANUP=release_all

truncate -s 1M "$BACKING" || t_skip "cannot create $BACKING"
NAMES=$("$GEN" create $((3000 + ($$ % 400) * 16)) "$NDEV" | tr '\n' ' ') || t_skip "cannot create loop devices"
NAMES=${NAMES% }
set -- $NAMES
first=$1
NDEV=$#

# the scheduler wanted is one a new device does not have: the daemon must act
default=$(t_sched "$first")
WANT=""
for s in mq-deadline none kyber bfq; do
        [ "$s" != "$default" ] && grep -qw "$s" "/sys/block/$first/queue/scheduler" && { WANT=$s; break; }
done
[ -n "$WANT" ] || t_skip "$first offers no second scheduler: $(cat "/sys/block/$first/queue/scheduler")"

mkdir -p "$ROOT/etc/iosched.d"
chmod 0755 "$ROOT" "$ROOT/etc" "$ROOT/etc/iosched.d"
d_policy "$POL" "[Match]
Name=$NAMES
[Set]
Scheduler=$WANT"
edit_ok() { # READ_AHEAD_KB
        d_policy "$EDIT" "[Match]
Name=$NAMES
[Set]
queue/read_ahead_kb=$1"
}
edit_ok 256

d_start --config-root "$ROOT" --no-builtin --monitor kernel
d_wait 5000 d_sched_is "$first" "$WANT" || t_fail "$first: policy not applied at start"

count_timers() {
        n=0
        for l in /proc/"$D_PID"/fd/*; do
                case $(readlink "$l" 2>/dev/null) in *timerfd*) n=$((n + 1)) ;; esac
        done
        echo $n
}
# in epoll_wait (x86_64 232, epoll_pwait 281, epoll_pwait2 441): no pass over
# the disks is running, which holds a descriptor per disk while it runs
at_rest() {
        case $(cut -d' ' -f1 "/proc/$D_PID/syscall" 2>/dev/null) in 232 | 281 | 441) return 0 ;; esac
        return 1
}
figures() { # -> "rss fds timers", read while the daemon waits for events
        f=""
        for _ in $(seq 1 200); do
                if at_rest; then
                        f="$(awk '/^VmRSS/ { print $2 }' "/proc/$D_PID/status") $(ls "/proc/$D_PID/fd" | wc -l) $(count_timers)"
                        at_rest && break
                fi
                sleep 0.05
        done
        [ -n "$f" ] || t_fail "ioschedd never waited in epoll_wait"
        echo "$f"
}
gen_value() { v=$(sed -n "s/^$1=//p" "$STATE" 2>/dev/null); echo "${v:-0}"; }
log_count() { grep -c -- "$1" "$D_LOG"; }
# quiet: the daemon has no pending work and its log stopped growing
settle() {
        prev=-1
        for _ in $(seq 1 50); do
                cur=$(wc -l <"$D_LOG")
                [ "$cur" = "$prev" ] && return 0
                prev=$cur
                sleep 0.3
        done
}

# warm-up: a few rounds, one SIGHUP, one edit, so that buffers, the ctx's
# caches and the allocator have grown to their working size
"$GEN" run "$STATE" "$BACKING" 5 2 "$WANT" $((NDEV * 6)) $NAMES >"$T_TMP/gen.out" 2>&1 ||
        { cat "$T_TMP/gen.out"; t_fail "warm-up: the event generator failed"; }
NAMES=$(gen_value names)
[ "$(gen_value missed)" = 0 ] || t_fail "warm-up: hot-added devices without their policy: $(gen_value missed_names)"
kill -HUP "$D_PID"
edit_ok 384
sleep 0.5
d_wait 5000 d_attr_is "$first" read_ahead_kb 384 || t_fail "warm-up: the edit was not applied"
settle
set -- $(figures)
rss0=$1 fds0=$2 timers0=$3
lines0=$(wc -l <"$D_LOG")
reloads0=$(log_count "reloading the policy")

# the storms, from other shells
hups=$T_TMP/hups
edits=$T_TMP/edits
rm -f "$STOP" "$STATE"
(
        n=0
        while [ ! -e "$STOP" ]; do
                kill -HUP "$D_PID" 2>/dev/null && n=$((n + 1))
                echo $n >"$hups"
                sleep 0.07
        done
) &
hup_pid=$!
(
        n=0 broken=0 ra=256
        while [ ! -e "$STOP" ]; do
                done_ev=$(( $(gen_value adds) + $(gen_value removes) ))
                if [ $broken = 0 ] && [ "$done_ev" -ge $((EVENTS / 3)) ]; then
                        # a broken edit: a tunable the table does not have
                        d_policy "$EDIT" "[Match]
Name=$NAMES
[Set]
queue/no_such_tunable=1"
                        broken=1
                        echo "broken at $done_ev" >>"$edits.log"
                elif [ $broken = 1 ] && [ "$done_ev" -ge $((2 * EVENTS / 3)) ] && d_log_has "policy error: $EDIT:"; then
                        broken=2
                        echo "fixed at $done_ev" >>"$edits.log"
                elif [ $broken != 1 ]; then
                        if [ $ra = 256 ]; then ra=384; else ra=256; fi
                        edit_ok $ra
                fi
                n=$((n + 1))
                echo "$n $broken" >"$edits"
                echo "$done_ev $(awk '/^VmRSS/ { print $2 }' "/proc/$D_PID/status")" >>"$T_TMP/rss.log"
                sleep 0.11
        done
) &
edit_pid=$!

t0=$(d_now_ms)
"$GEN" run "$STATE" "$BACKING" "$HOLD" 4 "$WANT" "$EVENTS" $NAMES >"$T_TMP/gen.out" 2>&1 ||
        { cat "$T_TMP/gen.out"; t_fail "the event generator failed"; }
ms=$(( $(d_now_ms) - t0 ))
NAMES=$(gen_value names)
touch "$STOP"
wait $hup_pid $edit_pid
kill -0 "$D_PID" 2>/dev/null || t_fail "ioschedd died during the soak"

# the end: the edit is fixed with a last value, the daemon reloads and settles
grep -q "^broken at" "$edits.log" 2>/dev/null || t_fail "the broken edit never happened"
grep -q "^fixed at" "$edits.log" || echo "note: the run ended before the broken edit was fixed; fixed now"
d_log_has "policy error: $EDIT:" || t_fail "the broken edit was not reported with file:line"
edit_ok 512
d_wait 5000 d_attr_is "$first" read_ahead_kb 512 || t_fail "the fixed edit was not applied"
settle
set -- $(figures)
rss1=$1 fds1=$2 timers1=$3

# every device attached at the end is on its policy
for n in $NAMES; do
        [ "$(cat "/sys/block/$n/loop/backing_file" 2>/dev/null)" = "$BACKING" ] ||
                t_fail "$n is not attached at the end"
done
$APPLY --check --config-root "$ROOT" --no-builtin $NAMES >"$T_TMP/check.out" 2>&1 ||
        { cat "$T_TMP/check.out"; t_fail "iosched-apply --check: a device is not on its policy"; }

adds=$(gen_value adds) removes=$(gen_value removes)
verified=$(gen_value verified) missed=$(gen_value missed)
[ "$missed" = 0 ] || t_fail "$missed hot-added device(s) without their scheduler within 10 s: $(gen_value missed_names)"
[ "$verified" -gt 0 ] || t_fail "no hot-added device was checked"
[ $((adds + removes)) -ge "$EVENTS" ] || t_fail "only $((adds + removes)) add+remove events"

# the log: a line per setting changed, per reload and per policy error; none per event
sed -n "$((lines0 + 1)),\$p" "$D_LOG" >"$T_TMP/soak.log"
lines=$(wc -l <"$T_TMP/soak.log")
reloads=$(( $(log_count "reloading the policy") - reloads0 ))
perrors=$(grep -c "policy error: " "$T_TMP/soak.log")
changes=$(grep -cE ': (scheduler|queue/[a-z_/]+): .* -> .* \[(uevent|rescan|reload)\]$' "$T_TMP/soak.log")
hp_changes=$(grep -cE ': (scheduler|queue/[a-z_/]+): .* -> .* \[uevent\]$' "$T_TMP/soak.log")
grep -vE ': (scheduler|queue/[a-z_/]+): .* -> .* \[(uevent|rescan|reload)\]$' "$T_TMP/soak.log" |
        grep -vE 'reloading the policy \(|new policy: |policy error: |keeping the previous policy|keeping the policy in force' >"$T_TMP/other.log"
others=$(wc -l <"$T_TMP/other.log")
# a disk removed while it was being applied is no failure to warn about
gone=$(grep -cE 'vanished|No such device|kernel kept' "$T_TMP/soak.log")
hup=$(cat "$hups") edit_n=$(cut -d' ' -f1 "$edits")
echo "soak: events=$((adds + removes + $(gen_value attaches) + $(gen_value detaches))) add_remove=$((adds + removes)) rounds=$(gen_value rounds) devices=$NDEV verified_hotplug=$verified (slowest $(gen_value verify_max_ms) ms) sighup=$hup edits=$edit_n reloads=$reloads policy_errors=$perrors rss_kb=$rss0->$rss1 fds=$fds0->$fds1 timers=$timers0->$timers1 log_lines=$lines (changes on hotplug $hp_changes, on reload $((changes - hp_changes)), other $others) duration_ms=$ms"
sed -n 's/^/edit storm: /p' "$edits.log"
sed -n '1,10s/^/other log line: /p' "$T_TMP/other.log"
# RSS along the run (sampled by the edit storm), at each quarter of the events
awk -v ev="$EVENTS" '{ q = int(4 * $1 / ev); if (q > 4) q = 4; if (!(q in r)) r[q] = $2; max = $2 > max ? $2 : max }
     END { printf "RSS along the run (kB, first sample at 0/25/50/75/100%% of the events):"
           for (q = 0; q <= 4; q++) printf " %s", (q in r) ? r[q] : "-"; printf "; highest %s\n", max }' "$T_TMP/rss.log"

[ "$gone" = 0 ] || { grep -E 'vanished|No such device|kernel kept' "$T_TMP/soak.log" | head -n 5; t_fail "$gone warnings about disks that went away"; }
[ "$others" -le 10 ] || { head -n 20 "$T_TMP/other.log"; t_fail "$others log lines that are neither changes nor reloads"; }
# changes: on hotplug at most the scheduler and read-ahead of each device
# added (none for an attach or detach), on reloads the read-ahead of each
# device of ours (the edit storm alternates it)
[ "$hp_changes" -le $((2 * (adds + NDEV))) ] ||
        t_fail "$hp_changes change lines on hotplug for $adds devices added: a line per event"
[ $((changes - hp_changes)) -le $((NDEV * (reloads + 2))) ] ||
        t_fail "$((changes - hp_changes)) change lines on $reloads reloads"
[ "$reloads" -ge 2 ] || t_fail "only $reloads reloads during the storms"
[ "$fds1" = "$fds0" ] || { ls -l "/proc/$D_PID/fd"; t_fail "descriptors $fds0 -> $fds1"; }
[ "$timers1" = "$timers0" ] || t_fail "timerfds $timers0 -> $timers1"
if [ -n "${IOS_VALGRIND:-}" ] || ldd "$top/$BUILDDIR/ioschedd" 2>/dev/null | grep -q libasan; then
        echo "valgrind or ASan: RSS bound not checked"
else
        [ $((rss1 - rss0)) -le 512 ] || t_fail "RSS grew by $((rss1 - rss0)) kB"
fi
kill -0 "$D_PID" || t_fail "ioschedd died"
d_stop
d_check_host_untouched
echo "PASS"
