#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""mk-fake-tree.py DIR [N]: generate a fake sysfs + udev tree of N whole disks
(default 1000) shaped like the captured ones: SATA disks on AHCI (half
rotational), NVMe namespaces, and logical drives on an HP Smart Array (hpsa).
Used by bench/list-1000.sh to time iosched-apply over many disks."""
import os, sys

root, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000

def w(path, data):
    p = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, 'w') as f:
        f.write(data)

def ln(path, target):
    p = os.path.join(root, path.lstrip('/'))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    if not os.path.lexists(p):
        os.symlink(target, p)

def queue(d, rota, sched):
    w(d + '/queue/rotational', '%d\n' % rota)
    w(d + '/queue/scheduler', sched + '\n')
    w(d + '/queue/zoned', 'none\n')
    for k, v in (('nr_requests', 256), ('read_ahead_kb', 128), ('rq_affinity', 1),
                 ('nomerges', 0), ('add_random', 0), ('wbt_lat_usec', 2000),
                 ('max_sectors_kb', 1280), ('max_hw_sectors_kb', 32767)):
        w(d + '/queue/' + k, '%d\n' % v)
    w(d + '/queue/iosched/read_expire', '500\n')
    w(d + '/mq/0/nr_tags', '32\n')

def disk(name, majmin, devpath, rota, sched, props):
    d = '/sys' + devpath
    w(d + '/dev', majmin + '\n')
    w(d + '/size', '3907029168\n')
    w(d + '/removable', '0\n')
    w(d + '/hidden', '0\n')
    queue(d, rota, sched)
    depth = devpath.count('/')
    ln('/sys/block/' + name, '../' + devpath.lstrip('/'))
    ln('/sys/class/block/' + name, '../../' + devpath.lstrip('/'))
    ln('/sys/dev/block/' + majmin, '../../' + devpath.lstrip('/'))
    w('/run/udev/data/b' + majmin, ''.join('E:%s=%s\n' % kv for kv in props))

def pci(addr, vendor, device, cls, driver):
    d = '/sys/devices/pci0000:00/' + addr
    w(d + '/vendor', '0x%s\n' % vendor)
    w(d + '/device', '0x%s\n' % device)
    w(d + '/class', '0x%s\n' % cls)
    os.makedirs(os.path.join(root, 'sys/bus/pci/drivers', driver), exist_ok=True)
    ln(d + '/driver', '../../../bus/pci/drivers/' + driver)
    return '/devices/pci0000:00/' + addr

def sdname(i):
    s = ''
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(97 + r) + s
    return 'sd' + s

# A large storage server: 6 SATA disks on AHCI (one port per SCSI host),
# 500 SAS disks behind one mpt3sas HBA and its expanders (one host), 244
# logical drives on one HP Smart Array (hpsa), 250 NVMe namespaces on 10
# controllers.  Scaled down proportionally for other N.
ahci = pci('0000:00:1f.2', '8086', '2922', '010601', 'ahci')
sas = pci('0000:00:05.0', '1000', '0097', '010700', 'mpt3sas')
hpsa = pci('0000:00:03.0', '103c', '323a', '010400', 'hpsa')
n_ahci = min(6, n)
n_nvme = n // 4
n_hpsa = (n - n_ahci - n_nvme) * 244 // 744
n_sas = n - n_ahci - n_nvme - n_hpsa
sd_i = 0

def scsi_disk(ctrl, drv, h, c, t, vendor, model, rota, props):
    global sd_i
    name = sdname(sd_i)
    mm = '8:%d' % (sd_i * 16)           # sd minors step by 16 (partitions)
    sd_i += 1
    host = ctrl + '/host%d' % h
    w('/sys' + host + '/scsi_host/host%d/proc_name' % h, drv + '\n')
    sdev = host + '/target%d:%d:%d/%d:%d:%d:0' % (h, c, t, h, c, t)
    w('/sys' + sdev + '/vendor', vendor + '\n')
    w('/sys' + sdev + '/model', model + '\n')
    # standard INQUIRY data as the kernel caches it: vendor at 8, model at 16
    with open(os.path.join(root, 'sys' + sdev, 'inquiry'), 'wb') as f:
        f.write(b'\0\0\x06\x12\x5b\0\0\x02' + vendor.encode()[:8].ljust(8) +
                model.encode()[:16].ljust(16) + b'0001')
    disk(name, mm, sdev + '/block/' + name, rota, 'none [mq-deadline] kyber bfq', props)

for i in range(n_ahci):
    scsi_disk(ahci, 'ahci', i, 0, 0, 'ATA     ', 'WDC WD20EFRX-68E', i % 2,
              [('ID_BUS', 'ata'), ('ID_SERIAL_SHORT', 'WD%06d' % i),
               ('ID_ATA_ROTATION_RATE_RPM', '5400' if i % 2 else '0')])
for i in range(n_sas):
    scsi_disk(sas, 'mpt3sas', 10, 0, i, 'SEAGATE ', 'ST8000NM0075    ', 1,
              [('ID_BUS', 'scsi'), ('ID_SERIAL_SHORT', 'ZA%06d' % i)])
for i in range(n_hpsa):
    scsi_disk(hpsa, 'hpsa', 11, 1, i, 'HP      ', 'LOGICAL VOLUME  ', 1,
              [('ID_BUS', 'scsi'), ('ID_SERIAL_SHORT', '600508b1%08x' % i)])
for i in range(n_nvme):
    c, ns = i % 10, i // 10 + 1
    ctrl = pci('0000:01:%02x.0' % c, '144d', 'a808', '010802', 'nvme')
    w('/sys' + ctrl + '/nvme/nvme%d/model' % c, 'Samsung SSD 970 EVO Plus 2TB\n')
    w('/sys' + ctrl + '/nvme/nvme%d/transport' % c, 'pcie\n')
    name = 'nvme%dn%d' % (c, ns)
    disk(name, '259:%d' % i, ctrl + '/nvme/nvme%d/' % c + name, 0, '[none] mq-deadline kyber bfq',
         [('ID_SERIAL_SHORT', 'S4EWNX0R%04d' % i), ('ID_MODEL', 'Samsung SSD 970 EVO Plus 2TB')])
print('%d disks in %s' % (n, root))
