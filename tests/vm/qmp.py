#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# qmp.py SOCKET 'JSON-COMMAND' ... : send QMP commands to a QEMU started with
# -qmp unix:SOCKET,server=on,wait=off and print each reply on one line.
# Exits 1 if a command returned an error.
import json, socket, sys

def main():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(sys.argv[1])
    f = s.makefile("rw")
    def recv():
        while True:
            line = f.readline()
            if not line:
                raise SystemExit("qmp: connection closed")
            msg = json.loads(line)
            if "event" in msg:
                continue
            return msg
    recv()  # greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n"); f.flush()
    recv()
    rc = 0
    for cmd in sys.argv[2:]:
        f.write(cmd + "\n"); f.flush()
        r = recv()
        print(json.dumps(r))
        if "error" in r:
            rc = 1
    return rc

sys.exit(main())
