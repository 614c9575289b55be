#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The daemon's own rules of who calls whom, over the calls between its files
# that tests/style/calls.sh reads from the built objects (nm; that script,
# run by tests/golden/calls.sh, finds every call loop of src/): the event
# loop (daemon.c, and timers.c below it) alone makes, arms and polls the
# timerfds and the epoll set, and the tables
# below the loop call no file of the daemon but log.c (docs/daemon.md "Who
# calls whom").
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
objs="$top/${BUILDDIR:-build}/src/daemon"
command -v nm >/dev/null || { echo "no nm"; exit 77; }
[ -e "$objs/daemon.o" ] || { echo "no $objs/daemon.o (ioschedd not built)"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

"$top/tests/style/calls.sh" -e > "$t/all" || { echo "tests/style/calls.sh -e failed"; exit 1; }
awk '$1 ~ /^daemon\// && $2 ~ /^daemon\// { sub(/^daemon\//, "", $1); sub(/^daemon\//, "", $2); print $1, $2 }' \
        "$t/all" > "$t/edges"
[ -s "$t/edges" ] || t_fail "no call between the daemon's files found (nm output changed?)"
grep -q '^daemon.c apply.c$' "$t/edges" || t_fail "daemon.c -> apply.c not seen"
grep -q '^timers.c ' "$t/edges" && ! grep -q '^timers.c daemon.c$' "$t/edges" || t_fail "timers.c must call down only"
# the timers and the epoll set are the event loop's alone (daemon.c, timers.c)
for o in "$objs"/*.o; do
        f=$(basename "$o" .o).c
        case $f in daemon.c|timers.c) continue ;; esac
        nm -u "$o" | awk '{ print $NF }' > "$t/undef"
        for s in timerfd_create timerfd_settime epoll_ctl epoll_create1; do
                grep -qx "$s" "$t/undef" && t_fail "$f calls $s (only the event loop arms timers)"
        done
done
# the tables below the loop call no file of the daemon but log.c
for leaf in retry.c yield.c seen.c devset.c; do
        awk -v f="$leaf" '$1 == f && $2 != "log.c"' "$t/edges" | grep . && t_fail "$leaf calls into the daemon"
done
echo "edges:"; sed 's/^/  /' "$t/edges"
[ $fail = 0 ] && echo "ok: only the event loop arms timers, the tables call down to log.c only"
exit $fail
