#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: man/iosched-bench.8 passes mandoc -Tlint -W warning, and
# documents every option --help lists and every exit code.
. "$(dirname "$0")/bench-lib.sh"
man="$top/man/iosched-bench.8"
[ -x "$BENCH_BIN" ] || b_fail "$BENCH_BIN not built"
command -v mandoc >/dev/null || b_skip "no mandoc"
mandoc -Tlint -W warning "$man" >"$B_TMP/lint" 2>&1 || b_fail "mandoc: $(cat "$B_TMP/lint")"
mandoc -Tascii "$man" | col -b >"$B_TMP/man.txt" 2>/dev/null || b_fail "mandoc -Tascii"
$BENCH --help | grep -o -- '--[a-z][a-z_-]*' | sort -u >"$B_TMP/opts"
while read -r opt; do
        grep -q -- "$opt" "$B_TMP/man.txt" || b_fail "$opt is in --help but not in the man page"
done <"$B_TMP/opts"
for section in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
        grep -q "^$section" "$B_TMP/man.txt" || b_fail "no $section section"
done
echo ok
