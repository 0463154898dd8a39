#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py's table of what each workload moved through the
queues: "# BENCH wprof WORKLOAD CACHE COUNTER DELTA" lines of the sleeb
config's first icount boot, the copies of a kmalloc size summed as one
family, the caches ranked by objects moved (fast path and bulk), and a
total over all caches.

    bench-report-wprof.py tools/bench-report.py
"""
import os
import subprocess
import sys
import tempfile

from tap import Tap

tap = Tap()
check = tap.check


def boot(runs, config, nr, lines=()):
    log = ['# BENCH at boot 10.0', '# BENCH mem boot 1000 900'] + list(lines)
    with open(os.path.join(runs, f'icount-{config}-{nr}.log'), 'w') as f:
        f.write('\n'.join(log) + '\n')


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with tempfile.TemporaryDirectory() as out:
        runs = os.path.join(out, 'runs')
        os.mkdir(runs)
        boot(runs, 'vanilla', 1)
        boot(runs, 'sleeb', 1, [
            '# BENCH wprof fork maple_node fastpath_ops 500',
            '# BENCH wprof fork maple_node bulk_alloc 300',
            '# BENCH wprof fork maple_node bulk_free 200',
            '# BENCH wprof fork kmalloc-rnd-01-64 fastpath_ops 40',
            '# BENCH wprof fork kmalloc-rnd-09-64 fastpath_ops 60',
            '# BENCH wprof fork kmalloc-rnd-09-64 bulk_free 7',
            '# BENCH wprof fork vm_area_struct fastpath_ops 1200',
            '# BENCH wprof fork vm_area_struct free_drain 3',
            '# BENCH wprof tcp skbuff_head_cache remote_free 11',
            '# BENCH wprof tcp skbuff_head_cache',          # cut short: no record
        ])
        # A second boot's counts are not the first boot's table.
        boot(runs, 'sleeb', 2, ['# BENCH wprof fork maple_node fastpath_ops 99999'])
        r = subprocess.run([sys.executable, report, out], capture_output=True, text=True)
        check(r.returncode == 0, 'bench-report.py runs', r.stderr.strip()[-300:])
        if r.returncode:
            return tap.done()
        with open(os.path.join(out, 'results.md')) as f:
            md = f.read().splitlines()

        def row(prefix):
            return next((line for line in md if line.startswith(prefix)), '')
        rows = [line for line in md if line.startswith('| work-fork |')]
        check([x.split(' | ')[1] for x in rows] ==
              ['vm_area_struct', 'maple_node', 'kmalloc-rnd-*-64', 'all caches'],
              'caches ranked by objects moved, a kmalloc size\'s copies as one, then the total',
              str([x.split(' | ')[1] for x in rows]))
        # fast path, bulk alloc, bulk free, refills, drains, remote frees
        check(row('| work-fork | maple_node |') == '| work-fork | maple_node | 500 | 300 | 200 | 0 | 0 | 0 |',
              'one row per cache, by path, from the first boot', row('| work-fork | maple_node |'))
        check(row('| work-fork | kmalloc-rnd-*-64 |') ==
              '| work-fork | kmalloc-rnd-*-64 | 100 | 0 | 7 | 0 | 0 | 0 |',
              'the copies of a kmalloc size are summed', row('| work-fork | kmalloc-rnd-*-64 |'))
        check(row('| work-fork | all caches |') == '| work-fork | all caches | 1800 | 300 | 207 | 0 | 3 | 0 |',
              'the total over all caches', row('| work-fork | all caches |'))
        check(row('| work-tcp | skbuff_head_cache |') ==
              '| work-tcp | skbuff_head_cache | 0 | 0 | 0 | 0 | 0 | 11 |',
              'each workload has its own rows', row('| work-tcp | skbuff_head_cache |'))
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
