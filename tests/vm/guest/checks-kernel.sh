# SPDX-License-Identifier: LGPL-2.1-or-later
# checks-kernel.sh (sourced by payload.sh): what differs between the kernels
# of the matrix (5.10, 6.1, 6.12), each difference handled and shown. Check
# KERNEL (auto = when iosched-apply and iosched-bench are installed):
#
#   KERNEL_ASYNC_DEPTH  the SATA HDD (policy mq-deadline) with a drop-in
#       adding queue/iosched/async_depth=16. From 5.14 the value is applied
#       and read back; before (5.10) mq-deadline has no async_depth:
#       iosched-apply must skip it as "not offered by this kernel" and still
#       exit 0, the scheduler kept. (Not on a loop device: before 5.11 loop
#       has no I/O scheduler at all, see LOOP_ATTACH.)
#   KERNEL_IO_URING  iosched-bench, io_uring engine, 1 s of reads on the loop
#       device: exits 0 on every kernel, with the ring set up the way the
#       kernel allows: SINGLE_ISSUER+DEFER_TASKRUN from 6.1, COOP_TASKRUN from
#       5.19, a plain ring before (5.10); ring fd registered from 5.18.
#   KERNEL_ZONED  the zoned NVMe namespace: the schedulers the kernel offers
#       and its default are shown; the policy's choice (mq-deadline before
#       6.10, none from 6.10) is checked by COLDPLUG.
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

check_async_depth() {
	local out rc v bad= why d= i
	for i in "${!LABELS[@]}"; do [ "${LABELS[$i]}" = sata-hdd ] && d=${NAMES[$i]}; done
	if [ -z "$d" ] || [ "$(active_sched "$d")" != mq-deadline ]; then
		result KERNEL_ASYNC_DEPTH FAIL "no SATA HDD on mq-deadline (${d:-missing}) to try async_depth on"
		return
	fi
	mkdir -p /run/iosched.d
	printf '[Match]\nName=%s\n[Set]\nqueue/iosched/async_depth=16\n' "$d" >/run/iosched.d/50-vm-kernel.conf
	chmod 0644 /run/iosched.d/50-vm-kernel.conf
	out=$(iosched-apply -v "$d" 2>&1) # -v: skipped settings are shown too
	rc=$?
	rm -f /run/iosched.d/50-vm-kernel.conf
	printf '%s\n' "$out" | sed 's/^/  /' >&3
	[ "$(active_sched "$d")" = mq-deadline ] || bad="$bad scheduler=$(active_sched "$d")"
	if kver_ge 5 14; then
		v=$(cat /sys/block/"$d"/queue/iosched/async_depth 2>/dev/null)
		[ $rc = 0 ] || bad="$bad exit=$rc"
		[ "$v" = 16 ] || bad="$bad async_depth=${v:-absent}!=16"
		why="$d: async_depth applied and read back (16)"
	else
		[ ! -e /sys/block/"$d"/queue/iosched/async_depth ] || bad="$bad async_depth-exists-before-5.14?"
		[ $rc = 0 ] || bad="$bad exit=$rc(a missing attribute is skipped, exit 0)"
		case $out in *"not offered by this kernel"*) ;; *) bad="$bad no-'not offered'-message" ;; esac
		why="$d, $(uname -r): mq-deadline has no async_depth before 5.14; skipped as not offered, exit 0, scheduler kept"
	fi
	if [ -z "$bad" ]; then result KERNEL_ASYNC_DEPTH PASS "$why"; else result KERNEL_ASYNC_DEPTH FAIL "$bad"; fi
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
	say "KERNEL-FACT $(uname -r): loop I/O scheduler $(kver_ge 5 11 && echo yes || echo 'no (5.11+)'); mq-deadline async_depth $(kver_ge 5 14 && echo yes || echo 'no (5.14+)'); io_uring DEFER_TASKRUN $(kver_ge 6 1 && echo yes || echo 'no (6.1+)'), COOP_TASKRUN $(kver_ge 5 19 && echo yes || echo 'no (5.19+)'); zoned policy $(kver_ge 6 10 && echo none || echo mq-deadline)"
	show_zoned
	if ! kernel_loop_setup; then
		result KERNEL FAIL "no loop device"
		return 0
	fi
	check_async_depth
	check_io_uring
	kernel_loop_done
	result KERNEL PASS "kernel differences shown above (KERNEL_* checks)"
}
