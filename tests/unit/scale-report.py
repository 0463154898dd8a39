#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/scale-report.py on synthetic boots (no guest): per shape, Slab per
vCPU, the queues' holdings as sleeb's drain less vanilla's, cache by
cache, and the bound C*q + N*h + C*(N-1)*(b-1) of docs/benchmarks.md.

    scale-report.py tools/scale-report.py   (TAP on stdout)
"""
import json
import os
import subprocess
import sys
import tempfile

from tap import Tap

tap = Tap()
check = tap.check


def boot(path, slab, held):
    with open(path, 'w') as f:
        f.write(f'# BENCH mem after_workload {slab} {slab}\n')
        for line in held:
            f.write(f'# BENCH held after_workload {line}\n')


with tempfile.TemporaryDirectory() as d:
    for shape, cpus, nodes in (('4-2', 4, 2), ('16-4', 16, 4)):
        runs = os.path.join(d, shape, 'runs')
        os.makedirs(runs)
        # kmalloc-64: vanilla's cpu slabs hold 10, sleeb drains 110 (100 queued);
        # big: a cache vanilla has not, 2 queued of 4 KiB; none: no queues.
        boot(os.path.join(runs, 'icount-vanilla-1.log'), 1000 * cpus,
             ['kmalloc-64 64 500 490 0 0 0', 'none 128 50 40 0 0 0'])
        boot(os.path.join(runs, 'icount-sleeb-1.log'), 1100 * cpus,
             ['kmalloc-64 64 600 490 120 60 480', 'big 4096 2 0 24 12 24',
              'none 128 50 40 0 0 0'])
        if shape == '4-2':
            # Upstream's sheaves, booted in this shape only: no queue sizes;
            # its drain gives back 70 objects of 64 B.
            boot(os.path.join(runs, 'icount-sheaves-1.log'), 1050 * cpus,
                 ['kmalloc-64 64 560 490 0 0 0'])
    r = subprocess.run([sys.executable, sys.argv[1], d], capture_output=True, text=True)
    check(r.returncode == 0, 'scale-report ran', r.stderr)
    res = json.load(open(os.path.join(d, 'results.json')))
    s = {f'{x["cpus"]}/{x["nodes"]}': x for x in res['shapes']}
    check(list(s) == ['4/2', '16/4'], 'shapes in cpu order', list(s))
    q = s['4/2']['queues_kB']
    check(abs(q - (100 * 64 + 2 * 4096) / 1024) < 1e-9, 'queues: sleeb less vanilla per cache', q)
    b42 = 4 * 120 + 2 * 480 + 4 * 1 * 59
    b42big = 4 * 24 + 2 * 24 + 4 * 1 * 11
    b = s['4/2']['bound_kB']
    check(abs(b - (b42 * 64 + b42big * 4096) / 1024) < 1e-9, 'bound on 4 cpus, 2 nodes', b)
    b164 = 16 * 120 + 4 * 480 + 16 * 3 * 59
    check(s['16/4']['worst_cache'][3] in (b164, 16 * 24 + 4 * 24 + 16 * 3 * 11),
          'bound on 16 cpus, 4 nodes', s['16/4']['worst_cache'])
    md = open(os.path.join(d, 'results.md')).read()
    check('| after_workload | 1000 / 1100 (+100) | 1000 / 1100 (+100) |' in md,
          'Slab per vCPU, both kernels', md)
    check(s['4/2']['over_bound'] == [], 'nothing over the bound', s['4/2']['over_bound'])
    check('| after_workload, sheaves | 1050 | - |' in md, 'Slab per vCPU of sheaves where it was booted', md)
    check(s['4/2']['drained_kB'].get('sheaves') == 70 * 64 / 1024 and 'sheaves' not in s['16/4']['drained_kB'],
          'what sheaves\' drain gave back, where it was booted', s['4/2']['drained_kB'])
sys.exit(tap.done())
