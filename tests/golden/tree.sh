#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: nothing stray is committed at the top of the repository
# (tests/style/tree.sh top), and the script itself finds a stray top-level
# file and the untracked files a run leaves (tests/run.sh fails a run that
# leaves one; .ci/run fails a clean clone that has one after check).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
sh="$top/tests/style/tree.sh"
command -v git >/dev/null 2>&1 || { echo "no git"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# 1. the tree (a release tarball is not a git work tree: only the script is tested)
if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        out=$("$sh" top 2>&1) || t_fail "stray files at the top of the repository:
$out"
fi

# 2. the script, on a repository of known shape
r="$t/repo"
mkdir -p "$r/src" && git init -q "$r" || exit 1
g() { git -C "$r" -c user.name=t -c user.email=t@example.org "$@"; }
printf 'x\n' > "$r/Makefile"; printf 'x\n' > "$r/src/a.c"; printf '/build/\n' > "$r/.gitignore"
g add -A && g commit -q -m init || exit 1
IOS_TOP=$r "$sh" top >/dev/null || t_fail "top: a repository of the project's files only fails"
printf 'a run\n' > "$r/b.out"
g add b.out && g commit -q -m stray || exit 1
out=$(IOS_TOP=$r "$sh" top)
[ $? = 1 ] && printf '%s\n' "$out" | grep -q '^b\.out: committed at the top' ||
        t_fail "top: a committed b.out not named, or exit 0:
$out"

IOS_TOP=$r "$sh" untracked >/dev/null || t_fail "untracked: a clean tree fails"
mkdir -p "$r/build" && : > "$r/build/ignored.log"
IOS_TOP=$r "$sh" untracked >/dev/null || t_fail "untracked: an ignored file counted"
: > "$r/src/before.tmp"
out=$(IOS_TOP=$r "$sh" untracked)
[ $? = 1 ] && [ "${out%%:*}" = src/before.tmp ] || t_fail "untracked: src/before.tmp not named, or exit 0:
$out"
IOS_TOP=$r "$sh" list > "$t/snap"
IOS_TOP=$r "$sh" untracked "$t/snap" >/dev/null || t_fail "untracked SNAPSHOT: a file in the snapshot counted"
: > "$r/left by a test"
out=$(IOS_TOP=$r "$sh" untracked "$t/snap")
[ $? = 1 ] && [ "$out" = "left by a test: untracked file left in the work tree (a test or run wrote it; write under \$BUILDDIR or a mktemp directory, or add it to .gitignore)" ] ||
        t_fail "untracked SNAPSHOT: the new file not named alone, or exit 0:
$out"
IOS_TOP=$r "$sh" bogus 2>/dev/null; [ $? = 2 ] || t_fail "a bad verb: not exit 2"
IOS_TOP="$t" "$sh" top >/dev/null 2>&1; [ $? = 77 ] || t_fail "outside a git work tree: not exit 77"
exit $fail
