#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: `make install` and `make uninstall` with DESTDIR and PREFIX, as
# a distribution package build runs them: binaries, man pages, the udev rule
# and the unit naming the installed programs, the initramfs hook, the bash
# completions, the compiled-in vendor policy directory, the manual pages
# naming it; uninstall leaves nothing behind; header changes rebuild what
# includes them in any BUILDDIR; CPPFLAGS/CFLAGS/LDFLAGS reach the compile
# and link lines and -Werror is only there with WERROR=1; a PREFIX other
# than /usr writes nothing outside it.
# Hang-guard: 1200 (four builds of the tree, one job each; past 300 s on a
# loaded 2-core machine)
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
unit=$(find "$d" -name ioschedd.service)
grep -qx 'ExecStart=/usr/sbin/ioschedd' "$unit" || t_fail "the unit does not run the installed program: $(grep ExecStart "$unit")"
tf=$(find "$d" -name iosched-textfile.service)
grep -q '^ExecStart=/usr/sbin/iosched-apply --check --textfile ' "$tf" || t_fail "no textfile unit running the installed program"
[ -n "$(find "$d" -name iosched-textfile.timer)" ] || t_fail "no textfile timer installed"
for p in iosched-apply ioschedd iosched-bench; do
        [ -f "$d/usr/share/bash-completion/completions/$p" ] || t_fail "no bash completion for $p"
done
grep -rl /usr/local "$d/usr/share/man" && t_fail "manual pages name /usr/local in a PREFIX=/usr install"
grep -q '^\.I /usr/lib/iosched/\*\.conf' "$d/usr/share/man/man5/iosched.conf.5" || t_fail "iosched.conf(5) does not name /usr/lib/iosched"
strings "$d/usr/sbin/iosched-apply" | grep -qx /usr/lib/iosched || t_fail "vendor dir not /usr/lib/iosched"
"$d/usr/sbin/iosched-apply" --version | grep -q "^iosched-apply " || t_fail "installed binary does not run"
# a build directory of its own still tracks headers: with a header changed,
# every object that includes it is rebuilt (a stale object with an old
# struct layout once read --allow-write from the wrong offset)
make -n -C "$top" BUILDDIR="$b" PREFIX=/usr -W src/bench/bench.h >"$T_TMP/dry" 2>&1 || { cat "$T_TMP/dry"; t_fail "make -n"; }
for o in src/bench/target.o src/bench/options.o src/bench/native/worker.o src/bench/fio/fio.o; do
        grep -q -- "-o $b/$o " "$T_TMP/dry" || t_fail "bench.h changed but $o would not be rebuilt"
done
grep -q -- "-o $b/src/lib/sysfs.o " "$T_TMP/dry" && t_fail "bench.h changed and the library would be rebuilt too"
# and with nothing changed a second build compiles nothing
make -C "$top" BUILDDIR="$b" PREFIX=/usr >"$T_TMP/again" 2>&1 || { cat "$T_TMP/again"; t_fail "second make"; }
grep -q " CC " "$T_TMP/again" && t_fail "a second build recompiled: $(grep ' CC ' "$T_TMP/again")"
make -s -C "$top" BUILDDIR="$b" PREFIX=/usr DESTDIR="$d" uninstall >"$T_TMP/log" 2>&1 || { cat "$T_TMP/log"; t_fail "make uninstall"; }
left=$(find "$d" -type f)
[ -z "$left" ] || t_fail "left after uninstall: $left"

# the packager's flags reach every compile and link line; -Werror only with
# WERROR=1 (not inherited from a `make WERROR=1 check` running this test)
make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u WERROR make "$@"; }
make -n -B V=1 -C "$top" BUILDDIR="$b" PREFIX=/usr CPPFLAGS=-DIOS_PKG_CPPFLAGS CFLAGS="-O1 -DIOS_PKG_CFLAGS" \
        LDFLAGS=-Wl,-z,now >"$T_TMP/flags" 2>&1 || { cat "$T_TMP/flags"; t_fail "make -n with flags"; }
ncc=$(grep -c -- ' -c -o ' "$T_TMP/flags")
[ "$ncc" -gt 10 ] || t_fail "make -n -B printed $ncc compile lines"
[ "$(grep -- ' -c -o ' "$T_TMP/flags" | grep -- -DIOS_PKG_CPPFLAGS | grep -c -- -DIOS_PKG_CFLAGS)" = "$ncc" ] ||
        t_fail "CPPFLAGS/CFLAGS missing from compile lines: $(grep -- ' -c -o ' "$T_TMP/flags" | grep -v -- -DIOS_PKG_CPPFLAGS | head -n 1)"
grep -- "-o $b/iosched-apply " "$T_TMP/flags" | grep -q -- '-Wl,-z,now' || t_fail "LDFLAGS missing from the link line"
grep -q -- -Werror "$T_TMP/flags" && t_fail "-Werror in a packager's build"
make -n -B V=1 -C "$top" BUILDDIR="$b" WERROR=1 >"$T_TMP/flags" 2>&1
grep -- ' -c -o ' "$T_TMP/flags" | grep -q -- -Werror || t_fail "WERROR=1 does not add -Werror"

# a PREFIX other than /usr: everything under it, paths in the files follow it
o=$T_TMP/opt
make -s -C "$top" BUILDDIR="$b" PREFIX=/opt/iosched DESTDIR="$o" install >"$T_TMP/log" 2>&1 || { cat "$T_TMP/log"; t_fail "make install PREFIX=/opt/iosched"; }
out=$(cd "$o" && find . ! -type d | grep -v '^\./opt/iosched/')
[ -z "$out" ] || t_fail "PREFIX=/opt/iosched installed outside it: $out"
grep -q 'RUN+="/opt/iosched/sbin/iosched-apply --udev $kernel"' "$o/opt/iosched/lib/udev/rules.d/60-iosched.rules" || t_fail "rule under /opt"
grep -qx 'ExecStart=/opt/iosched/sbin/ioschedd' "$o/opt/iosched/lib/systemd/system/ioschedd.service" || t_fail "unit under /opt"
grep -q '/opt/iosched/lib/iosched' "$o/opt/iosched/share/man/man8/ioschedd.8" || t_fail "ioschedd(8) does not name /opt/iosched/lib/iosched"
strings "$o/opt/iosched/sbin/ioschedd" | grep -qx /opt/iosched/lib/iosched || t_fail "ioschedd's vendor dir is not /opt/iosched/lib/iosched"
[ -x "$o/opt/iosched/share/initramfs-tools/hooks/iosched" ] || t_fail "no hook under /opt/iosched/share"
# asked for: the system's directories; an empty one skips that part
rm -rf "$o"
make -s -C "$top" BUILDDIR="$b" PREFIX=/opt/iosched DESTDIR="$o" UDEVDIR=/etc/udev INITRAMFSDIR=/etc/initramfs-tools \
        DRACUTDIR= BASHCOMPDIR= install >"$T_TMP/log" 2>&1 || { cat "$T_TMP/log"; t_fail "make install with directories"; }
[ -f "$o/etc/udev/rules.d/60-iosched.rules" ] || t_fail "UDEVDIR=/etc/udev not honoured"
[ -x "$o/etc/initramfs-tools/hooks/iosched" ] || t_fail "INITRAMFSDIR=/etc/initramfs-tools not honoured"
find "$o" -path '*dracut*' -o -path '*bash-completion*' | grep -q . && t_fail "DRACUTDIR= / BASHCOMPDIR= did not skip"
echo ok
