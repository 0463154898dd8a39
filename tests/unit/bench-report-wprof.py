#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py's table of what each workload moved through the
queues: "# BENCH wprof WORKLOAD CACHE COUNTER DELTA" lines of the sleeb
config's first icount boot, the copies of a kmalloc size summed as one
family, the caches ranked by objects moved (fast path and bulk), and a
total over all caches.

    bench-report-wprof.py tools/bench-report.py
"""
import sys

from bench_fixture import bench_out, results_md, row, run_report, write_run
from tap import Tap

tap = Tap()
check = tap.check


def boot(out, config, nr, lines=()):
    write_run(out, f'icount-{config}-{nr}.log',
              ['# BENCH at boot 10.0', '# BENCH mem boot 1000 900'] + list(lines))


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        boot(out, 'vanilla', 1)
        boot(out, 'sleeb', 1, [
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
        boot(out, 'sleeb', 2, ['# BENCH wprof fork maple_node fastpath_ops 99999'])
        r = run_report(report, out)
        check(r.returncode == 0, 'bench-report.py runs', r.stderr.strip()[-300:])
        if r.returncode:
            return tap.done()
        md = results_md(out)
        rows = [line for line in md if line.startswith('| work-fork |')]
        check([x.split(' | ')[1] for x in rows] ==
              ['vm_area_struct', 'maple_node', 'kmalloc-rnd-*-64', 'all caches'],
              'caches ranked by objects moved, a kmalloc size\'s copies as one, then the total',
              str([x.split(' | ')[1] for x in rows]))
        # fast path, bulk alloc, bulk free, refills, drains, remote frees
        check(row(md, '| work-fork | maple_node |') == '| work-fork | maple_node | 500 | 300 | 200 | 0 | 0 | 0 |',
              'one row per cache, by path, from the first boot', row(md, '| work-fork | maple_node |'))
        check(row(md, '| work-fork | kmalloc-rnd-*-64 |') ==
              '| work-fork | kmalloc-rnd-*-64 | 100 | 0 | 7 | 0 | 0 | 0 |',
              'the copies of a kmalloc size are summed', row(md, '| work-fork | kmalloc-rnd-*-64 |'))
        check(row(md, '| work-fork | all caches |') == '| work-fork | all caches | 1800 | 300 | 207 | 0 | 3 | 0 |',
              'the total over all caches', row(md, '| work-fork | all caches |'))
        check(row(md, '| work-tcp | skbuff_head_cache |') ==
              '| work-tcp | skbuff_head_cache | 0 | 0 | 0 | 0 | 0 | 11 |',
              'each workload has its own rows', row(md, '| work-tcp | skbuff_head_cache |'))
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
