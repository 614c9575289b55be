#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: every C function under src/ is at most MAX lines long
# (docs/style.md: no function over ~120 lines).
#
# Usage: tests/style/fn-length.sh [-n MAX] [-a ALLOWLIST] [-q] [FILE|DIR...]
#   Prints "file:line: NAME: LINES lines (max MAX)" for every function longer
#   than MAX (default 120) that the allowlist does not name, and exits 1 if
#   there is one.  Default FILEs: every *.c under src/.
#   -a ALLOWLIST   default tests/style/fn-length.allow; "-a ''" for none.
#                  One "path function" per line ("#" comments): functions that
#                  are still allowed to be long while someone splits them.  An
#                  entry whose function is no longer over MAX, or no longer
#                  exists, is an error too (exit 1), so that the list only ever
#                  shrinks: delete the line.  Only entries of the files looked
#                  at are judged.
#   -q             print nothing, only the exit status.
#   -l             list every function with its length (longest first), exit 0.
#
# A function, in this project's style (docs/style.md): its body opens with
# "{" at column 0 and closes with "}" at column 0; its signature is the lines
# before the "{" back to the previous blank line, ";", "}", comment end or
# preprocessor line (so "static int\nname(...)" and signatures over several
# lines count).  Its length is from the first line of the signature to the
# closing "}", both included.
# Exit 0 pass, 1 fail, 2 usage error.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
max=120
allow="$top/tests/style/fn-length.allow"
quiet=0 list=0
while getopts n:a:ql o; do
        case $o in
        n) max=$OPTARG ;;
        a) allow=$OPTARG ;;
        q) quiet=1 ;;
        l) list=1 ;;
        *) echo "usage: $0 [-n MAX] [-a ALLOWLIST] [-q] [-l] [FILE|DIR...]" >&2; exit 2 ;;
        esac
done
shift $((OPTIND - 1))
case $max in ''|*[!0-9]*) echo "$0: -n takes a number of lines" >&2; exit 2 ;; esac
[ -z "$allow" ] || [ -r "$allow" ] || { echo "$0: cannot read allowlist $allow" >&2; exit 2; }

cd "$top" || exit 2
[ $# -gt 0 ] || set -- src
files=$(find "$@" -name '*.c' -type f | LC_ALL=C sort)
[ -n "$files" ] || { echo "$0: no C files in $*" >&2; exit 2; }

# one line per function: "LINES<TAB>file:line<TAB>file<TAB>name"
# shellcheck disable=SC2086
fns=$(awk '
function reset() { sig = ""; sigline = 0 }
FNR == 1 { reset(); infn = 0 }
infn {
        if ($0 ~ /^}/) {
                printf "%d\t%s:%d\t%s\t%s\n", FNR - start + 1, FILENAME, start, FILENAME, name
                infn = 0
                reset()
        }
        next
}
/^\{/ {
        # the function name: the identifier before the first "(" that is not an attribute
        s = sig
        gsub(/__attribute__[ \t]*\(\(([^()]|\([^()]*\))*\)\)/, "", s)
        if (s !~ /=/ && match(s, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
                name = substr(s, RSTART, RLENGTH)
                sub(/[ \t]*\($/, "", name)
                infn = 1
                start = sigline
        }
        reset()
        next
}
/^[ \t]*$/ || /^#/ || /;[ \t]*$/ || /^}/ || /\*\/[ \t]*$/ || /^[ \t]*(\/\*|\*|\/\/)/ { reset(); next }
{
        if (sig == "")
                sigline = FNR
        sig = sig " " $0
}
' $files | sort -t "$(printf '\t')" -k1,1nr -k2,2)

if [ $list = 1 ]; then
        printf '%s\n' "$fns" | awk -F '\t' '{ printf "%5d  %s  %s\n", $1, $2, $4 }'
        exit 0
fi

fail=0
say() { [ $quiet = 1 ] || printf '%s\n' "$*"; }
allowed() {     # allowed FILE NAME: the allowlist names it
        [ -n "$allow" ] || return 1
        grep -v '^[[:space:]]*#' "$allow" | awk -v f="$1" -v n="$2" '$1 == f && $2 == n { found = 1 } END { exit !found }'
}
tab=$(printf '\t')
while IFS="$tab" read -r len where file name; do
        [ -n "$len" ] || continue
        [ "$len" -gt "$max" ] || continue
        if allowed "$file" "$name"; then
                say "$where: $name: $len lines (max $max) - allowed by ${allow#"$top"/}"
                continue
        fi
        say "$where: $name: $len lines (max $max)"
        fail=1
done <<EOT
$fns
EOT

# an allowlist entry that is no longer needed: the list must only shrink
if [ -n "$allow" ]; then
        while read -r file name rest; do
                case $file in ''|'#'*) continue ;; esac
                # only the files looked at (FILE|DIR arguments) are judged
                printf '%s\n' "$files" | grep -qxF "$file" || continue
                len=$(printf '%s\n' "$fns" | awk -F '\t' -v f="$file" -v n="$name" '$3 == f && $4 == n { print $1; exit }')
                if [ -z "$len" ]; then
                        say "${allow#"$top"/}: $file $name: no such function any more: delete the line"
                        fail=1
                elif [ "$len" -le "$max" ]; then
                        say "${allow#"$top"/}: $file $name: now $len lines (max $max): delete the line"
                        fail=1
                fi
        done < "$allow"
fi
exit $fail
