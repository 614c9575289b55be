#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `make install` and `make uninstall` with DESTDIR and PREFIX, as
# a distribution package build runs them: binaries, man pages, the udev rule
# naming the installed program, the unit, the initramfs hook, the compiled-in
# vendor policy directory; uninstall leaves nothing behind; header changes
# rebuild what includes them in any BUILDDIR.
. "$(dirname "$0")/lib.sh"
[ "$BUILDDIR" = build ] || t_skip "runs once, in the plain pass"
command -v make >/dev/null || t_skip "no make"
d=$T_TMP/dest
b=$T_TMP/build
make -s -C "$top" BUILDDIR="$b" PREFIX=/usr DESTDIR="$d" install >"$T_TMP/log" 2>&1 || { cat "$T_TMP/log"; t_fail "make install"; }
for f in /usr/sbin/iosched-apply /usr/sbin/ioschedd /usr/sbin/iosched-bench \
         /usr/share/man/man8/iosched-apply.8 /usr/share/man/man5/iosched.conf.5 /usr/share/man/man7/iosched.7; do
        [ -e "$d$f" ] || t_fail "not installed: $f"
done
rule=$(find "$d" -name 60-iosched.rules)
[ -n "$rule" ] || t_fail "no udev rule installed"
grep -q 'RUN+="/usr/sbin/iosched-apply --udev $kernel"' "$rule" || t_fail "rule does not run the installed program: $(grep RUN "$rule")"
[ -n "$(find "$d" -name ioschedd.service)" ] || t_fail "no unit installed"
[ -x "$d/usr/share/initramfs-tools/hooks/iosched" ] || t_fail "no initramfs hook"
strings "$d/usr/sbin/iosched-apply" | grep -qx /usr/lib/iosched || t_fail "vendor dir not /usr/lib/iosched"
"$d/usr/sbin/iosched-apply" --version | grep -q "^iosched-apply " || t_fail "installed binary does not run"
# a build directory of its own still tracks headers: with a header changed,
# every object that includes it is rebuilt (a stale object with an old
# struct layout once read --allow-write from the wrong offset)
make -n -C "$top" BUILDDIR="$b" PREFIX=/usr -W src/bench/bench.h >"$T_TMP/dry" 2>&1 || { cat "$T_TMP/dry"; t_fail "make -n"; }
for o in src/bench/target.o src/bench/options.o src/bench/worker.o; do
        grep -q -- "-o $b/$o " "$T_TMP/dry" || t_fail "bench.h changed but $o would not be rebuilt"
done
grep -q -- "-o $b/src/lib/sysfs.o " "$T_TMP/dry" && t_fail "bench.h changed and the library would be rebuilt too"
# and with nothing changed a second build compiles nothing
make -C "$top" BUILDDIR="$b" PREFIX=/usr >"$T_TMP/again" 2>&1 || { cat "$T_TMP/again"; t_fail "second make"; }
grep -q " CC " "$T_TMP/again" && t_fail "a second build recompiled: $(grep ' CC ' "$T_TMP/again")"
make -s -C "$top" BUILDDIR="$b" PREFIX=/usr DESTDIR="$d" uninstall >"$T_TMP/log" 2>&1 || { cat "$T_TMP/log"; t_fail "make uninstall"; }
left=$(find "$d" -type f)
[ -z "$left" ] || t_fail "left after uninstall: $left"
echo ok
