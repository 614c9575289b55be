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
  - One validation, the same in check mode and in the real run, before anything is written or removed.
    The dry-run C(iosched-apply --dry-run -J --drop-in <name>.conf=<candidate> -- <devices>) must exit 0. Whatever the tool
    refuses (an unknown key or section, a scheduler name close to a known one, a value out of range, a setting
    that would fail on a disk it matches, an error in another policy file) fails the task with the tool's
    message (C(file:line) first) and leaves the old file in place. The module has no list of keys or values of
    its own; it refuses only what cannot be written as one line (CR, LF, NUL; a double quote in a C(match) value).
  - A same-named file in C(/run/iosched.d) (a runtime drop-in, read after C(/etc/iosched.d)) would mask the file
    this module writes; the task fails naming it, in check mode and in the real run, and nothing is written.
    With C(state=absent), a same-named vendor file (C(/usr/lib/iosched)) takes effect once the file is removed,
    and the prediction says so.
  - The file is written atomically (a temporary file in the same directory, renamed over the old one),
    mode 0644, owned by root.
  - With C(apply=true) the policy is then applied with C(iosched-apply -J) to C(devices) (all disks if
    not given), so the kernel values change at once rather than at the next boot or uevent. If that apply
    fails (what the dry run cannot foresee, such as a value the kernel does not keep or a busy queue), the drop-in is
    put back as it was (removed if it was new) and the task fails with the tool's words and C(restored).
  - The task is changed when the file changed or iosched-apply reported that it changed a value;
    a second run with the same options is not changed.
  - Check mode predicts both without writing anything. The candidate file is passed to
    C(iosched-apply --dry-run --drop-in), and C(/dev/null) (or the vendor file it uncovers) stands for a
    removed drop-in.
  - When the file changed, the initramfs is refreshed (C(update-initramfs -u), else C(dracut -f)), as the
    package's trigger does, so that early boot applies the same policy (see C(initramfs)).
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
      - "The C([Match]) keys, in the order given, e.g. C({Class: raid}) or C({Model: PERC H700}) (written C(Model=\"PERC H700\"))."
      - A value is one pattern, quoted when it has a blank or begins with C(#) or C(;) (a comment there);
        a list value is blank-separated alternatives,
        each one pattern. A leading C(!) negates the condition. C(Property) values are C(KEY=GLOB) (one KEY).
        Booleans are written as C(1)/C(0). CR, LF, NUL and double quotes are refused.
      - Empty or omitted means the rule matches every disk.
    type: dict
    default: {}
  set:
    description:
      - "The C([Set]) keys, in the order given, e.g. C({Scheduler: none, queue/read_ahead_kb: 512})."
      - Values are written as strings; a list value is written blank-separated (scheduler preferences).
        CR, LF and NUL are refused, and so is a value that a comment would cut short (C(#) or C(;) first
        or after a blank; [Set] values are not quoted).
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
        (C(sdb), C(nvme0n1)) or path. Default is every disk of the host. A name that begins with C(-)
        (it would be read as an option), is empty or has CR, LF or NUL fails the task.
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
  initramfs:
    description:
      - Refresh the initramfs when the drop-in was written or removed, so that the copy of the policy the
        initramfs hook put there (used before the root file system is mounted) is not stale.
      - The command is C(initramfs_command), else C(update-initramfs -u) (initramfs-tools; Debian's trigger),
        else C(dracut -f); nothing when neither is installed. With a C(config_root) other than C(/) only an
        explicit C(initramfs_command) runs (the initramfs holds the host's C(/etc)).
      - With many drop-ins in one play, set C(false) here and refresh once at the end.
    type: bool
    default: true
  initramfs_command:
    description:
      - The command (program and arguments) that refreshes the initramfs, instead of the one found.
    type: list
    elements: str
    default: []
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
      Model: PERC H700       # one pattern: written Model="PERC H700"
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
initramfs_refreshed:
  description: Whether the initramfs was (or in check mode would be) refreshed.
  returned: always
  type: bool
initramfs_command:
  description: The command that refreshed (or would refresh) the initramfs.
  returned: when the initramfs was or would be refreshed
  type: list
  elements: str
restored:
  description: The apply failed and the drop-in was put back as it was (removed if it was new).
  returned: on that failure
  type: bool
mask:
  description: The file in /run/iosched.d that masks the drop-in (the task failed).
  returned: on that failure
  type: str
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
    BAD_CHARS, NAME_RE, SBIN_DIRS, check_devices, common_args, device_changes, device_diff, error_lines,
    find_tool, render_dropin, run_json)

WHO = 'Ansible iosched.iosched.policy'


def read_file(path):
    """The file's bytes, or None when it is absent (any encoding: a drop-in need not be UTF-8)."""
    try:
        with open(path, 'rb') as f:
            return f.read()
    except (IOError, OSError):
        return None


def text(b):
    """Bytes shown in a diff: undecodable bytes become U+FFFD, never an exception."""
    return b.decode('utf-8', 'replace') if b is not None else ''


def write_candidate(module, directory, base, content):
    """A root-owned 0644 file with content in directory; returns its path."""
    fd, tmp = tempfile.mkstemp(prefix='.%s.' % base, suffix='.tmp', dir=directory)
    try:
        with os.fdopen(fd, 'wb') as f:
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


def put_back(module, directory, base, path, old):
    """The drop-in as it was before this task: old's bytes, or no file (old is None)."""
    if old is None:
        if os.path.exists(path):
            os.unlink(path)
    else:
        os.rename(write_candidate(module, directory, base, old), path)
    fsync_dir(directory)


def fsync_dir(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def under(root, path):
    return os.path.join(root, path.lstrip('/'))


def runtime_file(root, fname):
    """The same-named file of /run/iosched.d, read after /etc/iosched.d (iosched.conf(5)):
    it masks the file this module writes. None when there is none."""
    p = under(root, '/run/iosched.d/' + fname)
    return p if os.path.lexists(p) else None


def is_mask(path):
    return os.path.islink(path) and os.readlink(path) == '/dev/null'


def vendor_file(root, tool, fname):
    """The same-named vendor file that takes effect once /etc's is removed, or None.
    The vendor directory is $(PREFIX)/lib/iosched of the install (as the initramfs hook
    finds it), /usr/lib/iosched (distribution packages) or /usr/local/lib/iosched."""
    prefix = tool[:-len('/sbin/iosched-apply')] if tool.endswith('/sbin/iosched-apply') else '/usr'
    for d in (prefix + '/lib/iosched', '/usr/lib/iosched', '/usr/local/lib/iosched'):
        p = under(root, d + '/' + fname)
        if os.path.lexists(p):
            return p
    return None


def initramfs_command(module):
    """The command that refreshes the initramfs, as the package's trigger does, or None.
    initramfs_command if given; else update-initramfs -u (initramfs-tools, and Debian's dracut),
    else dracut -f. With a config_root other than / only an explicit command runs: the
    initramfs holds the host's /etc, not a test root's."""
    p = module.params
    if not p['initramfs']:
        return None
    if p['initramfs_command']:
        return list(p['initramfs_command'])
    if os.path.normpath(p['config_root']) != '/':
        return None
    for prog, arg in (('update-initramfs', '-u'), ('dracut', '-f')):
        path = module.get_bin_path(prog, opt_dirs=SBIN_DIRS)
        if path:
            return [path, arg]
    return None


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
            initramfs=dict(type='bool', default=True),
            initramfs_command=dict(type='list', elements='str', default=[]),
        ),
        required_if=[('state', 'present', ('set',))],
        supports_check_mode=True,
    )
    p = module.params
    base = p['name'][:-5] if p['name'].endswith('.conf') else p['name']
    if BAD_CHARS.search(p['name']) or not NAME_RE.fullmatch(base):
        module.fail_json(msg='name %r: a file name (letters, digits, _ . @ + -) is expected' % p['name'])
    fname = base + '.conf'
    root = p['config_root']
    directory = under(root, '/etc/iosched.d')
    path = os.path.join(directory, fname)
    tool = find_tool(module)
    args = common_args(module)
    devices = p['devices']
    check_devices(module, devices)

    old = read_file(path)
    result = dict(changed=False, path=path, file_changed=False, devices=[], initramfs_refreshed=False)
    diffs = []
    cand = None
    try:
        # what takes effect must be what this task manages: a same-named file in
        # /run/iosched.d masks /etc/iosched.d's (a link to /dev/null there masks it too)
        run_file = runtime_file(root, fname)
        if p['state'] == 'present':
            if run_file:
                module.fail_json(msg='%s masks %s (a file in /run/iosched.d overrides the one of the same name '
                                 'in /etc/iosched.d): remove it first; nothing was written' % (run_file, path),
                                 path=path, mask=run_file)
            content = render_dropin(module, WHO, p['match'], p['set'])
            data = content.encode('utf-8')
            result['content'] = content
            file_changed = old != data
            if file_changed:
                diffs.append({'before_header': path, 'after_header': path,
                              'before': text(old), 'after': content})
                # the candidate: next to the target (renamed into place), or a private
                # temporary directory in check mode (nothing under config_root is touched)
                if module.check_mode:
                    cand = write_candidate(module, module.tmpdir, base, data)
                else:
                    if not os.path.isdir(directory):
                        os.makedirs(directory, 0o755)
                    cand = write_candidate(module, directory, base, data)
            stand_in = cand
        else:
            if run_file and not is_mask(run_file):
                module.fail_json(msg='%s holds the drop-in %s and overrides /etc/iosched.d: removing %s would '
                                 'leave it in force; remove it first; nothing was removed' % (run_file, fname, path),
                                 path=path, mask=run_file)
            file_changed = old is not None
            if file_changed:
                diffs.append({'before_header': path, 'after_header': path + ' (removed)',
                              'before': text(old), 'after': ''})
            # without /etc's file, a vendor file of the same name takes effect (unless
            # /run/iosched.d masks the name with a link to /dev/null)
            stand_in = (not run_file and vendor_file(root, tool, fname)) or '/dev/null'
        result['file_changed'] = file_changed
        dropin = ['--drop-in', '%s=%s' % (fname, stand_in)] if file_changed else []
        names = {cand: path} if cand else {}

        # one validation, the same in check mode and in the real run, before anything is
        # written: the tool's dry-run with the new file in place must succeed (exit 0)
        report = None
        if file_changed:
            rc, report, err = run_json(module, tool, ['--dry-run', '-J'] + args + dropin, devices)
            if rc != 0 or report.get('exit', 0) != 0:
                for e in (report.get('errors') or []) + (report.get('policy_errors') or []):
                    if isinstance(e, dict) and e.get('file') and os.path.basename(e['file']) == fname:
                        names.setdefault(e['file'], path)
                msg = error_lines(report, names)
                module.fail_json(msg='iosched-apply --dry-run with the new %s fails (nothing was %s): %s'
                                 % (path, 'written' if p['state'] == 'present' else 'removed',
                                    '; '.join(msg) if msg else 'exit %d' % rc),
                                 errors=msg, report=report, rc=rc, path=path)

        refresh = initramfs_command(module) if file_changed else None
        if module.check_mode:
            if p['apply'] and report is None:
                rc, report, err = run_json(module, tool, ['--dry-run', '-J'] + args, devices)
                if rc != 0:
                    msg = error_lines(report)
                    module.fail_json(msg='; '.join(msg) or 'iosched-apply --dry-run: exit %d' % rc,
                                     errors=msg, report=report, rc=rc, path=path)
            result['changed'] = file_changed
            if report is not None:
                result['report'] = report
            if p['apply'] and report:
                result['devices'] = device_changes(report, names)
                diffs.extend(device_diff(report))
                result['changed'] = file_changed or bool(report.get('changed'))
            if refresh:
                result['initramfs_refreshed'] = True
                result['initramfs_command'] = refresh
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
                    # the file goes back as it was (removed if it is new): the next run, and
                    # every other task that runs iosched-apply, finds the policy it had
                    if file_changed:
                        put_back(module, directory, base, path, old)
                        result['file_changed'] = False
                        result['restored'] = True
                    module.fail_json(msg='%s%s' % ('; '.join(msg) or 'exit %d' % rc,
                                                   '; %s put back as it was' % path if file_changed else ''),
                                     errors=msg, rc=rc, **result)
            if refresh:
                # the early-boot copy of the policy (initramfs/hooks/iosched, dracut/90iosched),
                # once the apply held (a failed one put the file back)
                rc, out, err = module.run_command(refresh)
                result['initramfs_command'] = refresh
                if rc != 0:
                    module.fail_json(msg='the policy file changed but %s failed (exit %d): %s'
                                     % (' '.join(refresh), rc, (err or out).strip()), rc=rc, **result)
                result['initramfs_refreshed'] = True
        if 'report' in result:
            w = result['report'].get('warnings') or []
            for line in w:
                for old_name, new_name in names.items():
                    line = line.replace(old_name, new_name)
                module.warn('iosched-apply: %s' % line)
        if module._diff:
            result['diff'] = diffs
        module.exit_json(**result)
    finally:
        if cand and os.path.exists(cand):
            os.unlink(cand)


if __name__ == '__main__':
    main()
