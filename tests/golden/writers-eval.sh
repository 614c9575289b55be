#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Other writers as they ship now (issue 38 item 3), on captured trees:
# - a udev rule's match keys are evaluated against each disk: a rule
#   equivalent to btrfs-progs' 64-btrfs-zoned.rules (SUBSYSTEM/ACTION/
#   ENV{ID_FS_TYPE} GOTOs, then ATTR{queue/zoned}=="host-managed") conflicts
#   on a host-managed zoned disk holding btrfs, not on a disk without btrfs
#   nor on a zoned disk without it;
# - a key iosched cannot evaluate (ATTRS{vendor}) is "may conflict", said so;
# - /usr/local/lib/udev/rules.d is read; ATTR{...}:= is a writer (udev reads
#   it as "="); RUN:= drops iosched's rule for good and is said so;
# - TuneD 2.23+'s /usr/lib/tuned/profiles and /etc/tuned/profiles, the later
#   directory first, an /etc profile including the packaged one of its own
#   name, readahead_multiply.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
export IOSCHED_TEST_ANY_OWNER=1

# The rule, written equivalent to btrfs-progs' 64-btrfs-zoned.rules (GPL-2.0;
# not copied): its keys and flow, line 7 the assignment.
btrfs_rule() {
        mkdir -p "$1/usr/lib/udev/rules.d"
        printf '%s\n' 'SUBSYSTEM!="block", GOTO="btrfs_end"' 'ACTION!="add|change", GOTO="btrfs_end"' \
                'ENV{ID_FS_TYPE}!="btrfs", GOTO="btrfs_end"' '' '# zoned btrfs: a scheduler with zone write locking' \
                '' 'ATTR{queue/zoned}=="host-managed", ATTR{queue/scheduler}="mq-deadline"' '' 'LABEL="btrfs_end"' \
                > "$1/usr/lib/udev/rules.d/64-btrfs-zoned.rules"
}
policy() {
        mkdir -p "$1/etc/iosched.d"
        printf '[Match]\nName=*\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\n' > "$1/etc/iosched.d/60-all.conf"
        chmod 0644 "$1/etc/iosched.d/60-all.conf"
}

# 1. zoned + btrfs: a conflict; zoned without btrfs, and not zoned: none
for c in zbtrfs:nvme-zoned zplain:nvme-zoned plain:megaraid-ld; do
        name=${c%%:*} src=${c#*:}
        r=$t/$name
        mkdir -p "$r" && cp -a "$fx/$src/." "$r/" || exit 1
        btrfs_rule "$r"
        policy "$r"
done
echo "E:ID_FS_TYPE=btrfs" >> "$t/zbtrfs/run/udev/data/b259:2"
got=$("$bin" --sysroot "$t/zbtrfs" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "nvme0n1 udev:64-btrfs-zoned.rules:7(queue/scheduler)" ] || t_fail "zoned btrfs: $got"
got=$("$bin" --sysroot "$t/zplain" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "nvme0n1 " ] || t_fail "zoned, no btrfs: $got"
got=$("$bin" --sysroot "$t/plain" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb " ] || t_fail "not zoned: $got"
# not zoned, even with btrfs on it: ATTR{queue/zoned} says no
echo "E:ID_FS_TYPE=btrfs" >> "$t/plain/run/udev/data/b8:16"
got=$("$bin" --sysroot "$t/plain" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb " ] || t_fail "not zoned, btrfs: $got"

# 2. a key not evaluated: may conflict, said so; /usr/local/lib read; :=; RUN:=
r=$t/plain
mkdir -p "$r/usr/local/lib/udev/rules.d" "$r/etc/udev/rules.d"
printf 'SUBSYSTEM=="block", ATTRS{vendor}=="QEMU*", ATTR{queue/scheduler}="kyber"\n' \
        > "$r/usr/local/lib/udev/rules.d/70-vendor.rules"
printf 'KERNEL=="sd*", ACTION=="add", ATTR{queue/read_ahead_kb}:="1024"\nKERNEL=="nvme*", ATTR{queue/read_ahead_kb}:="64"\n' \
        > "$r/usr/local/lib/udev/rules.d/71-final.rules"
printf 'ACTION=="remove", GOTO="end"\nKERNEL=="sdb", RUN:="/bin/true"\nLABEL="end"\n' > "$r/etc/udev/rules.d/10-mine.rules"
got=$("$bin" --sysroot "$r" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb udev:10-mine.rules:2(RUN),udev:70-vendor.rules:1(queue/scheduler)?,udev:71-final.rules:1(queue/read_ahead_kb)" ] ||
        t_fail "status: $got"
got=$("$bin" --sysroot "$r" --no-builtin explain sdb | sed -n 's/^    - \(.*\)$/\1/p' | grep -e 'sets' | sed "s|$r||")
want="udev rule sets RUN:=\"/bin/true\": iosched's rule does not run for the disk, that rule wins for good (/etc/udev/rules.d/10-mine.rules:2)
may conflict (iosched cannot evaluate the rule's ATTRS{vendor}): udev rule sets ATTR{queue/scheduler}=\"kyber\" (/usr/local/lib/udev/rules.d/70-vendor.rules:1)
udev rule sets ATTR{queue/read_ahead_kb}:=\"1024\" (udev reads := as = for ATTR) (/usr/local/lib/udev/rules.d/71-final.rules:1)"
[ "$got" = "$want" ] || { t_fail "explain"; printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; }
"$bin" --sysroot "$r" --no-builtin --check -J | grep -qF '"certain": false, "not_evaluated": "ATTRS{vendor}"' ||
        t_fail "-J: no uncertain writer"

# 3. TuneD 2.23+: profiles/ directories, /etc first, self-include, readahead_multiply
r=$t/zplain
mkdir -p "$r/etc/tuned/profiles/virtual-guest" "$r/usr/lib/tuned/profiles/virtual-guest" \
         "$r/usr/lib/tuned/profiles/throughput-performance" "$r/usr/lib/tuned/virtual-guest"
echo virtual-guest > "$r/etc/tuned/active_profile"
printf '[main]\ninclude=virtual-guest\n\n[disk]\nreadahead_multiply=2\n' > "$r/etc/tuned/profiles/virtual-guest/tuned.conf"
printf '[main]\ninclude=throughput-performance\n' > "$r/usr/lib/tuned/profiles/virtual-guest/tuned.conf"
printf '[main]\nsummary=x\n\n[disk]\nreadahead=>4096\n' > "$r/usr/lib/tuned/profiles/throughput-performance/tuned.conf"
printf '[disk]\nelevator=old-layout-ignored\n' > "$r/usr/lib/tuned/virtual-guest/tuned.conf"
got=$("$bin" --sysroot "$r" --no-builtin explain nvme0n1 | sed -n 's/^    - \(.* sets .*\)$/\1/p' | sed "s|$r||")
want="TuneD profile virtual-guest sets queue/read_ahead_kb to its own value times 2 (readahead_multiply, /etc/tuned/profiles/virtual-guest/tuned.conf:5)
TuneD profile throughput-performance sets queue/read_ahead_kb=>4096 (/usr/lib/tuned/profiles/throughput-performance/tuned.conf:5)"
[ "$got" = "$want" ] || { t_fail "TuneD new layout"; printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; }
# profile_dirs of tuned-main.conf decides; the old layout without profiles/
printf 'profile_dirs = /usr/lib/tuned\n' > "$r/etc/tuned/tuned-main.conf"
"$bin" --sysroot "$r" --no-builtin status -r -n -o NAME,CONFLICT | grep -q 'tuned:virtual-guest(queue/scheduler)' ||
        t_fail "profile_dirs not read"
exit $fail
