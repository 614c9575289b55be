# SPDX-License-Identifier: LGPL-2.1-or-later
# checks-kernel.sh (sourced by payload.sh): what differs between the kernels
# of the matrix (5.10, 6.1, 6.12, sid's 7.x), each difference handled and
# shown. Check KERNEL (auto = when iosched-apply and iosched-bench are installed):
#
#   KERNEL_ASYNC_DEPTH  the SATA HDD (policy mq-deadline) with a drop-in
#       setting async_depth, spelt queue/iosched/async_depth and then
#       queue/async_depth. From 5.14 either spelling is applied to the file
#       the kernel has (mq-deadline's queue/iosched/async_depth; the queue's
#       queue/async_depth from 7.2) and read back, --check 0; before (5.10)
#       mq-deadline has no async_depth: iosched-apply skips it as "not offered
#       by this kernel", exit 0, scheduler kept, and a note (apply and
#       --check) says it is not set and not checked. (Not on a loop device:
#       before 5.11 loop has no I/O scheduler at all, see LOOP_ATTACH.)
#   KERNEL_RA_RESET  which queue/ writes recompute read_ahead_kb (a
#       KERNEL-FACT ra-reset line, per attribute), then a policy with
#       read_ahead_kb=64 and add_random=1 on the loop device holds in one pass.
#   KERNEL_SCHED_MODULE  Scheduler=kyber on the loop device when kyber is not
#       listed (a module, loaded on write): applied, --check 0 (5.11+).
#   KERNEL_IO_URING  iosched-bench, io_uring engine, 1 s of reads on the loop
#       device: exits 0 on every kernel, with the ring set up the way the
#       kernel allows: SINGLE_ISSUER+DEFER_TASKRUN from 6.1, COOP_TASKRUN from
#       5.19, a plain ring before (5.10); ring fd registered from 5.18.
#   KERNEL_ZONED  the zoned NVMe namespace: the schedulers the kernel offers
#       and its default are shown; the policy's choice (mq-deadline before
#       6.10, none from 6.10) is checked by COLDPLUG.
#
# Check TUNABLES (off unless VM_CHECK_TUNABLES=1: the 7.x lane): kyber and bfq
# loaded (modprobe), the host's invariant test (tests/integration/
# apply-invariant.sh, installed by mk-image.sh) on a loop device (every
# tunable of the table) and on the zoned NVMe namespace (the keys zoning
# bounds), on this kernel's real files, at, below and above the bounds under
# every scheduler offered;
# apply exit 0 -> --check 0, apply exit N -> --dry-run exited N first and
# the disk is as it was. Its per-case failures are shown.
# Uses say, result, want, kver_ge, active_sched, get_sched, tick, LABELS,
# NAMES from payload.sh.

kernel_loop_setup() { # -> $KLOOP (attached) or 1
	KLOOP_FILE=/var/tmp/iosched-kernel.img
	truncate -s 64M "$KLOOP_FILE"
	KLOOP=$(losetup --show -f "$KLOOP_FILE") || return 1
	KLOOP=${KLOOP#/dev/}
	udevadm settle --timeout=30
}
kernel_loop_done() {
	[ -n "${KLOOP:-}" ] && losetup -d "/dev/$KLOOP"
	rm -f "$KLOOP_FILE" /run/iosched.d/50-vm-kernel.conf
	KLOOP=
}

ad_file() { # NAME -> the file this kernel keeps mq-deadline's async_depth in, or nothing
	if [ -e /sys/block/"$1"/queue/async_depth ]; then echo queue/async_depth
	elif [ -e /sys/block/"$1"/queue/iosched/async_depth ]; then echo queue/iosched/async_depth; fi
}

ad_apply() { # NAME KEY VALUE -> $out, $rc of iosched-apply -v with a drop-in setting KEY=VALUE
	printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n%s=%s\n' "$1" "$2" "$3" >/run/iosched.d/50-vm-kernel.conf
	chmod 0644 /run/iosched.d/50-vm-kernel.conf
	out=$(iosched-apply -v "$1" 2>&1) # -v: skipped settings are shown too
	rc=$?
	printf '%s\n' "$out" | sed 's/^/  /' >&3
}

check_async_depth() {
	local out rc v bad= why d= i f key val=16
	for i in "${!LABELS[@]}"; do [ "${LABELS[$i]}" = sata-hdd ] && d=${NAMES[$i]}; done
	if [ -z "$d" ] || [ "$(active_sched "$d")" != mq-deadline ]; then
		result KERNEL_ASYNC_DEPTH FAIL "no SATA HDD on mq-deadline (${d:-missing}) to try async_depth on"
		return
	fi
	mkdir -p /run/iosched.d
	f=$(ad_file "$d")
	say "KERNEL-FACT $(uname -r): mq-deadline async_depth in ${f:-no file (5.14+)}; $d queue/: $(ls /sys/block/"$d"/queue | grep -v '^iosched$' | tr '\n' ' ')"
	say "KERNEL-FACT $(uname -r): mq-deadline queue/iosched/: $(ls /sys/block/"$d"/queue/iosched | tr '\n' ' ')"
	# either spelling lands in the file the kernel has
	for key in queue/iosched/async_depth queue/async_depth; do
		ad_apply "$d" "$key" "$val"
		[ "$(active_sched "$d")" = mq-deadline ] || bad="$bad scheduler=$(active_sched "$d")"
		[ $rc = 0 ] || bad="$bad $key:exit=$rc"
		if [ -n "$f" ]; then
			v=$(cat /sys/block/"$d"/"$f" 2>/dev/null)
			[ "$v" = "$val" ] || bad="$bad $key:$f=${v:-absent}!=$val"
			iosched-apply --check "$d" >/dev/null 2>&1 || bad="$bad $key:--check-exit=$?"
		else
			case $out in *"not offered by this kernel"*) ;; *) bad="$bad $key:no-'not offered'-message" ;; esac
			case $out in *"not set and not checked"*) ;; *) bad="$bad $key:no-note-in-apply" ;; esac
			# --check says it too: a tunable the kernel lacks is never compliant in silence
			out=$(iosched-apply --check "$d" 2>&1)
			case $out in *"not set and not checked"*) ;; *) bad="$bad $key:--check-silent" ;; esac
		fi
		val=$((val + 8))
	done
	rm -f /run/iosched.d/50-vm-kernel.conf
	if [ -n "$f" ]; then
		kver_ge 5 14 || bad="$bad async_depth-before-5.14?"
		why="$d: either spelling applied to $f and read back, --check 0"
	else
		kver_ge 5 14 && bad="$bad no-async_depth-from-5.14?"
		why="$d, $(uname -r): mq-deadline has no async_depth before 5.14; both spellings skipped as not offered (said in a note, --check too), exit 0, scheduler kept"
	fi
	if [ -z "$bad" ]; then result KERNEL_ASYNC_DEPTH PASS "$why"; else result KERNEL_ASYNC_DEPTH FAIL "$bad"; fi
}

# Which queue/ writes make this kernel recompute read_ahead_kb (tunables.c's resets[]):
# read_ahead_kb written low (64) and high (4096), the attribute written with its own
# value, read_ahead_kb read back. Then iosched-apply with read_ahead_kb=64 and
# add_random=1 must hold on its first pass (add_random written first).
check_ra_reset() {
	local q=/sys/block/$KLOOP/queue a v lo hi list= out rc bad= first second
	for a in add_random iostats iostats_passthrough rotational stable_writes max_sectors_kb write_cache nomerges rq_affinity \
		wbt_lat_usec nr_requests io_poll io_timeout; do
		[ -w "$q/$a" ] || continue
		v=$(cat "$q/$a")
		echo 64 >"$q/read_ahead_kb"
		echo "$v" >"$q/$a" 2>/dev/null || { list="$list $a:write-refused"; continue; }
		lo=$(cat "$q/read_ahead_kb")
		echo 4096 >"$q/read_ahead_kb"
		echo "$v" >"$q/$a" 2>/dev/null
		hi=$(cat "$q/read_ahead_kb")
		[ "$lo" = 64 ] && [ "$hi" = 4096 ] && continue
		list="$list $a(64->$lo,4096->$hi)"
	done
	say "KERNEL-FACT $(uname -r): ra-reset: the writes that recompute read_ahead_kb on a loop device:${list:- none}"
	echo 0 >"$q/add_random"
	echo 128 >"$q/read_ahead_kb"
	printf '[Match]\nName=%s\n[Set]\nqueue/read_ahead_kb=64\nqueue/add_random=1\n' "$KLOOP" >/run/iosched.d/50-vm-kernel.conf
	chmod 0644 /run/iosched.d/50-vm-kernel.conf
	out=$(iosched-apply "$KLOOP" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/  /' >&3
	[ $rc = 0 ] || bad="$bad exit=$rc"
	[ "$(cat "$q/read_ahead_kb")" = 64 ] || bad="$bad read_ahead_kb=$(cat "$q/read_ahead_kb")!=64"
	[ "$(cat "$q/add_random")" = 1 ] || bad="$bad add_random=$(cat "$q/add_random")!=1"
	first=$(printf '%s\n' "$out" | grep -n 'queue/add_random: 0 -> 1' | cut -d: -f1)
	second=$(printf '%s\n' "$out" | grep -n 'queue/read_ahead_kb: 128 -> 64' | cut -d: -f1)
	case $list in
	*add_random\(*)
		[ -n "$first" ] && [ -n "$second" ] && [ "$first" -lt "$second" ] || bad="$bad order(add_random@${first:-?},read_ahead_kb@${second:-?})" ;;
	esac
	case $out in *"written again"*) bad="$bad first-pass-did-not-hold" ;; esac
	iosched-apply --check "$KLOOP" >/dev/null 2>&1 || bad="$bad --check-exit=$?"
	rm -f /run/iosched.d/50-vm-kernel.conf
	if [ -z "$bad" ]; then
		result KERNEL_RA_RESET PASS "$KLOOP: read_ahead_kb=64 held after add_random=1 in one pass, --check 0 (recomputed by:${list:- none})"
	else
		result KERNEL_RA_RESET FAIL "$bad"
	fi
}

# kyber and bfq are modules: absent from the list until loaded. A policy naming
# kyber still gets it (iosched-apply finds the module for the running kernel).
check_sched_module() {
	local q=/sys/block/$KLOOP/queue out rc listed
	if ! kver_ge 5 11; then
		result KERNEL_SCHED_MODULE SKIP "loop has no I/O scheduler before 5.11"
		return
	fi
	listed=$(cat "$q/scheduler")
	printf '[Match]\nName=%s\n[Set]\nScheduler=kyber\n' "$KLOOP" >/run/iosched.d/50-vm-kernel.conf
	chmod 0644 /run/iosched.d/50-vm-kernel.conf
	out=$(iosched-apply "$KLOOP" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed 's/^/  /' >&3
	say "KERNEL-FACT $(uname -r): loop offered \"$listed\" before the policy asked for kyber; now \"$(cat "$q/scheduler")\""
	if [ $rc = 0 ] && [ "$(active_sched "$KLOOP")" = kyber ] && iosched-apply --check "$KLOOP" >/dev/null 2>&1; then
		result KERNEL_SCHED_MODULE PASS "$KLOOP: kyber ($(case $listed in *kyber*) echo listed ;; *) echo 'not listed, loaded on write' ;; esac)), --check 0"
	else
		result KERNEL_SCHED_MODULE FAIL "exit=$rc active=$(active_sched "$KLOOP")"
	fi
	rm -f /run/iosched.d/50-vm-kernel.conf
}

check_io_uring() {
	local out rc note wantmode wantreg bad=
	if ! command -v iosched-bench >/dev/null; then
		result KERNEL_IO_URING SKIP "iosched-bench not installed"
		return
	fi
	out=$(iosched-bench --filename="/dev/$KLOOP" --rw=randread --bs=4k --iodepth=8 --ioengine=io_uring --runtime=1s 2>&1)
	rc=$?
	note=$(printf '%s\n' "$out" | sed -n 's/.*engine: \([^;]*\);.*/\1/p' | head -n 1)
	if kver_ge 6 1; then wantmode=defer_taskrun
	elif kver_ge 5 19; then wantmode=coop_taskrun
	else wantmode=plain; fi
	wantreg=0
	kver_ge 5 18 && wantreg=1
	[ $rc = 0 ] || bad="$bad exit=$rc"
	case " $note " in *" $wantmode "*) ;; *) bad="$bad ring='$note'(want $wantmode)" ;; esac
	case " $note " in
	*" registered_ring "*) [ $wantreg = 1 ] || bad="$bad registered_ring-before-5.18?" ;;
	*) [ $wantreg = 0 ] || bad="$bad no-registered_ring" ;;
	esac
	if [ -z "$bad" ]; then
		result KERNEL_IO_URING PASS "$(uname -r): io_uring engine: $note (expected $wantmode$([ $wantreg = 1 ] && echo ', registered ring' || echo ', no ring fd registration before 5.18'))"
	else
		printf '%s\n' "$out" | tail -n 5 | sed 's/^/  /' >&3
		result KERNEL_IO_URING FAIL "$bad"
	fi
}

show_zoned() {
	local i n
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]}
		[ -n "$n" ] && [ "$(cat /sys/block/"$n"/queue/zoned 2>/dev/null)" != none ] || continue
		[ -e /sys/block/"$n"/queue/zoned ] || continue
		say "KERNEL-FACT zoned $n ($(cat /sys/block/"$n"/queue/zoned)): offered \"$(cat /sys/block/"$n"/queue/scheduler)\"; policy $(if kver_ge 6 10; then echo 'none (6.10+: zoned write plugging, no mq-deadline needed)'; else echo 'mq-deadline (before 6.10 zoned writes need it)'; fi), checked by COLDPLUG"
	done
}

check_kernel() {
	local have=0
	command -v iosched-apply >/dev/null && have=1
	want KERNEL "$have" "iosched-apply" || return 0
	say "KERNEL-FACT $(uname -r): loop I/O scheduler $(kver_ge 5 11 && echo yes || echo 'no (5.11+)'); mq-deadline async_depth $(kver_ge 7 2 && echo 'yes, as queue/async_depth (7.2+)' || { kver_ge 5 14 && echo 'yes, in queue/iosched/' || echo 'no (5.14+)'; }); hz config $(ls /boot/config-"$(uname -r)" /usr/lib/modules/"$(uname -r)"/config 2>/dev/null | tr '\n' ' '); io_uring DEFER_TASKRUN $(kver_ge 6 1 && echo yes || echo 'no (6.1+)'), COOP_TASKRUN $(kver_ge 5 19 && echo yes || echo 'no (5.19+)'); zoned policy $(kver_ge 6 10 && echo none || echo mq-deadline)"
	show_zoned
	if ! kernel_loop_setup; then
		result KERNEL FAIL "no loop device"
		return 0
	fi
	check_async_depth
	check_ra_reset
	check_io_uring
	check_sched_module
	kernel_loop_done
	result KERNEL PASS "kernel differences shown above (KERNEL_* checks)"
}

# TUNABLES: the invariant test on this kernel's files, kyber and bfq loaded
check_tunables() {
	local it=/usr/local/lib/iosched-vm/tree/tests/integration/apply-invariant.sh out rc bad= z= i n
	want TUNABLES "$([ -x "$it" ] && command -v iosched-apply >/dev/null && echo 1 || echo 0)" \
		"apply-invariant.sh and iosched-apply" || return 0
	for m in kyber-iosched bfq; do
		modprobe "$m" 2>/dev/null || bad="$bad modprobe $m failed;"
	done
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]}
		[ -n "$n" ] && [ -e /sys/block/"$n"/queue/zoned ] && [ "$(cat /sys/block/"$n"/queue/zoned)" != none ] && z=$n
	done
	# under TCG each case's three iosched-apply runs take a second or more: the values
	# at and around every bound (ten), and on the zoned namespace the keys zoning bounds
	export IOS_INVARIANT_VALUES="-1 0 1 4 128 129 2048 2049 4097 4294967296"
	for n in loop ${z:+"$z"}; do
		if [ "$n" = loop ]; then
			out=$(IOS_APPLY=$(command -v iosched-apply) sh "$it" 2>&1)
		else
			out=$(IOS_APPLY=$(command -v iosched-apply) IOS_INVARIANT_DEV=$n \
				IOS_INVARIANT_KEYS="queue/zoned_qd1_writes queue/nr_requests queue/async_depth queue/max_sectors_kb" \
				sh "$it" 2>&1)
		fi
		rc=$?
		printf '%s\n' "$out" | grep -e '^FAIL' -e '^note' -e 'cases' | head -n 40 | sed 's/^/  /' >&3
		say "KERNEL-FACT $(uname -r): invariant: $(printf '%s\n' "$out" | tail -n 1)"
		[ $rc = 0 ] || bad="$bad $n: exit $rc ($(printf '%s\n' "$out" | tail -n 1));"
	done
	[ -n "$z" ] || bad="$bad no zoned NVMe namespace to check zoned_qd1_writes on;"
	if [ -z "$bad" ]; then
		result TUNABLES PASS "kyber and bfq loaded; every tunable on a loop device, the zoning-bound ones on ${z}, at, below and above their bounds: apply exit 0 -> --check 0, refusals -> --dry-run the same exit, disk unchanged"
	else
		result TUNABLES FAIL "$bad"
	fi
}
