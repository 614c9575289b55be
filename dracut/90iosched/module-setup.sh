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

# the policy files (without $dracutsysrootdir), one a line: /etc and the vendor
# directories ($(PREFIX)/lib/iosched of the install, and /usr/lib/iosched);
# /run/iosched.d is runtime state
_iosched_policy_files() {
    local prefix p apply=$1
    prefix=${apply%/sbin/iosched-apply}
    [[ $prefix != "$apply" ]] || prefix=/usr
    local -a files=("${dracutsysrootdir-}"{/etc/iosched.conf,/etc/iosched.d/*.conf,/usr/lib/iosched/*.conf})
    [[ $prefix == /usr ]] || files+=("${dracutsysrootdir-}$prefix"/lib/iosched/*.conf)
    for p in "${files[@]}"; do
        [[ -e $p || -L $p ]] || continue
        echo "${p#"${dracutsysrootdir-}"}"
    done
}

# iosched_refused FILE [ROOT] [DROPIN]: why iosched-apply would refuse the
# policy file FILE (under the system root ROOT; DROPIN=1 for a file of a
# drop-in directory), or nothing.  The rule of src/lib/policy-files.c: the
# file and every directory from / down to it are root's and not writable by
# group or others (a sticky directory may be, when the entry below is root's);
# no symbolic link on the way, except a policy file that is a link to
# /dev/null (a mask); a drop-in directory is not writable by group or others.
iosched_refused() {
    _rest=${1#/} _cur=${2-} _dropin=${3-0} _dir="" _dmode="" _duid=""
    _st=$(stat -c '%u %a' "${_cur:-/}" 2>/dev/null) || { echo "cannot stat ${_cur:-/}"; return 0; }
    _puid=${_st% *} _pmode=${_st#* } _pname=${_cur:-/}
    while [ -n "$_rest" ]; do
        _comp=${_rest%%/*}
        case $_rest in */*) _rest=${_rest#*/} ;; *) _rest="" ;; esac
        case $_comp in ""|.) continue ;; esac
        [ "$_comp" != .. ] || { echo "a path with \"..\""; return 0; }
        _cur=$_cur/$_comp
        [ "$_puid" = 0 ] || { echo "directory $_pname is not owned by root (uid $_puid)"; return 0; }
        _st=$(stat -c '%u %a' "$_cur" 2>/dev/null) || { echo "cannot stat $_cur"; return 0; }
        _uid=${_st% *} _mode=${_st#* }
        if [ -L "$_cur" ] && { [ -n "$_rest" ] || [ "$(readlink "$_cur")" != /dev/null ]; }; then
            echo "$_cur is a symbolic link (only a link to /dev/null masks a file)"
            return 0
        fi
        if [ $((0$_pmode & 022)) != 0 ]; then
            [ $((0$_pmode & 01000)) != 0 ] ||
                { echo "directory $_pname is writable by group or others (mode $_pmode)"; return 0; }
            [ "$_uid" = 0 ] ||
                { echo "directory $_pname is writable by others (sticky) and $_cur is not root's"; return 0; }
        fi
        _dir=$_pname _dmode=$_pmode _duid=$_puid
        _puid=$_uid _pmode=$_mode _pname=$_cur
    done
    if [ "$_dropin" = 1 ] && [ $((0$_dmode & 022)) != 0 ]; then
        echo "directory $_dir is writable by group or others (mode $_dmode)"
        return 0
    fi
    [ -L "$_cur" ] && return 1              # a mask
    if [ -c "$_cur" ] && [ "$(stat -c '%t:%T' "$_cur")" = 1:3 ]; then
        return 1                        # /dev/null itself
    fi
    [ -f "$_cur" ] || { echo "$_cur is not a regular file"; return 0; }
    [ $((0$_mode & 022)) = 0 ] || { echo "$_cur is writable by group or others (mode $_mode)"; return 0; }
    [ "$_uid" = 0 ] || { echo "$_cur is not owned by root (uid $_uid)"; return 0; }
    return 1
}

# 0 when iosched-apply would accept every policy file; else each refused one on stderr
_iosched_policy_ok() {
    local f why ok=0 dropin
    while IFS= read -r f; do
        dropin=1
        [[ $f != /etc/iosched.conf ]] || dropin=0
        if why=$(iosched_refused "$f" "${dracutsysrootdir-}" "$dropin"); then
            echo "dracut module iosched: not copying $f: iosched-apply refuses it: $why" >&2
            ok=1
        fi
    done < <(_iosched_policy_files "$1")
    return $ok
}

# called by dracut: include this module whenever the rule and its program are
# installed and iosched-apply accepts every policy file: a refused file is not
# copied (in the image it would be root's and accepted), nor is the rest (early
# boot would apply the policy without that file to the disks it selects)
check() {
    local rule apply
    rule=$(_iosched_rule) || return 1
    [[ "$(readlink -f "$rule")" != /dev/null ]] || return 1
    apply=$(_iosched_apply "$rule")
    [[ $apply && -x "${dracutsysrootdir-}$apply" ]] || return 1
    if ! _iosched_policy_ok "$apply"; then
        echo "dracut module iosched: left out of this initramfs (a policy file is refused); fix the ownership or mode, then run dracut -f" >&2
        return 1
    fi
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
    local rule apply p f
    rule=$(_iosched_rule) || return 1
    apply=$(_iosched_apply "$rule")
    # check() said so, but dracut --add skips check(): never copy a refused file
    _iosched_policy_ok "$apply" || return 1
    inst_rules 60-iosched.rules
    inst_binary "$apply"
    while IFS= read -r f; do
        p=${dracutsysrootdir-}$f
        if [[ "$(readlink -f "$p")" == /dev/null ]]; then
            # a mask stays a mask, or the vendor file it hides comes back
            inst_dir "${f%/*}"
            # shellcheck disable=SC2154 # initdir is dracut's
            ln -sf /dev/null "${initdir}$f"
        else
            inst_simple "$f"
        fi
    done < <(_iosched_policy_files "$apply")
}
