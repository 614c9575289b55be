#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: no call loop between the files of src/, the library calls no
# program, and src/lib's files call only their own layer or the ones above it
# as docs/architecture.md draws them (tests/style/calls.sh, over the built
# objects; the loops still being untangled are in tests/style/calls.allow,
# which may only shrink); and the script itself, on objects of known shape,
# finds a loop of two and of three files, a call from the library into a
# program, a call down the layers, a file in no layer, and an allowlist entry
# that is no longer a loop.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
sh="$top/tests/style/calls.sh"
command -v nm >/dev/null || { echo "no nm"; exit 77; }
ls "$top/${BUILDDIR:-build}"/src/lib/*.o >/dev/null 2>&1 || { echo "library not built"; exit 77; }
cc=${CC:-cc}
command -v "$cc" >/dev/null || { echo "no $cc"; exit 77; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# 1. the tree
out=$("$sh" 2>&1) || t_fail "tests/style/calls.sh on src/:
$out"
echo "$out" | tail -n 1

# 2. the script, on objects of known shape: lib/ and prog/ under $t/o
# obj DIR NAME DEFINES CALLS...: DIR/NAME.o defining DEFINES(), calling each CALL()
obj() {
        d=$1 n=$2 def=$3
        shift 3
        mkdir -p "$t/o/$d"
        {
                for c in "$@"; do echo "void $c(void);"; done
                echo "void $def(void) {"
                for c in "$@"; do echo "  $c();"; done
                echo "}"
        } > "$t/src.c"
        "$cc" -c -o "$t/o/$d/$n.o" "$t/src.c" || { echo "cannot compile a test object"; exit 1; }
}
layers() {
        printf '## The layers\n\n```\n'
        printf 'top       a.c b.c c.c              the first layer\n'
        printf 'low       d.c                      below it\n'
        printf '```\n'
}
layers > "$t/layers.md"
run() { IOS_CALLS_OBJS="$t/o" IOS_CALLS_LAYERS="$t/layers.md" "$sh" "$@" 2>&1; }

# a clean shape: d.c -> a.c -> b.c -> c.c, a program's main.c -> d.c
obj lib a fa fb
obj lib b fb fc
obj lib c fc
obj lib d fd fa
obj prog main main fd
out=$(run -a '') || t_fail "a shape without a loop fails:
$out"
[ "$(run -a '' -e | grep -c .)" = 4 ] || t_fail "not the 4 edges of the shape: $(run -a '' -e)"

# a loop of two: b.c -> a.c
obj lib b fb fc fa
out=$(run -a '')
case $out in *"a call loop between lib/a.c lib/b.c"*"lib/b.c -> lib/a.c"*) ;;
*) t_fail "a loop of two not found: $out" ;; esac
# allowed while it is one ...
echo "lib/b.c lib/a.c   # being untangled" > "$t/allow"
out=$(run -a "$t/allow") || t_fail "an allowed loop fails: $out"
# ... a loop of three: c.c -> a.c as well, a.c b.c c.c strongly connected
obj lib c fc fa
out=$(run -a "$t/allow")
case $out in *"a call loop between lib/a.c lib/b.c lib/c.c"*"allowed loop lib/a.c lib/b.c is no longer one"*) ;;
*) t_fail "a loop of three, and the allowlist entry gone stale, not said: $out" ;; esac
obj lib b fb fc
obj lib c fc
out=$(run -a "$t/allow")
case $out in *"allowed loop lib/a.c lib/b.c is no longer one"*) ;;
*) t_fail "an allowlist entry with no loop passes: $out" ;; esac

# the library calling a program
obj lib c fc main
out=$(run -a '')
case $out in *"the library calls a program: lib/c.c uses main of prog/main.c"*) ;;
*) t_fail "a library call into a program not found: $out" ;; esac
obj lib c fc

# src/shared: the library and the programs call it; it calls only itself
obj shared s fs
obj lib c fc fs
obj prog main main fd fs
out=$(run -a '') || t_fail "calls into src/shared fail: $out"
obj shared s fs fc
out=$(run -a '')
case $out in *"src/shared calls the library or a program: shared/s.c uses fc of lib/c.c"*) ;;
*) t_fail "a call from src/shared into the library not found: $out" ;; esac
obj shared s fs main
out=$(run -a '')
case $out in *"src/shared calls the library or a program: shared/s.c uses main of prog/main.c"*) ;;
*) t_fail "a call from src/shared into a program not found: $out" ;; esac
rm -r "$t/o/shared"
obj lib c fc
obj prog main main fd

# a call down the layers: a.c (top) -> d.c (low); and a file in no layer
obj lib a fa fb fd
obj lib e fe
out=$(run -a '')
case $out in *"lib/a.c (top) calls lib/d.c (low), a layer below it"*) ;;
*) t_fail "a call down the layers not found: $out" ;; esac
case $out in *"lib/e.c is in no layer"*) ;;
*) t_fail "a file in no layer not found: $out" ;; esac

rm "$t/o/lib/e.o"
obj lib a fa fb

# iosched-bench's fio backend: reached through runner.c alone; a subdirectory's
# files are its directory's (no loop through bench/fio/ goes unseen)
obj bench runner frun ffio
obj bench/fio fio ffio fcommon
obj bench common fcommon
out=$(run -a '') || t_fail "bench/runner.c -> bench/fio/fio.c -> bench/common.c fails: $out"
[ "$(run -a '' -e | grep -c '^bench/fio/fio.c bench/common.c$')" = 1 ] ||
        t_fail "a subdirectory's call not an edge: $(run -a '' -e)"
obj bench report freport ffio
out=$(run -a '')
case $out in *"bench/report.c calls bench/fio/fio.c, past the runner interface (runner.c)"*) ;;
*) t_fail "a call into bench/fio/ past runner.c not found: $out" ;; esac
obj bench common fcommon ffio
out=$(run -a '')
case $out in *"a call loop between bench/common.c bench/fio/fio.c"*) ;;
*) t_fail "a loop through bench/fio/ not found: $out" ;; esac
obj bench common fcommon
obj bench report freport
# the native runner: the same, but its engines' name table (native/engine.c) is for all
obj bench/native run frunn fengine
obj bench/native engine fengine
obj bench runner frun ffio frunn
obj bench jobopts fjobopts fengine
out=$(run -a '') || t_fail "runner.c -> native/run.c and jobopts.c -> native/engine.c fail: $out"
obj bench/fio fio ffio fcommon frunn
out=$(run -a '')
case $out in *"bench/fio/fio.c calls bench/native/run.c, past the runner interface (runner.c)"*) ;;
*) t_fail "one runner calling into the other not found: $out" ;; esac

[ $fail = 0 ] && echo "ok: no call loop in src/, the layers as drawn, and the check finds each break"
exit $fail
