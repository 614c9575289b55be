#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --check --textfile FILE on a captured tree: the textfile is written on
# every exit status (a broken policy: exit 2 with iosched_policy_ok 0; drift:
# exit 1; a usage error: health and time) and nothing goes to stdout; it
# replaces FILE by a rename (a new inode; a reader of the old one keeps a
# whole file), from a temporary file of a random name created O_EXCL in
# FILE's directory (strace, where present: two runs, two names, neither the
# old recipe's fixed "FILE.tmp"), mode 0644 whatever the umask, nothing left
# behind; a directory that is not root's or that others may write (also
# sticky), or reached through a symbolic link (the path is opened from /
# one component at a time, no link followed), is refused, exit 2, nothing
# written; --help still prints, and so
# does -J's error object, neither replacing FILE.  The
# parts that need a root-owned directory skip as non-root.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
bin="${IOS_VALGRIND:-} $top/${BUILDDIR:-build}/iosched-apply"
fx=${IOS_FIXTURES:-$top/build/fixtures}
d=$fx/megaraid-ld
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }
. "$top/tests/shim.sh"
t_shim IOS_FAULT_ANY_OWNER=1
chmod 0755 "$t"
printf '[Match]\nClass=raid\n[Set]\nScheduler=none\nBogus=1\n' >"$t/bad.conf"
chmod 0644 "$t/bad.conf"

# refused directories: another user's, group- or world-writable, sticky; nothing written
mkdir "$t/other" "$t/g" "$t/sticky"
chmod 0775 "$t/g"
chmod 1777 "$t/sticky"
if [ "$(id -u)" = 0 ]; then
        chown 65534 "$t/other"
else
        chmod 0755 "$t/other"           # a user's own directory is not root's either
fi
for dir in other g sticky; do
        # the directory's real owner (the shim makes every file root's otherwise)
        IOS_FAULT_ANY_OWNER=0 $bin --check --textfile "$t/$dir/iosched.prom" --config /dev/null --sysroot "$d" >"$t/out" 2>"$t/err"
        rc=$?
        [ $rc = 2 ] || t_fail "$dir: exit $rc, want 2"
        grep -q "^iosched-apply: --textfile $t/$dir/iosched.prom: refused: $t/$dir is " "$t/err" ||
                t_fail "$dir: message: $(cat "$t/err")"
        [ -z "$(ls -A "$t/$dir")" ] || t_fail "$dir: written: $(ls -A "$t/$dir")"
        [ -s "$t/out" ] && t_fail "$dir: printed: $(cat "$t/out")"
done
# a missing directory, a name that is none
$bin --check --textfile "$t/none/iosched.prom" --config /dev/null --sysroot "$d" >/dev/null 2>&1
[ $? = 2 ] || t_fail "a missing directory: want exit 2"
$bin --check --textfile "$t/" --config /dev/null --sysroot "$d" >/dev/null 2>&1
[ $? = 2 ] || t_fail "a directory as FILE: want exit 2"
# a symbolic link on the way (the prometheus user swaps node-exporter for a link to a root's
# directory): refused, not followed, nothing written where it points
mkdir "$t/rootdir" "$t/owned"
ln -s "$t/rootdir" "$t/owned/node-exporter"
for tf in "$t/owned/node-exporter/iosched.prom" "$t/owned/node-exporter/./iosched.prom"; do
        $bin --check --textfile "$tf" --config /dev/null --sysroot "$d" >"$t/out" 2>"$t/err"
        rc=$?
        [ $rc = 2 ] || t_fail "a link in the path: exit $rc, want 2"
        grep -q "^iosched-apply: --textfile $tf: refused: node-exporter (in .*) is a symbolic link" "$t/err" ||
                t_fail "a link in the path: message: $(cat "$t/err")"
        [ -z "$(ls -A "$t/rootdir")" ] || t_fail "a link in the path was followed: $(ls -A "$t/rootdir")"
done
$bin --check --textfile "$t/owned/../rootdir/iosched.prom" --config /dev/null --sysroot "$d" >/dev/null 2>"$t/err"
[ $? = 2 ] || t_fail "a path with ..: want exit 2"
echo "ok: refused directories"

if [ "$(id -u)" != 0 ]; then
        echo "SKIP: the rest needs a root-owned directory (run as root)"
        [ $fail = 0 ] || exit 1
        exit 77
fi
mkdir "$t/tf"
f=$t/tf/iosched.prom
ls_tf() { ls -A "$t/tf" | tr '\n' ' '; }

# 1. a broken policy: exit 2, the textfile says so (the file holds sdb: nothing wanted of it)
(umask 0077; $bin --check --textfile "$f" --config "$t/bad.conf" --sysroot "$d" >"$t/out" 2>"$t/err")
rc=$?
[ $rc = 2 ] || t_fail "broken policy: exit $rc, want 2"
[ -s "$t/out" ] && t_fail "broken policy: printed on stdout: $(cat "$t/out")"
for m in 'iosched_policy_ok 0' 'iosched_exit_code 2' \
         'iosched_device_info{device="sdb",class="raid",scheduler="mq-deadline",wanted=""} 1'; do
        grep -qxF "$m" "$f" || t_fail "broken policy: no line $m in the textfile"
done
[ "$(stat -c '%a %u' "$f")" = "644 0" ] || t_fail "textfile mode: $(stat -c '%a %u' "$f") under umask 0077"
[ "$(ls_tf)" = "iosched.prom " ] || t_fail "left behind: $(ls_tf)"
! command -v promtool >/dev/null 2>&1 || promtool check metrics <"$f" || t_fail "promtool check metrics"
echo "ok: a broken policy reaches the textfile (exit 2, iosched_policy_ok 0)"

# 2. drift: exit 1, FILE replaced by a rename; a reader of the old file keeps it whole
exec 3<"$f"
ino=$(stat -c %i "$f")
$bin --check --textfile "$f" --config /dev/null --sysroot "$d" >"$t/out" 2>"$t/err"
rc=$?
[ $rc = 1 ] || t_fail "drift: exit $rc, want 1"
grep -qx 'iosched_exit_code 1' "$f" || t_fail "drift: no iosched_exit_code 1"
grep -qx 'iosched_policy_ok 1' "$f" || t_fail "drift: no iosched_policy_ok 1"
[ "$(stat -c %i "$f")" != "$ino" ] || t_fail "FILE was rewritten in place, not replaced"
grep -qx 'iosched_exit_code 2' <&3 || t_fail "the old file changed under its reader"
exec 3<&-
[ "$(ls_tf)" = "iosched.prom " ] || t_fail "left behind: $(ls_tf)"
echo "ok: drift (exit 1) replaces the textfile by a rename"

# 3. a usage error: health and time
$bin --check --textfile "$f" --no-such-option >"$t/out" 2>"$t/err"
[ $? = 2 ] || t_fail "usage error: want exit 2"
grep -qx 'iosched_exit_code 2' "$f" || t_fail "usage error: no iosched_exit_code 2 in the textfile"
grep -q '^iosched_last_run_timestamp_seconds [0-9]*$' "$f" || t_fail "usage error: no timestamp"

# 4. --help prints, and replaces nothing
cp "$f" "$t/keep"
$bin --textfile "$f" --help >"$t/out" || t_fail "--help: exit $?"
grep -q '^Usage:' "$t/out" || t_fail "--help printed no usage"
grep -q -- '--textfile FILE' "$t/out" || t_fail "--help does not show --textfile"
cmp -s "$f" "$t/keep" || t_fail "--help replaced the textfile"
$bin --textfile "$f" -J --sysroot "$d" >"$t/out" 2>/dev/null
[ $? = 2 ] || t_fail "--textfile with -J: want exit 2"
grep -q '"exit": 2' "$t/out" || t_fail "--textfile with -J: no JSON error object on stdout"
cmp -s "$f" "$t/keep" || t_fail "--textfile with -J replaced the textfile"
[ "$(ls_tf)" = "iosched.prom " ] || t_fail "left behind: $(ls_tf)"

# 5. the temporary file: a random name, O_EXCL, renamed over FILE (strace)
if command -v strace >/dev/null 2>&1 && [ -z "${IOS_VALGRIND:-}" ]; then
        ln -s "$t/victim" "$f.tmp"      # the old recipe's fixed name: never used
        for i in 1 2; do
                strace -f -qq -e trace=openat,renameat,renameat2,rename -o "$t/trace$i" \
                        "$top/${BUILDDIR:-build}/iosched-apply" --check --textfile "$f" --config /dev/null \
                        --sysroot "$d" >/dev/null 2>&1
                sed -n 's/.*openat([0-9]*, "\(\.iosched\.prom\.[A-Za-z0-9]\{6\}\)", .*O_EXCL.*/\1/p' "$t/trace$i" >"$t/name$i"
                [ "$(wc -l <"$t/name$i")" = 1 ] || t_fail "run $i: no single O_EXCL temporary file: $(grep iosched.prom "$t/trace$i")"
                grep -q "rename.*\"$(cat "$t/name$i")\", [0-9]*, \"iosched.prom\"" "$t/trace$i" ||
                        t_fail "run $i: the temporary file is not renamed over FILE: $(grep rename "$t/trace$i")"
        done
        cmp -s "$t/name1" "$t/name2" && t_fail "two runs used the same temporary name $(cat "$t/name1")"
        [ -e "$t/victim" ] && t_fail "the old recipe's FILE.tmp was followed"
        rm -f "$f.tmp"
        echo "ok: temporary files $(cat "$t/name1") and $(cat "$t/name2"), renamed over FILE"
fi
[ "$(ls_tf)" = "iosched.prom " ] || t_fail "left behind: $(ls_tf)"
exit $fail
