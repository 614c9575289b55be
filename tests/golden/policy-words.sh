#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Admin input gets a word, through the command line on a captured tree:
# "did you mean" for a class in the wrong case or misspelt (Class=HDD,
# Class=sdd), for a tunable without its queue/ or queue/iosched/
# directory, and "Scheduler=" for queue/scheduler and elevator; a rule
# that matches no disk said only by --verbose and explain; a [Match] without [Set] says it sets nothing (not "matches none
# of these disks" when its Name= matches); a UTF-8 byte-order mark at the
# start of a file is skipped with a note and the file's rule applies; a
# packaging leftover (.dpkg-dist, .rpmnew, .ucf-dist) beside the files is
# said on every run and listed by cat-config.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="${IOS_VALGRIND:-} $top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}/loop
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
d=$t/etc/iosched.d
mkdir -p "$d"
ap() { $bin --sysroot "$fx" --config-root "$t" "$@"; }
# want TEXT: the run's stderr holds TEXT
want() { grep -qF -- "$1" "$t/err" || t_fail "want [$1] in: $(cat "$t/err")"; }

for c in 'HDD hdd' 'sdd ssd' 'Nvme nvme'; do
        set -- $c
        printf '[Match]\nClass=%s\n[Set]\nScheduler=none\n' "$1" > "$d/10.conf"
        ap --dry-run >/dev/null 2>"$t/err"
        want "10.conf:2: unknown class \"$1\" in Class=: did you mean \"$2\"?"
done
for k in 'read_ahead_kb queue/read_ahead_kb' 'read_expire queue/iosched/read_expire' \
         'fifo_batchh queue/iosched/fifo_batch' 'nr_request queue/nr_requests'; do
        set -- $k
        printf '[Match]\nName=loop0\n[Set]\n%s=16\n' "$1" > "$d/10.conf"
        ap --dry-run loop0 >/dev/null 2>"$t/err"
        want "10.conf:4: unknown key \"$1\" in [Set]: did you mean \"$2\"?"
done
# the scheduler by the kernel's file name or the old boot option: "did you mean Scheduler="
for k in queue/scheduler elevator Elevator queue/elevator; do
        printf '[Match]\nName=loop0\n[Set]\n%s=kyber\n' "$k" > "$d/10.conf"
        ap --dry-run loop0 >/dev/null 2>"$t/err"
        want "10.conf:4: unknown key \"$k\" in [Set]: did you mean \"Scheduler=kyber\"?"
done

# a rule that matches no disk: said by --verbose and explain, not on every --check or --dry-run
printf '[Match]\nName=nosuchdisk\n[Set]\nScheduler=none\n' > "$d/10.conf"
for mode in --check --dry-run; do
        ap $mode >/dev/null 2>"$t/err"
        grep -q "matches no disk" "$t/err" && t_fail "$mode says an unmatched rule: $(cat "$t/err")"
        ap $mode --verbose >/dev/null 2>"$t/err"
        want "note: $d/10.conf:1: [Match] matches no disk"
done
ap explain 2>&1 | grep -qF "note: $d/10.conf:1: [Match] matches no disk" || t_fail "explain does not say the unmatched rule"

printf '[Match]\nName=loop0\n' > "$d/10.conf"
ap --dry-run loop0 >/dev/null 2>"$t/err"
want "10.conf:1: [Match] has no [Set] section; it sets nothing: nothing held"
grep -q "matches none of these disks" "$t/err" && t_fail "[Match] without [Set]: $(cat "$t/err")"

printf '\357\273\277[Match]\nName=loop0\n[Set]\nScheduler=mq-deadline\n' > "$d/10.conf"
out=$(ap --dry-run loop0 2>"$t/err"); rc=$?
[ $rc = 0 ] || t_fail "a byte-order mark: exit $rc: $(cat "$t/err")"
want "iosched-apply: warning: $d/10.conf:1: a UTF-8 byte-order mark at the start of the file is skipped"
echo "$out" | grep -q "loop0: would set scheduler: .* -> mq-deadline ($d/10.conf:4)" || t_fail "BOM: the rule did not apply: $out"

printf '[Match]\nName=loop0\n[Set]\nScheduler=mq-deadline\n' > "$d/10.conf"
for s in dpkg-dist rpmnew ucf-dist; do
        rm -f "$d"/*.conf.*
        cp "$d/10.conf" "$d/10.conf.$s"
        for mode in --dry-run --check; do
                ap $mode loop0 >/dev/null 2>"$t/err"
                want "iosched-apply: warning: $d/10.conf.$s: skipped: a packaging leftover (only *.conf files are read)"
        done
        ap cat-config 2>/dev/null | grep -qF "# warning: $d/10.conf.$s: skipped: a packaging leftover" ||
                t_fail "cat-config does not list 10.conf.$s"
done
# an editor's backup is no packaging leftover: not said
rm -f "$d"/*.conf.*
cp "$d/10.conf" "$d/10.conf~"
ap --dry-run loop0 >/dev/null 2>"$t/err"
grep -q "leftover" "$t/err" && t_fail "an editor's backup said as a leftover"
exit $fail
