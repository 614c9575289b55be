#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: man/iosched-bench.8 passes mandoc -Tlint -W warning,
# documents every option --help lists and every exit code, and shows each
# --workload preset as src/bench/workloads.c, the one definition, has it.
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
command -v python3 >/dev/null || b_skip "no python3"
python3 - "$top/src/bench/workloads.c" "$man" <<'EOP' || b_fail "the presets in the man page are not workloads.c's"
import re, sys
src, man = open(sys.argv[1]).read(), open(sys.argv[2]).read()
body = src[src.index("presets[] = {"):]
body = body[:body.index("};")]
n = 0
for m in re.finditer(r'\{\s*"([a-z-]+)",((?:\s*"(?:[^"\\]|\\.)*")+)\s*\}', body):
    text = "".join(bytes(s, "utf-8").decode("unicode_escape") for s in re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
    i = man.find(".It Cm %s\n" % m.group(1))
    a = man.find(".Bd -literal\n", i) + len(".Bd -literal\n")
    if i < 0 or man[a:man.index(".Ed\n", a)] != text:
        sys.exit("%s: not shown as workloads.c has it" % m.group(1))
    n += 1
sys.exit(0 if n >= 5 else "only %d presets read from workloads.c" % n)
EOP
for section in NAME SYNOPSIS DESCRIPTION OPTIONS OUTPUT "EXIT STATUS" EXAMPLES "SEE ALSO"; do
        grep -q "^$section" "$B_TMP/man.txt" || b_fail "no $section section"
done
echo ok
