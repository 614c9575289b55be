# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary One iosched policy drop-in, <config_root>/etc/iosched.d/<title>.conf, applied when it changes.
#
# The file gets a [Match] section from `match` and a [Set] section from `set`
# (keys in the hash's order; see iosched.conf(5)). A new content is validated
# before it replaces the old file (`validate_cmd`: iosched-apply --dry-run -J
# --drop-in <title>.conf=<new file>), so a value the tool refuses fails the
# resource with the tool's file:line message and the old file stays. When the
# file changes (or is removed) the policy is applied with `iosched-apply -J`
# to `devices` (every disk when empty).
#
# @param match the [Match] keys, e.g. { 'Class' => 'raid' }; empty matches every disk;
#   an array value is blank-separated alternatives
# @param set the [Set] keys, e.g. { 'Scheduler' => 'none', 'queue/read_ahead_kb' => 512 }
# @param ensure present or absent
# @param apply apply the policy when the file changes (false: the udev rule and ioschedd do)
# @param devices limit the validation and the apply to these disks (kernel names); default all
# @param config_root root of the policy directories (--config-root); tests use a temporary one
# @param iosched_apply the iosched-apply program
define iosched::rule (
  Hash[Pattern[/\A[A-Za-z0-9_.\/-]+\z/], Any] $match         = {},
  Hash[Pattern[/\A[A-Za-z0-9_.\/-]+\z/], Any] $set           = {},
  Enum['present', 'absent']                   $ensure        = 'present',
  Boolean                                     $apply         = true,
  Array[String[1]]                            $devices       = [],
  String[1]                                   $config_root   = '/',
  String[1]                                   $iosched_apply = '/usr/sbin/iosched-apply',
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
                                 + ['--drop-in', "${name_conf}=%"] + $devices),
    }
  } else {
    file { $path:
      ensure => absent,
    }
  }

  if $apply {
    exec { "iosched-apply ${title}":
      command     => [$iosched_apply, '-J'] + $root_args + $devices,
      refreshonly => true,
      logoutput   => 'on_failure',
      subscribe   => File[$path],
    }
  }
}
