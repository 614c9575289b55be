#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# sweep.sh: fault injection through whole runs of the tools.
#
# For each scenario (list, --dry-run and apply of iosched-apply on a fake
# tree, a daemon start) and each kind of call (alloc, open, read, write,
# close), the run is repeated with the shim (libiosfault.so, fault.c)
# failing call N, for N = 1, 2, ... until the run no longer reaches call N.
# Every run must:
#   - end by itself (no signal) with no ASan/UBSan/LeakSanitizer report;
#   - exit with a status its man page documents (iosched-apply: 0, 2, 3, 4,
#     5; ioschedd: 0, 1, 2);
#   - when it fails, say so on stderr in lines that start with the program's
#     name; when it succeeds, print exactly what the run without a fault
#     printed (a fault never changes a result silently: list shows the
#     columns classification and policies rest on, NAME CLASS ROTA SCHED
#     AVAILABLE TRAN DRIVER; an identity string such as the model that
#     cannot be read (EIO) is unknown, by design, and not compared);
#   - for apply: leave every disk either untouched, or fully at the policy,
#     or name each setting it did not apply (and exit non-zero).
#
# Environment: BUILDDIR (its tools and tests/libiosfault.so), IOS_FIXTURES
# (unpacked fixtures; else unpacked here), FAULT_FULL=1 for every N (else N
# = 1..FAULT_DENSE, then a stride that keeps each sweep at about
# FAULT_RUNS runs), FAULT_KINDS, FAULT_SCENARIOS to choose.  Prints one line
# per sweep: scenario, kind, calls made by a clean run, runs done.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
case $BUILDDIR in /*) b=$BUILDDIR ;; *) b=$top/$BUILDDIR ;; esac
shim=$b/tests/libiosfault.so
[ -x "$b/iosched-apply" ] && [ -f "$shim" ] || { echo "no $b/iosched-apply or $shim (make tests)"; exit 1; }
FAULT_DENSE=${FAULT_DENSE:-12}
FAULT_RUNS=${FAULT_RUNS:-30}
KINDS=${FAULT_KINDS:-alloc open read write close}
SCENARIOS=${FAULT_SCENARIOS:-list dry-run apply daemon}
FIXTURE=${FAULT_FIXTURE:-nvme-multipath}

w=$(mktemp -d /tmp/iosched-fault-XXXXXX) || exit 1
trap 'rm -rf "$w"' EXIT INT TERM
if [ -n "${IOS_FIXTURES:-}" ] && [ -d "$IOS_FIXTURES/$FIXTURE/sys" ]; then
        cp -a "$IOS_FIXTURES/$FIXTURE" "$w/base"
else
        mkdir "$w/base" && tar -xzf "$top/tests/fixtures/$FIXTURE.tar.gz" -C "$w/base" || exit 1
fi
# a policy that changes the scheduler, queue/ attributes and a tunable of
# the new scheduler, on every disk (and no built-in rule besides it)
cat >"$w/policy.conf" <<'POL'
[Match]
Name=*
[Set]
Scheduler=mq-deadline
queue/nr_requests=32
queue/read_ahead_kb=1024
queue/iosched/read_expire=250
POL
chmod 0644 "$w/policy.conf"
san="ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:exitcode=99:allocator_may_return_null=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=99"
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# run SCENARIO SPEC: one run in $w/run with IOS_FAULT=SPEC; rc in $rc
run() {
        sc=$1 spec=$2
        rm -f "$w/hit" "$w/count"
        case $sc in apply|daemon) rm -rf "$w/run"; cp -a "$w/base" "$w/run" ;; esac
        case $sc in
        list)    set -- "$b/iosched-apply" --sysroot "$w/base" list -r -o NAME,CLASS,ROTA,SCHED,AVAILABLE,TRAN,DRIVER ;;
        dry-run) set -- "$b/iosched-apply" --sysroot "$w/base" --no-builtin --config "$w/policy.conf" --dry-run ;;
        apply)   set -- "$b/iosched-apply" --sysroot "$w/run" --no-builtin --config "$w/policy.conf" ;;
        daemon)  set -- "$b/ioschedd" --sysroot "$w/run" --no-builtin --config "$w/policy.conf" --monitor none \
                        --drift-interval off ;;
        esac
        : >"$w/err"
        if [ "$sc" = daemon ]; then
                env $san IOS_FAULT="$spec" IOS_FAULT_HIT="$w/hit" IOS_FAULT_COUNT="$w/count" LD_PRELOAD="$shim" \
                        "$@" >"$w/out" 2>"$w/err" &
                pid=$!
                i=0
                while [ $i -lt 200 ] && kill -0 $pid 2>/dev/null && ! grep -q ': ready' "$w/err"; do
                        sleep 0.05; i=$((i + 1))
                done
                kill -TERM $pid 2>/dev/null
                i=0
                while [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
                if kill -0 $pid 2>/dev/null; then
                        kill -KILL $pid
                        echo "ioschedd: (sweep.sh) still running 5 s after SIGTERM" >>"$w/err"
                        wait $pid
                        rc=124
                else
                        wait $pid
                        rc=$?
                fi
        else
                env $san IOS_FAULT="$spec" IOS_FAULT_HIT="$w/hit" IOS_FAULT_COUNT="$w/count" LD_PRELOAD="$shim" \
                        "$@" >"$w/out" 2>"$w/err"
                rc=$?
        fi
}

# the files of the disk trees, path and content, one line each
state() {
        (cd "$1/sys/devices" && find . -path '*/queue/*' -type f | LC_ALL=C sort |
                xargs -d '\n' grep -H -Z -m 1 '' | tr '\0' '\t')
}

check() {
        sc=$1 spec=$2 what="$1 IOS_FAULT=$2"
        prog=iosched-apply; ok="0 2 3 4 5"
        [ "$sc" = daemon ] && { prog=ioschedd; ok="0 1 2"; }
        if grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|SUMMARY: ' "$w/err"; then
                fail "$what: sanitizer report"; sed 's/^/    | /' "$w/err" | head -n 30; return
        fi
        case " $ok " in *" $rc "*) ;; *) fail "$what: exit $rc (documented: $ok)"; sed 's/^/    | /' "$w/err" | head -n 10; return ;; esac
        if grep -v "^$prog: " "$w/err" | grep -q .; then
                fail "$what: a stderr line without the program's name:"; grep -v "^$prog: " "$w/err" | head -n 3 | sed 's/^/    | /'
        fi
        if [ "$rc" != 0 ] && ! grep -q "^$prog: " "$w/err"; then
                fail "$what: exit $rc without an error line"
        fi
        if [ "$sc" != daemon ] && [ "$rc" = 0 ] && ! cmp -s "$w/out" "$w/ref-$sc.out"; then
                fail "$what: exit 0 but a different result than without the fault:"
                diff "$w/ref-$sc.out" "$w/out" | head -n 6 | sed 's/^/    | /'
        fi
        if [ "$sc" = daemon ] && [ "$rc" = 0 ] && grep -q ': ready' "$w/err" && ! grep -qiE 'error|fail|cannot' "$w/err" &&
           ! cmp -s "$w/state" "$w/ref-apply.state"; then
                fail "$what: ready, no error logged, but the disks are not at the policy:"
                diff "$w/ref-apply.state" "$w/state" | head -n 4 | sed "s/^/    | /"
        fi
        if [ "$sc" = apply ] || [ "$sc" = daemon ]; then
                if [ "$sc" = apply ] && ! cmp -s "$w/state" "$w/orig.state" && ! cmp -s "$w/state" "$w/ref-apply.state"; then
                        # half applied: each setting left behind must be named, and the exit non-zero
                        [ "$rc" != 0 ] || fail "$what: half applied with exit 0"
                        diff "$w/state" "$w/ref-apply.state" |
                        sed -n 's/^< \.\/.*\/\([^/]*\)\/queue\/\([^\t]*\)\t.*/\1 \2/p' | sort -u |
                        while read -r disk attr; do
                                key=queue/$attr; [ "$attr" = scheduler ] && key=scheduler
                                # the disk's own line names the setting (or the failure that stopped it)
                                grep -q "$disk: .*$key" "$w/out" "$w/err" || echo "$disk:$key"
                        done >"$w/unnamed"
                        if [ -s "$w/unnamed" ]; then
                                fail "$what: half applied, and not said which settings were not: $(tr '\n' ' ' <"$w/unnamed")"
                                sed 's/^/    | /' "$w/err" | head -n 5
                        fi
                fi
        fi
}

# references: the runs without a fault
state "$w/base" >"$w/orig.state"
for sc in apply $SCENARIOS; do
        run "$sc" none
        cp "$w/out" "$w/ref-$sc.out"
        [ "$rc" = 0 ] || { echo "FAIL: $sc without a fault: exit $rc"; cat "$w/err"; exit 1; }
        [ "$sc" = apply ] && state "$w/run" >"$w/ref-apply.state"
done
cmp -s "$w/orig.state" "$w/ref-apply.state" && { echo "FAIL: the policy changes nothing on $FIXTURE"; exit 1; }

total=0
for sc in $SCENARIOS; do
        for k in $KINDS; do
                run "$sc" "$k:0"
                calls=$(cat "$w/count" 2>/dev/null || echo 0)
                stride=1
                if [ "${FAULT_FULL:-0}" != 1 ] && [ "$calls" -gt $((FAULT_DENSE + FAULT_RUNS)) ]; then
                        stride=$(( (calls - FAULT_DENSE) / FAULT_RUNS + 1 ))
                fi
                n=1 runs=0
                while :; do
                        run "$sc" "$k:$n"
                        [ -e "$w/hit" ] || break
                        runs=$((runs + 1))
                        { [ "$sc" = apply ] || [ "$sc" = daemon ]; } && state "$w/run" >"$w/state"
                        check "$sc" "$k:$n"
                        if [ $n -lt "$FAULT_DENSE" ]; then n=$((n + 1)); else n=$((n + stride)); fi
                done
                total=$((total + runs))
                printf 'sweep %-8s %-6s %6s calls  %5s faulted runs (stride %s)\n' "$sc" "$k" "$calls" "$runs" "$stride"
        done
done
echo "== $total faulted runs, $failures failures ($BUILDDIR, fixture $FIXTURE)"
[ $failures = 0 ]
