#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: include/iosched.h is the programs' API: every name it
# declares carries the prefix (ios_, IOS_), every function it declares
# is called by a program (src/apply, src/daemon or src/bench; what only the
# library calls is in src/lib/iosched-internal.h), and every global symbol
# of the library's objects carries the prefix too (nm); no program includes
# a private header of the library (src/lib/*.h).
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
h="$top/include/iosched.h"
objs="$top/${BUILDDIR:-build}/src"
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# the names it declares: macros, struct/enum tags, enumerators, functions
# (comments dropped, then the identifier before each "(" at the start of a
# declaration, and the words after #define, struct, enum)
names=$(sed 's|/\*.*\*/||g; /\/\*/,/\*\//d' "$h" | awk '
        /^#define / { print $2; next }
        { s = $0
          while (match(s, /(struct|enum) [A-Za-z_][A-Za-z0-9_]*/)) { w = substr(s, RSTART, RLENGTH); sub(/^(struct|enum) /, "", w); print w; s = substr(s, RSTART + RLENGTH) } }
        /^[ \t]+[A-Z_][A-Z0-9_]*( = [^,]*)?,/ { x = $1; sub(/,$/, "", x); print x }
        /^[a-z].*[ *]([a-z_][a-z0-9_]*)\(/ && !/^[ \t]/ { s = $0; sub(/\(.*/, "", s); sub(/.*[ *]/, "", s); print s }' |
        sed 's/(.*//' | sort -u)
bad=$(echo "$names" | grep -vE '^(_?IOS_|ios_|IOSCHED_H$)' | tr '\n' ' ')
[ -z "${bad% }" ] || t_fail "names in include/iosched.h without the prefix: $bad"

for hdr in "$top"/src/lib/*.h; do
        b=${hdr##*/}
        hits=$(cd "$top" && grep -ln "^#include \"$b\"" src/apply/*.[ch] src/daemon/*.[ch] src/bench/*.[ch] src/bench/*/*.[ch] src/shared/*.[ch] 2>/dev/null)
        [ -z "$hits" ] || t_fail "$(echo $hits) include the library's private $b"
done

if command -v nm >/dev/null && ls "$objs"/lib/*.o >/dev/null 2>&1; then
        # (ASan's one-definition-rule markers, __odr_asan.NAME, name the variable they mark)
        glob=$(nm --defined-only "$objs"/lib/*.o |
               awk '$2 ~ /^[TDRBVW]$/ && $3 !~ /^(__odr_asan\.)?ios_/ { print $3 }' | sort -u | tr '\n' ' ')
        [ -z "$glob" ] || t_fail "library symbols without the prefix: $glob"
        used=$(for d in apply daemon bench; do nm -u "$objs/$d"/*.o 2>/dev/null; done | awk 'NF { print $NF }' | sort -u)
        for f in $(echo "$names" | grep '^ios_'); do
                grep -q "^$f(" "$h" 2>/dev/null || grep -qE "[ *]$f\(" "$h" || continue    # not a function
                grep -qE "static inline [^(]*[ *]$f\(" "$h" && continue
                echo "$used" | grep -qx "$f" || t_fail "$f is in include/iosched.h, but no program calls it (src/lib/iosched-internal.h)"
        done
else
        echo "no nm or no objects: the symbols are not checked"
fi
[ $fail = 0 ] && echo "ok: include/iosched.h, the programs' API, every name prefixed"
exit $fail
