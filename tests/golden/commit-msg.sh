#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the repository's commit-msg hook (.githooks/commit-msg,
# CONTRIBUTING.md) takes a message of the project's shape and refuses each
# way out of it with a line that says what is wrong; git runs it through
# core.hooksPath and a refused message makes no commit.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
hook="$top/.githooks/commit-msg"
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

# ok NAME MESSAGE: the hook takes it
ok() {
        printf '%s' "$2" > "$t/msg"
        "$hook" "$t/msg" 2>"$t/err" || t_fail "$1: refused: $(cat "$t/err")"
}
# refused NAME WORDS MESSAGE: the hook refuses it with a line holding WORDS
refused() {
        printf '%s' "$3" > "$t/msg"
        "$hook" "$t/msg" 2>"$t/err"
        rc=$?
        [ $rc = 1 ] && grep -q "$2" "$t/err" || t_fail "$1: exit $rc, said: $(cat "$t/err")"
}

s72=$(printf 'lib: %067d' 0)             # 72 characters
ok "subject and body" "lib: io_timeout is kept in jiffies

The kernel stores it in jiffies; the value read back is rounded.
"
ok "a subject of 72 characters" "$s72

Why.
"
ok "comments and the scissors part are not the message" "# a comment first

lib: one change
# Please enter the commit message

#
Why.
# ------------------------ >8 ------------------------
$(printf 'x%.0s' $(seq 100))
"
ok "a merge needs no body" "Merge branch 'life'
"
ok "a fixup needs no body" "fixup! lib: one change
"
refused "73 characters" "is 73 characters, at most 72" "${s72}x

Why.
"
refused "an empty subject" "subject line is empty" "
"
refused "no blank line before the body" "second line is not blank" "lib: one change
Why it is made.
"
refused "no body" "no body" "lib: one change
"
refused "a full stop" "ends with a full stop" "lib: one change.

Why.
"
"$hook" 2>/dev/null; [ $? = 2 ] || t_fail "no file: not exit 2"

# git runs it: a refused message makes no commit, a good one does
command -v git >/dev/null 2>&1 || exit $fail
r="$t/repo"
git init -q "$r" || exit 1
g() { git -C "$r" -c user.name=t -c user.email=t@example.org -c core.hooksPath="$top/.githooks" "$@"; }
: > "$r/a" && g add a
g commit -q -m "lib: one change; and another one; and a third one, all joined in one subject" 2>/dev/null &&
        t_fail "git commit with a long subject and no body: committed"
g rev-parse -q --verify HEAD >/dev/null && t_fail "a commit exists after the refused message"
g commit -q -m "lib: one change" -m "Why it is made." || t_fail "git commit with a good message: refused"
exit $fail
