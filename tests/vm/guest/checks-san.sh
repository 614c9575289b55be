# SPDX-License-Identifier: LGPL-2.1-or-later
# checks-san.sh (sourced by payload.sh): dm-multipath, the SAN host's disk.
#
# tests/vm/run.sh attaches each multipath LUN as two scsi-hd on two
# single-queue virtio-scsi HBAs (same serial and wwn 0x5000c0de..., one
# backing node, share-rw); guest/multipath.conf multipaths exactly those
# WWIDs (find_multipaths greedy). disks.tsv names the map by its
# dm-uuid-mpath-<WWID> link and each path as wwid:naa.<wwn>#N.
#
#   san_wait_maps   before the inventory: wait until every map of disks.tsv
#                   exists with two paths (multipathd builds them after boot)
#   check_mpath     MPATH: each map is a request-based multipath map
#                   (dm/uuid mpath-*, a queue/scheduler of its own) over
#                   exactly its two paths, both active (multipath -ll)
#   check_hotplug_mpath  HOTPLUG_MPATH: the host hot-adds a flash LUN on both
#                   paths; the map gets the policy's scheduler (none) by the
#                   udev rule, its paths keep the kernel's default
#                   (mq-deadline on a single-queue HBA): the policy leaves them
#                   alone, their I/O is inserted below their schedulers
# Uses say, result, want, resolve, active_sched, tick from payload.sh.

have_mpath=0
command -v multipath >/dev/null 2>&1 && systemctl is-active -q multipathd.service && have_mpath=1

san_map_globs() { awk -F'\t' '$2 ~ /^dm-uuid-mpath-/ {print $2}' "$SHARE/disks.tsv"; }

san_nslaves() { # dm-N -> number of slaves
	local s k=0
	for s in /sys/block/"$1"/slaves/*; do [ -e "$s" ] && k=$((k + 1)); done
	echo $k
}

san_wait_maps() {
	local g n tend=$((${EPOCHREALTIME/./} + 90000000)) missing
	[ -n "$(san_map_globs)" ] || return 0
	while :; do
		missing=
		for g in $(san_map_globs); do
			n=$(resolve "$g") && [ "$(san_nslaves "$n")" = 2 ] || missing="$missing $g"
		done
		[ -z "$missing" ] && break
		if [ "${EPOCHREALTIME/./}" -ge "$tend" ]; then
			say "SAN maps not complete after 90 s:$missing"
			break
		fi
		tick 0.2
	done
	udevadm settle --timeout=60
	say "SAN multipathd $(systemctl is-active multipathd.service 2>&1), maps: $(dmsetup ls --target multipath 2>&1 | tr '\t\n' ' ')"
}

# san_map_ok DM WWN -> "" when DM is a multipath map over exactly the two
# paths of wwid naa.WWN, both active; else what is wrong
san_map_ok() {
	local dm=$1 wwn=$2 bad= u p0 p1 s ll
	u=$(cat /sys/block/"$dm"/dm/uuid 2>/dev/null)
	case $u in mpath-*) ;; *) bad="$bad $dm:uuid=$u" ;; esac
	[ -r /sys/block/"$dm"/queue/scheduler ] || bad="$bad $dm:no-queue/scheduler(bio-based?)"
	p0=$(resolve "wwid:naa.$wwn#0") p1=$(resolve "wwid:naa.$wwn#1")
	[ -n "$p0" ] && [ -n "$p1" ] || bad="$bad paths:'$p0','$p1'"
	s=$(ls /sys/block/"$dm"/slaves 2>/dev/null | sort | tr '\n' ' ')
	[ "$s" = "$(printf '%s\n' "$p0" "$p1" | sort | tr '\n' ' ')" ] || bad="$bad slaves=[$s]!=[$p0 $p1]"
	ll=$(multipath -ll "3$wwn" 2>&1)
	[ "$(printf '%s\n' "$ll" | grep -c 'active ready running')" = 2 ] || bad="$bad multipath-ll:not-2-active-paths"
	printf '%s\n' "$ll" | sed 's/^/  /' >&3
	echo "$bad"
}

check_mpath() {
	want MPATH "$have_mpath" "multipath-tools + multipathd" || return 0
	local g n wwn bad= k=0
	for g in $(san_map_globs); do
		wwn=${g#dm-uuid-mpath-3}
		n=$(resolve "$g") || { bad="$bad no-$g"; continue; }
		bad="$bad$(san_map_ok "$n" "$wwn")"
		k=$((k + 1))
	done
	if [ -z "$bad" ]; then
		result MPATH PASS "$k multipath maps, each over its 2 active paths"
	else
		result MPATH FAIL "$bad"
	fi
}

check_hotplug_mpath() { # ID SCSI-ID WWN
	want HOTPLUG_MPATH "$have_mpath" "multipath-tools + multipathd" || return 0
	local id=$1 sid=$2 wwn=${3#0x} dm= d t0 t1 tend ms bad= p a
	say "HOTPLUG-MPATH-REQUEST $id $sid $3"
	tend=$((${EPOCHREALTIME/./} + 120000000))
	while [ -z "$dm" ]; do
		for d in /sys/block/dm-*; do
			[ "$(cat "$d/dm/uuid" 2>/dev/null)" = "mpath-3$wwn" ] && { dm=${d##*/}; break; }
		done
		[ -n "$dm" ] && break
		[ "${EPOCHREALTIME/./}" -lt "$tend" ] || { result HOTPLUG_MPATH FAIL "no multipath map for WWID 3$wwn within 120 s"; return 0; }
		tick 0.01
	done
	t0=${EPOCHREALTIME/./}
	tend=$((t0 + 30000000))
	while get_sched "$dm"; [ "$SCHED" != none ]; do
		[ "${EPOCHREALTIME/./}" -lt "$tend" ] || break
		tick 0.005
	done
	t1=${EPOCHREALTIME/./}
	ms=$(((t1 - t0) / 1000))
	# both paths must be in the map before the paths are judged
	tend=$((${EPOCHREALTIME/./} + 60000000))
	while [ "$(san_nslaves "$dm")" != 2 ] && [ "${EPOCHREALTIME/./}" -lt "$tend" ]; do tick 0.1; done
	udevadm settle --timeout=60
	say "  hot-added LUN $id: map $dm, scheduler $(active_sched "$dm") (class $(iosched-apply list -n -r -o CLASS "$dm" 2>/dev/null))"
	[ "$(active_sched "$dm")" = none ] || bad="$bad $dm:$(active_sched "$dm")!=none(flash LUN, policy none)"
	for p in 0 1; do
		a=$(resolve "wwid:naa.$wwn#$p") || { bad="$bad no-path$p"; continue; }
		say "  path $p: $a scheduler $(active_sched "$a") (class $(iosched-apply list -n -r -o CLASS "$a" 2>/dev/null))"
		[ "$(active_sched "$a")" = mq-deadline ] || bad="$bad path$p($a):$(active_sched "$a")!=mq-deadline(kernel default: touched)"
	done
	bad="$bad$(san_map_ok "$dm" "$wwn")"
	if [ -z "$bad" ]; then
		result HOTPLUG_MPATH PASS "map $dm [none] ${ms} ms after it appeared (udev rule); both paths keep [mq-deadline]"
		say "TIMING hotplug-mpath-ms $ms"
	else
		result HOTPLUG_MPATH FAIL "$bad"
	fi
}
