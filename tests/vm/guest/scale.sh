#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# scale.sh (guest, iosched_vm.mode=scale): a SAN host at scale. scsi_debug
# makes SCALE_LUNS LUNs on two SCSI hosts with the same WWID on both
# (vpd_use_hostno=0): SCALE_LUNS x 2 path disks, and multipathd (a conf.d
# drop-in lets the scsi_debug WWIDs through guest/multipath.conf's blacklist)
# builds one map per LUN. Then a coldplug replay (udevadm trigger
# --action=add --subsystem-match=block + udevadm settle) is timed with
# iosched's udev rule and with a plain two-line rule making the map writes
# (ATTR{queue/scheduler}="none" on every mpath-* map), in SCALE_PAIRS
# interleaved pairs (the order alternates), each replay after scrambling:
# every map gets mq-deadline, every path mq-deadline (the kernel's default on
# scsi_debug's single queue; a policy that wrongly managed the flash paths
# would write none). After each replay with iosched's rule every map must be
# on its policy (flash LUNs: none) and every path must still have
# mq-deadline (left alone).
#
# Results (fd 3): TIMING scale-* lines, CHECK SCALE_SETUP / SCALE_REPLAY,
# PAYLOAD-RESULT.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
set -u
SCALE_LUNS=400 SCALE_PAIRS=3
SHARE=/mnt/host
[ -r "$SHARE/config.sh" ] && . "$SHARE/config.sh"
{ true >&3; } 2>/dev/null || exec 3>&1
say() { printf '%s\n' "$*" >&3; }
npass=0 nfail=0
result() {
	local n=$1 r=$2
	shift 2
	case $r in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; esac
	say "CHECK $n $r $*"
}
now_us() { echo "${EPOCHREALTIME/./}"; }
finish() {
	say "PAYLOAD-RESULT $([ $nfail = 0 ] && echo PASS || echo FAIL) passed=$npass failed=$nfail skipped=0"
	exit 0
}
get_sched() { # NAME -> $SCHED, the [bracketed] scheduler (no fork: 1,200 disks)
	local s
	read -r s 2>/dev/null </sys/block/"$1"/queue/scheduler || { SCHED=-; return; }
	s=${s#*[}
	SCHED=${s%%]*}
}

# --- set up ----------------------------------------------------------------
mkdir -p /etc/multipath/conf.d
# udev's scsi_id gives a scsi_debug LUN ID_SERIAL "1Linux_scsi_debug_<lu id>"
# (the T10 vendor designator; the same on both hosts with vpd_use_hostno=0),
# which multipathd takes as the WWID
printf 'blacklist_exceptions {\n\twwid "^1Linux_scsi_debug"\n}\n' >/etc/multipath/conf.d/scale.conf
multipathd reconfigure >/dev/null 2>&1
tgts=$(((SCALE_LUNS + 199) / 200))
luns=$(((SCALE_LUNS + tgts - 1) / tgts))
t0=$(now_us)
if ! modprobe scsi_debug add_host=2 num_tgts="$tgts" max_luns="$luns" vpd_use_hostno=0 \
	dev_size_mb=16 delay=0 2>/tmp/modprobe.err; then
	result SCALE_SETUP FAIL "modprobe scsi_debug: $(cat /tmp/modprobe.err)"
	finish
fi
npaths() { local k=0 d; for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do [ -e "$d" ] && k=$((k + 1)); done; echo $k; }
MAPS=() PATHS=()
collect() {
	local d u s
	MAPS=() PATHS=()
	for d in /sys/block/dm-*; do
		u=$(<"$d/dm/uuid") 2>/dev/null || continue
		case $u in mpath-1Linux_scsi_debug*) ;; *) continue ;; esac
		MAPS+=("${d##*/}")
		for s in "$d"/slaves/*; do [ -e "$s" ] && PATHS+=("${s##*/}"); done
	done
}
want_paths=$((2 * tgts * luns))
tend=$(($(now_us) + 1800000000))
while :; do
	udevadm settle --timeout=60
	collect
	[ "${#MAPS[@]}" = $((tgts * luns)) ] && [ "${#PATHS[@]}" = "$want_paths" ] && break
	if [ "$(now_us)" -ge "$tend" ]; then
		break
	fi
	# every path disk there and still no map after a minute: multipathd will not make them
	if [ "$(npaths)" = "$want_paths" ] && [ "${#MAPS[@]}" = 0 ] && [ -n "${all_paths_at:-}" ] &&
		[ $(($(now_us) - all_paths_at)) -gt 60000000 ]; then
		break
	fi
	[ "$(npaths)" = "$want_paths" ] && all_paths_at=${all_paths_at:-$(now_us)}
	sleep 5
	say "  setup: $(npaths) path disks, ${#MAPS[@]} maps, ${#PATHS[@]} paths in maps, $((($(now_us) - t0) / 1000000)) s"
done
setup_s=$((($(now_us) - t0) / 1000000))
say "TIMING scale-setup-seconds $setup_s (${#MAPS[@]} maps over ${#PATHS[@]} paths; $(npaths) scsi_debug disks; $(free -m | awk '/Mem:/ {print $3 " MiB used of " $2}'))"
if [ "${#MAPS[@]}" -lt 1 ]; then
	d=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block/ 2>/dev/null | head -n 1)
	say "  first path $d: ID_SERIAL $(udevadm info -q property -n "$d" 2>/dev/null | sed -n 's/^ID_SERIAL=//p'), DM_MULTIPATH_DEVICE_PATH $(udevadm info -q property -n "$d" 2>/dev/null | sed -n 's/^DM_MULTIPATH_DEVICE_PATH=//p'); multipathd: $(multipathd show paths 2>&1 | head -n 3 | tr '\n' ' ')"
	result SCALE_SETUP FAIL "no multipath map from scsi_debug (multipath -ll: $(multipath -ll 2>&1 | head -n 5 | tr '\n' ' '))"
	finish
fi
result SCALE_SETUP PASS "${#MAPS[@]} LUNs x 2 paths (${#PATHS[@]} path disks in maps) in $setup_s s"
multipath -ll "$(cut -c7- </sys/block/"${MAPS[0]}"/dm/uuid)" 2>&1 | head -n 6 | sed 's/^/  /' >&3

# --- the two rules -----------------------------------------------------------
RULE=$(ls /usr/lib/udev/rules.d/*iosched*.rules 2>/dev/null | head -n 1)
[ -n "$RULE" ] || { result SCALE_REPLAY FAIL "no iosched udev rule installed"; finish; }
PLAIN=/etc/udev/rules.d/60-vm-plain.rules
use_rule() { # iosched|plain
	if [ "$1" = iosched ]; then
		rm -f "$PLAIN"
		[ -e "$RULE" ] || mv /run/iosched-scale.rules "$RULE"
	else
		[ -e "$RULE" ] && mv "$RULE" /run/iosched-scale.rules
		cat >"$PLAIN" <<-'EOR'
			# the policy's writes on a SAN host: every multipath map to none
			ACTION=="add|change", SUBSYSTEM=="block", KERNEL=="dm-*", ATTR{dm/uuid}=="mpath-*", ATTR{queue/scheduler}="none"
		EOR
	fi
	udevadm control --reload
}
scramble() {
	local n
	for n in "${MAPS[@]}"; do echo mq-deadline >/sys/block/"$n"/queue/scheduler; done
	for n in "${PATHS[@]}"; do echo mq-deadline >/sys/block/"$n"/queue/scheduler; done
}
verify() { # -> "" or what is off (maps must be none, paths still mq-deadline)
	local n bm=0 bp=0 first=
	for n in "${MAPS[@]}"; do get_sched "$n"; [ "$SCHED" = none ] || { bm=$((bm + 1)); first=${first:-$n:$SCHED}; }; done
	for n in "${PATHS[@]}"; do get_sched "$n"; [ "$SCHED" = mq-deadline ] || { bp=$((bp + 1)); first=${first:-$n:$SCHED}; }; done
	[ $bm = 0 ] && [ $bp = 0 ] || echo "maps off policy $bm/${#MAPS[@]}, paths rewritten $bp/${#PATHS[@]} (first: $first)"
}
replay() { # RULE -> sets MS, BAD
	local t0
	use_rule "$1"
	scramble
	t0=$(now_us)
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=1800
	MS=$((($(now_us) - t0) / 1000))
	BAD=$(verify)
}
IOS=() PLN=() RAT=() bad=
for r in $(seq 1 "$SCALE_PAIRS"); do
	if [ $((r % 2)) = 1 ]; then order="iosched plain"; else order="plain iosched"; fi
	for v in $order; do
		replay "$v"
		if [ "$v" = iosched ]; then
			a=$MS
			[ -z "$BAD" ] || bad="$bad pair$r: $BAD;"
		else
			b=$MS
			[ -z "$BAD" ] || say "  plain rule pair $r: $BAD"
		fi
		say "  pair $r $v: $MS ms${BAD:+ ($BAD)}"
	done
	IOS+=("$a") PLN+=("$b")
	RAT+=("$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", a / b}')")
done
use_rule iosched
med() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
mm() { printf '%s\n' "$@" | sort -n | awk 'NR==1 {lo=$1} {hi=$1} END {print lo "-" hi}'; }
say "TIMING scale-replay-iosched-ms ${IOS[*]} median $(med "${IOS[@]}")"
say "TIMING scale-replay-plain-ms ${PLN[*]} median $(med "${PLN[@]}")"
say "TIMING scale-replay-ratio ${RAT[*]} median $(med "${RAT[@]}") range $(mm "${RAT[@]}") (${#MAPS[@]} LUNs x 2 paths, $SCALE_PAIRS interleaved pairs, kernel $(uname -r))"
if [ -z "$bad" ]; then
	result SCALE_REPLAY PASS "every map none, every path left alone after each replay with iosched's rule; ratio median $(med "${RAT[@]}")"
else
	result SCALE_REPLAY FAIL "$bad"
fi
finish
