# SPDX-License-Identifier: LGPL-2.1-or-later
# checks-replay.sh (sourced by payload.sh): REPLAY, the coldplug replay.
#
#   check_replay  with every disk's scheduler scrambled, `udevadm trigger
#                 --action=add` + settle, REPLAY_ROUNDS times each: with the
#                 iosched rule (every disk compliant after each round), with
#                 the same writes as plain ATTR{} rules, and with no rule; the
#                 medians go to the results (TIMING replay-*). A disk the
#                 policy leaves alone must not be rewritten. VM_REPLAY_BY_KIND=1
#                 adds one replay per kind of device (where the time goes);
#                 VM_REPLAY_COMPARE=0 runs the iosched series alone (compliance
#                 after the replay, no timing comparison).
# Uses say, result, now_us, median, active_sched, other_sched, managed,
# disable_iosched_rules, restore_iosched_rules and LABELS/NAMES/ESCHED from
# payload.sh.

# scramble: give every disk with a policy scheduler the other one, so that a
# replay has real writes to make.
# A disk the policy leaves alone ("left:S") gets the other scheduler too, and
# must still have it after the replay (nobody rewrote it).
scramble() {
	local i n e
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]} e=${ESCHED[$i]}
		[ -n "$n" ] && [ "$e" != keep ] || continue
		echo "$(other_sched "${e#left:}")" >/sys/block/"$n"/queue/scheduler 2>/dev/null
	done
}
compliant() {
	local i n e a bad=
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]} e=${ESCHED[$i]}
		[ -n "$n" ] && [ "$e" != keep ] || continue
		a=$(active_sched "$n")
		case $e in
		left:*) [ "$a" = "$(other_sched "${e#left:}")" ] || bad="$bad $n:$a(left alone, but rewritten)" ;;
		*) [ "$a" = "$e" ] || bad="$bad $n:$a!=$e" ;;
		esac
	done
	echo "$bad"
}
unscramble_left() { # the disks left alone back to the kernel's default
	local i n e
	for i in "${!LABELS[@]}"; do
		n=${NAMES[$i]} e=${ESCHED[$i]}
		[ -n "$n" ] && [ "${e#left:}" != "$e" ] || continue
		echo "${e#left:}" >/sys/block/"$n"/queue/scheduler 2>/dev/null
	done
}
replay_once() { # -> milliseconds
	local t0 t1
	t0=$(now_us)
	udevadm trigger --action=add --subsystem-match=block
	udevadm settle --timeout=180
	t1=$(now_us)
	echo $(((t1 - t0) / 1000))
}
replay_series() { # LABEL CHECK_COMPLIANCE(0/1)
	local label=$1 chk=$2 r ms all=() bad=
	for r in $(seq 1 "$REPLAY_ROUNDS"); do
		scramble
		ms=$(replay_once)
		all+=("$ms")
		if [ "$chk" = 1 ]; then
			b=$(compliant)
			[ -z "$b" ] || bad="$bad round$r:$b"
		fi
	done
	say "TIMING replay-$label-ms ${all[*]} median $(median "${all[@]}")"
	REPLAY_BAD=$bad
	REPLAY_MEDIAN=$(median "${all[@]}")
}

check_replay() {
	# where a replay's time goes (VM_REPLAY_BY_KIND=1): one replay per kind of device
	if [ "${REPLAY_BY_KIND:-0}" = 1 ]; then
		sub=
		for m in 'sd*' 'sr*' 'dm-*' 'vd*' 'nvme*' 'mmcblk*' 'loop*'; do
			t0=$(now_us)
			udevadm trigger --action=add --subsystem-match=block --sysname-match="$m"
			udevadm settle --timeout=180
			sub="$sub ${m%\*}=$((($(now_us) - t0) / 1000))"
		done
		say "TIMING replay-by-kind-ms$sub (iosched rule, one replay each)"
	fi
	replay_series iosched 1
	bad_iosched=$REPLAY_BAD med_iosched=$REPLAY_MEDIAN
	if [ "${REPLAY_COMPARE:-1}" = 0 ]; then
		# compliance only: the comparison's two series (and the replay that
		# puts the iosched rule's writes back after them) are left out
		unscramble_left
		say "TIMING replay-summary median ms: iosched=$med_iosched (${#LABELS[@]} disks, $REPLAY_ROUNDS rounds, no comparison)"
		if [ -n "$bad_iosched" ]; then
			result REPLAY FAIL "not compliant after replay with the iosched rule:$bad_iosched"
		else
			result REPLAY PASS "iosched $med_iosched ms, every disk compliant (no comparison: REPLAY_COMPARE=0)"
		fi
		return
	fi
	disable_iosched_rules
	plain=/etc/udev/rules.d/60-vm-plain.rules
	{
		echo "# the same scheduler writes as iosched's policy, as plain ATTR{} assignments"
		for i in "${!LABELS[@]}"; do
			n=${NAMES[$i]} e=${ESCHED[$i]}
			[ -n "$n" ] && managed "$e" || continue
			echo "ACTION==\"add|change\", SUBSYSTEM==\"block\", KERNEL==\"$n\", ATTR{queue/scheduler}=\"$e\""
		done
	} >"$plain"
	udevadm control --reload
	replay_series plain-attr 1
	bad_plain=$REPLAY_BAD med_plain=$REPLAY_MEDIAN
	rm -f "$plain"
	udevadm control --reload
	replay_series no-rule 0
	med_none=$REPLAY_MEDIAN
	restore_iosched_rules
	scramble
	replay_once >/dev/null
	unscramble_left
	say "TIMING replay-summary median ms: iosched=$med_iosched plain-attr=$med_plain no-rule=$med_none (${#LABELS[@]} disks, $REPLAY_ROUNDS rounds)"
	if [ -n "$bad_iosched" ]; then
		result REPLAY FAIL "not compliant after replay with the iosched rule:$bad_iosched"
	elif [ -n "$bad_plain" ]; then
		result REPLAY FAIL "plain rule did not make the same writes:$bad_plain"
	else
		result REPLAY PASS "iosched $med_iosched ms vs plain ATTR{} $med_plain ms vs no rule $med_none ms"
	fi
}
