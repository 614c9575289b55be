#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: no C function under src/ is over 120 lines
# (tests/style/fn-length.sh; the functions still being split are named in
# tests/style/fn-length.allow, which may only shrink), and the script itself
# finds long functions in the project's style: static, the return type on a
# line of its own, a signature over several lines, an attribute; an
# allowlist entry that is no longer needed fails.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
sh="$top/tests/style/fn-length.sh"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# 1. the tree
out=$("$sh" 2>&1) || t_fail "functions over 120 lines in src/:
$out"

# 2. the script, on a file of known shape
body() { i=0; while [ $i -lt "$1" ]; do echo "        x++;"; i=$((i + 1)); done; }
{
        echo "/* a comment */"
        echo "static int short_one(void)"               # line 2
        echo "{"
        body 3
        echo "}"
        echo
        echo "static int"                               # line 9: 2 + 1 + 9 + 1 = 13 lines
        echo "two_lines(int a,"
        echo "          int b)"
        echo "{"
        body 8
        echo "}"
        echo
        echo "static int f(int a) __attribute__((unused));"
        echo "__attribute__((unused)) static int after_attr(const char *s)"   # line 24: 1 + 1 + 11 + 1 = 14
        echo "{"
        echo "        static const int t[] = {"
        echo "                1, 2,"
        echo "        };"
        body 8
        echo "}"
        echo "static const int table[] ="
        echo "{"
        body 20
        echo "};"
} > "$t/f.c"
: > "$t/none.allow"
out=$("$sh" -n 12 -a "$t/none.allow" "$t/f.c")
rc=$?
exp="$t/f.c:24: after_attr: 14 lines (max 12)
$t/f.c:9: two_lines: 13 lines (max 12)"
[ $rc = 1 ] && [ "$out" = "$exp" ] || t_fail "-n 12 on f.c: exit $rc, printed:
$out
expected:
$exp"
"$sh" -q -n 14 -a "$t/none.allow" "$t/f.c" || t_fail "-n 14: after_attr (14 lines) is not over it"
[ "$("$sh" -l -a '' "$t/f.c" | wc -l)" = 3 ] || t_fail "-l: not the 3 functions of f.c (the table is none)"

# 3. the allowlist: an entry lets its function through; one no longer needed fails
printf '# comment\n%s after_attr\n%s two_lines\n' "$t/f.c" "$t/f.c" > "$t/a.allow"
"$sh" -q -n 12 -a "$t/a.allow" "$t/f.c" || t_fail "-n 12 with both allowed: not exit 0"
out=$("$sh" -n 13 -a "$t/a.allow" "$t/f.c")
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "two_lines: now 13 lines (max 13): delete the line" ||
        t_fail "an allowlisted function under the limit: not said, or exit 0:
$out"
printf '%s gone\n' "$t/f.c" > "$t/g.allow"
out=$("$sh" -n 100 -a "$t/g.allow" "$t/f.c")
[ $? = 1 ] && printf '%s\n' "$out" | grep -q "gone: no such function any more" ||
        t_fail "an allowlisted function that is gone: not said, or exit 0:
$out"
# 4. entries of files not looked at are not judged
printf '%s gone\n' "$t/other.c" >> "$t/a.allow"
"$sh" -q -n 12 -a "$t/a.allow" "$t/f.c" || t_fail "an entry of a file not looked at was judged"
exit $fail
