# SPDX-License-Identifier: LGPL-2.1-or-later
# The structured fact `iosched`: the object of `iosched-apply facts -J`
# (schema 1, iosched-apply(8)): kernel, policy_ok, compliant, drift, and per
# disk its class, evidence, model, vendor, transport, controller (driver,
# PCI slot, PCI id, subsystem), scheduler, wanted scheduler and compliance.
# The environment variable IOSCHED_APPLY names another iosched-apply.
require 'json'
require 'open3'

Facter.add(:iosched) do
  confine kernel: 'Linux'
  setcode do
    tool = ENV['IOSCHED_APPLY']
    tool ||= ['/usr/sbin/iosched-apply', '/sbin/iosched-apply', '/usr/local/sbin/iosched-apply']
             .find { |p| File.executable?(p) }
    tool ||= Facter::Core::Execution.which('iosched-apply')
    if tool
      begin
        # the object is printed also when the tool exits non-zero (a broken
        # policy is policy_ok false, not a missing fact)
        out, err, _status = Open3.capture3(tool, 'facts', '-J')
        data = JSON.parse(out)
        data.is_a?(Hash) && data['schema'] == 1 ? data : nil
      rescue StandardError => e
        Facter.debug("iosched: #{tool} facts -J: #{e.message} #{err}")
        nil
      end
    end
  end
end
