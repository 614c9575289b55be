#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
# make-seeds.py: writes the committed seed corpora of tests/fuzz/corpus/ from
# the tree's own test data (policy files of tests/golden and tests/bad-configs,
# the udev database files of tests/fixtures, GRUB files and command lines as
# in tests/unit/test-grub.c, iosched-bench command lines as in
# tests/unit/test-bench-args.c).  Run from the top directory; it rewrites the
# seeds it makes and leaves other files of corpus/ (found inputs) alone.
import glob, os, tarfile

top = os.getcwd()
C = 'tests/fuzz/corpus'

def put(t, name, data):
    os.makedirs(f'{C}/{t}', exist_ok=True)
    with open(f'{C}/{t}/{name}', 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# policy: whole files, and drop-in combinations (files joined by NUL)
site = open('tests/golden/data/site-policy.conf', 'rb').read()
bad = sorted(glob.glob('tests/bad-configs/*.conf'))
for b in bad:
    put('policy', os.path.basename(b), open(b, 'rb').read())
put('policy', 'site-policy.conf', site)
for i, b in enumerate(bad):
    put('policy', f'dropin-site+{os.path.basename(b)}', site + b'\0' + open(b, 'rb').read())
put('policy', 'dropin-three', b'[Match]\nClass=hdd\n[Set]\nScheduler=bfq\n\0'
    b'[Match]\nClass=hdd\nRotational=1\n[Set]\nScheduler=mq-deadline\nqueue/iosched/read_expire=100\n\0'
    b'[Daemon]\nDriftInterval=500ms\n[Match]\nName=sd* !sdz\n[Set]\nqueue/nr_requests=32\n')
put('policy', 'match-keys', b'[Match]\nVendor=ATA\nModel=ST*\nSerial=Z*\nWWN=0x5000*\nDriver=ahci\n'
    b'Transport=sata\nPCI=8086:*\nZoned=none\nProperty=ID_BUS=ata\nProperty=!ID_PATH=*usb*\n'
    b'Size=1T-\nRemovable=0\nRotational=1\n[Set]\nScheduler=bfq mq-deadline\n'
    b'queue/iosched/slice_idle=0\nqueue/iosched/low_latency=0\nqueue/read_ahead_kb=128\n'
    b'queue/wbt_lat_usec=75000\nqueue/max_sectors_kb=512\nqueue/rq_affinity=2\n'
    b'queue/write_cache=write through\n')
put('policy', 'zoned', b'[Match]\nZoned=host-managed\n[Set]\nScheduler=bfq\n\0[Match]\nSize=-512G\n[Set]\nScheduler=kyber\n'
    b'queue/iosched/read_lat_nsec=2000000\nqueue/iosched/write_lat_nsec=10000000\n')

# udevdb: the captured udev database files
n = 0
for t in sorted(glob.glob('tests/fixtures/*.tar.gz')):
    with tarfile.open(t) as tf:
        for m in tf.getmembers():
            if m.isfile() and '/run/udev/data/b' in '/' + m.name:
                data = tf.extractfile(m).read()
                put('udevdb', os.path.basename(t)[:-7] + '-' + os.path.basename(m.name).replace(':', '_'), data)
                n += 1
put('udevdb', 'synthetic', b'S:disk/by-id/ata-X\nI:123456\nE:ID_BUS=ata\nE:ID_MODEL=X\nE:NOEQ\nG:systemd\nE:=empty\nE:K=v=w\n')

# grub: /proc/cmdline NUL /etc/default/grub NUL grub.d/*.cfg ...
grub = {
    'debian-default': ('BOOT_IMAGE=/vmlinuz root=UUID=1 ro quiet',
        ['GRUB_DEFAULT=0\nGRUB_TIMEOUT=5\nGRUB_DISTRIBUTOR=`lsb_release -i -s 2> /dev/null || echo Debian`\n'
         'GRUB_CMDLINE_LINUX_DEFAULT="quiet"\nGRUB_CMDLINE_LINUX=""\n']),
    'elevator-cmdline': ('ro elevator=noop quiet elevator=deadline', []),
    'quoted': ('"elevator=bfq"', ['export GRUB_CMDLINE_LINUX=\'elevator=deadline splash\' # a comment\n']),
    'multiline': ('', ['GRUB_CMDLINE_LINUX="quiet \\"x\\"\n  console=ttyS0 \\\n  elevator=kyber"\n']),
    'variable': ('elevator=cfq', ['SCHED="elevator=noop"\nGRUB_CMDLINE_LINUX="ro $SCHED ${SCHED}"\n'
                                  'GRUB_CMDLINE_LINUX_DEFAULT="$GRUB_CMDLINE_LINUX_DEFAULT elevator=bfq"\n']),
    'dropins': ('elevator=mq-deadline', ['GRUB_CMDLINE_LINUX="elevator=noop"\n',
                                         'GRUB_CMDLINE_LINUX="quiet elevator=deadline"\n',
                                         '\n\nGRUB_CMDLINE_LINUX="elevator=bfq"\n']),
    'unsupported': ('', ['X=$(cat /etc/x)\nGRUB_CMDLINE_LINUX="`echo elevator=noop` ${X:-y}"\n'
                         'if [ -f /x ]; then GRUB_CMDLINE_LINUX=elevator=kyber; fi\n'
                         'GRUB_CMDLINE_LINUX_DEFAULT=elevator=bfq; . /etc/other\n']),
}
for name, (cmdline, files) in grub.items():
    put('grub', name, '\0'.join([cmdline] + files))

# bench-options: argument vectors joined by NUL
bench = {
    'basic': ['--filename=/dev/loop0', '--rw=randread', '--bs=4k', '--iodepth=32', '--runtime=30s'],
    'mixed': ['--filename', '/dev/sdb', '--rw=randrw', '--rwmixread=70', '--bs=4k,64k', '--numjobs=4',
              '--ioengine=libaio', '--direct=1', '--size=10%', '--offset=1G', '--io_size=2G'],
    'compare': ['--filename=/dev/nvme0n1', '--compare=none,mq-deadline,kyber,bfq', '--loops=5',
                '--objective=p99', '--policy=/etc/iosched.conf', '--output-format=json+'],
    'tuning': ['--filename=/dev/x', '--fixedbufs=0', '--registerfiles=1', '--iodepth_batch_submit=8',
               '--iodepth_batch_complete_min=1', '--iodepth_batch_complete_max=16', '--eta=never',
               '--clocksource=clock_gettime', '--percentile_list=50:99:99.9', '--cpus_allowed=0-1',
               '--cpus_allowed_policy=split', '--ramp_time=500ms', '--time_based', '--norandommap',
               '--randrepeat=0', '--group_reporting', '--name=job1', '--allow-write', '--rw=write'],
    'help': ['--help'], 'version': ['-V'], 'json': ['-J', '--filename=/dev/loop1'],
    'bad': ['--iodepth=0', '--bs=3', '--runtime=', '--nonsense', 'positional'],
}
for name, argv in bench.items():
    put('bench-options', name, '\0'.join(argv))

# sysfs: a fixture byte, then edit lines
fix = ["loop", "virtio-blk", "nvme", "ahci-sata-hdd", "usb-stick", "md-raid1", "dm-linear",
       "nvme-zoned", "megaraid-ld", "sd-card", "nbd", "zram", "virtio-scsi-rot", "nvme-multipath",
       "loop-under-dm", "megaraid-jbod-6.12"]
edits = [
    '',
    'w @/queue/scheduler [none] mq-deadline kyber bfq\\n\nw @/queue/rotational 1\n',
    'w @/queue/scheduler none mq-deadline [bfq\nw @/queue/rotational x\nd @/queue/nr_requests\n',
    'd @/queue\n',
    'l @/queue/scheduler @/queue/scheduler\nl @/queue/iosched ../queue\n',
    'l @/queue OUT\nl @/device ../../../../../../../..\n',
    'l @/queue /sys/block/loop0/queue\nl @/device /run/udev/data\n',
    'w @/dev 8:\\xff\nw @/size -1\nw @/removable 2\n',
    'w @/queue/scheduler \\x00\\x00\nw @/queue/zoned host-managed\nm @/queue/iosched/x\n',
    'd sys/block\nm sys/block\n',
    'l sys/block/evil ../../..\nl sys/block/loop9 sys/block/loop9\n',
    'w @/queue/nr_hw_queues 4294967296\nw @/queue/logical_block_size 0\nw @/device/model \\xff\\xfe\\x01\n',
]
for i, f in enumerate(fix):
    for j, e in enumerate(edits):
        if j and (i + j) % 4:
            continue
        put('sysfs', f'{f}-{j}', bytes([i]) + e.encode())
