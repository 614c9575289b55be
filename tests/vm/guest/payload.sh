#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# payload.sh (guest, iosched_vm.mode=test): the end-to-end checks of iosched
# on a real kernel with real (emulated) disks. Started by guest-main.sh once
# udev has settled; nobody has run iosched by hand before it: whatever the
# disks show comes from the udev rule at coldplug.
#
# Inputs on the host's 9p share (/mnt/host), written by tests/vm/run.sh:
#   disks.tsv   label <TAB> by-id glob <TAB> expected class <TAB> expected scheduler
#               (by-id glob, or "wwid:S#N" = the Nth disk whose device/wwid is S;
#                class "-" = not checked; scheduler: a name; "keep" = not
#                checked; "zoned" = mq-deadline before 6.10, none from 6.10;
#                "left:S" = the policy leaves it alone: the kernel's default S
#                after boot, and a scheduler written by hand survives a replay)
#   config.sh   CHECK_<NAME>=auto|1|0, HOTPLUG=1|0, REPLAY_ROUNDS=N
#
# Each check is auto (run when the feature is installed, else SKIP), 1 (must
# run and pass: a missing feature FAILs) or 0 (SKIP). Checks:
#   LIST      iosched-apply list: class of every disk; -J agrees
#   EXPLAIN   iosched-apply explain DEV exits 0 for every disk
#   COLDPLUG  after boot every disk has the policy's scheduler
#   CHECK     iosched-apply --check exits 0 (after boot and at the end)
#   HOTPLUG_UDEV    hot-added disk gets the policy by the udev rule alone
#   HOTPLUG_DAEMON  same with the rule removed, by ioschedd alone
#   DRIFT     scheduler changed by hand is put back by ioschedd (DriftInterval)
#   REPLAY    timed coldplug replay: iosched rule vs a plain ATTR{} rule
#             (guest/checks-replay.sh)
#   MPATH     dm-multipath: every multipath LUN has a map with 2 active paths
#   HOTPLUG_MPATH  a LUN hot-added on two paths: its map gets the policy, the
#             paths keep the kernel's default (guest/checks-san.sh)
#   KERNEL    what differs between kernels (async_depth, io_uring setup, zoned
#             defaults), each shown; guest/checks-kernel.sh
#   TUNABLES  (off unless CHECK_TUNABLES=1) kyber and bfq loaded, the
#             invariant over every tunable on a loop device and the zoned
#             namespace; guest/checks-kernel.sh
#   SOAK      ioschedd alone under SOAK_EVENTS add+remove events (loop devices,
#             scsi_debug delete/rescan), SIGHUP and policy-edit storms, a broken
#             edit (guest/soak.sh; prints the "soak: ..." figures line)
#
# Results go to fd 3 (the results serial port) as lines:
#   DISK ..., CHECK <name> PASS|FAIL|SKIP <detail>, TIMING <name> <value>,
#   HOTPLUG-REQUEST <id> <serial> (the host hot-adds that disk over QMP),
#   PAYLOAD-RESULT PASS|FAIL passed=N failed=N skipped=N
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
set -u

CHECK_LIST=auto CHECK_EXPLAIN=auto CHECK_COLDPLUG=auto CHECK_CHECK=auto
CHECK_HOTPLUG_UDEV=auto CHECK_HOTPLUG_DAEMON=auto CHECK_DRIFT=auto CHECK_REPLAY=auto CHECK_SOAK=auto
CHECK_MPATH=auto CHECK_HOTPLUG_MPATH=auto CHECK_KERNEL=auto CHECK_TUNABLES=0
HOTPLUG=0 REPLAY_ROUNDS=3 REPLAY_COMPARE=1 DRIFT_INTERVAL=1s
SOAK_EVENTS=10000 SOAK_DEVICES=16 SOAK_SCSI=4 SOAK_SECONDS=180 SOAK_MIN_EVENTS=500
SHARE=/mnt/host
[ -r "$SHARE/config.sh" ] && . "$SHARE/config.sh"

{ true >&3; } 2>/dev/null || exec 3>&1 # fd 3 = results channel (guest-main.sh)
say() { printf '%s\n' "$*" >&3; }
npass=0 nfail=0 nskip=0
result() { # NAME PASS|FAIL|SKIP detail...
	local n=$1 r=$2
	shift 2
	case $r in PASS) npass=$((npass + 1)) ;; FAIL) nfail=$((nfail + 1)) ;; SKIP) nskip=$((nskip + 1)) ;; esac
	say "CHECK $n $r $*"
}

# want NAME FEATURE_PRESENT(0/1) DESC: 0 = run the check, 1 = skipped (reported)
want() {
	local n=$1 have=$2 desc=$3 v
	v=CHECK_$n
	v=${!v:-auto}
	case $v in
	0 | off | no) result "$n" SKIP "disabled"; return 1 ;;
	1 | on | yes)
		[ "$have" = 1 ] && return 0
		result "$n" FAIL "required but not present: $desc"; return 1 ;;
	*)
		[ "$have" = 1 ] && return 0
		result "$n" SKIP "not present yet: $desc"; return 1 ;;
	esac
}

# --- helpers -------------------------------------------------------------

# Timing loops fork nothing (a fork costs milliseconds under TCG):
# ${EPOCHREALTIME/./} is microseconds, get_sched sets $SCHED.
now_us() { echo "${EPOCHREALTIME/./}"; }
get_sched() { # NAME -> $SCHED
	local s
	if ! read -r s 2>/dev/null </sys/block/"$1"/queue/scheduler; then
		SCHED=-
		return
	fi
	case $s in
	*\[*\]*) s=${s#*[}; SCHED=${s%%]*} ;;
	*) SCHED=$s ;;
	esac
}
mkfifo /run/iosched-vm-tick 2>/dev/null
exec {TICK}<>/run/iosched-vm-tick
tick() { read -r -t "${1:-0.002}" -u "$TICK" _ 2>/dev/null; } # sleep without fork

active_sched() { # NAME -> the [bracketed] scheduler, "none" for bio-based, "-" if no file
	local s
	if ! read -r s 2>/dev/null </sys/block/"$1"/queue/scheduler; then
		echo -
		return
	fi
	case $s in
	*\[*\]*) s=${s#*[}; echo "${s%%]*}" ;;
	*) echo "$s" ;;
	esac
}

kver_ge() { # MAJOR MINOR: running kernel >= MAJOR.MINOR
	local r=$(uname -r) ma mi
	ma=${r%%.*}; r=${r#*.}; mi=${r%%[.-]*}
	[ "$ma" -gt "$1" ] || { [ "$ma" -eq "$1" ] && [ "$mi" -ge "$2" ]; }
}

expected_sched() { # spec -> scheduler name, "keep" or "left:S"
	case $1 in
	zoned) if kver_ge 6 10; then echo none; else echo mq-deadline; fi ;;
	*) echo "$1" ;;
	esac
}
managed() { case $1 in keep | left:*) return 1 ;; esac; }  # the policy sets it
other_sched() { if [ "$1" = mq-deadline ]; then echo none; else echo mq-deadline; fi; }

resolve() { # by-id glob or wwid:S#N -> kernel name
	local l
	case $1 in
	wwid:*)
		local w=${1#wwid:} k=0 d
		local idx=${w##*#}
		w=${w%#*}
		for d in /sys/block/sd*; do
			[ "$(cat "$d/device/wwid" 2>/dev/null)" = "$w" ] || continue
			[ $k = "$idx" ] && { echo "${d##*/}"; return 0; }
			k=$((k + 1))
		done
		return 1 ;;
	esac
	for l in /dev/disk/by-id/$1; do
		case $l in *-part[0-9]*) continue ;; esac
		[ -e "$l" ] || continue
		l=$(readlink -f "$l")
		echo "${l##*/}"
		return 0
	done
	return 1
}

host_driver() { # NAME -> proc_name of its SCSI host, else the driver of its device, else -
	local d h
	d=$(readlink -f /sys/block/"$1"/device 2>/dev/null) || { echo -; return; }
	for h in "$d"/../../scsi_host/host*/proc_name "$d"/../../../scsi_host/host*/proc_name; do
		[ -r "$h" ] && { cat "$h"; return; }
	done
	if [ -e "$d/driver" ]; then basename "$(readlink -f "$d/driver")"; else echo -; fi
}

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {if (NR) print a[int((NR+1)/2)]; else print "-"}'; }

rules_dirs="/etc/udev/rules.d /run/udev/rules.d /usr/lib/udev/rules.d /lib/udev/rules.d"
iosched_rules() {
	local d f seen=" "
	for d in $rules_dirs; do
		[ -d "$d" ] || continue
		d=$(readlink -f "$d") # /lib is a link to usr/lib
		case $seen in *" $d "*) continue ;; esac
		seen="$seen$d "
		for f in "$d"/*iosched*.rules; do
			[ -e "$f" ] && [ "${f##*/}" != 60-vm-plain.rules ] && echo "$f"
		done
	done
}
RULES_STASH=/run/iosched-vm-rules
disable_iosched_rules() {
	mkdir -p "$RULES_STASH"
	local f
	for f in $(iosched_rules); do
		printf '%s\n' "$f" >>"$RULES_STASH/list"
		mv "$f" "$RULES_STASH/${f##*/}"
	done
	udevadm control --reload
}
restore_iosched_rules() {
	local f
	[ -r "$RULES_STASH/list" ] || return 0
	while read -r f; do
		mv "$RULES_STASH/${f##*/}" "$f"
	done <"$RULES_STASH/list"
	rm -f "$RULES_STASH/list"
	udevadm control --reload
}

. "$(dirname "$0")/checks-san.sh"
. "$(dirname "$0")/checks-kernel.sh"
. "$(dirname "$0")/checks-replay.sh"

# --- inventory -------------------------------------------------------------
san_wait_maps

have_apply=0
command -v iosched-apply >/dev/null 2>&1 && have_apply=1
have_list=0
[ $have_apply = 1 ] && iosched-apply list -n -r -o NAME,CLASS >/dev/null 2>&1 && have_list=1
have_json=0
[ $have_list = 1 ] && iosched-apply list -J >/dev/null 2>&1 && command -v jq >/dev/null && have_json=1
have_explain=0
[ $have_apply = 1 ] && iosched-apply --help 2>&1 | grep -qw explain && have_explain=1
have_check=0
[ $have_apply = 1 ] && iosched-apply --help 2>&1 | grep -q -- '--check' && have_check=1
have_rule=0
[ -n "$(iosched_rules)" ] && have_rule=1
have_daemon=0
command -v ioschedd >/dev/null 2>&1 && systemctl cat ioschedd.service >/dev/null 2>&1 && have_daemon=1

# where the boot went (systemd-analyze needs a finished boot; this unit is part of it)
boot_at() { local t; t=$(systemctl show -P ActiveEnterTimestampMonotonic "$1" 2>/dev/null); echo "$1=$(( ${t:-0} / 1000000 ))s"; }
say "BOOT uptime $(cut -d' ' -f1 /proc/uptime)s; units active at: $(boot_at systemd-udev-trigger.service) $(boot_at multipathd.service) $(boot_at systemd-udev-settle.service) $(boot_at local-fs.target)"
say "FEATURES apply=$have_apply list=$have_list json=$have_json explain=$have_explain check=$have_check udev-rule=$have_rule daemon=$have_daemon kernel=$(uname -r)"
for f in $(iosched_rules); do
	say "RULE $f"
	# the program a RUN+= of the rule calls must exist
	for p in $(sed -n 's/.*RUN+="\([^ "]*\).*/\1/p' "$f"); do
		[ -x "$p" ] || result RULE-RUN FAIL "$f runs $p, which does not exist"
	done
done

declare -A CLASS=()
if [ $have_list = 1 ]; then
	while read -r n c; do CLASS[$n]=$c; done < <(iosched-apply list -n -r -o NAME,CLASS 2>/dev/null)
fi

LABELS=() NAMES=() ECLASS=() ESCHED=()
while IFS=$'\t' read -r label glob ecls esch; do
	case $label in '' | '#'*) continue ;; esac
	name=$(resolve "$glob") || name=
	LABELS+=("$label") NAMES+=("$name") ECLASS+=("$ecls") ESCHED+=("$(expected_sched "$esch")")
	if [ -z "$name" ]; then
		result "DISK-$label" FAIL "no /dev/disk/by-id/$glob"
		continue
	fi
	link=
	for l in /dev/disk/by-id/$glob; do link=${l##*/}; break; done
	case $glob in wwid:*) link=$glob ;; esac
	say "DISK $label by-id=$link name=$name class=${CLASS[$name]:-?} expected-class=$ecls sched=$(active_sched "$name") expected-sched=${ESCHED[-1]} schedulers=\"$(cat /sys/block/"$name"/queue/scheduler 2>/dev/null)\" rota=$(cat /sys/block/"$name"/queue/rotational 2>/dev/null) zoned=$(cat /sys/block/"$name"/queue/zoned 2>/dev/null) model=\"$(cat /sys/block/"$name"/device/model 2>/dev/null | sed 's/ *$//')\" host=$(host_driver "$name")"
done <"$SHARE/disks.tsv"
say "LSBLK"
lsblk -o NAME,MAJ:MIN,ROTA,SCHED,TRAN,MODEL,TYPE,SIZE,HCTL,SERIAL 2>&1 | sed 's/^/  /' >&3
if [ $have_list = 1 ]; then
	say "IOSCHED-APPLY-LIST"
	iosched-apply list 2>&1 | sed 's/^/  /' >&3
fi

# --- LIST ------------------------------------------------------------------
if want LIST "$have_list" "iosched-apply list"; then
	bad=
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]}
		[ -n "$n" ] && [ "${ECLASS[$i]}" != - ] || continue
		[ "${CLASS[$n]:-}" = "${ECLASS[$i]}" ] || bad="$bad ${LABELS[$i]}($n):${CLASS[$n]:-?}!=${ECLASS[$i]}"
	done
	if [ $have_json = 1 ]; then
		while read -r n c; do
			[ -n "${CLASS[$n]:-}" ] && [ "${CLASS[$n]}" != "$c" ] && bad="$bad json:$n:$c!=${CLASS[$n]}"
		done < <(iosched-apply list -J 2>/dev/null | jq -r '.blockdevices[] | "\(.name) \(.class)"')
	fi
	if [ -z "$bad" ]; then result LIST PASS "${#LABELS[@]} disks classified as expected"; else result LIST FAIL "$bad"; fi
fi

# --- EXPLAIN ---------------------------------------------------------------
if want EXPLAIN "$have_explain" "iosched-apply explain"; then
	bad=
	for n in "${NAMES[@]}"; do
		[ -n "$n" ] || continue
		iosched-apply explain "$n" >/run/explain.$n 2>&1 || bad="$bad $n(rc=$?)"
	done
	[ -n "${NAMES[0]}" ] && sed 's/^/  /' "/run/explain.${NAMES[0]}" >&3
	if [ -z "$bad" ]; then result EXPLAIN PASS; else result EXPLAIN FAIL "$bad"; fi
fi

# --- COLDPLUG ----------------------------------------------------------------
if want COLDPLUG "$have_rule" "udev rule *iosched*.rules"; then
	bad=
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]} e=${ESCHED[$i]}
		[ -n "$n" ] && [ "$e" != keep ] || continue
		a=$(active_sched "$n")
		case $e in
		left:*) [ "$a" = "${e#left:}" ] || bad="$bad ${LABELS[$i]}($n):$a!=${e#left:}(kernel default: touched)" ;;
		*) [ "$a" = "$e" ] || bad="$bad ${LABELS[$i]}($n):$a!=$e" ;;
		esac
	done
	if [ -z "$bad" ]; then result COLDPLUG PASS "every disk has its policy scheduler after boot, the ones left alone the kernel's"; else result COLDPLUG FAIL "$bad"; fi
fi

run_check() { # TAG
	iosched-apply --check >/run/check.out 2>&1
	local rc=$?
	if [ $rc = 0 ]; then
		result "CHECK-$1" PASS "iosched-apply --check exit 0"
	else
		result "CHECK-$1" FAIL "iosched-apply --check exit $rc"
		sed 's/^/  /' /run/check.out >&3
	fi
}
if want CHECK "$have_check" "iosched-apply --check"; then
	run_check boot
fi
check_mpath

# --- hotplug ---------------------------------------------------------------
# hotplug ID SERIAL WANT TIMEOUT: ask the host to hot-add a disk, measure the
# time from its /sys/block entry appearing to its scheduler being WANT.
HP_NAME= HP_MS=
hotplug() {
	local id=$1 serial=$2 wantsched=$3 timeout=$4 d n t0 t1 tend
	local -A before=()
	HP_NAME= HP_MS=
	for d in /sys/block/*; do before[${d##*/}]=1; done
	say "HOTPLUG-REQUEST $id $serial"
	tend=$((${EPOCHREALTIME/./} + 90000000))
	n=
	while :; do
		for d in /sys/block/*; do
			[ -n "${before[${d##*/}]:-}" ] || { n=${d##*/}; break; }
		done
		[ -n "$n" ] && break
		[ "${EPOCHREALTIME/./}" -lt "$tend" ] || { say "  no new disk within 90 s"; return 1; }
		tick 0.002
	done
	t0=${EPOCHREALTIME/./}
	HP_NAME=$n
	tend=$((t0 + timeout * 1000000))
	while get_sched "$n"; [ "$SCHED" != "$wantsched" ]; do
		[ "${EPOCHREALTIME/./}" -lt "$tend" ] || { say "  $n: scheduler $SCHED after ${timeout}s, wanted $wantsched"; return 1; }
		tick 0.002
	done
	t1=${EPOCHREALTIME/./}
	HP_MS=$(((t1 - t0) / 1000)).$((((t1 - t0) % 1000) / 100))
	udevadm settle --timeout=60
	local by=
	for d in /dev/disk/by-id/*"$serial"*; do by=${d##*/}; break; done
	say "  hot-added $by -> $n, scheduler $wantsched after $HP_MS ms (class ${CLASS[$n]:-$(iosched-apply list -n -r -o CLASS "$n" 2>/dev/null)})"
	return 0
}

if [ "$HOTPLUG" = 1 ] && want HOTPLUG_UDEV "$have_rule" "udev rule"; then
	if hotplug hp1 HOTPLUG1 none 30; then
		result HOTPLUG_UDEV PASS "${HP_MS} ms from /sys/block/$HP_NAME appearing to [none] (udev rule)"
		say "TIMING hotplug-udev-ms $HP_MS"
	else
		result HOTPLUG_UDEV FAIL "hot-added disk did not get the policy scheduler by the udev rule"
	fi
elif [ "$HOTPLUG" != 1 ]; then
	result HOTPLUG_UDEV SKIP "HOTPLUG=0"
fi

if [ "$HOTPLUG" = 1 ]; then
	check_hotplug_mpath hpmp 2 0x5000c0de00000003
else
	result HOTPLUG_MPATH SKIP "HOTPLUG=0"
fi

# --- medium arrives later: loop attach -------------------------------------
# The rule skips disks of size 0 (unattached loop/nbd, empty readers) at add;
# attaching a file sends "change", and the rule must apply the policy then.
if want LOOP_ATTACH "$have_rule" "udev rule"; then
	lf=/var/tmp/iosched-loop.img
	truncate -s 64M "$lf"
	ln=$(losetup -f)
	ln=${ln#/dev/}
	# before 5.11 a loop device has no I/O scheduler at all (BLK_MQ_F_NO_SCHED;
	# 5.11 made it BLK_MQ_F_NO_SCHED_BY_DEFAULT): the policy then asks for none,
	# since a scheduler the kernel does not offer is refused before any write
	# and nothing of the rule would be applied (no half change)
	lsched=mq-deadline
	case $(cat /sys/block/"$ln"/queue/scheduler 2>/dev/null) in
	*mq-deadline*) ;;
	*) lsched=none
	   say "  $(uname -r): $ln offers \"$(cat /sys/block/"$ln"/queue/scheduler 2>/dev/null)\" (no I/O scheduler on loop before 5.11): the policy asks for none" ;;
	esac
	mkdir -p /run/iosched.d
	printf '[Match]\nName=%s\n[Set]\nScheduler=%s\nqueue/read_ahead_kb=512\n' "$ln" "$lsched" >/run/iosched.d/50-vm-loop.conf
	chmod 0644 /run/iosched.d/50-vm-loop.conf
	t0=${EPOCHREALTIME/./}
	losetup "/dev/$ln" "$lf"
	tend=$((t0 + 10000000))
	while get_sched "$ln"; [ "$SCHED" != "$lsched" ] || [ "$(cat "/sys/block/$ln/queue/read_ahead_kb")" != 512 ]; do
		[ "${EPOCHREALTIME/./}" -lt "$tend" ] || break
		tick 0.002
	done
	t1=${EPOCHREALTIME/./}
	ra=$(cat "/sys/block/$ln/queue/read_ahead_kb")
	if [ "$SCHED" = "$lsched" ] && [ "$ra" = 512 ]; then
		result LOOP_ATTACH PASS "$ln attached: policy applied after $(((t1 - t0) / 1000)) ms (rule on the change event)$([ $lsched = none ] && echo '; no scheduler on loop before 5.11: Scheduler=none, read_ahead_kb 512')"
		say "TIMING loop-attach-ms $(((t1 - t0) / 1000))"
	else
		result LOOP_ATTACH FAIL "$ln attached: scheduler $SCHED read_ahead_kb $ra after 10 s, wanted $lsched and 512"
	fi
	losetup -d "/dev/$ln"
	rm -f "$lf" /run/iosched.d/50-vm-loop.conf
fi

# --- iosched-bench refuses to write under a holder -------------------------
# A dm-linear device on top of a loop device (the kernel lists it in the loop
# device's holders/, as for LVM or dm-crypt); iosched-bench --allow-write must
# refuse with exit 3 and write nothing.  Then the same through a partition:
# dm on loopNp1 makes writing to the whole disk refused too.  The host kernel of the
# development VM has no device-mapper, so this runs only here.
if want BENCH_HOLDERS "$(command -v dmsetup >/dev/null && command -v iosched-bench >/dev/null && echo 1 || echo 0)" "dmsetup and iosched-bench"; then
	lf=/var/tmp/iosched-held.img
	bad=""
	head -c 16M /dev/urandom >"$lf"
	# an MBR with one partition (sectors 2048-18431), so losetup -P makes p1
	{ printf '\000\000\000\000\203\000\000\000\000\010\000\000\000\100\000\000'
	  head -c 48 /dev/zero; printf '\125\252'; } | dd of="$lf" bs=1 seek=446 conv=notrunc status=none
	sum0=$(md5sum <"$lf")
	ln=$(losetup -P --show -f "$lf")
	udevadm settle 2>/dev/null
	for part in "" p1; do
		what=${part:-disk}
		if [ -n "$part" ] && [ ! -b "$ln$part" ]; then
			bad="$bad no-$ln$part"
			continue
		fi
		if ! dmsetup create iosched-held --table "0 1024 linear $ln$part 0" >/dev/null 2>&1; then
			bad="$bad dmsetup-create-on-$what-failed"
			continue
		fi
		udevadm settle 2>/dev/null
		out=$(iosched-bench --filename="$ln" --rw=randwrite --allow-write --runtime=1s 2>&1)
		rc=$?
		[ $rc = 3 ] || bad="$bad $what-exit-$rc"
		case $out in *"has holders"*) ;; *) bad="$bad $what-message:'$out'" ;; esac
		dmsetup remove iosched-held || bad="$bad dmsetup-remove-failed"
	done
	losetup -d "$ln"
	[ "$(md5sum <"$lf")" = "$sum0" ] || bad="$bad data-changed"
	rm -f "$lf"
	if [ -z "$bad" ]; then
		result BENCH_HOLDERS PASS "writes refused (exit 3) under dm on the disk and on its partition, data unchanged"
	else
		result BENCH_HOLDERS FAIL "$bad"
	fi
fi

check_kernel
check_tunables

daemon_started=0
start_daemon() {
	mkdir -p /etc/iosched.d
	printf '[Daemon]\nDriftInterval=%s\n' "$DRIFT_INTERVAL" >/etc/iosched.d/90-vm-drift.conf
	systemctl start ioschedd.service || return 1
	local i
	for i in $(seq 1 100); do
		systemctl is-active -q ioschedd.service && { daemon_started=1; return 0; }
		tick 0.1
	done
	return 1
}
stop_daemon() {
	[ $daemon_started = 1 ] || return 0
	systemctl stop ioschedd.service
	journalctl -b -u ioschedd.service --no-pager 2>/dev/null | tail -n 30 | sed 's/^/  ioschedd| /' >&3
	rm -f /etc/iosched.d/90-vm-drift.conf
	daemon_started=0
}

if [ "$HOTPLUG" = 1 ] || [ "${CHECK_DRIFT:-auto}" != 0 ]; then
	if [ $have_daemon = 1 ] && { [ "${CHECK_HOTPLUG_DAEMON:-auto}" != 0 ] || [ "${CHECK_DRIFT:-auto}" != 0 ]; }; then
		disable_iosched_rules
		if ! start_daemon; then
			say "  ioschedd.service did not start:"
			systemctl status ioschedd.service --no-pager 2>&1 | sed 's/^/  /' >&3
		fi
	fi
fi

if [ "$HOTPLUG" = 1 ] && want HOTPLUG_DAEMON "$have_daemon" "ioschedd + ioschedd.service"; then
	if [ $daemon_started = 0 ]; then
		result HOTPLUG_DAEMON FAIL "ioschedd.service not active"
	elif hotplug hp2 HOTPLUG2 none 30; then
		result HOTPLUG_DAEMON PASS "${HP_MS} ms from /sys/block/$HP_NAME appearing to [none] (ioschedd, no udev rule)"
		say "TIMING hotplug-daemon-ms $HP_MS"
	else
		result HOTPLUG_DAEMON FAIL "hot-added disk did not get the policy scheduler from ioschedd"
	fi
elif [ "$HOTPLUG" != 1 ]; then
	result HOTPLUG_DAEMON SKIP "HOTPLUG=0"
fi

if want DRIFT "$have_daemon" "ioschedd + ioschedd.service"; then
	# a disk whose policy sets a scheduler: the first with an expected one
	dn= de=
	for i in "${!LABELS[@]}"; do
		[ -n "${NAMES[$i]}" ] && managed "${ESCHED[$i]}" || continue
		dn=${NAMES[$i]} de=${ESCHED[$i]}
		break
	done
	other=mq-deadline
	[ "$de" = mq-deadline ] && other=none
	if [ $daemon_started = 0 ]; then
		result DRIFT FAIL "ioschedd.service not active"
	elif [ -z "$dn" ]; then
		result DRIFT SKIP "no disk with a policy scheduler"
	elif ! echo "$other" >/sys/block/"$dn"/queue/scheduler; then
		result DRIFT FAIL "could not write $other to $dn"
	else
		t0=${EPOCHREALTIME/./}
		tend=$((t0 + 30000000))
		while get_sched "$dn"; [ "$SCHED" != "$de" ] && [ "${EPOCHREALTIME/./}" -lt "$tend" ]; do tick 0.005; done
		t1=${EPOCHREALTIME/./}
		ms=$(((t1 - t0) / 1000))
		if [ "$(active_sched "$dn")" = "$de" ]; then
			result DRIFT PASS "$dn set to $other by hand, back to $de after $ms ms (DriftInterval=$DRIFT_INTERVAL)"
			say "TIMING drift-restore-ms $ms"
		else
			result DRIFT FAIL "$dn still $(active_sched "$dn") 30 s after being set to $other by hand"
		fi
	fi
fi
stop_daemon
restore_iosched_rules

# --- REPLAY ----------------------------------------------------------------
if want REPLAY "$have_rule" "udev rule"; then
	check_replay
fi

# --- SOAK ------------------------------------------------------------------
if want SOAK "$have_daemon" "ioschedd + ioschedd.service"; then
	disable_iosched_rules
	t0=$(now_us)
	SOAK_EVENTS=$SOAK_EVENTS SOAK_DEVICES=$SOAK_DEVICES SOAK_SCSI=$SOAK_SCSI SOAK_SECONDS=$SOAK_SECONDS SOAK_MIN_EVENTS=$SOAK_MIN_EVENTS \
		"$(dirname "$0")/soak.sh" 3>&3
	rc=$?
	secs=$((($(now_us) - t0) / 1000000))
	say "TIMING soak-seconds $secs"
	if [ $rc = 0 ]; then
		result SOAK PASS "add/remove events with SIGHUP and edit storms in ${secs}s: flat, compliant (figures on the soak: line)"
	else
		result SOAK FAIL "see the soak| lines"
	fi
	restore_iosched_rules
fi

if [ "${CHECK_CHECK:-auto}" != 0 ] && [ $have_check = 1 ]; then
	run_check end
fi

say "PAYLOAD-RESULT $([ $nfail = 0 ] && echo PASS || echo FAIL) passed=$npass failed=$nfail skipped=$nskip"
[ $nfail = 0 ]
