#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Other writers on a fake tree (megaraid-ld plus hand-made configuration):
# the active TuneD profile ([disk] elevator=/readahead=, [sysfs] queue keys,
# include= followed, /etc/tuned/NAME before /usr/lib/tuned/NAME, devices=
# honoured), udev rules assigning ATTR{queue/...} (file:line, continuation
# lines, KERNEL== and ATTR{queue/rotational}== honoured, == matches and comments ignored, /etc masking
# /usr/lib, iosched's own 60-iosched.rules ignored) and elevator= on
# /proc/cmdline; named by status, explain, --check and -J, and only for
# the keys the policy sets.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
export IOSCHED_TEST_ANY_OWNER=1
r=$t/root
mkdir -p "$r" && cp -a "$fx/megaraid-ld/." "$r/" || exit 1
mkdir -p "$r/etc/tuned/myprof" "$r/usr/lib/tuned/myprof" "$r/usr/lib/tuned/base" "$r/etc/udev/rules.d" \
         "$r/lib/udev/rules.d" "$r/usr/lib/udev/rules.d" "$r/run/udev/rules.d" "$r/etc/iosched.d"
echo myprof > "$r/etc/tuned/active_profile"
# /etc/tuned/myprof wins over /usr/lib/tuned/myprof
printf '[disk]\nelevator=cfq\n' > "$r/usr/lib/tuned/myprof/tuned.conf"
printf '[main]\nsummary=test\ninclude=base\n\n[disk]\nelevator=bfq\nreadahead=4096\n' > "$r/etc/tuned/myprof/tuned.conf"
printf '[main]\nsummary=base\n\n[sysfs]\n/sys/block/sd*/queue/read_ahead_kb=2048\n/sys/block/nvme*/queue/nr_requests=8\n/sys/kernel/mm/transparent_hugepage/enabled=never\n\n[nvdisk]\ntype=disk\ndevices=nvme*\nelevator=none\n' \
        > "$r/usr/lib/tuned/base/tuned.conf"
printf '# ATTR{queue/scheduler}="commented"\nACTION=="add|change", KERNEL=="sd[a-z]", \\\n  ATTR{queue/scheduler}="kyber"\nACTION=="add", KERNEL=="nvme*", ATTR{queue/scheduler}="none"\nACTION=="add", ATTR{queue/rotational}=="1", ATTR{queue/nr_requests}="64"\nACTION=="add", ATTR{queue/rotational}=="0", ATTR{queue/nr_requests}="32"\n' \
        > "$r/etc/udev/rules.d/99-sched.rules"
printf 'ACTION=="add", ATTR{queue/scheduler}="masked"\n' > "$r/usr/lib/udev/rules.d/99-sched.rules"
printf 'ACTION=="add", ATTR{queue/scheduler}="iosched-own"\n' > "$r/lib/udev/rules.d/60-iosched.rules"
printf 'ACTION=="add", ATTR{queue/wbt_lat_usec}="0"\n' > "$r/run/udev/rules.d/70-wbt.rules"
echo "BOOT_IMAGE=/vmlinuz root=/dev/sda1 elevator=deadline quiet" > "$r/proc/cmdline"
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\nqueue/read_ahead_kb=512\nqueue/nr_requests=128\n' > "$r/etc/iosched.d/60-perc.conf"
chmod 0644 "$r/etc/iosched.d/60-perc.conf"

want="TuneD profile myprof sets queue/scheduler=bfq ($r/etc/tuned/myprof/tuned.conf:6)
TuneD profile myprof sets queue/read_ahead_kb=4096 ($r/etc/tuned/myprof/tuned.conf:7)
TuneD profile base sets queue/read_ahead_kb=2048 ($r/usr/lib/tuned/base/tuned.conf:5)
udev rule sets ATTR{queue/scheduler}=\"kyber\" ($r/etc/udev/rules.d/99-sched.rules:2)
udev rule sets ATTR{queue/nr_requests}=\"64\" ($r/etc/udev/rules.d/99-sched.rules:5)
kernel command line sets elevator=deadline (/proc/cmdline)"

got=$("$bin" --sysroot "$r" explain sdb | sed -n 's/^    - \(.* sets .*\)$/\1/p')
[ "$got" = "$want" ] || { t_fail "explain: other writers"; printf 'got:\n%s\nwant:\n%s\n' "$got" "$want"; }

got=$("$bin" --sysroot "$r" --check 2>&1 >/dev/null | sed -n 's/^iosched-apply: sdb: note: other writer: //p')
[ "$got" = "$want" ] || { t_fail "--check: other writers"; printf 'got:\n%s\n' "$got"; }

got=$("$bin" --sysroot "$r" status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb tuned:myprof(queue/scheduler),tuned:myprof(queue/read_ahead_kb),tuned:base(queue/read_ahead_kb),udev:99-sched.rules:2(queue/scheduler),udev:99-sched.rules:5(queue/nr_requests),elevator=deadline" ] ||
        t_fail "status CONFLICT: $got"

out=$("$bin" --sysroot "$r" --check -J)
echo "$out" | grep -qF "{\"writer\": \"udev\", \"profile\": null, \"key\": \"queue/scheduler\", \"value\": \"kyber\", \"file\": \"$r/etc/udev/rules.d/99-sched.rules\", \"line\": 2}" ||
        t_fail "--check -J: no udev conflict: $out"
echo "$out" | grep -qF "{\"writer\": \"tuned\", \"profile\": \"base\", \"key\": \"queue/read_ahead_kb\", \"value\": \"2048\", \"file\": \"$r/usr/lib/tuned/base/tuned.conf\", \"line\": 5}" ||
        t_fail "--check -J: no TuneD conflict"
echo "$out" | grep -qF '{"writer": "cmdline", "profile": null, "key": "queue/scheduler", "value": "deadline", "file": "/proc/cmdline", "line": null}' ||
        t_fail "--check -J: no cmdline conflict"
for no in masked iosched-own commented cfq wbt_lat_usec '"value": "none"' '"value": "8"' '"value": "32"'; do
        echo "$out" | grep -qF "$no" && t_fail "--check -J names $no"
done

# a key the policy does not set is not a conflict; no configuration, no writer
printf '[Match]\nClass=raid\n[Set]\nqueue/nr_requests=128\n' > "$r/etc/iosched.d/60-perc.conf"
got=$("$bin" --sysroot "$r" --no-builtin status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb udev:99-sched.rules:5(queue/nr_requests)" ] || t_fail "only nr_requests: $got"
got=$("$bin" --sysroot "$fx/megaraid-ld" status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb " ] || t_fail "the plain fixture has writers: $got"
# --config-root decides where the configuration is read, not --sysroot
mkdir -p "$t/empty"
got=$("$bin" --sysroot "$r" --config-root "$t/empty" status -r -n -o NAME,CONFLICT)
[ "$got" = "sdb elevator=deadline" ] || t_fail "--config-root: $got"
exit $fail
