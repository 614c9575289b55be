#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the output contracts, on captured trees.  Text output escapes
# control characters (explain shows an NVMe model holding an escape
# sequence as \x1b..., cat-config a policy file's); every -J prints exactly
# one JSON object on stdout (cat-config -J and --import-grub -J are usage
# errors, said as that one object); an output format a verb does not have is
# a usage error; Prometheus labels are valid UTF-8.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
[ -d "$fx/nvme/sys" ] || { echo "no fixture nvme in $fx"; exit 1; }
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1

# an NVMe disk whose model holds OSC and CSI sequences, BEL and a UTF-8 C1 CSI,
# and whose active scheduler's name is not UTF-8
cp -a "$fx/nvme" "$t/tree"
dev=$(readlink -f "$t/tree/sys/block/nvme0n1")
printf 'EVIL \033]0;pwned\a\033[2J \302\233X\n' > "$dev/device/model"
printf 'none [mq-d\377x]\n' > "$dev/queue/scheduler"
ap() { ${IOS_VALGRIND:-} "$bin" --sysroot "$t/tree" --config-root "$t/root" "$@"; }
mkdir -p "$t/root/etc/iosched.d" && chmod 0755 "$t/root" "$t/root/etc" "$t/root/etc/iosched.d"

# 1. text output: no control character but newline and tab reaches the terminal
has_ctl() { LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$1" || LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$1"; }
ap explain > "$t/out" 2>&1
has_ctl "$t/out" && t_fail "explain prints control characters: $(od -c "$t/out" | grep -m1 033)"
grep -qF 'model       EVIL \x1b]0;pwned\x07\x1b[2J \xc2\x9bX' "$t/out" || t_fail "explain: model not shown escaped: $(grep model "$t/out")"
# a newline, a tab or bytes that are not UTF-8 in the disk's own strings make
# no line or column of their own: one escaping (textsafe.c) for all of them
printf 'GOOD\n  class       ssd\tX\n' > "$dev/device/model"
printf 'S\377N\300\257\n' > "$dev/device/serial"
ap explain > "$t/out" 2>&1
grep -q '^  class' "$t/out" && t_fail "explain: a model's newline starts a line: $(grep -n class "$t/out")"
LC_ALL=C grep -q "$(printf '\t')" "$t/out" && t_fail "explain prints a model's tab"
grep -qF 'model       GOOD\x0a  class       ssd\x09X' "$t/out" || t_fail "explain: model not escaped: $(grep -A1 model "$t/out")"
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$t/out" && t_fail "explain prints bytes that are not UTF-8: $(grep -a serial "$t/out" | od -c | head -3)"
grep -qF 'scheduler   [mq-d\xffx]' "$t/out" || grep -qF 'mq-d\xffx' "$t/out" || t_fail "explain: scheduler name not escaped: $(grep -a scheduler "$t/out")"
printf '[Match]\nClass=nvme\n[Set]\nScheduler=none # \033[31mred\033[0m\n' > "$t/root/etc/iosched.d/50-a.conf"
chmod 0644 "$t/root/etc/iosched.d/50-a.conf"
ap cat-config > "$t/out" 2>&1
has_ctl "$t/out" && t_fail "cat-config prints control characters"
grep -qF '50-a.conf:4: Scheduler=none # \x1b[31mred\x1b[0m' "$t/out" || t_fail "cat-config: $(cat "$t/out")"
printf '[Match]\nClass=nvme\n[Set]\nScheduler=none \033[31m\n' > "$t/root/etc/iosched.d/50-a.conf"
ap --check > "$t/out" 2>&1
has_ctl "$t/out" && t_fail "--check prints a policy error's control characters"
rm "$t/root/etc/iosched.d/50-a.conf"

# 2. every -J: exactly one JSON object on stdout, whatever the verb
for args in "list -J" "explain -J" "status -J" "facts -J" "-J --check" "-J --dry-run" "cat-config -J" \
            "--import-grub -J" "validate -J nvme0n1"; do
        # shellcheck disable=SC2086
        ap $args > "$t/json" 2>/dev/null
        "$PY" -c 'import json,sys; s=open(sys.argv[1]).read(); d=json.JSONDecoder(); o,i=d.raw_decode(s); assert s[i:].strip()=="", "trailing text"; assert isinstance(o, dict)' "$t/json" 2>"$t/pyerr" ||
                t_fail "$args: not exactly one JSON object: $(head -c 300 "$t/json") $(cat "$t/pyerr")"
done
ap cat-config -J > "$t/json" 2>"$t/err"; rc=$?
[ $rc = 2 ] || t_fail "cat-config -J: exit $rc, want 2 (usage)"
grep -q '"message": "cat-config has no JSON output"' "$t/json" || t_fail "cat-config -J: $(cat "$t/json")"

# 3. an output format a verb does not have is a usage error
for v in status explain facts cat-config list --import-grub; do
        ap $v --format prometheus > "$t/out" 2>"$t/err"; rc=$?
        [ $rc = 2 ] || t_fail "$v --format prometheus: exit $rc, want 2"
        grep -q "has no prometheus output" "$t/err" || t_fail "$v --format prometheus: $(cat "$t/err")"
done

# 4. Prometheus labels are valid UTF-8 (the scheduler's \377 is U+FFFD)
ap --format prometheus > "$t/prom" 2>/dev/null
"$PY" -c 'import sys; open(sys.argv[1], "rb").read().decode("utf-8")' "$t/prom" || t_fail "the textfile is not UTF-8"
grep -qF "scheduler=\"mq-d$(printf '\357\277\275')x\"" "$t/prom" || t_fail "scheduler label: $(grep info "$t/prom")"
exit $fail
