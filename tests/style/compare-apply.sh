#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# compare-apply.sh OLD NEW: run two iosched-apply binaries on the same command
# lines over captured trees (tests/fixtures, unpacked here, and a generated
# tree of many disks) and compare stdout, stderr, the exit status and, for
# --textfile, the file written.  Every verb, -J, --check, --dry-run, apply
# (on a fresh copy of the tree each time: it writes), --format prometheus,
# --textfile, broken and site policies, and usage errors.  The run time in
# the Prometheus output is masked.  Prints each difference and the counts;
# exit 0 when there is none.  COMPARE_TREES="nvme md-raid1" limits the trees
# (the generated one is "many").  Not part of tests/run.sh: it needs an old
# binary (make one from another commit: git archive REV | tar -x -C DIR;
# make -C DIR build/iosched-apply).
set -u
[ $# -eq 2 ] || { echo "usage: $0 OLD NEW" >&2; exit 2; }
old=$(realpath "$1") new=$(realpath "$2")
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
export LC_ALL=C
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
runs=0 diffs=0

mkdir -p "$t/fx"
for f in "$top"/tests/fixtures/*.tar.gz; do
        n=$(basename "$f" .tar.gz)
        mkdir -p "$t/fx/$n" && tar -xzf "$f" -C "$t/fx/$n" || exit 1
done
if command -v python3 >/dev/null; then
        python3 "$top/bench/mk-fake-tree.py" "$t/fx/many" 40 >/dev/null || exit 1
fi
bad=$top/tests/bad-configs
site=$top/tests/golden/data/site-policy.conf
# a policy that sets a scheduler no disk offers, and one broken file beside a good one
mkdir -p "$t/conf/etc/iosched.d"
printf '[Match]\nClass=ssd nvme hdd virtual raid\n\n[Set]\nScheduler=bfq\nread_ahead_kb=4096\n' > "$t/bfq.conf"
cp "$site" "$t/conf/etc/iosched.d/50-site.conf"
printf '[Match]\nClass=hdd\n\n[Set]\nread_ahead_kb=lots\n' > "$t/conf/etc/iosched.d/60-broken.conf"

# one_run TREE WRITES ARGS...: both binaries, the same tree path each time
one_run() {
        tree=$1 writes=$2
        shift 2
        for which in old new; do
                bin=$old
                [ $which = new ] && bin=$new
                rm -rf "$t/root" "$t/tf"
                mkdir -p "$t/tf"
                if [ "$writes" = 1 ]; then
                        cp -a "$tree" "$t/root"
                else
                        ln -s "$tree" "$t/root"
                fi
                "$bin" "$@" > "$t/$which.out" 2> "$t/$which.err"
                echo "exit $?" > "$t/$which.rc"
                cat "$t"/tf/* > "$t/$which.tf" 2>/dev/null
                sed -i -e 's/^iosched_last_run_timestamp_seconds [0-9]*$/iosched_last_run_timestamp_seconds T/' \
                        "$t/$which.out" "$t/$which.tf"
                sed -i "s|$bin|BIN|g" "$t/$which.err"
                [ "$writes" = 1 ] && find "$t/root/sys" -type f -newer "$t/stamp" -exec cat {} + > "$t/$which.w" 2>/dev/null
                [ "$writes" = 1 ] || : > "$t/$which.w"
        done
        runs=$((runs + 1))
        for k in out err rc tf w; do
                if ! cmp -s "$t/old.$k" "$t/new.$k"; then
                        diffs=$((diffs + 1))
                        echo "DIFF ($k): $(basename "$tree"): iosched-apply $*"
                        diff "$t/old.$k" "$t/new.$k" | head -20 | sed 's/^/    /'
                        break
                fi
        done
}
touch "$t/stamp"
R=$t/root
# read-only command lines, on every tree
set_ro() {
        cat <<EOF
--dry-run
--dry-run -v
--dry-run -q
--check
--check -v
--check -q
-J --dry-run
-J --check
--format json --check
--format prometheus
--format prometheus --dry-run
--format prometheus --check
--textfile $t/tf/x.prom
list
list -J
list -a -o NAME,CLASS,SCHED
explain
explain -J
status
status -J
status -a
status -r -n -o NAME,SCHED,WANTED,STATE,DRIFT
status -o +CONFLICT
status -o NAME,BOGUS
status -J -o NAME,BOGUS
facts
facts -J
cat-config
--import-grub
--dry-run nosuch
-J --check nosuch
explain nosuch
explain -J nosuch
status nosuch
facts -J nosuch
EOF
}
set_conf() {
        cat <<EOF
--config /dev/null
--config $site
--config $t/bfq.conf
--config $bad/bad-size.conf
--config $bad/near-miss-key.conf
--config-root $t/conf
--no-builtin --config-root $t/conf
--drop-in 70-x.conf=$t/bfq.conf --config-root $t/conf
EOF
}
set_conf_cmds() {
        cat <<EOF
--dry-run
--check
-J --check
-J --dry-run
--format prometheus
--textfile $t/tf/x.prom
explain
explain -J
status
status -J
facts -J
cat-config
EOF
}
usage_errors() {
        cat <<EOF
--dry-run --check
-J --format prometheus
-J -r list
status --check
facts --format prometheus
-J --format prometheus status
--format xml
--bogus
-J --bogus
--udev sda --check
--udev sda -J
--textfile $t/tf/x.prom --dry-run
--textfile $t/tf/x.prom list
--drop-in bad
--drop-in x.conf=/dev/null --config /dev/null
-J cat-config
--format prometheus explain
validate
validate a b
-J validate a b
--sysroot $t/nonexistent --check
-J --sysroot $t/nonexistent --check
--format prometheus --sysroot $t/nonexistent
EOF
}

trees=$(ls -d "$t"/fx/*/)
if [ -n "${COMPARE_TREES:-}" ]; then
        trees=$(for n in $COMPARE_TREES; do echo "$t/fx/$n/"; done)
fi
for tree in $trees; do
        tree=${tree%/}
        set_ro | while IFS= read -r line; do
                # shellcheck disable=SC2086
                one_run "$tree" 0 $line --sysroot "$R"
                echo "$runs $diffs" > "$t/count"
        done
        [ -e "$t/count" ] && read -r runs diffs < "$t/count"
        # apply writes: a fresh copy each time, what it wrote compared too
        for line in "" "-v" "-J" "--format prometheus --dry-run" "--config $t/bfq.conf" "-J --config $t/bfq.conf"; do
                # shellcheck disable=SC2086
                one_run "$tree" 1 $line --sysroot "$R"
        done
done
# the policy variants, on a few trees
for n in ${COMPARE_TREES:-ahci-sata-hdd md-raid1 nvme megaraid-ld usb-stick derived-ahci-dvd derived-floppy loop many}; do
        [ -d "$t/fx/$n" ] || continue
        set_conf | while IFS= read -r c; do
                set_conf_cmds | while IFS= read -r line; do
                        # shellcheck disable=SC2086
                        one_run "$t/fx/$n" 0 $line $c --sysroot "$R"
                        echo "$runs $diffs" > "$t/count"
                done
                read -r runs diffs < "$t/count"
                echo "$runs $diffs" > "$t/count2"
        done
        read -r runs diffs < "$t/count2"
        for c in "" "--config $bad/bad-size.conf" "--config-root $t/conf"; do
                # shellcheck disable=SC2086
                one_run "$t/fx/$n" 1 $c --sysroot "$R"
                # shellcheck disable=SC2086
                one_run "$t/fx/$n" 1 -J $c --sysroot "$R"
        done
done
usage_errors | while IFS= read -r line; do
        # shellcheck disable=SC2086
        one_run "$t/fx/nvme" 0 $line
        # shellcheck disable=SC2086
        one_run "$t/fx/nvme" 0 $line --sysroot "$R"
        echo "$runs $diffs" > "$t/count"
done
read -r runs diffs < "$t/count"
for line in "--help" "-V" "list --help"; do
        # shellcheck disable=SC2086
        one_run "$t/fx/nvme" 0 $line
done
echo "$runs runs, $diffs differences"
[ "$diffs" = 0 ]
