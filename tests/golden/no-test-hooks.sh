#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the programs carry no test hook: no variable in their
# environment relaxes the root-ownership check on policy files or changes
# how paths are resolved; what the tests need for that, the test shim gives
# (tests/shim.sh, tests/fault/fault.c): IOS_FAULT_ANY_OWNER=1 makes a file
# root's to the stat calls, IOS_FAULT_NO_OPENAT2=1 makes openat2 answer
# ENOSYS.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="$top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}/virtio-blk
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
[ -d "$fx/sys/block" ] || { echo "no virtio-blk fixture"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "needs root (chown)"; exit 77; }

# 1. the source: no getenv of a test variable
hooks=$(grep -rn 'getenv("IOSCHED_TEST_\|getenv("IOS_TEST_' "$top/src" "$top/include")
[ -z "$hooks" ] || t_fail "test hooks in production code:
$hooks"

# 2. a policy file owned by uid 1000 is refused whatever the environment says
mkdir -p "$t/cr/etc/iosched.d"
printf '[Match]\nClass=virtual\n[Set]\nScheduler=none\n' > "$t/cr/etc/iosched.d/50-user.conf"
chown 1000:1000 "$t/cr/etc/iosched.d/50-user.conf"
chmod 0644 "$t/cr/etc/iosched.d/50-user.conf"
env IOSCHED_TEST_ANY_OWNER=1 ${IOS_VALGRIND:-} "$bin" --check --config-root "$t/cr" --sysroot "$fx" >"$t/out" 2>"$t/err"
rc=$?
[ $rc = 2 ] && grep -q "50-user.conf: refusing a policy file not owned by root (uid 1000)" "$t/err" ||
        t_fail "IOSCHED_TEST_ANY_OWNER=1 let a file of uid 1000 through: exit $rc: $(cat "$t/err")"

# 3. the shim makes it root's: the policy is read and checked
t_shimmed IOS_FAULT_ANY_OWNER=1 -- ${IOS_VALGRIND:-} "$bin" --check --config-root "$t/cr" --sysroot "$fx" >"$t/out" 2>"$t/err"
rc=$?
[ $rc -le 1 ] && ! grep -q "refusing" "$t/err" ||
        t_fail "with the shim's IOS_FAULT_ANY_OWNER=1: exit $rc: $(cat "$t/err")"

# 4. without openat2 (the component walk) the programs see the same tree
${IOS_VALGRIND:-} "$bin" list -J --sysroot "$fx" >"$t/openat2" 2>&1 || t_fail "list -J: exit $?"
t_shimmed IOS_FAULT_NO_OPENAT2=1 -- ${IOS_VALGRIND:-} "$bin" list -J --sysroot "$fx" >"$t/walk" 2>&1 ||
        t_fail "list -J with openat2 answering ENOSYS: exit $?: $(cat "$t/walk")"
cmp -s "$t/openat2" "$t/walk" || t_fail "list -J differs without openat2: $(diff "$t/openat2" "$t/walk")"
exit $fail
