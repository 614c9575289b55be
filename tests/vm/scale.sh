#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# tests/vm/scale.sh: iosched on a SAN host at scale (opt-in, not in make
# check-vm: it takes tens of minutes under TCG). Boots the tests/vm guest
# (mode scale, guest/scale.sh) with no extra disk; the guest makes
# VM_SCALE_LUNS (400) scsi_debug LUNs x 2 paths under dm-multipath and times
# a coldplug replay with iosched's udev rule against a plain two-line
# ATTR{queue/scheduler} rule, VM_SCALE_PAIRS (3) interleaved pairs, checking
# after each iosched replay that every map is on its policy and every path
# was left alone. The figures go to docs/bench.md by hand (measured, never
# invented); $VM_WORKDIR/scale.txt keeps them.
#
# Exit: 0 pass, 1 fail, 77 skip. Environment as run.sh (VM_KERNEL, VM_CACHE,
# VM_WORKDIR default /var/tmp/iosched-vm-scale, VM_MEM default 3072),
# VM_TIMEOUT (default 5400 s).
set -u
here=$(cd "$(dirname "$0")" && pwd)
VM_TOP=$(cd "$here/../.." && pwd)
VM_MEM=${VM_MEM:-3072}
. "$here/lib.sh"
vm_need_tools

T_START=$(date +%s)
WORK=${VM_WORKDIR:-/var/tmp/iosched-vm-scale}
VM_TIMEOUT=${VM_TIMEOUT:-5400}
vm_setup "$WORK"
vm_image || { vm_log "image build failed"; exit 1; }
vm_log "image ready in ${VM_IMAGE_SECONDS}s: kernel $VM_KVER"
vm_disks_tsv_init "$WORK/share/disks.tsv"
{
	echo "SCALE_LUNS=${VM_SCALE_LUNS:-400}"
	echo "SCALE_PAIRS=${VM_SCALE_PAIRS:-3}"
} >"$WORK/share/config.sh"

trap vm_kill EXIT
vm_start scale
vm_wait_for '^GUEST-UP' 300 >/dev/null || { vm_log "guest did not come up"; tail -n 40 "$WORK/console.log" >&2; exit 1; }
vm_log "guest up after $(vm_elapsed) s"
shown=0
deadline=$(($(date +%s) + VM_TIMEOUT))
while [ "$(date +%s)" -lt "$deadline" ]; do
	mapfile -t lines < <(tr -d '\r' <"$WORK/results.log")
	while [ "$shown" -lt "${#lines[@]}" ]; do
		printf '  | %s\n' "${lines[$shown]}"
		shown=$((shown + 1))
	done
	grep -q -a '^GUEST-DONE' "$WORK/results.log" && break
	vm_alive || break
	sleep 2
done
grep -q -a '^GUEST-DONE' "$WORK/results.log" && vm_wait_exit 60 || vm_kill
mapfile -t lines < <(tr -d '\r' <"$WORK/results.log")
while [ "$shown" -lt "${#lines[@]}" ]; do
	printf '  | %s\n' "${lines[$shown]}"
	shown=$((shown + 1))
done
grep -a '^TIMING scale' "$WORK/results.log" | tr -d '\r' >"$WORK/scale.txt"
vm_log "total $(($(date +%s) - T_START)) s (kernel $VM_KVER); figures in $WORK/scale.txt"
grep -q -a '^PAYLOAD-RESULT PASS' "$WORK/results.log"
