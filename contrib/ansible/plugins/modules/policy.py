#!/usr/bin/python
# -*- coding: utf-8 -*-
# SPDX-License-Identifier: LGPL-2.1-or-later

from __future__ import absolute_import, division, print_function
__metaclass__ = type

DOCUMENTATION = r'''
---
module: policy
short_description: Manage one iosched policy drop-in and apply it
version_added: "0.1.0"
description:
  - Writes one policy drop-in C(<config_root>/etc/iosched.d/<name>.conf) for iosched (see iosched.conf(5))
    with a C([Match]) section from C(match) and a C([Set]) section from C(set), or removes it.
  - The new file is validated by C(iosched-apply --dry-run -J --drop-in <name>.conf=<candidate>) before it
    replaces the old one; a file the tool refuses (an unknown key, class or scheduler, a value out of range)
    fails the task with the tool's message (C(file:line) first) and leaves the old file in place.
  - The file is written atomically (a temporary file in the same directory, renamed over the old one),
    mode 0644, owned by root.
  - With C(apply=true) the policy is then applied with C(iosched-apply -J) to C(devices) (all disks if
    not given), so the kernel values change at once rather than at the next boot or uevent.
  - The task is changed when the file changed or iosched-apply reported that it changed a value;
    a second run with the same options is not changed.
  - Check mode predicts both without writing anything. The candidate file is passed to
    C(iosched-apply --dry-run --drop-in), and C(/dev/null) stands for a removed drop-in.
  - With C(--diff) the task shows the file's diff and, per disk, each setting before and after.
author:
  - iosched developers
requirements:
  - iosched-apply with the JSON contract of schema 1 (C(-J), C(--drop-in); iosched 0.1 or later)
options:
  name:
    description:
      - The drop-in's name, without directory; C(.conf) is added when missing.
      - C(60-perc) manages C(/etc/iosched.d/60-perc.conf). Files are read in lexical order, later ones
        win, so the number orders it among other drop-ins.
    type: str
    required: true
  match:
    description:
      - "The C([Match]) keys, in the order given, e.g. C({Class: raid}) or C({Model: [PERC H700]}) (written C(Model=\"PERC H700\"))."
      - A list value is written as blank-separated alternatives (an element with a blank is quoted).
        Booleans are written as C(1)/C(0).
      - Empty or omitted means the rule matches every disk.
    type: dict
    default: {}
  set:
    description:
      - "The C([Set]) keys, in the order given, e.g. C({Scheduler: none, queue/read_ahead_kb: 512})."
      - Values are written as strings; a list value is written blank-separated (scheduler preferences).
      - Required with C(state=present).
    type: dict
  state:
    description:
      - C(present) writes the drop-in, C(absent) removes it.
    type: str
    choices: [present, absent]
    default: present
  apply:
    description:
      - Apply the policy to C(devices) after the file changed, and also when it did not but a disk
        drifted from it. With C(false) only the file is managed (the udev rule and ioschedd apply it
        at the next uevent or boot).
    type: bool
    default: true
  devices:
    description:
      - Limit the apply (and the dry-run that predicts and validates) to these disks, by kernel name
        (C(sdb), C(nvme0n1)) or path. Default is every disk of the host.
    type: list
    elements: str
    default: []
  config_root:
    description:
      - Root of the policy directories, passed to iosched-apply as C(--config-root) when not C(/).
        The drop-in goes to C(<config_root>/etc/iosched.d/). Tests use a temporary directory here
        so that the host's C(/etc) is untouched.
    type: path
    default: /
  iosched_apply:
    description:
      - Path of the iosched-apply program. Default is the one found in C(PATH), C(/usr/sbin),
        C(/sbin) or C(/usr/local/sbin).
    type: path
notes:
  - Runs as root (the file is root-owned and sysfs is written).
  - Supports check mode and diff mode.
seealso:
  - module: iosched.iosched.facts
'''

EXAMPLES = r'''
- name: PERC H700 volumes get no scheduler and more read-ahead
  iosched.iosched.policy:
    name: 60-perc
    match:
      Class: raid
      Model: ['PERC H700']   # a list element with a blank is written quoted
    set:
      Scheduler: none
      queue/read_ahead_kb: 512

- name: Write the file only; udev and ioschedd apply it
  iosched.iosched.policy:
    name: 50-hdd
    match: {Class: hdd}
    set: {Scheduler: [bfq, mq-deadline]}
    apply: false

- name: Limit the run to two disks, in a test root
  iosched.iosched.policy:
    name: 60-test
    match: {Name: [loop5, loop6]}
    set: {Scheduler: mq-deadline}
    devices: [loop5, loop6]
    config_root: /tmp/root

- name: Remove the rule and re-apply what remains
  iosched.iosched.policy:
    name: 60-perc
    state: absent
'''

RETURN = r'''
path:
  description: The drop-in's path.
  returned: always
  type: str
  sample: /etc/iosched.d/60-perc.conf
content:
  description: The drop-in's content (with C(state=present)).
  returned: when state is present
  type: str
  sample: "# Managed by Ansible iosched.iosched.policy; local changes are overwritten.\n[Match]\nClass=raid\n[Set]\nScheduler=none\n"
file_changed:
  description: Whether the drop-in was (or in check mode would be) written or removed.
  returned: always
  type: bool
  sample: true
devices:
  description:
    - Per disk that changed (or would change), the settings with their value before and after
      (after is the value read back from sysfs in apply mode, the wanted one in check mode).
  returned: always
  type: list
  elements: dict
  sample: [{"name": "sdb", "class": "raid", "settings": [{"key": "scheduler", "before": "mq-deadline",
            "after": "none", "state": "applied", "source": "/etc/iosched.d/60-perc.conf:5"}]}]
report:
  description: The JSON object iosched-apply printed for the last run (dry-run or apply), schema 1.
  returned: when iosched-apply ran
  type: dict
warnings:
  description: The policy's diagnostics from iosched-apply.
  returned: when iosched-apply ran
  type: list
  elements: str
'''

import os
import tempfile

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.iosched.iosched.plugins.module_utils.iosched import (
    NAME_RE, common_args, device_changes, device_diff, error_lines, errors_about, find_tool,
    render_dropin, run_json)

WHO = 'Ansible iosched.iosched.policy'


def read_file(path):
    try:
        with open(path) as f:
            return f.read()
    except (IOError, OSError):
        return None


def write_candidate(module, directory, base, content):
    """A root-owned 0644 file with content in directory; returns its path."""
    fd, tmp = tempfile.mkstemp(prefix='.%s.' % base, suffix='.tmp', dir=directory)
    try:
        with os.fdopen(fd, 'w') as f:
            f.write(content)
            f.flush()
            os.fchmod(f.fileno(), 0o644)
            if os.geteuid() == 0:
                os.fchown(f.fileno(), 0, 0)
            os.fsync(f.fileno())
    except Exception as e:
        os.unlink(tmp)
        module.fail_json(msg='cannot write %s: %s' % (tmp, e))
    return tmp


def fsync_dir(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def main():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type='str', required=True),
            match=dict(type='dict', default={}),
            set=dict(type='dict'),
            state=dict(type='str', default='present', choices=['present', 'absent']),
            apply=dict(type='bool', default=True),
            devices=dict(type='list', elements='str', default=[]),
            config_root=dict(type='path', default='/'),
            iosched_apply=dict(type='path'),
        ),
        required_if=[('state', 'present', ('set',))],
        supports_check_mode=True,
    )
    p = module.params
    base = p['name'][:-5] if p['name'].endswith('.conf') else p['name']
    if not NAME_RE.match(base):
        module.fail_json(msg='name %r: a file name (letters, digits, _ . @ + -) is expected' % p['name'])
    fname = base + '.conf'
    directory = os.path.join(p['config_root'], 'etc', 'iosched.d')
    path = os.path.join(directory, fname)
    tool = find_tool(module)
    args = common_args(module)
    devices = p['devices']

    old = read_file(path)
    result = dict(changed=False, path=path, file_changed=False, devices=[])
    diffs = []
    cand = None
    try:
        if p['state'] == 'present':
            content = render_dropin(module, WHO, p['match'], p['set'])
            result['content'] = content
            file_changed = old != content
            if file_changed:
                diffs.append({'before_header': path, 'after_header': path,
                              'before': old or '', 'after': content})
                # the candidate: next to the target (renamed into place), or a private
                # temporary directory in check mode (nothing under config_root is touched)
                if module.check_mode:
                    cand = write_candidate(module, module.tmpdir, base, content)
                else:
                    if not os.path.isdir(directory):
                        os.makedirs(directory, 0o755)
                    cand = write_candidate(module, directory, base, content)
                rc, data, err = run_json(module, tool, ['--dry-run', '-J'] + args +
                                         ['--drop-in', '%s=%s' % (fname, cand)], devices)
                bad = errors_about(data, (cand, path), fname)
                if bad or (module.check_mode and rc != 0):
                    # the candidate's name in the tool's messages is the file the user knows
                    names = dict((e.get('file'), path) for e in (data.get('errors') or []) + (data.get('policy_errors') or [])
                                 if isinstance(e, dict) and e.get('file') and
                                 (e['file'] == cand or os.path.basename(e['file']) == fname))
                    names[cand] = path
                    msg = error_lines(data, names)
                    module.fail_json(msg='iosched-apply refused the new %s (the old one is left in place): %s'
                                     % (path, '; '.join(msg) if msg else 'exit %d' % rc),
                                     errors=msg, report=data, rc=rc, path=path)
                if module.check_mode:
                    result['report'] = data
            dropin = ['--drop-in', '%s=%s' % (fname, cand)] if (module.check_mode and cand) else []
        else:
            file_changed = old is not None
            if file_changed:
                diffs.append({'before_header': path, 'after_header': path + ' (removed)',
                              'before': old, 'after': ''})
            dropin = ['--drop-in', '%s=/dev/null' % fname]

        result['file_changed'] = file_changed

        if module.check_mode:
            if p['apply'] and not (p['state'] == 'present' and file_changed and 'report' in result):
                rc, data, err = run_json(module, tool, ['--dry-run', '-J'] + args + dropin, devices)
                if rc != 0:
                    msg = error_lines(data)
                    module.fail_json(msg='; '.join(msg) or 'iosched-apply --dry-run: exit %d' % rc,
                                     errors=msg, report=data, rc=rc, path=path)
                result['report'] = data
            data = result.get('report')
            if p['apply'] and data:
                result['devices'] = device_changes(data, {cand: path} if cand else None)
                diffs.extend(device_diff(data))
                result['changed'] = file_changed or bool(data.get('changed'))
            else:
                result['changed'] = file_changed
        else:
            if p['state'] == 'present' and file_changed:
                os.rename(cand, path)
                cand = None
                fsync_dir(directory)
            elif p['state'] == 'absent' and file_changed:
                os.unlink(path)
                fsync_dir(directory)
            result['changed'] = file_changed
            if p['apply']:
                rc, data, err = run_json(module, tool, ['-J'] + args, devices)
                result['report'] = data
                result['devices'] = device_changes(data)
                diffs.extend(device_diff(data))
                result['changed'] = file_changed or bool(data.get('changed'))
                if rc != 0 or data.get('exit', 0) != 0:
                    msg = error_lines(data)
                    module.fail_json(msg='; '.join(msg) or 'iosched-apply: exit %d' % rc,
                                     errors=msg, rc=rc, **result)
        if 'report' in result:
            w = result['report'].get('warnings') or []
            for line in w:
                module.warn('iosched-apply: %s' % line)
        if module._diff:
            result['diff'] = diffs
        module.exit_json(**result)
    finally:
        if cand and os.path.exists(cand):
            os.unlink(cand)


if __name__ == '__main__':
    main()
