#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py with upstream's sheaves (Linux 7.x) as a config
(issue 33): the head-to-head of vanilla, sheaves and SLEEB in model cycles
and instructions with the range over boots, issue 33's targets against
sheaves (micro figures up to 1 KiB, frees across nodes by 1.2x, Slab: 2 s
and 8 s after each workload), the sheaves kernel and the config lines 7.x
did not take in the header, and issue 22's targets not asked of sheaves.

    bench-report-sheaves.py tools/bench-report.py
"""
import os
import shutil
import sys

from bench_fixture import bench_out, results_md, row, run_report, write_run
from tap import Tap

MEASURE = 12  # sleeb_bench's W_MEASURE
OPS = 100
tap = Tap()
check = tap.check

# (window id, test, cache, metric, {config: model cycles per op in boots 1, 2})
FIGURES = [
    # sheaves/SLEEB 1.25
    (2, 'a_alloc', 'kmalloc-64', 'ns_per_op',
     {'vanilla': (200, 200), 'sheaves': (150, 150), 'sleeb': (120, 120)}),
    # a free across nodes: 1.5, over the 1.2 asked
    (9, 'd_remote_node_free', 'kmalloc-64', 'free_ns_per_op',
     {'vanilla': (400, 400), 'sheaves': (300, 300), 'sleeb': (200, 200)}),
    # sheaves win: 0.91, and the boots of SLEEB differ (105..115)
    (3, 'a_free', 'kmalloc-1024', 'ns_per_op',
     {'vanilla': (120, 120), 'sheaves': (100, 100), 'sleeb': (105, 115)}),
    # sheaves win by far, but above 1 KiB: not a target
    (2, 'a_alloc', 'kmalloc-4096', 'ns_per_op',
     {'vanilla': (900, 900), 'sheaves': (300, 300), 'sleeb': (900, 900)}),
]
# Slab: kB after the fork workload, per probe and config
SLAB = {'work-fork-idle_2s': {'vanilla': 900, 'sheaves': 1000, 'sleeb': 990},
        'work-fork-idle_8s': {'vanilla': 900, 'sheaves': 1000, 'sleeb': 1100}}


def window(wid, seq, cycles):
    """One close of window wid on vCPU 0; instructions are half the cycles."""
    return [f'model-clock window id={wid} seq={seq} vcpu=0 node=0 insns={cycles // 2} loads=0 '
            f'stores=0 locked=0 l1_miss=0 llc_hit=0 xfer_node=0 xfer_remote=0 upgrades=0 '
            f'mem_local=0 mem_remote=0 mem_node0=0 mem_node1=0 cycles={cycles}']


def boot(out, config, nr):
    log, mc = [], ['model-clock params vcpus=4 nodes=2']
    for m, (wid, test, cache, metric, per_config) in enumerate(FIGURES, 1):
        log.append(f'# BENCH micro {test} {cache} {OPS} 0 {metric} 1')
        log.append(f'# BENCH window {wid} {m} {test} {cache} {OPS} 0 {metric} {OPS}')
        mc += window(MEASURE, m, 7) + window(wid, 1, per_config[config][nr - 1] * OPS)
    for phase, kb in SLAB.items():
        log.append(f'# BENCH mem {phase} {kb[config]} {kb[config]}')
    write_run(out, f'icount-{config}-{nr}.log', log)
    write_run(out, f'icount-{config}-{nr}.mc', mc)


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        for nr in (1, 2):
            for config in ('vanilla', 'sheaves', 'sleeb'):
                boot(out, config, nr)
        kout = os.path.join(out, 'kernels', 'sheaves')
        os.makedirs(kout)
        for name, text in (('kernelrelease', '7.3.4'),
                           ('source-package', 'linux-source-7.3 7.3.4-1~bpo13+1'),
                           ('config-differences', 'CONFIG_PROC_SYSCTL: not in linux 7.3.4 '
                            '(no Kconfig symbol); CONFIG_PROC_SYSCTL=y not applied')):
            with open(os.path.join(kout, name), 'w') as f:
                f.write(text + '\n')
        r = run_report(report, out)
        check(r.returncode == 0, 'bench-report.py runs with a sheaves config', r.stderr.strip()[-300:])
        md = results_md(out)
        kernel = row(md, '- sheaves: ')
        check('linux 7.3.4' in kernel and 'linux-source-7.3 7.3.4-1~bpo13+1' in kernel and
              'CONFIG_PROC_SYSCTL: not in linux 7.3.4' in kernel,
              'the header names the sheaves kernel and what 7.x did not take', kernel)
        check('## Head to head: vanilla 6.12, sheaves 7.x, SLEEB (issue 33)' in md,
              'results.md has the head-to-head section')
        cycles = md[md.index('#### Model cycles per operation'):] if '#### Model cycles per operation' in md else []
        h = row(cycles, '| a_alloc kmalloc-64 n=100 cycles_per_op |')
        check(h == '| a_alloc kmalloc-64 n=100 cycles_per_op | 200 | 150 | 120 | 1.25 |',
              'head-to-head: each kernel\'s model cycles and sheaves/SLEEB', h)
        h = row(cycles, '| a_free kmalloc-1024 n=100 cycles_per_op |')
        check('| 110 (105..115) |' in h and h.endswith('| 0.91 (0.87..0.95) |'),
              'head-to-head: min..max over boots, and the range of the ratio', h)
        insns = md[md.index('#### Instructions per operation (model clock, all vCPUs)'):] \
            if '#### Instructions per operation (model clock, all vCPUs)' in md else []
        h = row(insns, '| a_alloc kmalloc-64 n=100 insns_per_op |')
        check(h.startswith('| a_alloc kmalloc-64 n=100 insns_per_op | 100 | 75 | 60 |'),
              'head-to-head: the model clock\'s instructions per operation', h)
        h = row(md, '| fork | idle_8s |')
        check(h == '| fork | idle_8s | 900 | 1000 | 1100 | +10.0% |',
              'head-to-head: Slab: after the workload, SLEEB against sheaves', h)
        t = row(md, '| every micro figure up to 1 KiB')
        check('MISSED: 2/3 figures' in t and 'lowest 0.91 (0.87..0.95) a_free kmalloc-1024' in t
              and '(-9% from 1.0)' in t,
              'target: SLEEB >= sheaves up to 1 KiB, 4 KiB left out, the gap named', t)
        t = row(md, '| frees across nodes')
        check('met: 1/1 figures' in t and 'd_remote_node_free kmalloc-64' in t,
              'target: the frees across nodes by 1.2x', t)
        t2, t8 = row(md, '| Slab: 2s after each workload'), row(md, '| Slab: 8s after each workload')
        check('met: 1/1' in t2 and 'MISSED: 0/1' in t8 and '(-9% from 1.0)' in t8,
              'target: Slab: 2 s and 8 s after the workload at or below sheaves\'', f'{t2} / {t8}')
        svg = os.path.join(out, 'ratio-sheaves-sleeb.svg')
        if shutil.which(os.environ.get('SLEEB_GNUPLOT', 'gnuplot')):
            check(os.path.exists(svg) and '![sheaves/sleeb per figure](ratio-sheaves-sleeb.svg)' in md,
                  'the head-to-head plot sheaves/sleeb is drawn and linked')
        else:
            tap.skip('the head-to-head plot sheaves/sleeb is drawn and linked', 'no gnuplot')
        heads = [line for line in md if line.startswith('| target |')]
        check('| target | sleeb |' in heads and not any('sheaves' in line for line in heads),
              'issue 22\'s targets are not asked of sheaves', heads)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
