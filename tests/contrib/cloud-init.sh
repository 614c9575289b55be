#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the #cloud-config snippet of docs/cloud-init.md, validated with
# `cloud-init schema --config-file`, then performed with cloud-init's own code
# (cc_write_files.write_files, util.shellify as the runcmd module does) against
# a temporary policy root and two loop devices the test creates: its [Match]
# becomes Name=<the loop devices> (that variant is validated too), iosched-apply
# in the runcmd is the tree's build with --config-root and the two devices, the
# packages key is not installed (the build stands in for it). --check fails
# (drift) once the file is written and passes after the runcmd; the kernel
# values changed; a broken drop-in makes the
# runcmd script fail with the tool's file:line message.
. "$(dirname "$0")/lib.sh"
c_require
c_need cloud-init cloud-init
PY=/usr/bin/python3
$PY -c 'import yaml, cloudinit.util' 2>/dev/null ||
        { c_apt python3-yaml; $PY -c 'import yaml, cloudinit.util' 2>/dev/null || c_skip "python3-yaml/cloudinit not importable"; }

c_loop l1 32
c_loop l2 32
for l in "$l1" "$l2"; do
        echo mq-deadline > "/sys/block/$l/queue/scheduler" || c_skip "no mq-deadline on this kernel"
done

# the snippet, as documented
sed -n '/^```yaml$/,/^```$/p' "$top/docs/cloud-init.md" | sed '1d;$d' > "$C_TMP/user-data.yaml"
head -n 1 "$C_TMP/user-data.yaml" | grep -q '^#cloud-config$' || c_fail "no #cloud-config snippet in docs/cloud-init.md"
cloud-init schema --config-file "$C_TMP/user-data.yaml" >"$C_TMP/schema.out" 2>&1 ||
        { cat "$C_TMP/schema.out"; c_fail "cloud-init schema: the documented snippet"; }

# iosched-apply as the runcmd sees it: the build, the test's root, the test's disks
mkdir -p "$C_TMP/bin"
printf '#!/bin/sh\nexec "%s" --config-root "%s" "$@" %s %s\n' "$TOOL" "$C_TMP/root" "$l1" "$l2" > "$C_TMP/bin/iosched-apply"
printf '#!/bin/sh\nexec "%s" --config-root "%s" "$@" %s %s\n' "$TOOL" "$C_TMP/root2" "$l1" "$l2" > "$C_TMP/bin2-iosched-apply"
chmod 0755 "$C_TMP/bin/iosched-apply" "$C_TMP/bin2-iosched-apply"

# harness VARIANT ROOT MATCH [SETREPLACE]: write the test variant of the snippet,
# validate it, perform its write_files under ROOT and write its runcmd script
harness() {
        $PY - "$C_TMP/user-data.yaml" "$C_TMP/$1.yaml" "$2" "$3" "$C_TMP/$1.runcmd" "${4:-}" <<'EOF'
import os, re, sys, yaml
from cloudinit import util
from cloudinit.config import cc_write_files
src, variant, root, match, script, bad = sys.argv[1:7]
cfg = yaml.safe_load(open(src))
for f in cfg["write_files"]:
    c = re.sub(r"(?s)\[Match\]\n.*?\[Set\]\n", "[Match]\n%s\n[Set]\n" % match, f["content"])
    if bad:
        c = re.sub(r"(?m)^queue/read_ahead_kb=.*$", "queue/read_ahead_kb=" + bad, c)
    f["content"] = c
with open(variant, "w") as out:
    out.write("#cloud-config\n" + yaml.safe_dump(cfg, sort_keys=False))
for f in cfg["write_files"]:
    f["path"] = os.path.join(root, f["path"].lstrip("/"))
cc_write_files.write_files("write_files", cfg["write_files"], "root:root")
util.write_file(script, util.shellify(cfg["runcmd"]), 0o700)
EOF
}

harness good "$C_TMP/root" "Name=$l1 $l2" || c_fail "harness"
cloud-init schema --config-file "$C_TMP/good.yaml" >"$C_TMP/schema2.out" 2>&1 ||
        { cat "$C_TMP/schema2.out"; c_fail "cloud-init schema: the test variant"; }
conf=$C_TMP/root/etc/iosched.d/60-perc.conf
[ "$(stat -c '%a %u %g' "$conf")" = "644 0 0" ] || c_fail "write_files: mode/owner $(stat -c '%a %u %g' "$conf")"
grep -q "^Name=$l1 $l2\$" "$conf" || c_fail "write_files content: $(cat "$conf")"
# the file is written, the runcmd has not run: drift (exit 1)
env PATH="$C_TMP/bin:$PATH" iosched-apply --check >/dev/null 2>&1
rc=$?; [ $rc = 1 ] || c_fail "--check before the runcmd: exit $rc, want 1"
env PATH="$C_TMP/bin:$PATH" sh "$C_TMP/good.runcmd" >"$C_TMP/runcmd.out" 2>&1 ||
        { cat "$C_TMP/good.runcmd" "$C_TMP/runcmd.out"; c_fail "runcmd: exit $?"; }
for l in "$l1" "$l2"; do
        [ "$(c_sched "$l")" = none ] || c_fail "$l: scheduler $(c_sched "$l") after the runcmd"
        [ "$(c_ra "$l")" = 512 ] || c_fail "$l: read_ahead_kb $(c_ra "$l") after the runcmd"
done
env PATH="$C_TMP/bin:$PATH" iosched-apply --check || c_fail "--check after the runcmd"
echo "snippet: ok ($(c_time)s)"

# a broken drop-in: the runcmd script fails, with file:line
cp "$C_TMP/bin2-iosched-apply" "$C_TMP/bin/iosched-apply"
harness bad "$C_TMP/root2" "Name=$l1 $l2" lots || c_fail "harness (bad)"
env PATH="$C_TMP/bin:$PATH" sh "$C_TMP/bad.runcmd" >"$C_TMP/bad.out" 2>&1 && c_fail "runcmd passed with a broken drop-in"
grep -q "60-perc.conf:[0-9]*:.*lots" "$C_TMP/bad.out" || { cat "$C_TMP/bad.out"; c_fail "broken drop-in: no file:line"; }
echo "PASS ($(c_time)s)"
