# SPDX-License-Identifier: LGPL-2.1-or-later
# validate-lib.sh: the stand-in iosched-bench of the validate tests (sourced
# after lib.sh, with $l the test's loop device).  The stand-in touches no
# device: it records its arguments ($FAKE_DIR/argv) and the policy file it
# was given (policy.seen), prints $FAKE_ERR on stderr and $FAKE_DIR/out.json
# on stdout, and exits $FAKE_RC (0).
fake=$T_TMP/fake-bench
cat > "$fake" <<'EOF'
#!/bin/sh
printf '%s\n' "$@" > "$FAKE_DIR/argv"
for a; do
        case $a in --policy=*) cp "${a#--policy=}" "$FAKE_DIR/policy.seen" ;; esac
done
[ -n "${FAKE_ERR:-}" ] && printf '%s\n' "$FAKE_ERR" >&2
[ -f "$FAKE_DIR/out.json" ] && cat "$FAKE_DIR/out.json"
exit "${FAKE_RC:-0}"
EOF
chmod 0755 "$fake"
export IOSCHED_BENCH=$fake FAKE_DIR=$T_TMP

# mkjson BEST RUNNER_UP SIGNIFICANT P: the stand-in's report, a --compare -J
# of none and mq-deadline over 5 rounds (the winner 31% ahead), mq-deadline's
# tunables $MQ_TUNABLES ({} unless set)
mkjson() {
        mt=${MQ_TUNABLES:-"{}"}
        vs='{ "best" : "'$1'", "margin_pct" : 31.000000, "ratio" : 1.450000, "p_value" : '$4', "significant" : '$3', "label" : "31% lower reader p99" }'
        if [ "$1" = none ]; then vn=null; vm=$vs; else vn=$vs; vm=null; fi
        cat > "$T_TMP/out.json" <<EOF
{
  "iosched-bench version" : "iosched-bench-test", "backend" : "native",
  "global options" : { "filename" : "/dev/$l", "direct" : "1" },
  "compare" : {
    "device" : "$l", "original_scheduler" : "none", "objective" : "reader:p99", "lower_is_better" : true,
    "loops" : 5, "backend" : "native",
    "schedulers" : [
      { "name" : "none", "scheduler" : "none", "tunables" : {}, "runs" : 5, "values" : [1, 2, 3, 4, 5],
        "vs_best" : $vn, "median" : 200000.0, "min" : 100000.0, "max" : 300000.0, "spread_pct" : 100.0 },
      { "name" : "mq-deadline", "scheduler" : "mq-deadline", "tunables" : $mt,
        "runs" : 5, "values" : [1, 2, 3, 4, 5],
        "vs_best" : $vm, "median" : 138000.0, "min" : 130000.0, "max" : 150000.0, "spread_pct" : 14.0 }
    ],
    "best" : "$1", "runner_up" : "$2", "margin_pct" : 31.0, "noise_pct" : 10.0, "p_value" : $4,
    "significant" : $3, "restored" : true, "restore_errors" : []
  },
  "jobs" : [
    { "jobname" : "reader.none.1", "job options" : { "rw" : "randread", "bs" : "4k" } },
    { "jobname" : "reader.mq-deadline.1", "job options" : { "rw" : "randread", "bs" : "4k" } },
    { "jobname" : "reader.none.2", "job options" : { "rw" : "randread", "bs" : "4k" } }
  ]
}
EOF
}
