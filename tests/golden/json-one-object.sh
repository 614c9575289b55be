#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: -J prints exactly one JSON object on stdout whatever goes
# wrong, and before the verb could print its own: an unknown option, a
# missing argument, two options that exclude each other (-J with --format
# prometheus or --textfile included: JSON only, no metrics after it), a
# format or option the verb does not have, a word that is no verb (a disk
# that is not there), a broken policy, an unreadable root.  Its "exit" is the
# exit status, its "errors" say why, and "command"/"mode" name what was asked
# as far as the command line was read.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
[ -d "$fx/megaraid-ld/sys" ] || { echo "no fixture megaraid-ld in $fx"; exit 1; }
PY=$(command -v python3) || { echo "SKIP: no python3"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
cp -a "$fx/megaraid-ld" "$t/tree"
mkdir -p "$t/bad/etc/iosched.d" "$t/tf"
chmod 0755 "$t/bad" "$t/bad/etc" "$t/bad/etc/iosched.d" "$t/tf"
printf '[Match]\nClass=raid\n[Set]\nSchedular=none\n' > "$t/bad/etc/iosched.d/10-bad.conf"
chmod 0644 "$t/bad/etc/iosched.d/10-bad.conf"

# check EXIT COMMAND MODE MESSAGE ARGS...: exactly one object, "exit" EXIT,
# "command" COMMAND and "mode" MODE ("-": absent), an error containing MESSAGE
check() {
        want=$1 cmd=$2 mode=$3 msg=$4
        shift 4
        ${IOS_VALGRIND:-} "$bin" "$@" > "$t/json" 2>"$t/err" </dev/null
        rc=$?
        [ "$rc" = "$want" ] || t_fail "$*: exit $rc, want $want"
        "$PY" - "$t/json" "$rc" "$cmd" "$mode" "$msg" > "$t/pyerr" 2>&1 <<'PYEOF' || t_fail "$*: $(cat "$t/pyerr"); stdout: $(head -c 400 "$t/json")"
import json, sys
path, rc, cmd, mode, msg = sys.argv[1:]
s = open(path).read()
o = json.loads(s)                 # the whole of stdout: one object, nothing after it
assert isinstance(o, dict), "not an object"
assert o["schema"] == 1 and o["tool"] == "iosched-apply", "no schema/tool"
assert o["exit"] == int(rc), "exit %r, status %s" % (o["exit"], rc)
assert o.get("command", "-") == cmd, "command %r, want %r" % (o.get("command"), cmd)
assert o.get("mode", "-") == mode, "mode %r, want %r" % (o.get("mode"), mode)
said = [(e["device"] + ": " if e["device"] else "") + e["message"] for e in o["errors"]]
assert any(msg in m for m in said), "no error says %r: %r" % (msg, said)
PYEOF
}
S="--sysroot $t/tree"
# usage errors while the options are read: no command yet, the mode as far as read
check 2 - - "invalid option or missing argument: --bogus" -J --bogus
check 2 - - "invalid option or missing argument: -x" -J -x $S
check 2 - - "invalid option or missing argument: --format" -J --format
check 2 - - 'unknown format "yaml"' -J --format yaml
check 2 - check 'unknown format "yaml"' -J --check --format yaml
check 2 - check "--dry-run and --check are mutually exclusive" -J --check --dry-run
check 2 - - "--drop-in and --config are mutually exclusive" -J --drop-in 50-a.conf=/dev/null -c /dev/null
check 2 - - "--drop-in bad: not NAME=FILE" -J --drop-in bad
check 2 - - "--json, --raw and --format prometheus are mutually exclusive" -J -r list
# JSON and metrics asked together: the JSON object only, also with --textfile
check 2 - - "--json, --raw and --format prometheus are mutually exclusive" -J --format prometheus $S
check 2 - - "--json, --raw and --format prometheus are mutually exclusive" --format=json --format prometheus $S
check 2 - - "--json, --raw and --format prometheus are mutually exclusive" --textfile "$t/tf/x.prom" -J $S
[ -e "$t/tf/x.prom" ] && t_fail "--textfile with -J: the file was written"
ls -A "$t/tf" | grep -q . && t_fail "--textfile with -J: a temporary file is left: $(ls -A "$t/tf")"
# what a verb does not have or take
check 2 cat-config - "cat-config has no JSON output" cat-config -J $S
check 2 validate - "validate measures the running system's disk: no --sysroot" validate -J $S sdb
check 2 import-grub - "--import-grub has no JSON output" --import-grub -J $S
check 2 import-grub - "--import-grub has no JSON output" list --import-grub -J $S
check 2 status dry-run "status does not take --dry-run or --check" status -J --dry-run $S
check 2 - apply "--udev takes one device and no other mode" -J --udev sdb
# a word that is no verb is a disk, and not there
check 2 - apply "frobnicate: not a block device" -J frobnicate $S
check 2 - check "frobnicate: not a block device" -J --check $S frobnicate
check 2 list - "frobnicate: not a block device" list -J $S frobnicate
check 2 list - "unknown column: BOGUS" list -J -o NAME,BOGUS $S
check 2 status - "unknown column: BOGUS" status -J -o BOGUS $S
# a root that cannot be opened, a broken policy
check 2 - check "/nonexistent" -J --check --sysroot /nonexistent
check 2 - check "Schedular" -J --check $S --config-root "$t/bad"
check 2 - apply "Schedular" -J $S --config-root "$t/bad"
check 2 explain - "Schedular" explain -J $S --config-root "$t/bad"
check 2 status - "Schedular" status -J $S --config-root "$t/bad"
exit $fail
