#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: LGPL-2.1-or-later

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: facts
short_description: Gather the iosched facts of a host's disks
version_added: "0.1.0"
description:
  - Runs C(iosched-apply facts -J) and returns its object as C(ansible_facts.iosched), with the kernel,
    whether the policy loaded cleanly, compliance and drift, and per disk its class with the evidence,
    model, vendor, transport, size, the controller (driver, PCI slot, PCI id, subsystem id), the active
    and the wanted scheduler.
  - Answers fleet questions such as "which hosts have a PERC H700" (controller PCI id C(1000:0079)) or
    "which hosts drifted from their policy".
  - Changes nothing; runs in check mode too.
author:
  - iosched developers
requirements:
  - iosched-apply with the JSON contract of schema 1 (C(facts -J))
options:
  devices:
    description:
      - Only these disks, by kernel name or path. Default is every disk of the host.
    type: list
    elements: str
    default: []
  config_root:
    description:
      - Root of the policy directories (C(--config-root)); the wanted scheduler and compliance are
        computed against the policy found there.
    type: path
    default: /
  iosched_apply:
    description:
      - Path of the iosched-apply program. Default is the one found in C(PATH), C(/usr/sbin),
        C(/sbin) or C(/usr/local/sbin).
    type: path
  sysroot:
    description:
      - Read the disks of a captured tree instead of the running system (C(--sysroot)); its own
        policy is read from it too unless I(config_root) is given.
    type: path
notes:
  - A broken policy does not fail the task; it shows as C(policy_ok=false) with C(policy_errors),
    and a warning.
seealso:
  - module: iosched.iosched.policy
  - name: the fleet report playbook
    description: C(ansible-playbook iosched.iosched.fleet_report) gathers these facts from every host and
      runs C(iosched-apply report) on the controller.
    link: https://example.invalid/iosched/contrib/ansible/README.md
'''

EXAMPLES = r'''
- name: Gather the disk facts
  iosched.iosched.facts:

- name: Hosts with a PERC H700 (LSI SAS2108, PCI id 1000:0079)
  ansible.builtin.debug:
    msg: "{{ inventory_hostname }} has a PERC H700"
  when: >-
    ansible_facts.iosched.disks
    | selectattr('controller')
    | map(attribute='controller.pci_id')
    | select('equalto', '1000:0079') | list | length > 0

- name: Disks that drifted from the policy
  ansible.builtin.debug:
    msg: "{{ ansible_facts.iosched.disks | rejectattr('compliant') | map(attribute='name') | list }}"
'''

RETURN = r'''
ansible_facts:
  description: The facts.
  returned: always
  type: complex
  contains:
    iosched:
      description:
        - The object of C(iosched-apply facts -J), schema 1 (iosched-apply(8) documents every key).
        - Top level C(schema), C(tool), C(version), C(kernel), C(policy_ok), C(policy_errors),
          C(compliant), C(drift), C(disks) and C(removable_media_drives) (optical and floppy drives,
          the same keys, not in C(disks)).
        - Per disk C(name), C(maj_min), C(class), C(evidence), C(rotational), C(size_bytes), C(removable),
          C(model), C(vendor), C(tran), C(controller) (C(driver), C(pci_slot), C(pci_id), C(pci_subsystem),
          or null), C(scheduler), C(available), C(wanted_scheduler), C(compliant), C(drift).
      returned: always
      type: dict
      sample:
        schema: 1
        tool: iosched-apply
        version: "0.1.0"
        kernel: 6.1.0-18-amd64
        policy_ok: true
        policy_errors: []
        compliant: true
        drift: 0
        disks:
          - name: sdb
            maj_min: "8:16"
            class: raid
            evidence: [driver megaraid_sas]
            rotational: true
            size_bytes: 1000204886016
            removable: false
            model: PERC H700
            vendor: DELL
            tran: sas
            controller: {driver: megaraid_sas, pci_slot: "0000:03:00.0", pci_id: "1000:0079", pci_subsystem: "1028:1f17"}
            scheduler: none
            available: [mq-deadline, none]
            wanted_scheduler: none
            compliant: true
            drift: 0
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.iosched.iosched.plugins.module_utils.iosched import common_args, find_tool, run_json


def main():
    module = AnsibleModule(
        argument_spec=dict(
            devices=dict(type='list', elements='str', default=[]),
            config_root=dict(type='path', default='/'),
            iosched_apply=dict(type='path'),
            sysroot=dict(type='path'),
        ),
        supports_check_mode=True,
    )
    tool = find_tool(module)
    sysroot = ['--sysroot', module.params['sysroot']] if module.params['sysroot'] else []
    rc, data, err = run_json(module, tool, ['facts', '-J'] + sysroot + common_args(module), module.params['devices'])
    if rc != 0:
        module.warn('iosched-apply facts exited %d: %s' % (rc, (err or '').strip()
                                                            or '; '.join(str(e) for e in data.get('policy_errors') or [])))
    module.exit_json(changed=False, ansible_facts={'iosched': data})


if __name__ == '__main__':
    main()
