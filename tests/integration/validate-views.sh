#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the chain of issue 30 on a loop device the test attaches:
# `iosched-apply validate` (the stand-in iosched-bench of validate-lib.sh)
# records its verdict, and every view shows it: explain under the rule it
# concerns, status's VALIDATED column, facts -J, --check -J, status -J and
# explain -J's "validation" (valid against the schema, read by `report`),
# and the iosched_validation_* metrics of --check --textfile.  A kernel
# release or a rule changed since makes it stale in each view; a record the
# policy's scheduler lost with significance is against the policy in each
# view; neither changes --check's exit status (0 on a compliant disk).  A
# document that cannot be read is a note; apply and --udev never read it.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 16
t_identity "$l" "TestDisk 16M" "LOOP-$l"   # evidence is kept per disk identity: a model (and a serial)
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"

root=$T_TMP/root
conf=$root/etc/iosched.d/50-loop.conf
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" > "$conf"
chmod 0644 "$conf"
schema=$top/schema/iosched-apply.schema.json
A="$APPLY --config-root $root"
kernel=$(uname -r)
today=$(date -u +%F)

. "$(dirname "$0")/validate-lib.sh"

# json CMD...: the command's -J object on stdout (its stderr in $T_TMP/err); exit status in $T_TMP/rc
json() {
        "$@" > "$T_TMP/out" 2> "$T_TMP/err"
        echo $? > "$T_TMP/rc"
        python3 -m json.tool "$T_TMP/out" > /dev/null || t_fail "$*: not JSON: $(cat "$T_TMP/out" "$T_TMP/err")"
}
# valid [KEYS...]: the last -J object valid against the schema
valid() {
        python3 - "$schema" "$T_TMP/out" <<'PY' || t_fail "schema: $(cat "$T_TMP/out")"
import json, sys
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PY
}
# validation KEY PYEXPR: the disk's "validation" of the last -J object (under KEY) makes PYEXPR true (v)
validation() {
        python3 - "$T_TMP/out" "$1" "$l" "$2" <<'PY' || t_fail "$1: $2: $(cat "$T_TMP/out")"
import json, sys
d = json.load(open(sys.argv[1]))
disk = [x for x in d[sys.argv[2]] if x["name"] == sys.argv[3]][0]
v = disk["validation"]
assert eval(sys.argv[4]), v
PY
}
# prom NAME: the sample of NAME for the disk in the last textfile ("" when none)
prom() { sed -n "s/^$1{device=\"$l\"} //p" "$T_TMP/metrics.prom"; }
textfile() {
        $A --check --textfile "$T_TMP/metrics.prom" "$l" 2>/dev/null
        echo $? > "$T_TMP/rc"
        [ -f "$T_TMP/metrics.prom" ] || t_fail "--textfile: no file"
}

# never validated: said under the rule, "-", null, no metric
$A explain "$l" > "$T_TMP/explain" 2>&1 || t_fail "explain: exit $?: $(cat "$T_TMP/explain")"
grep -A1 "scheduler = mq-deadline" "$T_TMP/explain" | grep -qx "      never validated" ||
        t_fail "explain: never validated not said: $(cat "$T_TMP/explain")"
$A status -n -r -o NAME,VALIDATED "$l" > "$T_TMP/status" 2>&1
[ "$(cat "$T_TMP/status")" = "$l -" ] || t_fail "status: $(cat "$T_TMP/status")"
json $A facts -J "$l"
valid
validation disks 'v is None'
textfile
[ -z "$(prom iosched_validation_age_seconds)" ] || t_fail "never validated: a metric: $(cat "$T_TMP/metrics.prom")"

# validate records a best verdict
mkjson mq-deadline none true 0.01
out=$($APPLY validate --config-root "$root" "$l" 2>&1) || t_fail "validate: exit $?: $out"
doc=$(ls "$root"/var/lib/iosched/evidence/*.json) || t_fail "validate: no record: $out"
# the disk then on the policy's scheduler: --check compliant
echo mq-deadline > "$q/scheduler"

$A explain "$l" > "$T_TMP/explain" 2>&1 || t_fail "explain: exit $?: $(cat "$T_TMP/explain")"
line="      validated $today on $kernel: mq-deadline best, 31% lower reader p99 than none, p=0.01, 5 rounds"
grep -A1 "scheduler = mq-deadline" "$T_TMP/explain" | grep -qxF "$line" ||
        t_fail "explain: the evidence not under its rule: $(cat "$T_TMP/explain")"
grep -q "warning" "$T_TMP/explain" && t_fail "explain: a warning on fresh evidence: $(cat "$T_TMP/explain")"
$A status -n -r -o NAME,VALIDATED "$l" > "$T_TMP/status" 2>&1
[ "$(cat "$T_TMP/status")" = "$l $today" ] || t_fail "status: $(cat "$T_TMP/status")"
json $A facts -J "$l"
valid
validation disks 'v["verdict"] == "best" and v["stale"] == [] and v["against_policy"] is False and v["rounds"] == 5'
validation disks 'v["kernel"] == "'"$kernel"'" and v["rule"] == "'"$conf"':4" and v["date"].startswith("'"$today"'")'
cp "$T_TMP/out" "$T_TMP/facts.json"
json $A --check -J "$l"
valid
[ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "--check -J: exit $(cat "$T_TMP/rc")"
validation devices 'v["verdict"] == "best" and v["stale"] == []'
json $A status -J "$l"
valid
validation disks 'v["verdict"] == "best"'
json $A explain -J "$l"
valid
validation devices 'v["verdict"] == "best"'
textfile
age=$(prom iosched_validation_age_seconds)
[ -n "$age" ] && [ "$age" -ge 0 ] && [ "$age" -lt 3600 ] || t_fail "age: '$age': $(cat "$T_TMP/metrics.prom")"
[ "$(prom iosched_validation_against_policy)" = 0 ] || t_fail "against: $(cat "$T_TMP/metrics.prom")"
[ "$(prom iosched_validation_stale)" = 0 ] || t_fail "stale: $(cat "$T_TMP/metrics.prom")"
grep -q "^# TYPE iosched_validation_age_seconds gauge" "$T_TMP/metrics.prom" || t_fail "no TYPE line"
# report reads the facts document: one disk validated, best
$APPLY report -J "$T_TMP/facts.json" > "$T_TMP/report" 2>&1 || t_fail "report: $(cat "$T_TMP/report")"
grep -q '"validated": 1, "stale": 0, "against_policy": 0' "$T_TMP/report" || t_fail "report: $(cat "$T_TMP/report")"

# edit DOC PYTHON: change the last record (r) of the document
edit() {
        python3 - "$doc" "$1" <<'PY' || t_fail "edit $1"
import json, sys
d = json.load(open(sys.argv[1])); r = d["records"][-1]
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"), indent=1)
PY
}
# stale_everywhere WHY WORDS: each view says the evidence is stale (WORDS; "stale": [WHY]); --check stays 0
stale_everywhere() {
        $A explain "$l" > "$T_TMP/explain" 2>&1 || t_fail "explain: exit $?"
        grep -A3 "scheduler = mq-deadline" "$T_TMP/explain" |
                grep -q "      warning: the validation of $today is stale, changed since: $2" ||
                t_fail "explain: stale ($2) not said: $(cat "$T_TMP/explain")"
        $A status -n -r -o NAME,VALIDATED "$l" > "$T_TMP/status" 2> "$T_TMP/err"
        [ "$(cat "$T_TMP/status")" = "$l $today,stale" ] || t_fail "status: $(cat "$T_TMP/status")"
        grep -q "^iosched-apply: $l: warning: the validation of $today is stale, changed since: $2" "$T_TMP/err" ||
                t_fail "status: no warning: $(cat "$T_TMP/err")"
        json $A facts -J "$l"
        valid
        validation disks 'v["stale"] == ["'"$1"'"]'
        json $A --check -J "$l"
        [ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "--check -J, stale: exit $(cat "$T_TMP/rc")"
        validation devices 'v["stale"] == ["'"$1"'"]'
        $A --check "$l" > /dev/null 2> "$T_TMP/err" || t_fail "--check, stale: exit $?: $(cat "$T_TMP/err")"
        grep -q "^iosched-apply: $l: warning: the validation of $today is stale" "$T_TMP/err" ||
                t_fail "--check: no warning: $(cat "$T_TMP/err")"
        textfile
        [ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "--check --textfile, stale: exit $(cat "$T_TMP/rc")"
        [ "$(prom iosched_validation_stale)" = 1 ] || t_fail "stale metric: $(cat "$T_TMP/metrics.prom")"
}

# another kernel release since
edit 'r["kernel"] = "6.1.0-old"'
stale_everywhere kernel "kernel (6.1.0-old then)"
edit 'r["kernel"] = "'"$kernel"'"'
# another rule since: a line before it moves it (file:line)
printf '# moved\n[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" > "$conf"
stale_everywhere rule "rule ($conf:4, mq-deadline then)"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" > "$conf"

# against the policy: none beat mq-deadline with significance (validate exits 1, the record kept)
echo none > "$q/scheduler"
mkjson none mq-deadline true 0.01
$APPLY validate --config-root "$root" "$l" > /dev/null 2>&1
[ $? = 1 ] || t_fail "validate, beaten: not exit 1"
echo mq-deadline > "$q/scheduler"
warn="warning: the validation of $today is against the policy: none beat mq-deadline with significance (31% lower reader p99, p=0.01)"
$A explain "$l" > "$T_TMP/explain" 2>&1 || t_fail "explain: exit $?"
grep -A2 "scheduler = mq-deadline" "$T_TMP/explain" | grep -qxF "      $warn" ||
        t_fail "explain: against not said: $(cat "$T_TMP/explain")"
grep -qxF "      validated $today on $kernel: none beat mq-deadline, 31% lower reader p99, p=0.01, 5 rounds" \
        "$T_TMP/explain" || t_fail "explain: the beaten verdict: $(cat "$T_TMP/explain")"
$A status -n -r -o NAME,VALIDATED "$l" > "$T_TMP/status" 2> "$T_TMP/err"
[ "$(cat "$T_TMP/status")" = "$l $today,against" ] || t_fail "status: $(cat "$T_TMP/status")"
grep -qxF "iosched-apply: $l: $warn" "$T_TMP/err" || t_fail "status: no warning: $(cat "$T_TMP/err")"
json $A facts -J "$l"
valid
validation disks 'v["against_policy"] is True and v["verdict"] == "beaten" and v["against"] == "none"'
json $A --check -J "$l"
[ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "--check -J, against: exit $(cat "$T_TMP/rc") on a compliant disk"
validation devices 'v["against_policy"] is True'
$A --check "$l" > /dev/null 2> "$T_TMP/err" || t_fail "--check, against: exit $?: $(cat "$T_TMP/err")"
grep -qxF "iosched-apply: $l: $warn" "$T_TMP/err" || t_fail "--check: no warning: $(cat "$T_TMP/err")"
textfile
[ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "--check --textfile, against: exit $(cat "$T_TMP/rc")"
[ "$(prom iosched_validation_against_policy)" = 1 ] || t_fail "against metric: $(cat "$T_TMP/metrics.prom")"

# a document that cannot be read: a note, the views go on
echo '{' > "$doc"
$A explain "$l" > "$T_TMP/explain" 2>&1 || t_fail "explain, corrupt: exit $?"
grep -q "note: its validation evidence in /var/lib/iosched/evidence cannot be read: not an evidence document" \
        "$T_TMP/explain" || t_fail "explain, corrupt: $(cat "$T_TMP/explain")"
$A status -n -r -o NAME,VALIDATED "$l" > "$T_TMP/status" 2>/dev/null || t_fail "status, corrupt: exit $?"
[ "$(cat "$T_TMP/status")" = "$l ?" ] || t_fail "status, corrupt: $(cat "$T_TMP/status")"
json $A facts -J "$l"
[ "$(cat "$T_TMP/rc")" = 0 ] || t_fail "facts -J, corrupt: exit $(cat "$T_TMP/rc")"
valid
validation disks 'v is None'
grep -q '"validation_error": "its validation evidence' "$T_TMP/out" || t_fail "facts -J, corrupt: $(cat "$T_TMP/out")"
$A --check "$l" > /dev/null 2>&1 || t_fail "--check, corrupt: exit $?"

# apply and --udev never read the evidence (LeakSanitizer cannot run under ptrace: off for these)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
if command -v strace > /dev/null; then
        strace -f -e trace=open,openat,openat2 -o "$T_TMP/trace" $A "$l" > /dev/null 2>&1 || t_fail "apply: exit $?"
        grep -q evidence "$T_TMP/trace" && t_fail "apply read the evidence: $(grep evidence "$T_TMP/trace")"
        strace -f -e trace=open,openat,openat2 -o "$T_TMP/trace" $A --udev "$l" > /dev/null 2>&1 ||
                t_fail "--udev: exit $?"
        grep -q evidence "$T_TMP/trace" && t_fail "--udev read the evidence: $(grep evidence "$T_TMP/trace")"
        strace -f -e trace=open,openat,openat2 -o "$T_TMP/trace" $A status "$l" > /dev/null 2>&1
        grep -q evidence "$T_TMP/trace" || t_fail "strace sees no read of the evidence by status: the test above proves nothing"
fi
echo ok
