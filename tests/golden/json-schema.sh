#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The JSON contract (schema 1): every -J output is exactly one JSON object
# on stdout that validates against schema/iosched-apply.schema.json, with
# "exit" equal to the exit status: the golden --check files, apply modes,
# facts, status and explain on every captured tree, and the error objects
# (bad sysroot, bad option, unknown disk, broken and refused policy files).
# Needs python3-jsonschema (skips with 77 only when it is not installed).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
schema="$top/schema/iosched-apply.schema.json"
python3 -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema is not installed"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/out"
n=0
# run NAME ARGS...: one output file holding the exit status and stdout
run() {
        name=$1; shift
        n=$((n + 1))
        ${IOS_VALGRIND:-} "$bin" "$@" > "$t/out/$n.json" 2>/dev/null
        echo "$? $name: iosched-apply $*" > "$t/out/$n.cmd"
}
for d in "$fx"/*/; do
        f=$(basename "$d")
        [ -d "$d/sys/block" ] || continue
        run "$f" --check -J --config /dev/null --sysroot "$d"
        run "$f" --dry-run -J --sysroot "$d"
        run "$f" facts -J --sysroot "$d"
        run "$f" status -J --sysroot "$d"
        run "$f" explain -J --sysroot "$d"
done
d=$fx/megaraid-ld
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\nBogus=1\n' > "$t/bad.conf"
chmod 0644 "$t/bad.conf"
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\n' > "$t/gw.conf"
chmod 0664 "$t/gw.conf"
for m in --check --dry-run facts status explain; do
        run "bad sysroot" $m -J --sysroot "$t/nonexistent"
        run "unknown disk" $m -J --sysroot "$d" nosuchdisk
        run "bad policy" $m -J --config "$t/bad.conf" --sysroot "$d"
        run "group-writable policy" $m -J --config "$t/gw.conf" --sysroot "$d"
done
run "bad option" -J --no-such-option
run "bad option, check" --check --no-such-option -J
run "bad format" --format xml -J
run "usage" -J --check --dry-run
run "explain usage" explain -J --udev sdb
run "import-grub without elevator=" --import-grub -J --sysroot "$d"
run "list, bad column" list -J -o NOSUCH --sysroot "$d"
run "validate, no disk" validate -J
run "validate with --sysroot" validate -J --sysroot "$d" sda
. "$top/tests/shim.sh"
t_shimmed IOS_FAULT_ANY_OWNER=1 -- python3 - "$schema" "$t/out" "$top/tests/expected/check" <<'PY' || exit 1
import json, os, sys
import jsonschema

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
v = jsonschema.Draft202012Validator(schema)
fail = 0
count = 0

def check(doc, what, rc):
    global fail, count
    count += 1
    errs = sorted(v.iter_errors(doc), key=lambda e: list(e.path))
    for e in errs[:3]:
        print("FAIL %s: %s at %s" % (what, e.message, list(e.path)))
        fail = 1
    if rc is not None and doc.get("exit") != rc:
        print("FAIL %s: \"exit\": %s but the status was %d" % (what, doc.get("exit"), rc))
        fail = 1
    if rc is not None and rc >= 2 and not doc.get("errors"):
        print("FAIL %s: exit %d with no errors[]" % (what, rc))
        fail = 1
    if list(doc)[0] != "schema":
        print("FAIL %s: \"schema\" is not the first key" % what)
        fail = 1

d = sys.argv[2]
for f in sorted(os.listdir(d)):
    if not f.endswith(".json"):
        continue
    rc, what = open(os.path.join(d, f[:-5] + ".cmd")).read().split(" ", 1)
    what = what.strip()
    text = open(os.path.join(d, f)).read()
    try:
        doc = json.loads(text)         # exactly one JSON value, nothing else
    except ValueError as e:
        print("FAIL %s: stdout is not one JSON object (%s): %r" % (what, e, text[:200]))
        fail = 1
        continue
    check(doc, what, int(rc))
# the golden files of check-fixtures.sh: "exit N" then the object
g = sys.argv[3]
for f in sorted(os.listdir(g)):
    lines = open(os.path.join(g, f)).read().split("\n", 1)
    check(json.loads(lines[1]), "tests/expected/check/" + f, int(lines[0].split()[1]))
print("%d JSON objects checked against %s" % (count, sys.argv[1]))
sys.exit(fail)
PY
