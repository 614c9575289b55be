#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Who calls whom in src/apply, read from the built objects' symbol tables
# (nm), as tests/golden/daemon-calls.sh does for the daemon: the file-level
# graph has no circle (tsort finds loops); main.c alone maps an outcome to an
# exit status (apply_exit_code is called from no other file); and the
# renderers of the run model (run, status, explain, facts, prom) plan no
# disk themselves: ios_plan_build is called from model.c only.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
objs="$top/${BUILDDIR:-build}/src/apply"
command -v nm >/dev/null && command -v tsort >/dev/null || { echo "no nm or tsort"; exit 77; }
[ -e "$objs/main.o" ] || { echo "no $objs/main.o (iosched-apply not built)"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

for o in "$objs"/*.o; do
        f=$(basename "$o" .o).c
        nm --defined-only "$o" | awk -v f="$f" '$2 ~ /^[TDRB]$/ { print $3, f }'
done | sort > "$t/defs"
: > "$t/edges"
for o in "$objs"/*.o; do
        f=$(basename "$o" .o).c
        nm -u "$o" | awk '{ print $NF }' | sort -u > "$t/undef"
        join "$t/undef" "$t/defs" | awk -v f="$f" '$2 != f { print f, $2 }' >> "$t/edges"
        case $f in run.c|status.c|explain.c|facts.c|prom.c)
                grep -qx ios_plan_build "$t/undef" && t_fail "$f plans disks itself (ios_plan_build): only model.c does"
        esac
done
sort -u "$t/edges" -o "$t/edges"
[ -s "$t/edges" ] || t_fail "no call between iosched-apply's files found (nm output changed?)"
grep -q '^main.c cli.c$' "$t/edges" || t_fail "main.c -> cli.c not seen"
awk '$2 == "main.c"' "$t/edges" | grep . && t_fail "a file calls into main.c (only main.c maps outcomes to exit codes)"
if ! tsort "$t/edges" > /dev/null 2> "$t/tsort"; then
        t_fail "a circle among iosched-apply's files:"
        sed 's/^/  /' "$t/tsort"
fi
echo "edges:"; sed 's/^/  /' "$t/edges"
[ $fail = 0 ] && echo "ok: iosched-apply's files call one way down"
exit $fail
