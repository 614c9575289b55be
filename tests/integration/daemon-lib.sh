# SPDX-License-Identifier: LGPL-2.1-or-later
# Helpers for the ioschedd and udev-rule integration tests (sourced after
# lib.sh, not run: this file is not executable).  Every ioschedd these tests
# start reads a test policy that matches only the test's own loop devices,
# with --no-builtin, so no other disk of the machine is ever touched; d_end
# checks that the machine's other disks kept their scheduler.
DAEMON="${IOS_VALGRIND:-} $top/$BUILDDIR/ioschedd"
D_PID=""
D_LOG="$T_TMP/ioschedd.log"
D_NEW_LOOPS=""          # loop devices this test created (removed via loop-control)
D_EXTRA_CLEANUP=""      # shell code run first at cleanup

d_cleanup() {
        rc=$?
        trap - EXIT INT TERM
        [ -n "$D_EXTRA_CLEANUP" ] && eval "$D_EXTRA_CLEANUP"
        if [ -n "$D_PID" ] && kill -0 "$D_PID" 2>/dev/null; then
                kill -TERM "$D_PID" 2>/dev/null
                for _ in 1 2 3 4 5 6 7 8 9 10; do
                        kill -0 "$D_PID" 2>/dev/null || break
                        sleep 0.2
                done
                kill -KILL "$D_PID" 2>/dev/null
        fi
        if [ $rc != 0 ] && [ -s "$D_LOG" ]; then
                echo "--- ioschedd log (last 30 lines)"
                tail -n 30 "$D_LOG"
        fi
        t_cleanup
        for n in $D_NEW_LOOPS; do
                d_loop_remove "$n"
        done
        exit $rc
}
trap d_cleanup EXIT
trap 'exit 1' INT TERM

d_require() {
        t_require_root
        [ -x "$top/$BUILDDIR/ioschedd" ] || t_skip "no $BUILDDIR/ioschedd"
}

# the schedulers of every disk that is not a loop device (never ours to touch)
d_host_scheds() {
        for q in /sys/block/*/queue/scheduler; do
                case $q in /sys/block/loop*) continue ;; esac
                [ -r "$q" ] && printf '%s=%s\n' "${q#/sys/block/}" "$(cat "$q")"
        done
}
D_HOST_BEFORE=$(d_host_scheds)

d_check_host_untouched() {
        after=$(d_host_scheds)
        [ "$after" = "$D_HOST_BEFORE" ] ||
                t_fail "a disk that is not ours changed: before [$D_HOST_BEFORE] after [$after]"
}

# d_now_ms: monotonic enough for sub-second timing
d_now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# d_wait TIMEOUT_MS CMD...: poll CMD every 20 ms until it succeeds
d_wait() {
        limit=$(( $(d_now_ms) + $1 )); shift
        while :; do
                "$@" && return 0
                [ "$(d_now_ms)" -ge "$limit" ] && return 1
                sleep 0.02
        done
}

d_sched_is() { [ "$(t_sched "$1")" = "$2" ]; }
d_attr_is() { [ "$(cat "/sys/block/$1/queue/$2" 2>/dev/null)" = "$3" ]; }
d_log_has() { grep -qF -- "$1" "$D_LOG"; }

# d_policy FILE CONTENT: write a policy file the way the library accepts it
# (owned by root, not writable by group or others), atomically
d_policy() {
        printf '%s\n' "$2" > "$1.tmp" && chmod 0644 "$1.tmp" && mv -f "$1.tmp" "$1" ||
                t_fail "cannot write $1"
}

# d_start ARGS...: start ioschedd in the background and wait until it is ready
d_start() {
        : > "$D_LOG"
        # shellcheck disable=SC2086
        $DAEMON "$@" >>"$D_LOG" 2>&1 &
        D_PID=$!
        d_wait 10000 d_log_has "ready (" || {
                cat "$D_LOG"
                t_fail "ioschedd did not get ready"
        }
}

# d_stop: SIGTERM, and the daemon must exit 0 within 5 s
d_stop() {
        kill -TERM "$D_PID" || t_fail "ioschedd is not running"
        d_wait 5000 d_not_running "$D_PID" || t_fail "ioschedd did not exit on SIGTERM"
        wait "$D_PID"
        rc=$?
        D_PID=""
        [ $rc = 0 ] || t_fail "ioschedd exited $rc on SIGTERM"
}
d_not_running() { ! kill -0 "$1" 2>/dev/null; }

# d_free_loop_number: a loop minor nobody uses, for a device created later
d_free_loop_number() {
        n=$(( 200 + $$ % 500 ))
        while [ -e "/sys/block/loop$n" ] || [ -e "/dev/loop$n" ]; do
                n=$((n + 1))
        done
        echo "$n"
}

# d_loop_remove N: delete /dev/loopN through /dev/loop-control (LOOP_CTL_REMOVE)
d_loop_remove() {
        for _ in 1 2 3 4 5 6 7 8 9 10; do
                [ -e "/sys/block/loop$1" ] || return 0
                perl -e 'open(my $f, "+<", "/dev/loop-control") or exit 1;
                         ioctl($f, 0x4C81, $ARGV[0] + 0) or exit 1;' "$1" 2>/dev/null && return 0
                sleep 0.2
        done
        echo "warning: could not remove loop$1"
}
