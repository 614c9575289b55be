#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: every manual page in man/ passes `mandoc -Tlint -W warning`
# without a single message, starts with SYNOPSIS and has EXAMPLES; every
# long option that `iosched-apply --help` prints is documented in the OPTIONS
# of iosched-apply(8); every exit code src/apply/cli.h defines has its entry
# in that page's EXIT STATUS.
# Exit 0 pass, 77 skip (no mandoc), 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
bin="$top/$BUILDDIR/iosched-apply"
page="$top/man/iosched-apply.8"
hdr="$top/src/apply/cli.h"

command -v mandoc >/dev/null 2>&1 || { echo "SKIP: mandoc is not installed"; exit 77; }

fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# 1. lint every page that exists (others may still be being written)
n=0
for m in "$top"/man/*.[578]; do
        [ -e "$m" ] || continue
        n=$((n + 1))
        out=$(mandoc -Tlint -W warning "$m" 2>&1)
        rc=$?
        if [ -n "$out" ] || [ $rc != 0 ]; then
                t_fail "mandoc -Tlint -W warning ${m#"$top"/} (exit $rc):"
                printf '%s\n' "$out" | sed 's/^/    /'
        fi
done
[ $n -gt 0 ] || t_fail "no manual pages in $top/man"

# 1b. every page starts with its SYNOPSIS (the first section after NAME) and
# has EXAMPLES an admin can copy
for m in "$top"/man/*.[578]; do
        [ -e "$m" ] || continue
        secs=$(sed -n 's/^\.S[Hh] *"\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' "$m")
        [ "$(printf '%s\n' "$secs" | sed -n 2p)" = SYNOPSIS ] ||
                t_fail "${m#"$top"/}: the first section after NAME is not SYNOPSIS"
        printf '%s\n' "$secs" | grep -qx EXAMPLES || t_fail "${m#"$top"/}: no EXAMPLES section"
done

[ -f "$page" ] || { t_fail "missing ${page#"$top"/}"; exit 1; }
[ -x "$bin" ] || { t_fail "missing $bin (build it first)"; exit 1; }

# The page as text: wide enough that no line breaks inside an option, with
# the backspace overstrikes of bold and underline removed.
text=$(mandoc -Tascii -O width=400 "$page" | sed 's/.\x08//g') || {
        t_fail "mandoc cannot render ${page#"$top"/}"; exit 1; }

# section NAME of the rendered page: from its heading to the next heading
section() {
        printf '%s\n' "$text" | awk -v s="$1" '
                /^[A-Z]/ { on = ($0 == s) ; next }
                on'
}

# 2. every long option of --help has an item of its own in OPTIONS: a tag
# line such as "--dry-run", "-J, --json" or "--format fmt", at the tag indent
opts_text=$(section OPTIONS)
[ -n "$opts_text" ] || t_fail "iosched-apply(8) has no OPTIONS section"
help=$("$bin" --help) || t_fail "iosched-apply --help exited $?"
longopts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
[ -n "$longopts" ] || t_fail "no long options found in --help"
for o in $longopts; do
        printf '%s\n' "$opts_text" |
                grep -Eq -- "^ {1,8}(-[A-Za-z0-9], )?$o([ =]|\$)" ||
                t_fail "option $o (from --help) has no item in OPTIONS of iosched-apply(8)"
done

# 3. every APPLY_EXIT_* code of cli.h has an entry in EXIT STATUS
exit_text=$(section "EXIT STATUS")
[ -n "$exit_text" ] || t_fail "iosched-apply(8) has no EXIT STATUS section"
codes=$(sed -n 's/^#define[[:space:]]\{1,\}APPLY_EXIT_[A-Z_]\{1,\}[[:space:]]\{1,\}\([0-9]\{1,\}\).*/\1/p' "$hdr" | sort -un)
[ -n "$codes" ] || t_fail "no APPLY_EXIT_* codes found in ${hdr#"$top"/}"
for c in $codes; do
        name=$(sed -n "s/^#define[[:space:]]\{1,\}\(APPLY_EXIT_[A-Z_]\{1,\}\)[[:space:]]\{1,\}$c\([^0-9].*\)\{0,1\}\$/\1/p" "$hdr" | head -n 1)
        printf '%s\n' "$exit_text" | grep -Eq "^[[:space:]]+$c([[:space:]]|\$)" ||
                t_fail "exit code $c ($name) has no entry in EXIT STATUS of iosched-apply(8)"
done

[ $fail = 0 ] || exit 1
nopts=$(printf '%s\n' "$longopts" | wc -l)
codes_line=$(printf '%s\n' "$codes" | tr '\n' ' ')
echo "ok: $n pages lint clean; $nopts options and exit codes ${codes_line}documented"
exit 0
