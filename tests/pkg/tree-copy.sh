# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/pkg/tree-copy.sh: sourced by the package scripts (deb-build.sh,
# rpm-build.sh's RPM_SOURCE=worktree, chroot-lib.sh); defines
# tree_copy DIR: the tree into DIR (made), as a source package has it:
# in a git checkout the files git knows or would add (so a build
# directory or an ignored file never ships; one deleted and not yet
# committed is skipped), else, in a release tarball, everything but the
# build directories.
tree_copy() {
        mkdir -p "$1" || return 1
        if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
                git ls-files -z --cached --others --exclude-standard |
                        tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -xf - -C "$1"
        else
                tar --exclude='./build' --exclude='./build-*' --exclude='./debian/build' -cf - . | tar -xf - -C "$1"
        fi
}
