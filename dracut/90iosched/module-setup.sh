#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# dracut module for iosched: the udev rule 60-iosched.rules, the iosched-apply
# it runs, the policy and the scheduler modules go into the initramfs, so the
# udev coldplug there sets every disk (the root disk included) before the root
# file system is mounted.  Policy edits need `dracut -f` to reach the image.

# the installed rule: /etc overrides the udev directory
_iosched_rule() {
    local d
    for d in /etc/udev/rules.d "${udevrulesdir:-}" "${udevdir:-/lib/udev}/rules.d" \
             /lib/udev/rules.d /usr/lib/udev/rules.d /usr/local/lib/udev/rules.d; do
        [[ $d && -e "${dracutsysrootdir-}$d/60-iosched.rules" ]] || continue
        echo "${dracutsysrootdir-}$d/60-iosched.rules"
        return 0
    done
    return 1
}

# the absolute path of the iosched-apply the rule runs
_iosched_apply() {
    sed -n 's|^[^#]*RUN+="\(/[^ "]*/iosched-apply\)[ "].*|\1|p' "$1" | head -n 1
}

# called by dracut: include this module whenever the rule and its program are installed
check() {
    local rule apply
    rule=$(_iosched_rule) || return 1
    [[ "$(readlink -f "$rule")" != /dev/null ]] || return 1
    apply=$(_iosched_apply "$rule")
    [[ $apply && -x "${dracutsysrootdir-}$apply" ]] || return 1
    return 0
}

# called by dracut
depends() {
    echo udev-rules
    return 0
}

# called by dracut: every scheduler a policy can name; writing its name to
# queue/scheduler makes the kernel request_module() it, which in the initramfs
# finds only what the image holds.  Built-in ones are skipped by instmods.
installkernel() {
    hostonly='' instmods mq-deadline kyber-iosched bfq
}

# called by dracut
install() {
    local rule apply prefix p f
    rule=$(_iosched_rule) || return 1
    apply=$(_iosched_apply "$rule")
    inst_rules 60-iosched.rules
    inst_binary "$apply"
    # the policy: /etc and the vendor directories ($(PREFIX)/lib/iosched of the
    # install, and /usr/lib/iosched); /run/iosched.d is runtime state
    prefix=${apply%/sbin/iosched-apply}
    [[ $prefix != "$apply" ]] || prefix=/usr
    local -a files=("${dracutsysrootdir-}"{/etc/iosched.conf,/etc/iosched.d/*.conf,/usr/lib/iosched/*.conf})
    [[ $prefix == /usr ]] || files+=("${dracutsysrootdir-}$prefix"/lib/iosched/*.conf)
    for p in "${files[@]}"; do
        [[ -e $p || -L $p ]] || continue
        f=${p#"${dracutsysrootdir-}"}
        if [[ "$(readlink -f "$p")" == /dev/null ]]; then
            # a mask stays a mask, or the vendor file it hides comes back
            inst_dir "${f%/*}"
            # shellcheck disable=SC2154 # initdir is dracut's
            ln -sf /dev/null "${initdir}$f"
        else
            inst_simple "$f"
        fi
    done
}
