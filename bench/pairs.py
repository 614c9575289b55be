#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""pairs.py [-n PAIRS] [-w WARMUP] [--prepare CMD] -- A... -- B...

Runs command A and command B in turn, A B A B ..., PAIRS times after
WARMUP pairs, each with its output thrown away, and prints for each the
median, minimum and maximum of its wall time and of its CPU time (user +
system, the kernel's accounting of the finished child), then the same
for the ratio A/B taken pair by pair: on a loaded machine a pair runs
under the same load, so the ratio holds where single times drift.
--prepare CMD runs (through sh, untimed) before every run of either.
Used by bench/list-1000.sh and bench/udev-vs-true.sh."""
import os, resource, statistics, subprocess, sys, time


def run(cmd):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def line(name, v, unit=1000.0, fmt='%.2f'):
    v = sorted(v)
    f = lambda x: fmt % (x * unit)
    return '%-10s median %s  min %s  max %s' % (name, f(statistics.median(v)), f(v[0]), f(v[-1]))


def main(argv):
    pairs, warm, prep = 30, 3, None
    i = 0
    while argv[i] != '--':
        if argv[i] == '-n':
            pairs = int(argv[i + 1]); i += 2
        elif argv[i] == '-w':
            warm = int(argv[i + 1]); i += 2
        elif argv[i] == '--prepare':
            prep = argv[i + 1]; i += 2
        else:
            sys.exit('usage: pairs.py [-n PAIRS] [-w WARMUP] [--prepare CMD] -- A... -- B...')
    rest = argv[i + 1:]
    cut = rest.index('--')
    a, b = rest[:cut], rest[cut + 1:]
    res = {'A': [], 'B': []}
    for k in range(warm + pairs):
        for name, cmd in (('A', a), ('B', b)):
            if prep:
                subprocess.run(prep, shell=True, check=True)
            r = run(cmd)
            if k >= warm:
                res[name].append(r)
    print('A: %s\nB: %s\n%d pairs after %d warm-up pairs, A B A B ...' % (' '.join(a), ' '.join(b), pairs, warm))
    for name in 'AB':
        print(line(name + ' wall ms', [w for w, _ in res[name]]))
        print(line(name + ' cpu ms', [c for _, c in res[name]]))
    print(line('A/B wall', [x[0] / y[0] for x, y in zip(res['A'], res['B'])], 1, '%.3f'))
    print(line('A/B cpu', [x[1] / y[1] for x, y in zip(res['A'], res['B']) if y[1] > 0], 1, '%.3f'))


main(sys.argv[1:])
