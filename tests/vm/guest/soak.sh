#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# soak.sh (guest, called by payload.sh for the SOAK check): the daemon soak on
# a real kernel with real udev.  ioschedd.service (the installed unit, monitor
# auto = udev) runs alone (payload.sh moved the iosched udev rule away) while
#   - soak-loops.sh creates, attaches, detaches and removes SOAK_DEVICES loop
#     devices round after round until SOAK_EVENTS add+remove events were made,
#     checking every 4th round that each device got the policy's scheduler;
#   - SOAK_SCSI scsi_debug disks are deleted and rescanned over and over
#     (/sys/.../delete, host scan), each rescan checked for the policy too;
#   - another loop sends SIGHUP to the daemon, a third edits a policy drop-in
#     (read_ahead_kb 256/384 in turn), with one broken edit once a third of the
#     events or of SOAK_SECONDS is done, fixed after two thirds.
# Events are counted as udev delivers them to the daemon (udevadm monitor
# --udev, block/disk).  After a warm-up and at the end: the daemon's VmRSS
# (also every edit along the run), descriptor and timerfd counts; journal
# lines of this daemon run (with what journald suppressed); NRestarts and
# MainPID.  Passes when every device attached at the end is on its policy
# (iosched-apply --check), every checked hot-add got its scheduler, the
# figures are flat, the journal has lines only of the kinds listed in the
# checks below, each within its bound, and the daemon never restarted.
#
# Prints on fd 3 "  soak| ..." details and one line
#   soak: events=N add_remove=N rss_kb=A->Q->B anon_kb=A->B fds=A->B timers=A->B log_lines=N ...
# (collected by tests/vm/run.sh); exit 0 pass, 1 fail (reasons on "  soak| FAIL:").
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
set -u
here=$(cd "$(dirname "$0")" && pwd)
SOAK_EVENTS=${SOAK_EVENTS:-10000}
SOAK_DEVICES=${SOAK_DEVICES:-16}
SOAK_SCSI=${SOAK_SCSI:-4}
SOAK_HOLD_MS=${SOAK_HOLD_MS:-20}
SOAK_MIN_EVENTS=${SOAK_MIN_EVENTS:-500}
export SOAK_SECONDS=${SOAK_SECONDS:-180}
export SOAK_ATTACH_EVERY=${SOAK_ATTACH_EVERY:-4}
export SOAK_VERIFY_TIMEOUT=${SOAK_VERIFY_TIMEOUT:-60}

{ true >&3; } 2>/dev/null || exec 3>&1
say() { printf '  soak| %s\n' "$*" >&3; }
fails=0
fail() { say "FAIL: $*"; fails=$((fails + 1)); }
W=/run/iosched-soak
rm -rf "$W"
mkdir -p "$W" /run/iosched.d
POL=/run/iosched.d/50-soak.conf
EDIT=/run/iosched.d/60-soak-edit.conf
STATE=$W/gen.state
STOP=$W/stop
BACKING=$W/backing.img
GEN=$here/soak-loops.sh
mkfifo "$W/tick"
exec {TICK}<>"$W/tick"
tick() { read -r -t "$1" -u "$TICK" _ 2>/dev/null; } # sleep without a fork
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
sched() { # NAME -> the [bracketed] scheduler
	local s
	read -r s 2>/dev/null </sys/block/"$1"/queue/scheduler || { echo -; return; }
	s=${s#*[}
	echo "${s%%]*}"
}
gen_value() { local v; v=$(sed -n "s/^$1=//p" "$STATE" 2>/dev/null); echo "${v:-0}"; }

NAMES= SCSI_HOST= MON_PID= HUP_PID= EDIT_PID= SCSI_PID=
cleanup() {
	touch "$STOP"
	for p in $HUP_PID $EDIT_PID $SCSI_PID $MON_PID; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	systemctl stop ioschedd.service 2>/dev/null
	rm -f /etc/systemd/system/ioschedd.service.d/50-soak.conf
	systemctl daemon-reload
	[ -n "$NAMES" ] && "$GEN" release "$BACKING" $NAMES $(sed -n 's/^names=//p' "$STATE" 2>/dev/null)
	modprobe -r scsi_debug 2>/dev/null
	rm -f "$POL" "$EDIT"
	udevadm settle --timeout=120
	rm -rf "$W"
}
trap cleanup EXIT

# ------------------------------------------------------------------ devices
truncate -s 1M "$BACKING"
NAMES=$("$GEN" create 3000 "$SOAK_DEVICES" | tr '\n' ' ')
NAMES=${NAMES% }
set -- $NAMES
[ $# -gt 0 ] || { say "FAIL: cannot create loop devices"; exit 1; }
first=$1 ndev=$#
udevadm settle --timeout=60
default=$(sched "$first")
WANT=
for s in none mq-deadline; do [ "$s" != "$default" ] && WANT=$s && break; done
SCSI_NAMES=
if [ "$SOAK_SCSI" -gt 0 ] && modprobe scsi_debug num_tgts="$SOAK_SCSI" max_luns=1 dev_size_mb=4 delay=0 2>"$W/modprobe.err"; then
	udevadm settle --timeout=60
	for h in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*; do SCSI_HOST=${h##*/host}; done
	scsi_disks() {
		local b
		for b in /sys/class/scsi_host/host"$SCSI_HOST"/device/target*/*/block/*; do
			[ -e "$b" ] && printf '%s ' "${b##*/}"
		done
	}
	SCSI_NAMES=$(scsi_disks)
	sd_default=$(sched "${SCSI_NAMES%% *}")
	say "scsi_debug: host$SCSI_HOST, disks $SCSI_NAMES(kernel's scheduler $sd_default)"
else
	say "no scsi_debug: $(cat "$W/modprobe.err" 2>/dev/null)"
	SOAK_SCSI=0
fi
WANT_SD=none
[ "${sd_default:-}" = none ] && WANT_SD=mq-deadline
say "loop devices $NAMES (kernel's scheduler $default, policy $WANT); scsi_debug policy $WANT_SD"

# ------------------------------------------------------------------ policy, daemon
printf '[Match]\nName=%s\n[Set]\nScheduler=%s\n[Match]\nModel=scsi_debug*\n[Set]\nScheduler=%s\n[Daemon]\nDriftInterval=2s\n' \
	"$NAMES" "$WANT" "$WANT_SD" >"$POL"
edit_ok() { printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=%s\n' "$NAMES" "$1" >"$EDIT"; }
edit_ok 256
chmod 0644 "$POL" "$EDIT"
systemctl reset-failed ioschedd.service 2>/dev/null
systemctl start ioschedd.service || { say "FAIL: ioschedd.service did not start"; exit 1; }
PID=$(systemctl show -p MainPID --value ioschedd.service)
INV=$(systemctl show -p InvocationID --value ioschedd.service)
jlines() { # journal lines of this daemon run, as a file
	journalctl --sync 2>/dev/null
	journalctl -b _SYSTEMD_INVOCATION_ID="$INV" -o cat --no-pager >"$1" 2>/dev/null
}
count_timers() {
	local n=0 l
	for l in /proc/"$PID"/fd/*; do
		case $(readlink "$l" 2>/dev/null) in *timerfd*) n=$((n + 1)) ;; esac
	done
	echo $n
}
# in epoll_wait (x86_64 232, epoll_pwait 281, epoll_pwait2 441): no pass over
# the disks is running (a drift or reload pass holds a descriptor per disk)
at_rest() {
	local s
	read -r s _ 2>/dev/null </proc/"$PID"/syscall
	case $s in 232 | 281 | 441) return 0 ;; esac
	return 1
}
figures() { # -> "rss fds timers anon", read while the daemon waits for events
	# a drift pass (every 2 s) can start and end between two looks at the
	# syscall: of 5 readings at rest, the lowest descriptor and timer counts.
	# Under TCG on a loaded host a pass can take longer than the interval,
	# so rest comes seldom: looks for up to 300 s (a hang guard, not a
	# duration), and no reading at all is said, never counted as 0
	local f= n=0 fds= timers= c t end=$(($(date +%s) + 300))
	while [ "$(date +%s)" -lt $end ]; do
		if at_rest; then
			c=$(ls "/proc/$PID/fd" | wc -l) t=$(count_timers)
			if at_rest; then
				{ [ -z "$fds" ] || [ "$c" -lt "$fds" ]; } && fds=$c
				{ [ -z "$timers" ] || [ "$t" -lt "$timers" ]; } && timers=$t
				n=$((n + 1))
				[ $n -ge 5 ] && break
			fi
		fi
		tick 0.05
	done
	f="$(awk '/^VmRSS/ { print $2 }' "/proc/$PID/status") ${fds:-never-at-rest} ${timers:-never-at-rest} $(awk '/^RssAnon/ { print $2 }' "/proc/$PID/status")"
	echo "$f"
}
settle() { # udev's queue empty and the daemon's journal still for a second
	local prev=-1 cur i
	udevadm settle --timeout=180
	for i in $(seq 1 60); do
		jlines "$W/j.now"
		cur=$(wc -l <"$W/j.now")
		[ "$cur" = "$prev" ] && return 0
		prev=$cur
		tick 1
	done
}

udevadm monitor --udev --subsystem-match=block/disk >"$W/monitor.log" 2>&1 &
MON_PID=$!

# warm-up: a few rounds, one SIGHUP, one edit
SOAK_SECONDS=0 "$GEN" run "$STATE" "$BACKING" 5 1 "$WANT" $((ndev * 4)) $NAMES >"$W/gen.out" 2>&1 ||
	{ say "FAIL: warm-up: $(tail -n 3 "$W/gen.out" | tr '\n' ' ')"; exit 1; }
[ "$(gen_value missed)" = 0 ] || fail "warm-up: hot-added devices without their policy: $(gen_value missed_names)"
kill -HUP "$PID"
edit_ok 384
settle
[ "$(cat /sys/block/"$first"/queue/read_ahead_kb)" = 384 ] || fail "warm-up: the policy edit was not applied"
set -- $(figures)
rss0=$1 fds0=$2 timers0=$3 anon0=$4
jlines "$W/j0"
lines0=$(wc -l <"$W/j0")
mon0=$(wc -l <"$W/monitor.log")
say "after warm-up: rss ${rss0} kB (anon ${anon0:-?} kB), $fds0 fds, $timers0 timerfds, $lines0 journal lines"

# ------------------------------------------------------------------ storms
rm -f "$STOP" "$STATE"
(
	n=0
	while [ ! -e "$STOP" ]; do
		# bursts: signals sent while one is pending coalesce into one reload
		for i in 1 2 3 4 5 6 7 8 9 10; do kill -HUP "$PID" 2>/dev/null && n=$((n + 1)); done
		echo $n >"$W/hups"
		tick 3
	done
) &
HUP_PID=$!
(
	n=0 broken=0 ra=256 start=$(now_ms)
	# a third of the way (events, or the time cap), the edit breaks; two thirds, fixed
	third() { # N -> true when N thirds are done
		[ "$done_ev" -ge $((SOAK_EVENTS * $1 / 3)) ] ||
			{ [ "$SOAK_SECONDS" -gt 0 ] && [ $(($(now_ms) - start)) -ge $((SOAK_SECONDS * 1000 * $1 / 3)) ]; }
	}
	while [ ! -e "$STOP" ]; do
		done_ev=$(($(gen_value adds) + $(gen_value removes)))
		if [ $broken = 0 ] && third 1; then
			printf '[Match]\nName=%s\n[Set]\nqueue/no_such_tunable=1\n' "$NAMES" >"$EDIT"
			broken=1
			echo "broken at $done_ev events, $(now_ms) ms" >>"$W/edits.log"
		elif [ $broken = 1 ] && third 2; then
			broken=2
			edit_ok 256
			echo "fixed at $done_ev events, $(now_ms) ms" >>"$W/edits.log"
		elif [ $broken != 1 ]; then
			if [ $ra = 256 ]; then ra=384; else ra=256; fi
			edit_ok $ra
		fi
		n=$((n + 1))
		echo $n >"$W/edits"
		# the daemon's RSS along the run (read without a fork)
		rss= anon=
		while read -r k v _; do
			case $k in VmRSS:) rss=$v ;; RssAnon:) anon=$v && break ;; esac
		done </proc/"$PID"/status
		[ -n "$rss" ] && [ -n "$anon" ] && echo "$(($(now_ms) - start)) $rss $anon" >>"$W/rss.log"
		tick 2
	done
) &
EDIT_PID=$!
if [ "$SOAK_SCSI" -gt 0 ]; then
	(
		r=0 verified=0 missed=0 slowest=0
		while [ ! -e "$STOP" ]; do
			for d in /sys/class/scsi_host/host"$SCSI_HOST"/device/target*/*:*:*:*/delete; do
				[ -e "$d" ] && echo 1 >"$d"
			done
			echo '- - -' >/sys/class/scsi_host/host"$SCSI_HOST"/scan
			r=$((r + 1))
			# each rescanned disk must get its scheduler (this paces the loop to udev)
			t0=$(now_ms)
			while :; do
				left=0
				for b in /sys/class/scsi_host/host"$SCSI_HOST"/device/target*/*/block/*; do
					[ "$(sched "${b##*/}")" = "$WANT_SD" ] || left=$((left + 1))
				done
				[ $left = 0 ] || [ $(($(now_ms) - t0)) -gt $((SOAK_VERIFY_TIMEOUT * 1000)) ] && break
				tick 0.01
			done
			ms=$(($(now_ms) - t0))
			[ $ms -gt $slowest ] && slowest=$ms
			missed=$((missed + left))
			verified=$((verified + SOAK_SCSI - left))
			echo "rounds=$r verified=$verified missed=$missed slowest=$slowest" >"$W/scsi"
		done
	) &
	SCSI_PID=$!
fi

t0=$(now_ms)
"$GEN" run "$STATE" "$BACKING" "$SOAK_HOLD_MS" 4 "$WANT" "$SOAK_EVENTS" $NAMES >"$W/gen.out" 2>&1 ||
	fail "the loop generator: $(tail -n 3 "$W/gen.out" | tr '\n' ' ')"
gen_ms=$(($(now_ms) - t0))
NAMES=$(gen_value names)
touch "$STOP"
wait $HUP_PID $EDIT_PID ${SCSI_PID:-}
HUP_PID= EDIT_PID= SCSI_PID=
grep -q '^broken' "$W/edits.log" 2>/dev/null || fail "the broken edit never happened"
grep -q '^fixed' "$W/edits.log" 2>/dev/null || { say "the run ended before the broken edit was fixed: fixed now"; edit_ok 256; }
# a last edit with a value not used before, so the end state is known
edit_ok 512
settle
all_ms=$(($(now_ms) - t0))
kill "$MON_PID" 2>/dev/null
wait "$MON_PID" 2>/dev/null
MON_PID=

# ------------------------------------------------------------------ checks
PID1=$(systemctl show -p MainPID --value ioschedd.service)
INV1=$(systemctl show -p InvocationID --value ioschedd.service)
NR=$(systemctl show -p NRestarts --value ioschedd.service)
[ "$PID1" = "$PID" ] && [ "$INV1" = "$INV" ] && [ "${NR:-0}" = 0 ] && systemctl is-active -q ioschedd.service ||
	fail "the daemon restarted or stopped: MainPID $PID -> $PID1, NRestarts=$NR, $(systemctl is-active ioschedd.service)"
set -- $(figures)
rss1=$1 fds1=$2 timers1=$3 anon1=$4

SCSI_NAMES=
[ "$SOAK_SCSI" -gt 0 ] && SCSI_NAMES=$(scsi_disks)
bad=
for n in $NAMES; do
	[ "$(cat /sys/block/"$n"/loop/backing_file 2>/dev/null)" = "$BACKING" ] || bad="$bad $n"
	[ "$(cat /sys/block/"$n"/queue/read_ahead_kb 2>/dev/null)" = 512 ] || bad="$bad $n:read_ahead_kb=$(cat /sys/block/"$n"/queue/read_ahead_kb)"
done
[ -z "$bad" ] || fail "not attached or not on the last edit at the end:$bad"
if ! iosched-apply --check $NAMES $SCSI_NAMES >"$W/check.out" 2>&1; then
	fail "iosched-apply --check on the devices attached at the end: $(tail -n 5 "$W/check.out" | tr '\n' ' ')"
fi

adds=$(gen_value adds) removes=$(gen_value removes)
[ "$(gen_value missed)" = 0 ] || fail "$(gen_value missed) hot-added loop devices without their scheduler within ${SOAK_VERIFY_TIMEOUT}s: $(gen_value missed_names)"
scsi_line=
if [ "$SOAK_SCSI" -gt 0 ]; then
	scsi_line=$(cat "$W/scsi" 2>/dev/null)
	case $scsi_line in *missed=0*) ;; *) fail "scsi_debug rescans without the policy: $scsi_line" ;; esac
fi
# what udev delivered (to the daemon as to us), after the warm-up
tail -n +"$((mon0 + 1))" "$W/monitor.log" >"$W/mon.soak"
ev_add=$(grep -c '^UDEV.* add ' "$W/mon.soak")
ev_rm=$(grep -c '^UDEV.* remove ' "$W/mon.soak")
ev_ch=$(grep -c '^UDEV.* change ' "$W/mon.soak")
ev_ar=$((ev_add + ev_rm))

jlines "$W/j1"
tail -n +"$((lines0 + 1))" "$W/j1" >"$W/j.soak"
lines=$(wc -l <"$W/j.soak")
suppressed=$(journalctl -b -u systemd-journald.service -o cat --no-pager 2>/dev/null |
	sed -n 's/^Suppressed \([0-9]*\) messages from ioschedd.service.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
re_change=': (scheduler|queue/[a-z_/]+): .* -> .* \[(uevent|rescan|reload|drift)\]$'
changes=$(grep -cE "$re_change" "$W/j.soak")
hp_changes=$(grep -cE ': (scheduler|queue/[a-z_/]+): .* -> .* \[uevent\]$' "$W/j.soak")
# a new disk that a drift check (or the re-check after an overrun) found first
new_changes=$(grep -cE ': (scheduler|queue/[a-z_/]+): .* -> .* \[(drift|rescan)\]$' "$W/j.soak")
rl_changes=$((changes - hp_changes - new_changes))
reloads=$(grep -c 'reloading the policy (' "$W/j.soak")
perrors=$(grep -c 'policy error: ' "$W/j.soak")
drift=$(grep -c 'was changed behind our back' "$W/j.soak")
notes=$(grep -c ': note: ' "$W/j.soak")
overruns=$(grep -c 'uevents were lost' "$W/j.soak")
gone=$(grep -cE 'vanished|No such device|kernel kept' "$W/j.soak")
grep -vE "$re_change" "$W/j.soak" |
	grep -vE 'reloading the policy \(|new policy: |policy error: |keeping the previous policy|keeping the policy in force|was changed behind our back|: note: |uevents were lost' >"$W/j.other"
others=$(wc -l <"$W/j.other")
hups=$(cat "$W/hups" 2>/dev/null) edits=$(cat "$W/edits" 2>/dev/null)
sed 's/^/edit storm: /' "$W/edits.log" | while read -r l; do say "$l"; done
say "scsi_debug: ${scsi_line:-none}"
# RSS at about 0/25/50/75/100% of the storm time, then at the end
say "rss along the run (kB, 0/25/50/75/100% of the time): $(awk -v end=$rss1 '{ t[NR] = $1; r[NR] = $2 }
	END { for (q = 0; q <= 4; q++) { i = int((NR - 1) * q / 4) + 1; printf "%s%s", (q ? " " : ""), (NR ? r[i] : "-") }
	      printf ", %s at the end", end }' "$W/rss.log" 2>/dev/null)"
say "rss changes (ms into the storms: VmRSS/RssAnon kB): $(awk 'NR == 1 || $2 != last || $3 != la { printf "%s: %s/%s, ", $1, $2, $3 } { last = $2; la = $3 }' "$W/rss.log" 2>/dev/null)"
# a quarter into the storms, for the soak: line
rssq=$(awk -v q=$((gen_ms / 4)) '$1 >= q { print $2; exit }' "$W/rss.log" 2>/dev/null)
rssq=${rssq:-$rss0}
while read -r l; do say "other journal line: $l"; done < <(head -n 10 "$W/j.other")
say "loop generator: $(gen_value rounds) rounds of $ndev devices in $gen_ms ms, $(gen_value verified) hot-adds checked (slowest $(gen_value verify_max_ms) ms), $(gen_value lost) numbers lost"
printf 'soak: events=%s add_remove=%s rss_kb=%s->%s->%s anon_kb=%s->%s fds=%s->%s timers=%s->%s log_lines=%s kernel=%s loop_add_remove=%s change_events=%s sighup=%s edits=%s reloads=%s policy_errors=%s changes_hotplug=%s changes_reload=%s changes_new=%s drift_lines=%s note_lines=%s overruns=%s other_lines=%s suppressed=%s seconds=%s\n' \
	$((ev_ar + ev_ch)) "$ev_ar" "$rss0" "$rssq" "$rss1" "$anon0" "$anon1" "$fds0" "$fds1" "$timers0" "$timers1" "$lines" "$(uname -r)" \
	$((adds + removes)) "$ev_ch" "${hups:-0}" "${edits:-0}" "$reloads" "$perrors" "$hp_changes" \
	"$rl_changes" "$new_changes" "$drift" "$notes" "$overruns" "$others" "$suppressed" $((all_ms / 1000)) >&3

if [ "$ev_ar" -lt "$SOAK_EVENTS" ]; then
	# the time cap (SOAK_SECONDS) ended the run first: said, and a floor
	say "udev delivered $ev_ar add+remove events in the ${SOAK_SECONDS}s cap, fewer than SOAK_EVENTS=$SOAK_EVENTS"
	[ "$ev_ar" -ge "$SOAK_MIN_EVENTS" ] || fail "udev delivered $ev_ar add+remove events, fewer than $SOAK_MIN_EVENTS"
fi
[ "$gone" = 0 ] || { fail "$gone warnings about disks that went away while being applied"; grep -E 'vanished|No such device|kernel kept' "$W/j.soak" | head -n 5 | while read -r l; do say "  $l"; done; }
[ "$overruns" -le 10 ] || fail "$overruns receive buffer overruns"
[ "$notes" -le $(((reloads + 2) * 4 + ev_add)) ] || fail "$notes note lines for $reloads reloads"
# one error line per reload while the broken file is there, never more
if grep -q '^broken' "$W/edits.log" 2>/dev/null; then
	[ "$perrors" -ge 1 ] || fail "the broken edit was not reported"
fi
[ "$perrors" -le "$reloads" ] || fail "$perrors policy error lines for $reloads reloads"
[ "$reloads" -ge 2 ] || fail "only $reloads reloads"
[ "$others" = 0 ] || { fail "$others journal lines of no kind listed above"; head -n 10 "$W/j.other" | while read -r l; do say "  $l"; done; }
[ "$suppressed" = 0 ] || fail "journald suppressed $suppressed lines of ioschedd (rate limit)"
# a change line per setting written: at most 2 per device added (scheduler and
# read-ahead), never one per event; on reloads at most one per device of ours
ndisks=$((ndev + SOAK_SCSI))
[ "$hp_changes" -le $((2 * (ev_add + ndisks))) ] || fail "$hp_changes change lines on hotplug for $ev_add disks added"
[ "$rl_changes" -le $((ndisks * (reloads + 2))) ] || fail "$rl_changes change lines for $reloads reloads"
[ "$new_changes" -le $((2 * (ev_add + ndisks))) ] || fail "$new_changes change lines by drift checks for $ev_add disks added"
[ "$drift" -le "$ev_add" ] || fail "$drift drift lines for $ev_add disks added"
case "$fds0 $fds1" in *never-at-rest*) fail "the daemon was never seen at rest (in epoll_wait) within 300 s to count its descriptors: $fds0 -> $fds1" ;; esac
[ "$fds1" = "$fds0" ] || fail "descriptors $fds0 -> $fds1: $(ls -l /proc/"$PID"/fd | tail -n +2 | awk '{ print $NF }' | sort | uniq -c | tr '\n' ' ') (syscall $(cut -d' ' -f1 /proc/"$PID"/syscall))"
[ "$timers1" = "$timers0" ] || fail "timerfds $timers0 -> $timers1"
# one step of about 600 kB somewhere in the first half under the full load,
# flat before and after it (docs/testing.md, "Daemon soak"); a leak per event would
# go on growing
[ $((rss1 - rss0)) -le 1024 ] || fail "RSS grew by $((rss1 - rss0)) kB after the warm-up ($rss0 -> $rssq -> $rss1 kB)"
[ $fails = 0 ]
