#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the work tree holds what the project keeps and nothing else.
#
# Usage: tests/style/tree.sh top
#          the files committed at the top of the repository are the
#          project's own (the list below): a run's output (b.out, f.err) or
#          a note committed there by mistake fails, named.
#        tests/style/tree.sh untracked [SNAPSHOT]
#          no untracked file (one .gitignore does not cover) in the work
#          tree; with SNAPSHOT (a file, the output of `tree.sh list` taken
#          before), only those that were not there before: what a test run
#          left behind.
#        tests/style/tree.sh list
#          print the untracked files, one a line (the snapshot).
# Environment: IOS_TOP, the repository (default: two directories up).
# Exit 0 pass, 1 fail (one line per file), 2 usage error, 77 not a git
# work tree (a release tarball) or no git.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}

# The files that belong at the top; everything else lives in a directory.
TOP_FILES=".clang-format .gitignore CONTRIBUTING.md LICENSE Makefile NEWS README.md VERSION iosched.spec"

command -v git >/dev/null 2>&1 || { echo "no git"; exit 77; }
git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 || { echo "$top: not a git work tree"; exit 77; }

untracked() {
        git -C "$top" ls-files --others --exclude-standard --full-name -- . | LC_ALL=C sort
}

case ${1:-} in
top)
        rc=0
        for f in $(git -C "$top" ls-files | sed -n '/\//!p'); do
                case " $TOP_FILES " in
                *" $f "*) ;;
                *) echo "$f: committed at the top of the repository (not one of the project's files:" \
                        "a run's output or a note? git rm it, or move it into a directory)"; rc=1 ;;
                esac
        done
        exit $rc ;;
list)
        untracked ;;
untracked)
        snap=${2:-/dev/null}
        [ -r "$snap" ] || { echo "tree.sh: cannot read $snap" >&2; exit 2; }
        left=$(untracked | LC_ALL=C comm -23 - "$snap")
        [ -z "$left" ] && exit 0
        printf '%s\n' "$left" | sed 's/$/: untracked file left in the work tree (a test or run wrote it;/;
                s/$/ write under $BUILDDIR or a mktemp directory, or add it to .gitignore)/'
        exit 1 ;;
*)
        echo "usage: tests/style/tree.sh top | untracked [SNAPSHOT] | list" >&2
        exit 2 ;;
esac
