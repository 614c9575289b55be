#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: EBUSY from queue/scheduler and queue/nr_requests passes, as
# kernel 7.x answers while another disk of the tag set holds the lock it
# try-locks: with the first writes of each failing so (the test shim's
# IOS_FAULT_BUSY), apply and --udev land the policy on a captured tree and
# say it applied; with every write failing, each still ends (after about
# 2 s of tries) with the kernel's word, "Device or resource busy", and
# exit 2, and --udev logs it rather than giving up in silence.
# Exit 0 pass, 77 skip, 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$top/tests/shim.sh"
bin="${IOS_VALGRIND:-} $top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}/ahci-sata-hdd
[ -d "$fx/sys" ] || { echo "no ahci-sata-hdd fixture"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

q=$(find "$fx/sys/devices" -path '*/block/sdd/queue' -type d)
[ -n "$q" ] || { echo "no sdd in the fixture"; exit 77; }
cur=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$q/scheduler")
want=none
[ "$cur" = none ] && want=mq-deadline
nr=$(($(cat "$q/nr_requests") / 2))
mkdir "$t/pol" && chmod 0755 "$t/pol" || exit 1
printf '[Match]\nName=sdd\n[Set]\nScheduler=%s\nqueue/nr_requests=%s\n' "$want" "$nr" > "$t/pol/p.conf"
chmod 0644 "$t/pol/p.conf"
sched_of() { sed -n 's/.*\[\(.*\)\].*/\1/p' "$(find "$1/sys/devices" -path '*/block/sdd/queue' -type d)/scheduler"; }
nr_of() { cat "$(find "$1/sys/devices" -path '*/block/sdd/queue' -type d)/nr_requests"; }

# 1. the first three writes of each busy: the policy lands
cp -a "$fx" "$t/a"
out=$(t_shimmed IOS_FAULT_BUSY=queue/scheduler:3,queue/nr_requests:3 -- \
        $bin --sysroot "$t/a" --config "$t/pol/p.conf" --no-builtin 2>&1)
rc=$?
[ $rc = 0 ] || t_fail "apply with 3 busy writes each: exit $rc: $out"
[ "$(sched_of "$t/a")" = "$want" ] || t_fail "scheduler not $want: $(sched_of "$t/a")"
[ "$(nr_of "$t/a")" = "$nr" ] || t_fail "nr_requests not $nr: $(nr_of "$t/a")"
case $out in *"sdd: scheduler: $cur -> $want"*) ;; *) t_fail "no applied line for the scheduler: $out" ;; esac

# 2. --udev likewise
cp -a "$fx" "$t/b"
t_shimmed IOS_FAULT_BUSY=queue/scheduler:3,queue/nr_requests:3 -- \
        $bin --sysroot "$t/b" --config "$t/pol/p.conf" --no-builtin --udev sdd >"$t/udev.out" 2>&1
rc=$?
[ $rc = 0 ] || t_fail "--udev with 3 busy writes each: exit $rc: $(cat "$t/udev.out")"
[ "$(sched_of "$t/b")" = "$want" ] || t_fail "--udev: scheduler not $want: $(sched_of "$t/b")"
[ "$(nr_of "$t/b")" = "$nr" ] || t_fail "--udev: nr_requests not $nr: $(nr_of "$t/b")"

# 3. busy for good: the kernel's word and exit 2, nothing said applied
cp -a "$fx" "$t/c"
out=$(t_shimmed IOS_FAULT_BUSY=queue/scheduler:always -- \
        $bin --sysroot "$t/c" --config "$t/pol/p.conf" --no-builtin 2>&1)
rc=$?
[ $rc = 2 ] || t_fail "apply, busy for good: exit $rc, want 2: $out"
case $out in *"sdd: cannot set scheduler \"$want\": Device or resource busy"*) ;;
*) t_fail "the kernel's word not said: $out" ;; esac
[ "$(sched_of "$t/c")" = "$cur" ] || t_fail "busy for good, yet the scheduler changed: $(sched_of "$t/c")"
# --udev: the same failure logged (on stderr here: no syslog socket in the test's view is needed)
cp -a "$fx" "$t/d"
t_shimmed IOS_FAULT_BUSY=queue/scheduler:always -- \
        $bin --sysroot "$t/d" --config "$t/pol/p.conf" --no-builtin --udev sdd >"$t/udev2.out" 2>&1
rc=$?
[ $rc = 2 ] || t_fail "--udev, busy for good: exit $rc, want 2: $(cat "$t/udev2.out")"
[ $fail = 0 ] && echo "ok: 3 busy writes each pass (apply and --udev); busy for good: exit 2, the kernel's word"
exit $fail
