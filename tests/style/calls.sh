#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: who calls whom between the files of src/, read from the built
# objects' symbol tables (nm): no call loop between files anywhere (no file
# calls, through any chain, back into one that calls it), the library calls
# none of the programs, src/shared calls nothing but itself, iosched-bench's
# runners (src/bench/fio/, src/bench/native/) are called only by runner.c
# (and the native engines' name table by the job model), and src/lib's
# files call only their own layer or the layers above it, as docs/architecture.md ("The layers") draws them.
#
# Usage: tests/style/calls.sh [-a ALLOWLIST] [-e] [-q]
#   Prints one line per problem and exits 1 if there is one.
#   -a ALLOWLIST   default tests/style/calls.allow; "-a ''" for none.  One
#                  loop a line ("#" comments): the files of one strongly
#                  connected set, as this script prints them ("apply/a.c
#                  apply/b.c", sorted), still allowed while someone untangles
#                  them.  An entry that is no longer exactly a loop fails
#                  too, so the list only shrinks: delete the line.
#   -e             print the edges ("caller.c callee.c", paths under src/)
#                  and exit 0.
#   -q             print nothing, only the exit status.
# Environment: BUILDDIR (default build), the objects under $BUILDDIR/src;
# IOS_CALLS_OBJS, a directory holding the object directories instead (lib/,
# apply/, ...: the golden test's own shapes); IOS_CALLS_LAYERS, a file to read
# the layers from instead of docs/architecture.md.
# Exit 0 pass, 1 fail, 2 usage error, 77 nothing built or no nm.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
allow="$top/tests/style/calls.allow"
edges_only=0 quiet=0
while getopts a:eq o; do
        case $o in
        a) allow=$OPTARG ;;
        e) edges_only=1 ;;
        q) quiet=1 ;;
        *) echo "usage: $0 [-a ALLOWLIST] [-e] [-q]" >&2; exit 2 ;;
        esac
done
shift $((OPTIND - 1))
[ -z "$allow" ] || [ -r "$allow" ] || { echo "$0: cannot read allowlist $allow" >&2; exit 2; }
objs=${IOS_CALLS_OBJS:-$top/${BUILDDIR:-build}/src}
layers=${IOS_CALLS_LAYERS:-$top/docs/architecture.md}
command -v nm >/dev/null || { echo "no nm"; exit 77; }
ls "$objs"/lib/*.o >/dev/null 2>&1 || { echo "no $objs/lib/*.o (nothing built)"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { [ $quiet = 1 ] || echo "FAIL: $*"; fail=1; }

dirs=$(cd "$objs" && for d in */; do d=${d%/}; ls "$d"/*.o >/dev/null 2>&1 && echo "$d"; done)
# every object's global definitions and undefined symbols, one nm a directory each:
# "D dir file.c symbol" and "U dir file.c symbol"
# (a directory's subdirectories are its own: bench/fio/fio.c is "bench fio/fio.c")
for d in $dirs; do
        o=$(find "$objs/$d" -name '*.o' | LC_ALL=C sort)
        # shellcheck disable=SC2086
        nm -A --defined-only $o | awk -v d="$d" -v p="$objs/$d/" '$(NF-1) ~ /^[TDRBVW]$/ { f = $1; sub(/:.*/, "", f); f = substr(f, length(p) + 1); sub(/\.o$/, ".c", f); print "D", d, f, $NF }'
        # shellcheck disable=SC2086
        nm -A -u $o | awk -v d="$d" -v p="$objs/$d/" '{ f = $1; sub(/:.*/, "", f); f = substr(f, length(p) + 1); sub(/\.o$/, ".c", f); print "U", d, f, $NF }'
done > "$t/syms"
# a program links its own files and the library; the library only itself
# and src/shared; src/shared only itself
awk 'NR == FNR { if ($1 == "D") { def[$2, $4] = $2 "/" $3; if ($2 != "shared") any[$4] = $2 "/" $3
                                  if ($2 != "lib" && $2 != "shared") prog[$4] = $2 "/" $3 }; next }
     $1 == "U" {
        f = $2 "/" $3
        c = (($2, $4) in def) ? def[$2, $4] : ((("lib", $4) in def) ? def["lib", $4] : \
            ((("shared", $4) in def) ? def["shared", $4] : ""))
        if (c != "" && c != f) print "E", f, c
        if ($2 == "lib" && ($4 in prog)) print "P", f, $4, prog[$4]
        if ($2 == "shared" && ($4 in any)) print "S", f, $4, any[$4]
     }' "$t/syms" "$t/syms" > "$t/calls"
awk '$1 == "E" { print $2, $3 }' "$t/calls" > "$t/edges"
awk '$1 == "P" { print $2 " uses " $3 " of " $4 }' "$t/calls" > "$t/up"
while read -r l; do t_fail "the library calls a program: $l"; done < "$t/up"
awk '$1 == "S" { print $2 " uses " $3 " of " $4 }' "$t/calls" | while read -r l; do
        t_fail "src/shared calls the library or a program: $l"
done
LC_ALL=C sort -u "$t/edges" -o "$t/edges"
if [ $edges_only = 1 ]; then cat "$t/edges"; exit 0; fi
[ -s "$t/edges" ] || t_fail "no call between files found (nm output changed?)"

# loops: each strongly connected set of two files or more, sorted, one a line
awk '
{ n[$1]; n[$2]; e[$1, ++deg[$1]] = $2 }
END {
        for (a in n) {          # what a reaches (an iterative depth-first walk)
                split("", seen); sp = 0; st[++sp] = a
                while (sp > 0) {
                        u = st[sp--]
                        for (i = 1; i <= deg[u]; i++) {
                                v = e[u, i]
                                if (!(v in seen)) { seen[v]; r[a, v]; st[++sp] = v }
                        }
                }
        }
        for (a in n) {
                if (a in done) continue
                line = a; done[a]
                for (b in n)
                        if (b != a && ((a, b) in r) && ((b, a) in r)) { line = line " " b; done[b] }
                if (line != a) print line
        }
}' "$t/edges" | while read -r l; do echo "$l" | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'; echo; done \
        | LC_ALL=C sort > "$t/loops"
if [ -n "$allow" ]; then
        sed 's/#.*//; s/[[:space:]]\{1,\}/ /g; s/^ //; s/ $//' "$allow" | grep . |
                while read -r l; do echo "$l" | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'; echo; done |
                LC_ALL=C sort > "$t/allowed"
else
        : > "$t/allowed"
fi
LC_ALL=C comm -23 "$t/loops" "$t/allowed" | while read -r l; do echo "a call loop between $l"; done > "$t/bad"
LC_ALL=C comm -13 "$t/loops" "$t/allowed" | while read -r l; do
        echo "allowed loop $l is no longer one: delete its line from ${allow#"$top"/}"
done >> "$t/bad"
while read -r l; do
        t_fail "$l"
        [ $quiet = 1 ] || case $l in a\ call\ loop*)
                # the edges among that loop's files
                set -- ${l#a call loop between }
                printf '%s\n' "$@" | LC_ALL=C sort > "$t/in"
                LC_ALL=C join "$t/in" "$t/edges" | awk '{ print $2, $1 }' | LC_ALL=C sort | LC_ALL=C join - "$t/in" |
                        awk '{ print "  " $2 " -> " $1 }'
                ;;
        esac
done < "$t/bad"

# iosched-bench's two runners (bench/fio/, bench/native/) are reached through
# the runner interface alone: no file of bench/ but runner.c calls into
# either, nor one runner into the other, but for the table of the native
# engines' names (native/engine.c: what a job's ioengine= names)
awk '$1 ~ /^bench\// && $1 != "bench/runner.c" && $2 != "bench/native/engine.c" {
        for (r = 1; r <= 2; r++) {
                d = r == 1 ? "bench/fio/" : "bench/native/"
                if (index($2, d) == 1 && index($1, d) != 1) print $1 " calls " $2 ", past the runner interface (runner.c)"
        }
     }' "$t/edges" > "$t/runner"
while read -r l; do t_fail "$l"; done < "$t/runner"

# the library's layers: the block under "## The layers", a layer's name in
# column 1, its files in the next column (up to column 35)
awk '/^## The layers/ { on = 1; next } on && /^```/ { if (blk) exit; blk = 1; next }
     blk {
        if ($0 ~ /^[a-z]/) { split($0, w, " "); layer = w[1]; k++ }
        s = substr($0, 1, 35)
        while (match(s, /[a-z0-9-]+\.c/)) { print "lib/" substr(s, RSTART, RLENGTH), k, layer; s = substr(s, RSTART + RLENGTH) }
     }' "$layers" | LC_ALL=C sort > "$t/layer"
[ -s "$t/layer" ] || t_fail "no layers read from ${layers#"$top"/}"
for o in "$objs"/lib/*.o; do
        f=lib/$(basename "$o" .o).c
        grep -q "^$f " "$t/layer" || t_fail "$f is in no layer of ${layers#"$top"/}"
done
grep '^lib/' "$t/edges" | LC_ALL=C join - "$t/layer" | awk '{ print $2, $1, $3, $4 }' | LC_ALL=C sort |
        LC_ALL=C join - "$t/layer" | awk '$5 > $3 { print $2 " (" $4 ") calls " $1 " (" $6 "), a layer below it" }' > "$t/down"
while read -r l; do t_fail "$l"; done < "$t/down"
[ $quiet = 1 ] || [ $fail = 1 ] || echo "ok: $(wc -l < "$t/edges") calls between files, one way down; $(grep -c . "$t/allowed") loops allowed"
exit $fail
