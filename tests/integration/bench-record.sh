#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: iosched-bench --compare --record=ROOT on a loop device the test
# attaches: the comparison is added to the disk's evidence document under
# ROOT/var/lib/iosched/evidence (tool, kernel, the --policy file's rule that
# chooses the scheduler as file:line, the verdict about that scheduler, the
# workload's job text and digest, each variant's runs and median), valid
# against the schema; the disk's scheduler is restored; --record without
# --compare is a usage error.
. "$(dirname "$0")/bench-lib.sh"
b_require_root
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
b_loop l 64
. "$top/tests/shim.sh"
t_identity "$l" "TestDisk 64M" "LOOP-$l"   # evidence is kept per disk identity: a model (and a serial)
echo mq-deadline >/sys/block/$l/queue/scheduler 2>/dev/null || b_skip "$l cannot run mq-deadline"
echo none >/sys/block/$l/queue/scheduler
root=$B_TMP/root
pol=$B_TMP/pol.conf
mkdir "$root"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\n' "$l" > "$pol"

$BENCH --filename=/dev/$l --rw=randread --runtime=200ms --ramp_time=0 --loops=2 --record="$root" \
        >/dev/null 2>"$B_TMP/no.err"
rc=$?
[ $rc = 2 ] || b_fail "--record without --compare: exit $rc: $(cat "$B_TMP/no.err")"
grep -q "give --compare" "$B_TMP/no.err" || b_fail "--record without --compare: $(cat "$B_TMP/no.err")"
[ -z "$(ls -A "$root")" ] || b_fail "--record without --compare wrote"

$BENCH --filename=/dev/$l --rw=randread --bs=4k --runtime=200ms --ramp_time=0 --loops=2 --compare=none,mq-deadline \
        --policy="$pol" --record="$root" >"$B_TMP/out.txt" 2>"$B_TMP/err.txt" || b_fail "--record: $(cat "$B_TMP/err.txt")"
doc=$(ls "$root"/var/lib/iosched/evidence/*.json 2>/dev/null)
[ -n "$doc" ] || b_fail "no document: $(cat "$B_TMP/err.txt")"
grep -qF "iosched-bench: recorded in $doc" "$B_TMP/err.txt" || b_fail "not said: $(cat "$B_TMP/err.txt")"
[ "$(b_sched "$l")" = none ] || b_fail "not restored: $(cat /sys/block/$l/queue/scheduler)"
python3 - "$doc" "$pol:4" "$(uname -r)" "$l" "$top/schema/iosched-evidence.schema.json" <<'PY' || b_fail "$(cat "$doc")"
import json, sys
doc = json.load(open(sys.argv[1])); r = doc["records"][-1]
assert r["tool"] == "iosched-bench --compare --record", r["tool"]
assert r["rule"] == sys.argv[2] and r["policy_scheduler"] == "mq-deadline", (r["rule"], r["policy_scheduler"])
assert r["kernel"] == sys.argv[3] and r["device"] == sys.argv[4]
assert r["verdict"] in ("best", "within_noise", "beaten"), r["verdict"]
assert r["against_policy"] == (r["verdict"] == "beaten")
assert r["rounds"] == 2 and len(r["variants"]) == 2
assert all(v["runs"] == 2 and v["median"] > 0 for v in r["variants"]), r["variants"]
assert "rw=randread" in r["workload"]["job_text"] and r["workload"]["job_digest"].startswith("fnv1a64:"), r["workload"]
assert doc["identity"]["class"] == "loop"
try:
    import jsonschema
    jsonschema.Draft202012Validator(json.load(open(sys.argv[5]))).validate(doc)
except ImportError:
    pass
PY
echo ok
