#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: an errno is worded in one place, ios_strerror() beside
# ios_errno_class() in src/lib/errclass.c: no other file of src/lib,
# src/apply, src/bench or src/daemon calls strerror(), and the library decides that a
# disk is gone through ios_errno_class() (no "e == -ENODEV || e == -ENOENT").
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
cd "$top" || exit 1

hits=$(grep -n '\bstrerror(' src/lib/*.c src/apply/*.c src/bench/*.c src/bench/*/*.c src/daemon/*.c | grep -v '^src/lib/errclass\.c:')
[ -z "$hits" ] || t_fail "strerror() outside errclass.c (use ios_strerror()):
$hits"
grep -q '^const char \*ios_strerror(int e)' src/lib/errclass.c || t_fail "ios_strerror() is not in src/lib/errclass.c"
gone=$(grep -nE '== -E(NODEV|NOENT|NXIO) *\|\| *[a-z_>.-]+ *== -E(NODEV|NOENT|NXIO)' src/lib/*.c |
        grep -v '^src/lib/errclass\.c:')
[ -z "$gone" ] || t_fail "a \"gone\" decided by hand (use ios_errno_class() == IOS_ERRNO_GONE):
$gone"
[ $fail = 0 ] && echo "ok: one wording of an errno, one decision of \"gone\""
exit $fail
