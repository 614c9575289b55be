#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Who calls whom in src/daemon, read from the built objects' symbol tables
# (nm): the file-level graph has no circle (no file calls back into one that
# calls it; tsort finds loops), and daemon.c alone makes, arms and polls the
# timerfds and the epoll set (docs/daemon.md "Who calls whom").
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
objs="$top/${BUILDDIR:-build}/src/daemon"
command -v nm >/dev/null && command -v tsort >/dev/null || { echo "no nm or tsort"; exit 77; }
[ -e "$objs/daemon.o" ] || { echo "no $objs/daemon.o (ioschedd not built)"; exit 77; }
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
        # the timers and the epoll set are daemon.c's alone
        if [ "$f" != daemon.c ]; then
                for s in timerfd_create timerfd_settime epoll_ctl epoll_create1; do
                        grep -qx "$s" "$t/undef" && t_fail "$f calls $s (only daemon.c arms timers)"
                done
        fi
done
sort -u "$t/edges" -o "$t/edges"
[ -s "$t/edges" ] || t_fail "no call between the daemon's files found (nm output changed?)"
grep -q '^daemon.c apply.c$' "$t/edges" || t_fail "daemon.c -> apply.c not seen"
if ! tsort "$t/edges" > /dev/null 2> "$t/tsort"; then
        t_fail "a circle among the daemon's files:"
        sed 's/^/  /' "$t/tsort"
fi
# the tables below the loop call no file of the daemon but log.c
for leaf in retry.c yield.c seen.c devset.c; do
        awk -v f="$leaf" '$1 == f && $2 != "log.c"' "$t/edges" | grep . && t_fail "$leaf calls into the daemon"
done
echo "edges:"; sed 's/^/  /' "$t/edges"
[ $fail = 0 ] && echo "ok: the daemon's files call one way down"
exit $fail
