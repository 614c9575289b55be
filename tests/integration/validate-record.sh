#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `iosched-apply validate` keeps its verdict as evidence, with
# the stand-in iosched-bench of validate-lib.sh (IOSCHED_BENCH) on a loop
# device the test attaches: one document per device identity under
# --config-root's var/lib/iosched/evidence, root's, 0644, valid against
# schema/iosched-evidence.schema.json, holding the rule (file:line), kernel,
# workload, variants, verdict; bounded to the last 10 records; --no-record
# writes nothing; a symbolic link on the way is refused.  --adopt writes the
# winner's drop-in (through the policy parser, the diff shown) only when
# another scheduler beat the policy's with significance, and says why not
# otherwise; the drop-in then makes the policy choose the winner.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 16
t_identity "$l" "TestDisk 16M" "LOOP-$l"   # evidence is kept per disk identity: a model (and a serial)
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"
before=$(cat "$q/scheduler" "$q/read_ahead_kb")

root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" > "$root/etc/iosched.d/50-loop.conf"
chmod 0644 "$root/etc/iosched.d/50-loop.conf"
ev=$root/var/lib/iosched/evidence

. "$(dirname "$0")/validate-lib.sh"
MQ_TUNABLES='{ "queue/iosched/read_expire" : "250" }'
v() { $APPLY validate --config-root "$root" "$l" "$@"; }

# --no-record: the verdict, nothing written, said
mkjson mq-deadline none true 0.01
out=$(v --no-record 2>&1); rc=$?
[ $rc = 0 ] || t_fail "--no-record: exit $rc: $out"
echo "$out" | grep -q "not recorded (--no-record)" || t_fail "--no-record: not said: $out"
[ ! -e "$root/var" ] || t_fail "--no-record wrote: $(find "$root/var")"

# a record: one document, root's, 0644, in a 0755 directory, the rule, kernel and verdict in it
out=$(v 2>&1); rc=$?
[ $rc = 0 ] || t_fail "record: exit $rc: $out"
doc=$(ls "$ev"/*.json 2>/dev/null)
[ "$(echo "$doc" | wc -w)" = 1 ] || t_fail "record: not one document: $doc ($out)"
echo "$out" | grep -qF "recorded in $doc" || t_fail "record: the path not said: $out"
[ "$(stat -c '%u %a' "$doc")" = "0 644" ] || t_fail "record: $(stat -c '%u %a' "$doc")"
[ "$(stat -c '%a' "$ev")" = 755 ] || t_fail "record: the directory is $(stat -c '%a' "$ev")"
ls -a "$ev" | grep -q '^\.[^.]' && t_fail "record: a temporary file left: $(ls -a "$ev")"
python3 - "$doc" "$l" "$root/etc/iosched.d/50-loop.conf:4" "$(uname -r)" "$top/schema/iosched-evidence.schema.json" <<'PY' || t_fail "record: $(cat "$doc")"
import json, sys
doc = json.load(open(sys.argv[1])); r = doc["records"][-1]
assert doc["schema"] == 1 and doc["kind"] == "iosched-evidence", doc
assert doc["identity"]["class"] == "loop", doc["identity"]
want = {"device": sys.argv[2], "rule": sys.argv[3], "kernel": sys.argv[4], "policy_scheduler": "mq-deadline",
        "verdict": "best", "against": "none", "significant": True, "p_value": 0.01, "rounds": 5,
        "objective": "reader:p99", "tool": "iosched-apply validate", "against_policy": False, "best": "mq-deadline"}
for k, x in want.items():
    assert r.get(k) == x, "%s: %r, not %r" % (k, r.get(k), x)
assert r["workload"]["backend"] == "native"
assert r["workload"]["job_text"] == "[global]\nfilename=/dev/%s\ndirect=1\n[reader]\nrw=randread\nbs=4k" % sys.argv[2], r["workload"]
assert r["workload"]["job_digest"].startswith("fnv1a64:")
m = {x["name"]: x for x in r["variants"]}
assert m["mq-deadline"]["median"] == 138000 and m["none"]["spread_pct"] == 100, m
assert m["mq-deadline"]["tunables"] == {"queue/iosched/read_expire": "250"}, m
try:
    import jsonschema
    jsonschema.Draft202012Validator(json.load(open(sys.argv[5]))).validate(doc)
except ImportError:
    pass
PY

# bounded: the last 10 records
i=0
while [ $i -lt 11 ]; do v >/dev/null 2>&1 || t_fail "record $i: exit $?"; i=$((i + 1)); done
n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"]))' "$doc")
[ "$n" = 10 ] || t_fail "bounded: $n records"

# -J: the record's path; the object valid against the schema
out=$(v -J 2>/dev/null) || t_fail "-J: exit $?"
echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["record"] == sys.argv[1], d; assert d["adopted"] is None' "$doc" ||
        t_fail "-J: $out"

# --adopt refused: best, within the noise; said why, nothing written
out=$(v --adopt 2>&1); rc=$?
[ $rc = 0 ] || t_fail "--adopt best: exit $rc: $out"
echo "$out" | grep -q "not adopting: the policy's scheduler is the best" || t_fail "--adopt best: $out"
mkjson none mq-deadline false 0.35
out=$(v --adopt 2>&1); rc=$?
[ $rc = 0 ] || t_fail "--adopt within: exit $rc: $out"
echo "$out" | grep -q "not adopting: no significant difference" || t_fail "--adopt within: $out"
ls "$root/etc/iosched.d" | grep -q adopted && t_fail "--adopt wrote without a significant win"
# --adopt and --no-record: a usage error
out=$(v --adopt --no-record 2>&1); rc=$?
[ $rc = 2 ] || t_fail "--adopt --no-record: exit $rc: $out"

# a significant win: the diff shown, the drop-in written, 0644, and the policy now chooses none
mkjson none mq-deadline true 0.01
out=$(v --adopt 2>&1); rc=$?
[ $rc = 1 ] || t_fail "--adopt beaten: exit $rc: $out"
drop=$root/etc/iosched.d/70-adopted-unknown_TestDisk-16M.conf
[ -f "$drop" ] || t_fail "--adopt: no drop-in: $(ls "$root/etc/iosched.d"): $out"
echo "$out" | grep -qx "+Scheduler=none" || t_fail "--adopt: no diff shown: $out"
echo "$out" | grep -qF "adopted: $drop" || t_fail "--adopt: not said: $out"
grep -qF "# Evidence: $doc" "$drop" || t_fail "--adopt: the evidence not named: $(cat "$drop")"
grep -qx 'Model="TestDisk 16M"' "$drop" || t_fail "--adopt: no [Match]: $(cat "$drop")"
[ "$(stat -c '%u %a' "$drop")" = "0 644" ] || t_fail "--adopt: $(stat -c '%u %a' "$drop")"
$APPLY --config-root "$root" explain "$l" 2>&1 | grep -q "scheduler = none .*70-adopted-unknown_TestDisk-16M.conf:" ||
        t_fail "--adopt: the policy does not choose it: $($APPLY --config-root "$root" explain "$l" 2>&1)"
rm -f "$drop"

# a symbolic link on the way: refused, nothing written through it
rm -rf "$root/var"
mkdir -p "$T_TMP/elsewhere" "$root/var/lib"
ln -s "$T_TMP/elsewhere" "$root/var/lib/iosched"
out=$(v 2>&1)
echo "$out" | grep -q "not recorded.*symbolic link" || t_fail "link: not refused: $out"
[ -z "$(ls -A "$T_TMP/elsewhere")" ] || t_fail "link: written through it: $(find "$T_TMP/elsewhere")"

[ "$before" = "$(cat "$q/scheduler" "$q/read_ahead_kb")" ] || t_fail "the disk changed"
echo ok
