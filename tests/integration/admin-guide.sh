#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: every command of docs/admin-guide.md is run or checked.  The
# ```sh blocks run in file order as one `sh -eu` script (build/ first in
# PATH, /var/tmp/iosched-try replaced by this test's temporary directory):
# they read the machine's disks, and write only to the loop devices they
# attach and to captured trees (tests/fixtures).  ```sh host and ```sh fleet
# blocks (the real /etc, GRUB, systemd; Ansible, Puppet) are checked with
# sh -n, every long option given to iosched-apply or iosched-bench must be
# one of its --help, every contrib/ path must exist.  ```sh textfile blocks
# run once iosched-apply --help lists --textfile, else are checked the same
# way.  Then what the guide promises is checked in the output.  Machine-wide
# (IOS_TEST_EXCLUSIVE below): `list` and `status` of every disk must not race
# tests that remove loop devices.  Exit 0 pass, 77 skip, 1 fail.
set -u
. "$(dirname "$0")/lib.sh"
IOS_TEST_EXCLUSIVE=1

t_require_root
guide=$top/docs/admin-guide.md
[ -f "$guide" ] || t_fail "no docs/admin-guide.md"
BIN=$top/$BUILDDIR
[ -x "$BIN/iosched-apply" ] || t_skip "no $BUILDDIR/iosched-apply"
[ -x "$BIN/iosched-bench" ] || t_skip "no $BUILDDIR/iosched-bench (the guide's last step needs it)"
command -v python3 >/dev/null || t_skip "no python3"
try=$T_TMP/try

# detach whatever the guide attached, on every exit path
guide_cleanup() {
        for img in "$try"/disk*.img; do
                [ -e "$img" ] || continue
                for d in $(losetup -j "$img" -O NAME -n 2>/dev/null); do
                        losetup -d "$d" 2>/dev/null
                done
        done
        t_cleanup
}
trap guide_cleanup EXIT INT TERM

# split the guide into blocks: $T_TMP/blocks/NNN.KIND
mkdir -p "$T_TMP/blocks"
awk -v dir="$T_TMP/blocks" '
        /^```sh( [a-z]+)?$/ && !inb { inb = 1; n++; kind = ($2 == "" ? "run" : $2)
                                      f = sprintf("%s/%03d.%s", dir, n, kind); printf "" > f; next }
        /^```/ && inb { inb = 0; close(f); next }
        inb { print > f }
        /^```sh/ && !inb { print "bad code block: " $0 > "/dev/stderr"; bad = 1 }
        END { exit bad }' "$guide" || t_fail "a \`\`\`sh block of an unknown kind"
ls "$T_TMP/blocks" | grep -q . || t_fail "no sh blocks in the guide"
for b in "$T_TMP"/blocks/*; do
        case ${b##*.} in run | host | fleet | textfile) ;; *) t_fail "unknown block kind ${b##*.}" ;; esac
done

"$BIN/iosched-apply" --help > "$T_TMP/help-apply" 2>&1
"$BIN/iosched-bench" --help > "$T_TMP/help-bench" 2>&1
textfile=0
grep -q -- '--textfile' "$T_TMP/help-apply" && textfile=1

# check_static BLOCK: syntax, options, contrib paths (a textfile block's
# --textfile is the one option iosched-apply may not have yet)
check_static() {
        sh -n "$1" || t_fail "$(basename "$1"): sh -n fails"
        # the long options of each iosched-apply / iosched-bench command, up to a bare --
        awk '{ p = ""; for (i = 1; i <= NF; i++) {
                   if ($i == "iosched-apply" || $i == "iosched-bench") { p = $i; continue }
                   if ($i == "--" || $i ~ /^[|;&]/) { p = ""; continue }
                   if (p != "" && $i ~ /^--[a-z]/) { o = $i; sub(/=.*/, "", o); print p, o } } }' "$1" |
        while read -r prog opt; do
                h=$T_TMP/help-apply
                [ "$prog" = iosched-bench ] && h=$T_TMP/help-bench
                case $1 in *.textfile) [ "$opt" = --textfile ] && continue ;; esac
                grep -q -- "$opt\\b" "$h" || t_fail "$(basename "$1"): $prog has no option $opt (--help)"
        done || exit 1
        for p in $(grep -o 'contrib/[A-Za-z0-9_./-]*' "$1"); do
                [ -e "$top/${p%/}" ] || t_fail "$(basename "$1"): $p does not exist"
        done
}

script=$T_TMP/guide.sh
nrun=0 nstatic=0
: > "$script"
for b in "$T_TMP"/blocks/*; do
        kind=${b##*.}
        if [ "$kind" = run ] || { [ "$kind" = textfile ] && [ $textfile = 1 ]; }; then
                sed "s|/var/tmp/iosched-try|$try|g" "$b" >> "$script"
                nrun=$((nrun + 1))
        else
                check_static "$b"
                nstatic=$((nstatic + 1))
        fi
done
[ $nrun -ge 10 ] || t_fail "only $nrun blocks to run"
echo "$nrun blocks run, $nstatic checked without running (textfile: $textfile)"
grep -q '/var/tmp/iosched-try' "$script" && t_fail "a scratch path was not replaced"

out=$T_TMP/guide.out
(cd "$top" && PATH="$BIN:$PATH" sh -eu "$script") > "$out" 2>&1
rc=$?
[ $rc = 0 ] || { tail -n 40 "$out"; t_fail "the guide's commands stopped with exit $rc"; }

# what the guide says they show
expect() { grep -qE -- "$1" "$out" || { cat "$out"; t_fail "the output lacks: $1"; }; }
expect '^sdb +raid +1 +megaraid_sas +1000:0079 +1:2:0:0$'
expect 'rotational=1 ignored: RAID logical drive'
expect "sdb: would set scheduler: mq-deadline -> none \\($try/site/etc/iosched.d/60-site.conf:6\\)"
expect "sdj: would set queue/iosched/read_expire: [0-9]+ -> 250 \\($try/site/etc/iosched.d/60-site.conf:14\\)"
expect "mmcblk0: would set queue/iosched/fifo_batch: [0-9]+ -> 1 "
expect 'matches no disk'
expect '^drift: exit 1$'
expect '^Scheduler=deadline mq-deadline$'
expect '"schema": 1'
expect '^iosched_device_compliant\{device="loop[0-9]+",class="loop"\} 1$'
expect 'restored loop[0-9]+'
# section 8: a loop device's verdict said, not kept (no identity); --adopt's answer; the fleet report
expect 'warning: the verdict is not recorded .*: the disk has no model, WWN or serial'
expect '(not adopting: |adopted: )'
expect '^loop[0-9]+ +mq-deadline +-$'
expect '^QEMU QEMU HARDDISK: 1 host, 1 disk'
expect '^  db1 +1 raid '
set -- $(sed -n 's/^trying on \(loop[0-9]*\) and \(loop[0-9]*\)$/\1 \2/p' "$out")
[ $# = 2 ] || t_fail "the guide did not say which loop devices it made"
for l in "$1" "$2"; do
        expect "^$l +loop +mq-deadline +mq-deadline +ok +0"
done
# the clean-up step detached them and removed the scratch directory
[ ! -e "$try" ] || t_fail "$try is left behind"
echo "PASS: the guide ran on $1 and $2"
exit 0
