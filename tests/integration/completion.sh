#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
# Description: the bash completions in completion/ offer every long option
# that `--help` of iosched-apply, ioschedd and iosched-bench prints, and, with
# bash-completion installed, complete as a user expects: options, subcommands,
# option values (--format, -o columns, --monitor, fio-style --name=value),
# and iosched-bench's options after `iosched-apply validate DEV --`.
# Exit 0 pass, 77 skip (no programs built), 1 fail.
set -u
top=${IOS_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
BUILDDIR=${BUILDDIR:-build}
fail=0
t_fail() { echo "FAIL: $*"; fail=1; }

n=0
for p in iosched-apply ioschedd iosched-bench; do
        bin=$top/$BUILDDIR/$p
        comp=$top/completion/$p
        [ -x "$bin" ] || { echo "SKIP: no $BUILDDIR/$p"; exit 77; }
        [ -f "$comp" ] || { t_fail "no completion/$p"; continue; }
        bash -n "$comp" || t_fail "completion/$p: syntax error"
        for o in $("$bin" --help | grep -o -- '--[a-z][a-z0-9_-]*' | sort -u); do
                n=$((n + 1))
                grep -Eq -- "(^|[ '])$o(=|[ ']|\$)" "$comp" || t_fail "completion/$p does not offer $o (from $p --help)"
        done
done
echo "$n long options of --help offered by the completions"

bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
        echo "bash-completion is not installed: behaviour not checked"
        [ $fail = 0 ] || exit 1
        exit 0
fi

# COMPLETE "LINE" EXPECTED...: completing LINE (the cursor at its end) offers
# every EXPECTED word; words are split as bash splits them (at blanks and at
# "=", which is in COMP_WORDBREAKS)
out=$(bash --norc --noprofile -c '
        . "$1" || exit 1
        for f in iosched-apply ioschedd iosched-bench; do . "$2/$f" || exit 1; done
        compopt() { :; }   # only valid inside a real completion
        complete_line() {
                local line=$1 p w=() parts=()
                read -ra parts <<<"$line"
                [[ $line == *" " ]] && parts+=("")
                for p in "${parts[@]}"; do
                        if [[ $p == *=* ]]; then w+=("${p%%=*}" "=" "${p#*=}"); else w+=("$p"); fi
                done
                COMP_LINE=$line COMP_POINT=${#line} COMP_WORDS=("${w[@]}") COMP_CWORD=$((${#w[@]} - 1))
                COMPREPLY=()
                local fn
                fn=$(complete -p "${w[0]}" | sed "s/.*-F \([^ ]*\) .*/\1/")
                "$fn" "${w[0]}" "${w[-1]}" "${w[-2]}"
                printf "%s\n" "${COMPREPLY[@]}"
        }
        shift 2
        rc=0
        while [ $# -gt 0 ]; do
                line=$1; shift
                got=$(complete_line "$line" | sort | tr "\n" " ")
                while [ $# -gt 0 ] && [ "$1" != ";" ]; do
                        case " $got " in *" $1 "*) ;; *) echo "FAIL: \"$line\" does not offer \"$1\" (offers: $got)"; rc=1 ;; esac
                        shift
                done
                shift
                echo "ok: \"$line\" -> $got"
        done
        exit $rc
' sh "$bc" "$top/completion" \
        "iosched-apply --for" --format \; \
        "iosched-apply --format " text json prometheus \; \
        "iosched-apply --format=pro" prometheus \; \
        "iosched-apply -o NAME,CL" NAME,CLASS \; \
        "iosched-apply -o +ev" +EVIDENCE \; \
        "iosched-apply " list explain status facts cat-config validate \; \
        "iosched-apply status -o NAME,WA" NAME,WANTED \; \
        "iosched-apply -o NAME li" list \; \
        "iosched-apply --dry" --dry-run \; \
        "iosched-apply validate loop0 -- --ioeng" --ioengine= \; \
        "ioschedd --monitor " auto udev kernel none \; \
        "ioschedd --no-" --no-builtin --no-initial-apply \; \
        "iosched-bench --ioengine=" io_uring libaio psync null \; \
        "iosched-bench --rw=rand" randread randwrite randrw \; \
        "iosched-bench --direct=" 0 1 \; \
        "iosched-bench --objective=" iops bw p99 read-p99 \; \
        "iosched-bench --compare=none,mq" none,mq-deadline \; \
        "iosched-bench --allow" --allow-write \; \
        "iosched-bench --workload=" mixed-latency oltp seq-stream sd-card \; \
        "iosched-bench --name=reader --objective=" reader: p99 \; \
        "iosched-bench --stone" --stonewall \; \
        "iosched-bench --random_generator=" tausworthe tausworthe64 \; 2>&1)
rc=$?
printf '%s\n' "$out"
[ $rc = 0 ] || fail=1
[ $fail = 0 ] || exit 1
echo "PASS"
