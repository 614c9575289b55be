#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --format prometheus: health and time on every run (iosched_policy_ok,
# iosched_exit_code, iosched_last_run_timestamp_seconds), also with a broken
# policy and when nothing could be checked; per disk compliance, drift,
# failed settings and other writers.  promtool (Debian's prometheus) lints
# the textfiles (check metrics), checks contrib/prometheus/iosched.rules.yml
# (check rules) and runs the alert rules on what iosched-apply printed
# (test rules): a broken policy fires IoschedPolicyBroken, drift IoschedDrift.
# Skips (77) only when promtool cannot be installed.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
rules="$top/contrib/prometheus/iosched.rules.yml"
if ! command -v promtool >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null 2>&1
fi
command -v promtool >/dev/null 2>&1 || { echo "SKIP: promtool (Debian package prometheus) cannot be installed"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
d=$fx/megaraid-ld
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1

# 1. a drifting disk: every metric, linted
"$bin" --format prometheus --config /dev/null --sysroot "$d" > "$t/drift.prom"
[ $? = 1 ] || t_fail "drift: want exit 1"
for m in 'iosched_policy_ok 1' 'iosched_policy_errors 0' 'iosched_exit_code 1' \
         'iosched_device_compliant{device="sdb",class="raid"} 0' 'iosched_device_drift_settings{device="sdb"} 1' \
         'iosched_device_failed_settings{device="sdb"} 0' 'iosched_device_conflicting_writers{device="sdb"} 0' \
         'iosched_device_info{device="sdb",class="raid",scheduler="mq-deadline",wanted="none"} 1'; do
        grep -qxF "$m" "$t/drift.prom" || t_fail "drift: no line $m"
done
now=$(date +%s)
ts=$(sed -n 's/^iosched_last_run_timestamp_seconds \([0-9]*\)$/\1/p' "$t/drift.prom")
[ -n "$ts" ] && [ $((now - ts)) -ge 0 ] && [ $((now - ts)) -le 60 ] || t_fail "timestamp $ts is not now ($now)"

# 2. a broken policy: still every metric, policy_ok 0, exit 2
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\nBogus=1\n' > "$t/bad.conf"
chmod 0644 "$t/bad.conf"
"$bin" --format prometheus --config "$t/bad.conf" --sysroot "$d" > "$t/broken.prom" 2>/dev/null
[ $? = 2 ] || t_fail "broken policy: want exit 2"
grep -qx 'iosched_policy_ok 0' "$t/broken.prom" || t_fail "broken policy: no iosched_policy_ok 0"
grep -qx 'iosched_policy_errors 1' "$t/broken.prom" || t_fail "broken policy: no iosched_policy_errors 1"
grep -qx 'iosched_exit_code 2' "$t/broken.prom" || t_fail "broken policy: no iosched_exit_code 2"
grep -q '^iosched_device_compliant{device="sdb"' "$t/broken.prom" || t_fail "broken policy: the disks are missing"

# 3. nothing checked (no such root, no such disk): health and time only
for args in "--sysroot $t/nonexistent" "--sysroot $d nosuchdisk"; do
        # shellcheck disable=SC2086
        "$bin" --format prometheus $args > "$t/fail.prom" 2>/dev/null
        [ $? = 2 ] || t_fail "$args: want exit 2"
        grep -qx 'iosched_exit_code 2' "$t/fail.prom" || t_fail "$args: no iosched_exit_code 2"
        grep -q '^iosched_last_run_timestamp_seconds [0-9]*$' "$t/fail.prom" || t_fail "$args: no timestamp"
        promtool check metrics < "$t/fail.prom" || t_fail "$args: promtool check metrics"
done
grep -qx 'iosched_policy_ok 1' "$t/fail.prom" || t_fail "no such disk: the policy was read: want iosched_policy_ok 1"

# 4. promtool lints the textfiles of every captured tree and the rules
for f in "$fx"/*/; do
        [ -d "$f/sys/block" ] || continue
        "$bin" --format prometheus --config /dev/null --sysroot "$f" > "$t/x.prom" 2>/dev/null
        promtool check metrics < "$t/x.prom" || t_fail "promtool check metrics: $(basename "$f")"
done
promtool check metrics < "$t/broken.prom" || t_fail "promtool check metrics: broken policy"
promtool check rules "$rules" || t_fail "promtool check rules $rules"

# 5. the alert rules on what iosched-apply printed, as if scraped from host h every minute
series() {      # textfile -> promtool test series, with instance="h", constant for 60 minutes
        grep -v '^#' "$1" | grep -v '^iosched_last_run_timestamp_seconds' | while read -r name value; do
                case $name in
                *'}') name="${name%\}},instance=\"h\"}" ;;
                *) name="$name{instance=\"h\"}" ;;
                esac
                printf "      - series: '%s'\n        values: '%sx60'\n" "$name" "$value+0"
        done
}
cp "$rules" "$t/rules.yml"
cat > "$t/test.yml" <<EOT
rule_files: [rules.yml]
evaluation_interval: 1m
tests:
  - interval: 1m
    input_series:
$(series "$t/broken.prom")
    alert_rule_test:
      - eval_time: 10m
        alertname: IoschedPolicyBroken
        exp_alerts:
          - exp_labels: {severity: warning, instance: h}
            exp_annotations:
              summary: "iosched policy on h has a broken file"
              description: "A policy file could not be used: the disks it selects keep their values for what it names (no disk at all changes when its [Match] cannot be read). Run \`iosched-apply cat-config\` and \`iosched-apply --check\` on the host."
      - eval_time: 20m
        alertname: IoschedCheckFailing
        exp_alerts:
          - exp_labels: {severity: warning, instance: h}
            exp_annotations:
              summary: "iosched check on h ends in an error (exit 2)"
              description: "iosched-apply --check --textfile exits 2: a broken policy, an unreadable disk or a refused write. See its errors with \`iosched-apply --check -J\`."
  - interval: 1m
    input_series:
$(series "$t/drift.prom")
    alert_rule_test:
      - eval_time: 10m
        alertname: IoschedDrift
        exp_alerts: []
      - eval_time: 40m
        alertname: IoschedDrift
        exp_alerts:
          - exp_labels: {severity: info, instance: h, device: sdb}
            exp_annotations:
              summary: "sdb on h differs from its I/O scheduler policy"
              description: "1 setting(s) of sdb differ from the policy for 30 minutes. \`iosched-apply status\` shows them and any other writer (TuneD, udev rules, elevator=)."
      - eval_time: 40m
        alertname: IoschedPolicyBroken
        exp_alerts: []
  - interval: 1m
    input_series:
      - series: 'iosched_last_run_timestamp_seconds{instance="h"}'
        values: '0x120'
    alert_rule_test:
      - eval_time: 50m
        alertname: IoschedStale
        exp_alerts: []
      - eval_time: 80m
        alertname: IoschedStale
        exp_alerts:
          - exp_labels: {severity: warning, instance: h}
            exp_annotations:
              summary: "iosched textfile on h is older than an hour"
              description: "The timer running \`iosched-apply --check --textfile\` (iosched-textfile.timer) has stopped; its metrics are stale."
  - interval: 1m
    input_series:
      - series: 'iosched_validation_against_policy{instance="h",device="sdb"}'
        values: '1x1500'
      - series: 'iosched_validation_stale{instance="h",device="sdb"}'
        values: '1x1500'
      - series: 'iosched_validation_against_policy{instance="h",device="sdc"}'
        values: '0x1500'
      - series: 'iosched_validation_stale{instance="h",device="sdc"}'
        values: '0x1500'
    alert_rule_test:
      - eval_time: 30m
        alertname: IoschedValidationAgainstPolicy
        exp_alerts: []
      - eval_time: 70m
        alertname: IoschedValidationAgainstPolicy
        exp_alerts:
          - exp_labels: {severity: info, instance: h, device: sdb}
            exp_annotations:
              summary: "the policy's scheduler for sdb on h lost its validation"
              description: "The last \`iosched-apply validate\` on sdb found another scheduler better with significance. \`iosched-apply explain sdb\` shows the evidence; \`validate --adopt\` writes the winner's drop-in."
      - eval_time: 20h
        alertname: IoschedValidationStale
        exp_alerts: []
      - eval_time: 1441m
        alertname: IoschedValidationStale
        exp_alerts:
          - exp_labels: {severity: info, instance: h, device: sdb}
            exp_annotations:
              summary: "the validation of sdb on h is stale"
              description: "The kernel, the firmware, the disk or the rule changed since sdb was validated. \`iosched-apply explain sdb\` says what; run \`iosched-apply validate sdb\` again."
EOT
(cd "$t" && promtool test rules test.yml) || { t_fail "promtool test rules"; cat "$t/test.yml"; }
exit $fail
