#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the C lines changed since a base commit follow docs/style.md:
# `git clang-format --diff BASE` (the tree's .clang-format) wants no other
# spacing or indentation of them, and none is over 110 columns.  Where
# clang-format would break or join lines differently the author's breaks
# stand, and so does the alignment of trailing comments and line-continuation
# backslashes (clang-format 14 cannot keep the tab-stop alignment the code
# uses).  Lines nobody
# changed are not judged: the tree is not reformatted wholesale.
#
# BASE: $IOS_STYLE_BASE, else the merge base with main (origin/main) when
# HEAD is not on it, else HEAD~1 (the last commit, e.g. on main in CI);
# uncommitted changes count as changed.  Exit 77 when this is not a git
# checkout, clang-format or git-clang-format is missing, or there is no base.
# The self-test part feeds the filter and the width check a known diff.
# Exit 0 pass, 77 skip, 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
width=110
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# keep_real: read a unified diff (clang-format's wish), print its hunks that
# change the spacing between tokens (the hunk's text with blanks and line
# breaks collapsed differs), or that keep every line as it is but for its
# indent and change more than alignment (spaces inside a line, before a
# trailing comment, a macro's value, a backslash, and the indent of
# continuation lines are the author's).  Where clang-format would only break or join lines otherwise,
# the author's line breaks stand: ColumnLimit is 0
keep_real() {
        awk '
        # a line as judged: alignment spaces inside it collapsed; the indent
        # of a continuation line (the line before it does not end a
        # statement, block, label, comment or directive) is not judged
        function norm(s, prev,    ind) {
                sub(/^[-+]/, "", s)
                match(s, /^[ \t]*/)
                ind = substr(s, 1, RLENGTH)
                s = substr(s, RLENGTH + 1)
                gsub(/[ \t][ \t]+/, " ", s)
                sub(/[ \t]+$/, "", s)
                if (prev != "" && prev !~ /([;{}:]|\*\/)[ \t]*$/ && prev !~ /^[-+]?[ \t]*#/)
                        ind = "~"
                return ind s
        }
        # the text of the hunk with every run of blanks (and line break) as one
        # blank: what differs then is spacing between tokens
        function joined(t) {
                gsub(/[ \t\n]+/, " ", t)
                sub(/^ /, "", t)
                sub(/ $/, "", t)
                return t
        }
        function flush(    i, same) {
                same = (nd == na)
                for (i = 1; same && i <= nd; i++)
                        if (joined(cd[i]) != joined(ca[i]))
                                same = 0
                if (hunk != "" && (joined(rawd) != joined(rawa) || (same && del != add))) {
                        printf "%s%s", file, hunk
                        file = ""
                }
                hunk = ""; del = ""; add = ""; rawd = ""; rawa = ""; nd = 0; na = 0
        }
        /^diff / { flush(); file = $0 "\n"; next }
        /^(---|\+\+\+) / { file = file $0 "\n"; next }
        /^@@/ { flush(); hunk = $0 "\n"; pd = ""; pa = ""; next }
        hunk != "" {
                hunk = hunk $0 "\n"
                t = substr($0, 2)
                sub(/[ \t]*\\$/, "", t)
                if ($0 ~ /^-/) { del = del norm($0, pd) "\n"; rawd = rawd " " t; cd[++nd] = t; pd = $0 }
                if ($0 ~ /^\+/) { add = add norm($0, pa) "\n"; rawa = rawa " " t; ca[++na] = t; pa = $0 }
                if ($0 ~ /^ /) { pd = $0; pa = $0 }
        }
        END { flush() }'
}

# too_wide: read a unified diff (git diff -U0), print "file:line: N columns"
# for every added line of a C file over $width columns
too_wide() {
        awk -v w="$width" '
        /^\+\+\+ / { f = substr($0, 5); sub(/^b\//, "", f); c = (f ~ /\.[ch]$/); next }
        /^@@/ { split($3, a, ","); ln = substr(a[1], 2) + 0; next }
        /^\+/ { if (c && length($0) - 1 > w) printf "%s:%d: %d columns\n", f, ln, length($0) - 1; ln++; next }
        /^ / { ln++ }'
}

# 1. the filters, on known input
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
cat > "$t/align.diff" <<'EOF'
diff --git a/x.h b/x.h
--- a/x.h
+++ b/x.h
@@ -1,2 +1,2 @@
-        int a;          /* tab-stop aligned */
-        char *bb;       /* likewise */
+        int a;    /* tab-stop aligned */
+        char *bb; /* likewise */
diff --git a/y.c b/y.c
--- a/y.c
+++ b/y.c
@@ -3 +3 @@
-        if(x) y();
+        if (x) y();
@@ -9,2 +9,1 @@
-        f(a,
-          b);
+        f(a, b);
diff --git a/w.c b/w.c
--- a/w.c
+++ b/w.c
@@ -5 +5,2 @@
-        if(x) return x+1;
+        if (x)
+                return x + 1;
EOF
out=$(keep_real < "$t/align.diff")
printf '%s\n' "$out" | grep -q '^+++ b/y.c' && printf '%s\n' "$out" | grep -q '^+        if (x) y();' ||
        t_fail "a spacing difference was filtered out: $out"
printf '%s\n' "$out" | grep -q 'f(a, b)' && t_fail "a line break of the author's was reported: $out"
printf '%s\n' "$out" | grep -q '^+++ b/w.c' || t_fail "missing spaces in a statement clang-format also splits were not reported: $out"
printf '%s\n' "$out" | grep -q 'x.h\|aligned' && t_fail "a trailing comment's alignment was reported: $out"
long=$(printf '%*s' 111 x)
printf 'diff --git a/z.c b/z.c\n--- a/z.c\n+++ b/z.c\n@@ -9,0 +10,2 @@\n+%s\n+%s\n' "$long" "short" > "$t/wide.diff"
[ "$(too_wide < "$t/wide.diff")" = "z.c:10: 111 columns" ] || t_fail "width check: $(too_wide < "$t/wide.diff")"
printf 'diff --git a/z.md b/z.md\n--- a/z.md\n+++ b/z.md\n@@ -9,0 +10 @@\n+%s\n' "$long" | too_wide | grep -q . &&
        t_fail "width check judged a file that is not C"
[ $fail = 0 ] || exit 1

# 2. the tree's changed lines
command -v git >/dev/null 2>&1 || { echo "SKIP: no git"; exit 77; }
cd "$top" || exit 1
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "SKIP: not a git checkout"; exit 77; }
command -v clang-format >/dev/null 2>&1 || { echo "SKIP: clang-format is not installed"; exit 77; }
git clang-format -h >/dev/null 2>&1 || { echo "SKIP: git clang-format is not installed"; exit 77; }
[ -f .clang-format ] || { t_fail "no .clang-format at the top of the tree"; exit 1; }

base=${IOS_STYLE_BASE:-}
if [ -z "$base" ]; then
        for m in origin/main main; do
                git rev-parse -q --verify "$m^{commit}" >/dev/null 2>&1 || continue
                mb=$(git merge-base HEAD "$m" 2>/dev/null) || continue
                [ "$mb" != "$(git rev-parse HEAD)" ] && base=$mb
                break
        done
        [ -n "$base" ] || base=$(git rev-parse -q --verify 'HEAD~1^{commit}' 2>/dev/null) || base=""
fi
[ -n "$base" ] || { echo "SKIP: no base commit to compare with"; exit 77; }
git rev-parse -q --verify "$base^{commit}" >/dev/null 2>&1 || { t_fail "IOS_STYLE_BASE=$base is not a commit"; exit 1; }

files=$(git diff --name-only --diff-filter=AMR "$base" -- '*.c' '*.h')
if [ -z "$files" ]; then
        echo "ok: no C file changed since $(git rev-parse --short "$base")"
        exit 0
fi
# shellcheck disable=SC2086
git clang-format --quiet --diff --extensions c,h "$base" -- $files > "$t/cf.diff" 2>&1
case $(head -n 1 "$t/cf.diff") in
no\ modified\ files*|clang-format\ did\ not\ modify*|"") : > "$t/cf.diff" ;;
diff\ *) ;;
*) t_fail "git clang-format --diff $base: $(head -n 3 "$t/cf.diff")"; exit 1 ;;
esac
bad=$(keep_real < "$t/cf.diff")
[ -z "$bad" ] || t_fail "changed lines differ from .clang-format (apply with: git clang-format $base):
$bad"
# (every C path, so that a file moved is compared with itself: only its changed lines count)
wide=$(git diff -U0 -M --no-color "$base" -- '*.c' '*.h' | too_wide)
[ -z "$wide" ] || t_fail "changed lines over $width columns (docs/style.md):
$wide"
[ $fail = 0 ] || exit 1
echo "ok: $(printf '%s\n' "$files" | wc -l) C files changed since $(git rev-parse --short "$base"): layout and width as docs/style.md says"
exit 0
