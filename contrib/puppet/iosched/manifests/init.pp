# SPDX-License-Identifier: LGPL-2.1-or-later
# @summary Installs iosched and, optionally, runs ioschedd.
#
# The package's udev rule is active as soon as it is installed (the postinst
# reloads the udev rules and triggers the block devices): every disk gets its
# policy on install, at boot and on hotplug without a service. ioschedd is
# optional: it puts values back when something else changes them and applies
# policy edits at once (it watches the policy directories; no restart needed).
#
# @param packages the packages (add iosched-bench for `iosched-apply validate`)
# @param package_ensure installed, latest or a version
# @param service_enable true: ioschedd enabled and running; false: disabled and stopped
# @param service_name the daemon's unit
#
# @example
#   class { 'iosched': service_enable => true }
#   iosched::rule { '60-perc':
#     match => { 'Class' => 'raid', 'Model' => ['PERC H700'] },
#     set   => { 'Scheduler' => 'none', 'queue/read_ahead_kb' => 512 },
#   }
class iosched (
  Array[String[1]] $packages       = ['iosched'],
  String[1]        $package_ensure = 'installed',
  Boolean          $service_enable = false,
  String[1]        $service_name   = 'ioschedd',
) {
  package { $packages:
    ensure => $package_ensure,
  }
  service { $service_name:
    ensure  => $service_enable ? { true => 'running', default => 'stopped' },
    enable  => $service_enable,
    require => Package[$packages],
  }
}
