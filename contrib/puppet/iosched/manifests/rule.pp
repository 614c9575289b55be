# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One iosched policy drop-in, <config_root>/etc/iosched.d/<title>.conf, kept applied.
#
# The file gets a [Match] section from `match` and a [Set] section from `set`
# (keys in the hash's order; see iosched.conf(5)); a [Match] value with a
# blank is quoted (one pattern); CR, LF and NUL in a value fail the catalog.
# A new content is validated before it replaces the old file (`validate_cmd`:
# iosched-apply --dry-run -J --drop-in <title>.conf=<new file> must exit 0,
# the same check as the Ansible module's), so whatever the tool refuses fails
# the resource with the tool's file:line message and the old file stays.
# A same-named file in /run/iosched.d would mask it: the run fails naming
# that file and nothing is written.
# On every run, `iosched-apply --check` on `devices` (every disk when empty)
# decides: on drift (or after a change) `iosched-apply` applies the policy.
# An apply that fails (a disk busy, a value the kernel keeps otherwise) puts
# the drop-in back as it was when it last applied (removes it if it never
# did; the copy is kept in <config_root>/var/lib/iosched/puppet), so the
# host's policy is the one in force and later runs are not blocked by it;
# the resource fails with the tool's own lines (file:line).
# When the file changes (or is removed) the initramfs is refreshed
# (update-initramfs -u, else dracut -f), as the package's trigger does,
# after the apply: not when the apply failed and the file was put back.
#
# @param match the [Match] keys, e.g. { 'Class' => 'raid' }; empty matches every disk;
#   a string is one pattern, an array is alternatives
# @param set the [Set] keys, e.g. { 'Scheduler' => 'none', 'queue/read_ahead_kb' => 512 }
# @param ensure present or absent
# @param apply keep the policy applied (false: the udev rule and ioschedd do)
# @param devices limit the validation, the check and the apply to these disks (kernel names
#   or paths, never beginning with -); default all
# @param config_root root of the policy directories (--config-root); tests use a temporary one
# @param iosched_apply the iosched-apply program
# @param initramfs refresh the initramfs when the file changes (with a config_root other
#   than / only when initramfs_command is given: the initramfs holds the host's /etc)
# @param initramfs_command the refresh command; default update-initramfs -u, else dracut -f
define iosched::rule (
  Hash[Pattern[/\A[A-Za-z0-9_.\/-]+\z/], Any] $match             = {},
  Hash[Pattern[/\A[A-Za-z0-9_.\/-]+\z/], Any] $set               = {},
  Enum['present', 'absent']                   $ensure            = 'present',
  Boolean                                     $apply             = true,
  Array[Pattern[/\A[^-\r\n\u0000][^\r\n\u0000]*\z/]] $devices     = [],
  String[1]                                   $config_root       = '/',
  String[1]                                   $iosched_apply     = '/usr/sbin/iosched-apply',
  Boolean                                     $initramfs         = true,
  Array[String[1]]                            $initramfs_command = [],
) {
  unless $title =~ /\A[A-Za-z0-9][A-Za-z0-9_.@+-]*\z/ {
    fail("iosched::rule[${title}]: the title is the drop-in's file name (letters, digits, _ . @ + -)")
  }
  if $ensure == 'present' and $set.empty {
    fail("iosched::rule[${title}]: set is empty")
  }
  $name_conf = $title =~ /\.conf\z/ ? { true => $title, default => "${title}.conf" }
  $root = regsubst($config_root, '/+\z', '')
  $dir = "${root}/etc/iosched.d"
  $path = "${dir}/${name_conf}"
  $root_args = $root ? { '' => [], default => ['--config-root', $config_root] }

  # /run/iosched.d is read after /etc/iosched.d: a same-named file there (a
  # link to /dev/null too) would be in force instead of this one
  $run_file = "${root}/run/iosched.d/${name_conf}"
  $q = shellquote([$run_file])
  $masked = $ensure ? {
    'present' => "[ -e ${q} ] || [ -L ${q} ]",
    default   => "[ -e ${q} ] && [ \"\$(readlink ${q})\" != /dev/null ]",
  }
  $why = "iosched::rule[${title}]: ${run_file} masks ${path} (a file in /run/iosched.d overrides the one of the same name in /etc/iosched.d): remove it first; nothing was changed"
  exec { "iosched mask ${title}":
    command   => "echo ${shellquote([$why])} >&2; exit 1",
    onlyif    => $masked,
    provider  => 'shell',
    logoutput => true,
    before    => File[$path],
  }

  if $ensure == 'present' {
    if !defined(File[$dir]) {
      file { $dir:
        ensure => directory,
        owner  => 'root',
        group  => 'root',
        mode   => '0755',
      }
    }
    file { $path:
      ensure       => file,
      owner        => 'root',
      group        => 'root',
      mode         => '0644',
      content      => epp('iosched/dropin.epp', { 'match' => $match, 'set' => $set }),
      validate_cmd => shellquote([$iosched_apply, '--dry-run', '-J'] + $root_args
                                 + ['--drop-in', "${name_conf}=%", '--'] + $devices),
    }
  } else {
    file { $path:
      ensure => absent,
    }
  }

  if $initramfs and ($root == '' or !$initramfs_command.empty) {
    # one refresh per run, after every drop-in that changed
    if !defined(Exec['iosched initramfs']) {
      exec { 'iosched initramfs':
        command     => $initramfs_command.empty ? {
          true    => 'if command -v update-initramfs >/dev/null 2>&1; then update-initramfs -u; elif command -v dracut >/dev/null 2>&1; then dracut -f; fi',
          default => shellquote($initramfs_command),
        },
        provider    => 'shell',
        path        => ['/usr/sbin', '/usr/bin', '/sbin', '/bin'],
        refreshonly => true,
        logoutput   => 'on_failure',
      }
    }
    File[$path] ~> Exec['iosched initramfs']
  }

  if $apply {
    # drift is corrected on every run, not only when the file changes; the
    # drop-in that applied is kept, and put back when an apply fails
    $state = "${root}/var/lib/iosched/puppet"
    $last = "${state}/${name_conf}"
    $q_apply = shellquote([$iosched_apply] + $root_args + ['--'] + $devices)
    $q_path = shellquote([$path])
    $q_last = shellquote([$last])
    $q_state = shellquote([$state])
    $put_back = shellquote(["iosched::rule[${title}]: the apply failed; ${path} is put back as it was when it last applied (removed if it never did)"])
    exec { "iosched-apply ${title}":
      command   => @("CMD"/$),
        if out=$(${q_apply} 2>&1); then
          mkdir -p ${q_state} && chmod 0700 ${q_state} || exit 1
          if [ -e ${q_path} ]; then cp ${q_path} ${q_last}; else rm -f ${q_last}; fi
          exit 0
        fi
        if [ -e ${q_last} ]; then cp ${q_last} ${q_path}; else rm -f ${q_path}; fi
        printf '%s\n' "\$out" >&2
        echo ${put_back} >&2
        exit 1
        | CMD
      # one string: the shell provider runs `sh -c` on it (an array's first word alone would run)
      unless    => shellquote([$iosched_apply, '--check', '--quiet'] + $root_args + ['--'] + $devices),
      provider  => 'shell',
      logoutput => 'on_failure',
      require   => File[$path],
    }
    if $initramfs and ($root == '' or !$initramfs_command.empty) {
      # the initramfs takes the drop-in that applied: not one put back after a failure
      Exec["iosched-apply ${title}"] -> Exec['iosched initramfs']
    }
  }
}
