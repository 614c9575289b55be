# -*- coding: utf-8 -*-
# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the iosched.iosched modules: find and run iosched-apply with -J
# (the machine contract, schema 1, in iosched-apply(8)), render a policy
# drop-in, and turn the tool's per-setting report into an Ansible diff.

from __future__ import absolute_import, division, print_function
__metaclass__ = type

import json
import os
import re

SCHEMA = 1
# full-matched (re.fullmatch): '$' would let a trailing newline through
NAME_RE = re.compile(r'[A-Za-z0-9][A-Za-z0-9_.@+-]*')
KEY_RE = re.compile(r'[A-Za-z0-9_./-]+')
# a line break would start a new line ([Match] ...) of the drop-in; NUL ends a C string
BAD_CHARS = re.compile(r'[\r\n\x00]')
# a # or ; at the start of a value or after a blank starts a comment (iosched.conf(5))
COMMENT = re.compile(r'(^|[ \t])[#;]')
SBIN_DIRS = ['/usr/sbin', '/sbin', '/usr/local/sbin']


def find_tool(module):
    """The iosched-apply to run: the option if given, else the one in PATH or an sbin."""
    path = module.params.get('iosched_apply')
    if path:
        if not os.access(path, os.X_OK):
            module.fail_json(msg='iosched_apply: %s is not an executable' % path)
        return path
    return module.get_bin_path('iosched-apply', required=True, opt_dirs=SBIN_DIRS)


def common_args(module):
    root = module.params.get('config_root') or '/'
    return [] if os.path.normpath(root) == '/' else ['--config-root', root]


def check_devices(module, devices):
    """Kernel names or paths: not empty, no leading -, no CR, LF or NUL. They are also passed
    after "--" (run_json), so that even a name the check missed is never read as an option."""
    for d in devices or []:
        if not d or d.startswith('-') or BAD_CHARS.search(d):
            module.fail_json(msg='devices: %r: a kernel name or path is expected (not empty, no leading -, '
                             'no CR, LF or NUL)' % d)


def run_json(module, tool, args, devices):
    """Run `tool args... -- devices...` (devices checked by check_devices); return (rc, the JSON
    object, stderr). Fails the task when stdout is not one JSON object of schema 1."""
    check_devices(module, devices)
    cmd = [tool] + args + (['--'] + list(devices) if devices else [])
    rc, out, err = module.run_command(cmd)
    try:
        data = json.loads(out)
    except ValueError:
        module.fail_json(msg='%s did not print JSON (exit %d): %s' % (' '.join(cmd), rc, (err or out).strip()),
                         rc=rc, stdout=out, stderr=err, cmd=cmd)
    if not isinstance(data, dict) or data.get('schema') != SCHEMA:
        module.fail_json(msg='%s: unexpected JSON schema %r (this module speaks schema %d)'
                         % (tool, data.get('schema') if isinstance(data, dict) else None, SCHEMA),
                         rc=rc, stdout=out, stderr=err, cmd=cmd)
    return rc, data, err


def _failed_source(data, device):
    """file:line of the first failed setting of device in the report, or None."""
    for d in data.get('devices') or []:
        if not isinstance(d, dict) or d.get('name') != device:
            continue
        for st in d.get('settings') or []:
            if isinstance(st, dict) and st.get('state') == 'failed' and st.get('source'):
                return st['source']
    return None


def error_lines(data, replace=None):
    """The tool's errors as 'file:line: message' lines (file and line when it gave them).
    replace maps a path the tool named (a candidate file) to the name to show."""
    lines = []
    seen = set()
    # errors[] has every error; policy_errors[] repeats the policy's: keep one per file:line
    places = set((e.get('file'), e.get('line')) for e in data.get('errors') or []
                 if isinstance(e, dict) and e.get('file'))
    extra = [e for e in data.get('policy_errors') or []
             if not (isinstance(e, dict) and (e.get('file'), e.get('line')) in places)]
    for e in list(data.get('errors') or []) + extra:
        if not isinstance(e, dict):
            e = {'message': str(e)}
        f = e.get('file')
        if f and replace and f in replace:
            f = replace[f]
        where = ''
        if f:
            where = f + (':%d' % e['line'] if e.get('line') else '') + ': '
        elif e.get('device'):
            # a disk's failed write: the policy line that asked for it first (file:line once)
            src = _failed_source(data, e['device'])
            if src and replace:
                for old, new in replace.items():
                    src = src.replace(old, new)
            where = (src + ': ' if src else '') + e['device'] + ': '
        msg = e.get('message') or ''
        if replace:
            for old, new in replace.items():
                msg = msg.replace(old, new)
        line = where + msg
        if line not in seen:
            seen.add(line)
            lines.append(line)
    return lines


def _text(section, key, v):
    """One scalar as the drop-in writes it; refuses CR, LF and NUL."""
    if isinstance(v, bool):
        return '1' if v else '0'
    if v is None:
        return ''
    v = str(v)
    if BAD_CHARS.search(v):
        raise ValueError('%s: %s: a value cannot contain CR, LF or NUL: %r' % (section, key, v))
    return v


def _word(section, key, v):
    """One [Match] alternative: quoted when it has a blank, so that it stays one pattern
    (iosched.conf(5): Model="PERC H700"); there are no escapes, so no double quote inside."""
    v = _text(section, key, v)
    if '"' in v:
        raise ValueError('%s: %s: a value cannot contain a double quote (iosched.conf(5) has no escapes): %r'
                         % (section, key, v))
    return '"%s"' % v if (not v or ' ' in v or '\t' in v or v[0] in '#;') else v


def _match_value(key, v):
    """A [Match] value: alternatives separated by blanks, each one pattern.
    A leading ! negates the whole condition; Size= is a range, Property= KEY=GLOB..."""
    items = list(v) if isinstance(v, (list, tuple)) else [v]
    if not items:
        raise ValueError('match: %s: an empty list matches nothing' % key)
    if key == 'Size':
        return _unquoted('match', key, items)
    neg = ''
    if isinstance(items[0], str) and items[0].startswith('!'):
        neg, items[0] = '!', items[0][1:].lstrip()
    prop = ''
    if key == 'Property':
        # Property=KEY=GLOB...: one udev property, its glob alternatives after the =
        keys = set()
        globs = []
        for x in items:
            x = _text('match', key, x)
            k, eq, g = x.partition('=')
            if not eq or not k:
                raise ValueError('match: Property: %r: KEY=GLOB is expected' % x)
            keys.add(k)
            globs.append(g)
        if len(keys) != 1:
            raise ValueError('match: Property: one property per condition, got %s' % ', '.join(sorted(keys)))
        prop, items = keys.pop() + '=', globs
    return neg + prop + ' '.join(_word('match', key, x) for x in items)


def _unquoted(section, key, items):
    """Blank-separated words that cannot be quoted: a comment start (# or ; first or after
    a blank) would cut the value short, so it is refused."""
    v = ' '.join(_text(section, key, x) for x in items)
    if COMMENT.search(v):
        raise ValueError('%s: %s: %r would be cut at a comment (# or ; first or after a blank)' % (section, key, v))
    return v


def _set_value(key, v):
    """A [Set] value: a list is blank-separated (Scheduler= preferences)."""
    return _unquoted('set', key, list(v) if isinstance(v, (list, tuple)) else [v])


def render_dropin(module, who, match, settings):
    """The drop-in text of the contract: a comment, [Match], [Set], keys in the order given."""
    out = ['# Managed by %s; local changes are overwritten.' % who]
    for section, d in (('Match', match or {}), ('Set', settings or {})):
        if section == 'Match' and not d:
            continue
        out.append('[%s]' % section)
        for k, v in d.items():
            k = str(k)
            if not KEY_RE.fullmatch(k):
                module.fail_json(msg='%s: key %r: only letters, digits, _ . / - are allowed' % (section.lower(), k))
            try:
                v = _match_value(k, v) if section == 'Match' else _set_value(k, v)
            except ValueError as e:
                module.fail_json(msg=str(e))
            out.append('%s=%s' % (k, v))
    return '\n'.join(out) + '\n'


def _after(s, mode):
    """What the setting is after the run (apply) or would be (dry-run/check)."""
    st = s.get('state')
    if mode == 'apply':
        if s.get('after') is not None:
            return s['after']
        return s.get('before')
    if st in ('drift', 'would-set'):
        return s.get('wanted')
    return s.get('before')


def device_changes(data, replace=None):
    """Per disk, the settings that change (or would): [{name, class, settings:[{key,before,after,state,source}]}].
    replace maps a candidate file's path in a source to the name to show."""
    mode = data.get('mode')
    res = []
    for d in data.get('devices') or []:
        ch = []
        for s in d.get('settings') or []:
            before, after = s.get('before'), _after(s, mode)
            if before != after:
                src = s.get('source')
                for old, new in (replace or {}).items():
                    if src and src.startswith(old + ':'):
                        src = new + src[len(old):]
                ch.append({'key': s.get('key'), 'before': before, 'after': after,
                           'state': s.get('state'), 'source': src})
        if ch:
            res.append({'name': d.get('name'), 'class': d.get('class'), 'settings': ch})
    return res


def device_diff(data):
    """Ansible diff entries, one per disk that changes: its settings before and after."""
    diffs = []
    for d in device_changes(data):
        before = ''.join('%s=%s\n' % (s['key'], '' if s['before'] is None else s['before']) for s in d['settings'])
        after = ''.join('%s=%s\n' % (s['key'], '' if s['after'] is None else s['after']) for s in d['settings'])
        diffs.append({'before_header': '%s (%s) before' % (d['name'], d['class']),
                      'after_header': '%s (%s) after' % (d['name'], d['class']),
                      'before': before, 'after': after})
    return diffs
