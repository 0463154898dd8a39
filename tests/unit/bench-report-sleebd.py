#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py on the sleeb+sleebd config: the daemon's
decisions ("# BENCH sleebd change UPTIME CACHE OLD NEW KIND") are placed
between the memory probes ("# BENCH at PHASE UPTIME") they fell between,
the copies of a kmalloc size counted as one cache; its cpu time is set
against the guest's uptime; hackbench is a figure of the icount table like
the others, vanilla/sleebd.

    bench-report-sleebd.py tools/bench-report.py
"""
import sys

from bench_fixture import bench_out, results_json, results_md, row, run_report, write_run
from tap import Tap

tap = Tap()
check = tap.check


def boot(out, config, nr, hackbench, sleebd_lines=()):
    log = ['# BENCH at boot 10.0', '# BENCH mem boot 1000 900',
           f'# BENCH hackbench process 1 {hackbench}',
           f'# BENCH hackbench thread 1 {hackbench / 2}',
           '# BENCH at after_workload 11.0', '# BENCH mem after_workload 1500 1400',
           '# BENCH at idle_2s 13.0', '# BENCH mem idle_2s 1400 1300']
    write_run(out, f'icount-{config}-{nr}.log', log + list(sleebd_lines))


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        boot(out, 'vanilla', 1, 0.2)
        boot(out, 'sleeb', 1, 0.1)
        # Boot 1: a policy write at the first apply, two copies of one
        # kmalloc size grown during hackbench, one shrunk while idle, the
        # rollback at the stop; boot 2: one grow only.
        boot(out, 'sleebd', 1, 0.25, [
            '# BENCH sleebd change 9.5 kmalloc-rnd-03-8k 24/12/48 24/12/0 policy',
            '# BENCH sleebd change 10.5 kmalloc-rnd-01-512 120/60/240 240/120/480 grow',
            '# BENCH sleebd change 10.6 kmalloc-rnd-07-512 120/60/240 240/120/480 grow',
            '# BENCH sleebd change 12.0 kmalloc-64 120/60/240 60/30/120 shrink',
            '# BENCH sleebd change 13.0 kmalloc-32 60/30/120 30/15/60 shrink',
            '# BENCH sleebd change 14.0 kmalloc-64 60/30/120 120/60/240 rollback',
            '# BENCH sleebd change 14.0 kmalloc-64 60/30/120',  # cut short: no record
            '# BENCH sleebd cpu 0.50 20.0', '# BENCH sleebd share 0.50 12.50 4'])
        boot(out, 'sleebd', 2, 0.25, [
            '# BENCH sleebd change 10.7 kmalloc-rnd-09-512 120/60/240 240/120/480 grow',
            '# BENCH sleebd cpu 0.20 20.0'])
        r = run_report(report, out)
        check(r.returncode == 0, 'bench-report.py runs', r.stderr.strip()[-300:])
        if r.returncode:
            return tap.done()
        res = results_json(out)
        changes = [x for x in res['records'] if x['kind'] == 'sleebd' and x['test'] == 'sleebd-change']
        check(len(changes) == 7, 'every whole decision line is a record, a cut one is not',
              f'{len(changes)} records')
        grow = next((x for x in changes if x['cache'] == 'kmalloc-rnd-01-512'), {})
        check((grow.get('old'), grow.get('new'), grow.get('metric'), grow.get('value')) ==
              ('120/60/240', '240/120/480', 'grow', 10.5),
              'a decision keeps its cache, from, to, kind and uptime', str(grow))
        md = results_md(out)
        r1 = row(md, '| grow | 120/60/240 -> 240/120/480 |')
        check('| 3 (2) | 3: kmalloc-rnd-*-512 |' in r1,
              'one row per change, counted over boots, copies of a kmalloc size named as one', r1)
        check(r1.endswith('| boot..after_workload |'), 'a decision during hackbench falls between '
              'the probes before and after it', r1)
        r2 = row(md, '| shrink | 120/60/240 -> 60/30/120 |')
        check(r2.endswith('| after_workload..idle_2s |'), 'a shrink while idle falls after hackbench', r2)
        r3 = row(md, '| policy | 24/12/48 -> 24/12/0 |')
        check(r3.endswith('| start..boot |'), 'the first apply is before the first probe', r3)
        r4 = row(md, '| rollback | 60/30/120 -> 120/60/240 |')
        check(r4.endswith('| idle_2s..stop |'), 'the rollback is after the last probe', r4)
        # A decision read in the same hundredth as a probe came after it.
        r5 = row(md, '| shrink | 60/30/120 -> 30/15/60 |')
        check(r5.endswith('| idle_2s..stop |'), 'a decision stamped with a probe\'s hundredth is after it', r5)
        b1 = row(md, '| 1 | 1 | 2 | 2 | 1 | 0 |')
        check('0.50 / 20.0 (2.5%) | 1.00% |' in b1, 'boot 1: decisions by kind, the daemon\'s cpu time '
              'against the uptime and against the cpu time of the guest while it ran', b1)
        hb = row(md, '| hackbench-process seconds |')
        # vanilla 0.2 against sleebd 0.25: 0.80 in the sleebd column.
        check(hb.rstrip(' |').endswith('0.80'), 'hackbench is an icount figure, vanilla/sleebd', hb)
        check(row(md, '| hackbench-thread seconds |') != '', 'thread mode is a figure of its own')
        check(not any(line.startswith(('| boot uptime', '| sleebd-')) for line in md),
              'the probes\' clock and the decisions are no figures of the tables')
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
