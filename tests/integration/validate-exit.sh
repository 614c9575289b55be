#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `iosched-apply validate` with a stand-in iosched-bench
# (IOSCHED_BENCH) on a loop device the test attaches: what validate passes
# the bench (--filename and --target-device of the disk named, --compare,
# -J, and the policy given with --config-root as a file of the policy's
# settings for the disk), the verdict said about the policy's scheduler
# from the bench's JSON (best, within the noise, beaten) and its exit
# status (0, 0, 1), the bench's exit statuses mapped (3 refused, a
# --target-device refusal 3, a usage error or failed run 2), -J's object
# against the schema, and the bench's own options refused after "--".
# The stand-in touches no device; the disk's scheduler stays as found.
. "$(dirname "$0")/lib.sh"
t_require_root

t_loop l 16
q=/sys/block/$l/queue
grep -q mq-deadline "$q/scheduler" || t_skip "no mq-deadline on this kernel"
echo none > "$q/scheduler"
before=$(cat "$q/scheduler" "$q/read_ahead_kb")

root=$T_TMP/root
mkdir -p "$root/etc/iosched.d"
printf '[Match]\nName=%s\n[Set]\nScheduler=mq-deadline\nqueue/read_ahead_kb=1236\n' "$l" > "$root/etc/iosched.d/50-loop.conf"
chmod 0644 "$root/etc/iosched.d/50-loop.conf"

. "$(dirname "$0")/validate-lib.sh"

v() { $APPLY validate --config-root "$root" "$l" "$@"; }
unchanged() {
        [ "$before" = "$(cat "$q/scheduler" "$q/read_ahead_kb")" ] || t_fail "$1: the disk changed"
}

# the policy's scheduler best, significantly: exit 0, the verdict names it and the runner-up
mkjson mq-deadline none true 0.01
out=$(v 2>&1); rc=$?
[ $rc = 0 ] || t_fail "best: exit $rc: $out"
echo "$out" | grep -qx "$l: the policy's mq-deadline: best (31% lower reader p99 than none, p=0.01)" ||
        t_fail "best: no verdict line: $out"
echo "$out" | grep -q "current scheduler none against the policy's mq-deadline" || t_fail "best: nothing said up front: $out"
grep -qx -- "--filename=/dev/$l" "$T_TMP/argv" || t_fail "no --filename: $(cat "$T_TMP/argv")"
grep -qx -- "--target-device=/dev/$l" "$T_TMP/argv" || t_fail "no --target-device: $(cat "$T_TMP/argv")"
grep -qx -- "--compare=none,mq-deadline" "$T_TMP/argv" || t_fail "no --compare: $(cat "$T_TMP/argv")"
grep -qx -- "-J" "$T_TMP/argv" || t_fail "no -J: $(cat "$T_TMP/argv")"
# --config-root: the bench reads a file of the policy's settings for the disk, removed afterwards
pf=$(sed -n 's/^--policy=//p' "$T_TMP/argv")
[ -n "$pf" ] || t_fail "--config-root: no --policy=FILE: $(cat "$T_TMP/argv")"
grep -qx "queue/read_ahead_kb=1236" "$T_TMP/policy.seen" || t_fail "the policy's tunable not passed: $(cat "$T_TMP/policy.seen")"
grep -qx "Name=$l" "$T_TMP/policy.seen" || t_fail "the rule is not for $l: $(cat "$T_TMP/policy.seen")"
[ ! -e "$pf" ] || t_fail "the policy file for the bench was left behind: $pf"
unchanged best

# the best but not significantly ahead: within the noise of the runner-up, exit 0
mkjson mq-deadline none false 0.35
out=$(v 2>/dev/null); rc=$?
[ $rc = 0 ] || t_fail "within (best): exit $rc: $out"
echo "$out" | grep -q "^$l: the policy's mq-deadline: within the noise of none " || t_fail "within (best): $out"

# another best, not significantly: within the noise, exit 0
mkjson none mq-deadline false 0.35
out=$(v 2>/dev/null); rc=$?
[ $rc = 0 ] || t_fail "within (other): exit $rc: $out"
echo "$out" | grep -q "^$l: the policy's mq-deadline: within the noise of none (none: 31% lower" || t_fail "within (other): $out"

# beaten significantly: exit 1, the winner and by how much
mkjson none mq-deadline true 0.01
out=$(v 2>/dev/null); rc=$?
[ $rc = 1 ] || t_fail "beaten: exit $rc: $out"
echo "$out" | grep -qx "$l: the policy's mq-deadline: beaten by none, 31% lower reader p99, p=0.01" || t_fail "beaten: $out"

# -J: one object, the verdict and the exit status in it, valid against the schema
out=$(v -J 2>/dev/null); rc=$?
[ $rc = 1 ] || t_fail "-J beaten: exit $rc"
echo "$out" > "$T_TMP/v.json"
if python3 -c 'import jsonschema' 2>/dev/null; then
        python3 - "$top/schema/iosched-apply.schema.json" "$T_TMP/v.json" "$l" <<'PY' || t_fail "-J: $out"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1])); doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
want = {"command": "validate", "device": sys.argv[3], "policy_scheduler": "mq-deadline", "verdict": "beaten",
        "against": "none", "best": "none", "label": "31% lower reader p99", "p_value": 0.01, "significant": True,
        "exit": 1, "bench_exit": 0, "current_scheduler": "none"}
for k, x in want.items():
    assert doc.get(k) == x, "%s: %r, not %r" % (k, doc.get(k), x)
PY
else
        echo "$out" | grep -q '"verdict": "beaten"' || t_fail "-J: no verdict: $out"
fi

# the bench's exit statuses: refused 3; a --target-device refusal (usage, 2) 3; usage 2; a failed run 2
rm -f "$T_TMP/out.json"
out=$(FAKE_RC=3 FAKE_ERR="iosched-bench: refusing to write: no --allow-write" v 2>&1); rc=$?
[ $rc = 3 ] || t_fail "bench refused: exit $rc: $out"
out=$(FAKE_RC=2 FAKE_ERR="iosched-bench: job x: /dev/loop99 is not the --target-device /dev/$l" v 2>&1); rc=$?
[ $rc = 3 ] || t_fail "another target: exit $rc: $out"
echo "$out" | grep -q "names another target than /dev/$l" || t_fail "another target: not said: $out"
out=$(FAKE_RC=2 FAKE_ERR="iosched-bench: unknown option --target-device=/dev/$l (see --help)" v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "a bench without --target-device: exit $rc: $out"
echo "$out" | grep -q "has no --target-device" || t_fail "a bench without --target-device: $out"
out=$(FAKE_RC=2 FAKE_ERR="iosched-bench: invalid --bs 'x'" v -J 2>/dev/null); rc=$?
[ $rc = 2 ] || t_fail "bench usage: exit $rc: $out"
echo "$out" | grep -q '"verdict": null' || t_fail "bench usage -J: $out"
echo "$out" | grep -q '"exit": 2' || t_fail "bench usage -J: $out"
# a job the bench does not run (exit 2 is not only a bad option): its reason, not "usage error"
why="job 'x': rw=randtrim trims: iosched-bench measures and compares reads and writes, not trims"
out=$(FAKE_RC=2 FAKE_ERR="iosched-bench: $why" v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "bench refused a job: exit $rc: $out"
echo "$out" | grep -qxF "iosched-apply: $l: no verdict: iosched-bench ran no comparison (exit 2): $why" || t_fail "bench refused a job: $out"
out=$(FAKE_RC=2 FAKE_ERR="iosched-bench: $why" v -J 2>/dev/null)
echo "$out" | grep -qF "$why" || t_fail "bench refused a job -J: no reason: $out"
out=$(FAKE_RC=3 FAKE_ERR="iosched-bench: /dev/$l is mounted" v 2>&1)
echo "$out" | grep -qxF "iosched-apply: $l: no verdict: iosched-bench refused the run: /dev/$l is mounted" || t_fail "refused: $out"
out=$(FAKE_RC=1 v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "bench failed: exit $rc: $out"
echo "$out" | grep -q "exit 1): it gave no reason$" || t_fail "bench failed, no reason: $out"
# a report without vs_best (an older bench), or none at all: no verdict, 2
mkjson none mq-deadline true 0.01
sed -i '/"vs_best"/d' "$T_TMP/out.json"
out=$(v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "no vs_best: exit $rc: $out"
echo '{"iosched-bench": 1' > "$T_TMP/out.json"
out=$(v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "bad JSON: exit $rc: $out"

# no bench to run: 2, said
out=$(IOSCHED_BENCH=$T_TMP/no-such-bench v 2>&1); rc=$?
[ $rc = 2 ] || t_fail "no bench: exit $rc: $out"
echo "$out" | grep -q "could not be run" || t_fail "no bench: $out"

# options validate gives the bench itself are refused after "--", before the bench runs
rm -f "$T_TMP/argv"
for o in --output=/tmp/x --json -J --compare=bfq --target-device=/dev/vda --filename=/dev/vda --output-format=normal; do
        out=$(v -- "$o" 2>&1); rc=$?
        [ $rc = 2 ] || t_fail "$o after --: exit $rc: $out"
        [ ! -e "$T_TMP/argv" ] || t_fail "$o after --: the bench ran"
done

# --config FILE reaches the bench as --policy=FILE; no policy option: the system policy
cp "$root/etc/iosched.d/50-loop.conf" "$T_TMP/one.conf"
mkjson mq-deadline none true 0.01
# (--no-record: these use the host's root, whose /var/lib this test must not write)
$APPLY validate --no-record --config "$T_TMP/one.conf" "$l" >/dev/null 2>&1 || t_fail "--config: exit $?"
grep -qx -- "--policy=$T_TMP/one.conf" "$T_TMP/argv" || t_fail "--config: $(cat "$T_TMP/argv")"
$APPLY validate --no-record "$l" >/dev/null 2>&1
grep -qx -- "--policy" "$T_TMP/argv" || t_fail "no policy option: $(cat "$T_TMP/argv")"
# --drop-in and --no-builtin go the way --config-root does
$APPLY validate --no-record --no-builtin --drop-in "50-loop.conf=$T_TMP/one.conf" "$l" >/dev/null 2>&1 ||
        t_fail "--drop-in: exit $?"
grep -qx "queue/read_ahead_kb=1236" "$T_TMP/policy.seen" || t_fail "--drop-in: $(cat "$T_TMP/policy.seen")"
# SIGTERM sent to validate alone reaches the bench, and validate waits for its end (its restore)
slow=$T_TMP/slow-bench
cat > "$slow" <<'EOF'
#!/bin/sh
trap 'echo term > "$FAKE_DIR/got-term"; sleep 0.3; echo done > "$FAKE_DIR/ended"; exit 1' TERM
echo started > "$FAKE_DIR/started"
i=0
while [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
exit 0
EOF
chmod 0755 "$slow"
IOSCHED_BENCH=$slow $APPLY validate --config-root "$root" "$l" > /dev/null 2>&1 &
pid=$!
i=0
while [ ! -e "$T_TMP/started" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -e "$T_TMP/started" ] || t_fail "SIGTERM: the stand-in never started"
kill -TERM $pid
wait $pid
rc=$?
[ -e "$T_TMP/got-term" ] || t_fail "SIGTERM: not passed on to the bench"
[ -e "$T_TMP/ended" ] || t_fail "SIGTERM: validate did not wait for the bench's end"
[ $rc = 2 ] || t_fail "SIGTERM: exit $rc"
unchanged end
echo ok
