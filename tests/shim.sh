# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/shim.sh: sourced by a test whose programs need what the test shim
# (tests/fault/fault.c, $BUILDDIR/tests/libiosfault.so, built by make tests)
# stands in for; the programs have no test hooks of their own.
#   IOS_FAULT_ANY_OWNER=1    policy files count as root's (a checkout or a
#                            fixture owned by another user)
#   IOS_FAULT_NO_OPENAT2=1   openat2 answers ENOSYS (the component walk)
#   IOS_FAULT_BUSY=ATTR:N,.. the first N writes to each ATTR (queue/scheduler)
#                            fail with EBUSY ("always": every one)
#   IOS_FAULT_UDEV_DATA=DIR  udev's database file of a device read from DIR
#                            (t_identity: a loop device with a model)
# The sourcing script sets $top (the repository).

# t_shim VAR=VALUE...: from here on, the commands this test runs load the
# shim with VAR set; exit 77 (skip) if the shim is not built
t_shim() {
        _shim=$top/${BUILDDIR:-build}/tests/libiosfault.so
        [ -r "$_shim" ] || { echo "$_shim is not built (make tests)"; exit 77; }
        case " ${LD_PRELOAD:-} " in
        *" $_shim "*) ;;
        *) export LD_PRELOAD="$_shim${LD_PRELOAD:+ $LD_PRELOAD}"
           # the shim comes before an ASan runtime (fault.c says why that works)
           export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" ;;
        esac
        for _v in "$@"; do export "${_v?}"; done
}

# t_shimmed VAR=VALUE... -- CMD ARG...: CMD alone with the shim
t_shimmed() {
        (
                while [ $# -gt 0 ] && [ "$1" != -- ]; do t_shim "$1"; shift; done
                shift
                exec "$@"
        )
}

# t_identity DISK MODEL [SERIAL]: from here on, the programs see DISK (a loop
# device of the test's) with udev's ID_MODEL=MODEL (and ID_SERIAL_SHORT), as
# a real disk has, through the shim's IOS_FAULT_UDEV_DATA; $T_TMP (or
# $B_TMP) holds the files.  Validation evidence is kept per identity, and a
# loop device has none of its own.
t_identity() {
        _dir=${T_TMP:-$B_TMP}/udev-data
        mkdir -p "$_dir" || exit 1
        printf 'E:ID_MODEL=%s\n' "$2" > "$_dir/b$(cat "/sys/block/$1/dev")"
        [ -n "${3:-}" ] && printf 'E:ID_SERIAL_SHORT=%s\n' "$3" >> "$_dir/b$(cat "/sys/block/$1/dev")"
        t_shim IOS_FAULT_UDEV_DATA="$_dir"
}
