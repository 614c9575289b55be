#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Runs the configuration-management tests (tests/contrib/*.sh: Ansible, Puppet,
# cloud-init) with the 0 = pass, 77 = skip, else = fail contract and the time
# of each; logs in $BUILDDIR/test-logs/contrib/. TESTS="pattern ..." limits
# the run. `make check-contrib` runs this.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
BUILDDIR=${BUILDDIR:-build}
export BUILDDIR IOS_TOP="$top" LC_ALL=C
pass=0 fail=0 skip=0 failed=""
mkdir -p "$BUILDDIR/test-logs/contrib"
for t in tests/contrib/*.sh; do
        n=$(basename "$t" .sh)
        case $n in run|lib) continue ;; esac
        [ -x "$t" ] || continue
        case "${TESTS:-}" in
        "") ;;
        *) ok=0; for p in $TESTS; do case "contrib/$n" in *$p*) ok=1;; esac; done
           [ $ok = 1 ] || continue ;;
        esac
        log=$BUILDDIR/test-logs/contrib/$n.log
        start=$(date +%s)
        timeout -k 10 "${TIMEOUT:-600}" "$t" >"$log" 2>&1
        rc=$?
        secs=$(( $(date +%s) - start ))
        case $rc in
        0) pass=$((pass + 1)); printf 'PASS  %-30s %4ds\n' "contrib/$n" "$secs" ;;
        77) skip=$((skip + 1)); printf 'SKIP  %-30s %s\n' "contrib/$n" "$(tail -n 1 "$log")" ;;
        *) fail=$((fail + 1)); failed="$failed contrib/$n"
           printf 'FAIL  %-30s (exit %d, %ds)\n' "contrib/$n" "$rc" "$secs"; sed 's/^/      | /' "$log" | tail -n 40 ;;
        esac
done
echo "== $pass passed, $fail failed, $skip skipped (contrib)"
[ $fail = 0 ] || { echo "failed:$failed"; exit 1; }
exit 0
