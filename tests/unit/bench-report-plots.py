#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py's plots and the handoff sweep, on a small fixture
(icount boots of vanilla, sleeb and sleeb-off with memory probes and a
handoff sweep; no guest):

- with gnuplot: ratio-CONFIG.svg, slab-icount.svg and handoff-CONFIG.svg
  exist beside results.md, parse as XML with an <svg> root, and results.md
  links them;
- the handoff figures get alloc+free per object, whose ratio the targets
  table judges against 1.3 (while N fits the queues) and 0.98;
- without gnuplot (SLEEB_GNUPLOT names nothing): results.md and
  results.json are still written, results.md says the plots were skipped,
  and there is no SVG.

    bench-report-plots.py tools/bench-report.py
"""
import glob
import os
import shutil
import sys
import xml.etree.ElementTree as ET

from bench_fixture import bench_out, results_json, results_md, row, run_report, write_run
from tap import Tap

tap = Tap()
check = tap.check


skip = tap.skip


# Per config: the cost of a handoff's allocation and free per object, in
# icount ns, by N (sleeb: cheaper while N fits, as dear beyond).
HANDOFF = {'vanilla': {10: (100, 200), 1000: (100, 200), 10000: (100, 200)},
           'sleeb': {10: (80, 120), 1000: (100, 200), 10000: (110, 200)},
           'sleeb-off': {10: (100, 200), 1000: (100, 200), 10000: (100, 200)}}
SLAB = {'vanilla': 1000, 'sleeb': 1500, 'sleeb-off': 1000}


def window(wid, seq, cycles):
    return (f'model-clock window id={wid} seq={seq} vcpu=0 node=0 insns={cycles} loads=0 stores=0 '
            f'locked=0 l1_miss=0 llc_hit=0 xfer_node=0 xfer_remote=0 upgrades=0 mem_local=0 '
            f'mem_remote=0 mem_node0=0 mem_node1=0 cycles={cycles}')


def boot(out, config):
    """One icount boot with its model-clock report: every handoff figure a
    measurement (sleeb_bench's W_MEASURE, 12, then its windows 13-16),
    model cycles 3x the icount figure."""
    log = [f'# BENCH micro a_alloc kmalloc-64 100 0 ns_per_op {150 if config == "sleeb" else 160}',
           '# BENCH micro b_pair kmalloc-64 1000 0 ns_per_pair 147']
    mc, m = ['model-clock params vcpus=4 nodes=2'], 0
    for test, wa, wf in (('h_handoff', 13, 14), ('h_handoff_node', 15, 16)):
        for size in ('kmalloc-64', 'kmalloc-1024'):
            for nn, (a, f) in HANDOFF[config].items():
                m += 1
                log += [f'# BENCH micro {test} {size} {nn} 0 alloc_ns_per_op {a}',
                        f'# BENCH window {wa} {m} {test} {size} {nn} 0 alloc_ns_per_op {nn}',
                        f'# BENCH micro {test} {size} {nn} 0 free_ns_per_op {f}',
                        f'# BENCH window {wf} {m} {test} {size} {nn} 0 free_ns_per_op {nn}']
                mc += [window(12, m, 0), window(wa, m, 3 * a * nn), window(wf, m, 3 * f * nn)]
    write_run(out, f'icount-{config}-1.mc', mc)
    for i, phase in enumerate(('boot', 'after_workload', 'idle_2s', 'idle_4s', 'idle_8s',
                               'idle_16s', 'after_idle')):
        log.append(f'# BENCH mem {phase} {SLAB[config] + 100 * i} {SLAB[config]}')
    write_run(out, f'icount-{config}-1.log', log)


def main():
    report_py = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        for config in HANDOFF:
            boot(out, config)

        # Without gnuplot first: the report must not need it.
        r = run_report(report_py, out, {'SLEEB_GNUPLOT': os.path.join(out, 'no-such-gnuplot')})
        check(r.returncode == 0, 'without gnuplot bench-report.py succeeds', r.stderr.strip()[-300:])
        md = results_md(out)
        check(os.path.exists(os.path.join(out, 'results.json')) and md,
              'and writes results.json and results.md')
        check(any('Plots skipped: gnuplot not found' in line for line in md),
              'results.md says the plots were skipped',
              next((line for line in md if 'lot' in line), 'no line about plots'))
        check(not glob.glob(os.path.join(out, '*.svg')), 'and no SVG is written',
              str(glob.glob(os.path.join(out, '*.svg'))))

        recs = results_json(out)['records']
        h = [x for x in recs if x['metric'] == 'handoff_ns_per_obj' and x['config'] == 'sleeb'
             and x['test'] == 'h_handoff' and x['cache'] == 'kmalloc-64' and x['n'] == 10]
        check(len(h) == 1 and h[0]['value'] == 200,
              'a handoff figure gets alloc+free per object (80 + 120)', str(h))
        h = [x for x in recs if x['metric'] == 'handoff_cycles_per_obj' and x['config'] == 'sleeb'
             and x['test'] == 'h_handoff_node' and x['cache'] == 'kmalloc-1024' and x['n'] == 10]
        check(len(h) == 1 and h[0]['value'] == 600,
              'and in model cycles, from the joined windows (240 + 360)', str(h))
        t = row(md, '| handoff h')
        # sleeb: N=10 at both sizes and both tests fits (4 figures at 1.50);
        # N=1000 does not (the default queues hold 600 small objects).
        check('| met: 4/4 figures' in t, 'the 1.3 target counts only the N that fit', t)
        t = row(md, '| no handoff figure')
        check('MISSED: 8/12' in t and '0.97' in t,
              'the 0.98 floor sees every N and size (N=10000: 300/310 = 0.97)', t)

        if not shutil.which('gnuplot'):
            skip('plots drawn', 'gnuplot not installed (gnuplot-nox)')
        else:
            r = run_report(report_py, out)
            check(r.returncode == 0, 'with gnuplot bench-report.py succeeds', r.stderr.strip()[-300:])
            md = '\n'.join(results_md(out))
            want = ['ratio-sleeb.svg', 'ratio-sleeb-off.svg', 'slab-icount.svg',
                    'handoff-sleeb.svg', 'handoff-sleeb-off.svg']
            for name in want:
                path = os.path.join(out, name)
                try:
                    root = ET.parse(path).getroot()
                    ok, detail = root.tag.endswith('svg'), f'root element {root.tag}'
                except (OSError, ET.ParseError) as e:
                    ok, detail = False, str(e)
                check(ok, f'{name} exists and is well-formed SVG', detail)
                check(f']({name})' in md, f'results.md links {name}')
            check(not os.path.exists(os.path.join(out, 'slab-mttcg.svg')),
                  'no plot for a clock without figures')
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
