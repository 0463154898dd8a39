#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py joins sleeb_bench's window lines with the model
clock's report: every close of a window id between two W_MEASURE
separators belongs to that measurement (a region several cpus run closes
its window once per stretch of non-overlapping runs), summed over the
closes and the vCPUs; a boot whose measurement count differs between the
module and the plugin is listed as a problem, never joined.

    bench-report-model.py tools/bench-report.py
"""
import sys

from bench_fixture import bench_out, results_json, results_md, row, run_report, write_run
from tap import Tap

MEASURE = 12  # sleeb_bench's W_MEASURE
tap = Tap()
check = tap.check


def window(wid, seq, cycles, insns=0):
    """One close of window wid: a line per vCPU (4 vCPUs, cycles on vCPU 1 and 2)."""
    lines = []
    for v in range(4):
        c = cycles[v] if v < len(cycles) else 0
        lines.append(f'model-clock window id={wid} seq={seq} vcpu={v} node={v // 2} insns={insns} '
                     f'loads=0 stores=0 locked=0 l1_miss=0 llc_hit=0 xfer_node=0 xfer_remote=0 '
                     f'upgrades=0 mem_local=0 mem_remote=0 mem_node0=0 mem_node1=0 cycles={c}')
    return lines


def boot(out, config, scale, measurements=2, work=True):
    """A boot with two measurements: c (window 5, closed twice, on several
    vCPUs) and a_alloc (window 2, once), then (work) the fork workload, 40
    operations in its own window (0xf00 + 1, workload.c) after the last
    measurement. scale multiplies every cycle."""
    log = ['# BENCH micro c_concurrent cache-64 100 0 ns_per_op 200',
           '# BENCH window 5 1 c_concurrent cache-64 100 0 ns_per_op 800',
           '# BENCH micro a_alloc cache-64 100 0 ns_per_op 150',
           '# BENCH window 2 2 a_alloc cache-64 100 0 ns_per_op 100']
    mc = ['model-clock params vcpus=4 nodes=2']
    mc += window(MEASURE, 1, [7, 7, 7, 7])
    mc += window(5, 1, [100 * scale, 300 * scale])
    mc += window(5, 2, [0, 0, 400 * scale])
    if measurements > 1:
        mc += window(MEASURE, 2, [7])
    mc += window(2, 1, [500 * scale])
    mc += window(1, 1, [99999])  # the run's outer window: joins nothing
    if work:
        log.append('# BENCH work fork 4 40 0.5')
        mc += window(0xf01, 1, [600 * scale, 200 * scale])
    write_run(out, f'icount-{config}-1.log', log)
    write_run(out, f'icount-{config}-1.mc', mc)


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        boot(out, 'vanilla', 2)
        boot(out, 'sleeb', 1)
        boot(out, 'sleeb-off', 1, measurements=1, work=False)  # the plugin missed a separator
        r = run_report(report, out)
        check(r.returncode == 0, 'bench-report.py runs', r.stderr.strip()[-300:])
        if r.returncode:
            return tap.done()
        res = results_json(out)
        model = {(x['config'], x['test']): x for x in res['records'] if x['clock'] == 'model'}

        def value(config, test):
            x = model.get((config, test))
            return x['value'] if x else None

        # c: (100 + 300 + 400) cycles over both closes and all vCPUs, / 800 ops.
        check(value('sleeb', 'c_concurrent') == 1.0,
              'every close of a window in one measurement counts, on every vCPU',
              f'sleeb c_concurrent: {value("sleeb", "c_concurrent")} cycles/op, want 1.0')
        check(value('sleeb', 'a_alloc') == 5.0,
              'a window after the second separator is the second measurement\'s',
              f'sleeb a_alloc: {value("sleeb", "a_alloc")} cycles/op, want 5.0')
        check(value('vanilla', 'c_concurrent') == 2.0, 'each boot is joined with its own report',
              f'vanilla c_concurrent: {value("vanilla", "c_concurrent")}, want 2.0')
        check(model.get(('sleeb', 'c_concurrent'), {}).get('metric') == 'cycles_per_op',
              'ns_per_op becomes cycles_per_op')
        check(not any(c == 'sleeb-off' for c, _ in model),
              'a boot whose measurements do not match is not joined',
              f'joined: {sorted(t for c, t in model if c == "sleeb-off")}')
        check(any('sleeb-off boot 1' in p and 'measurements' in p for p in res['problems']),
              'and is listed as a problem', f'problems: {res["problems"]}')
        work = next((x for x in res['records'] if x['clock'] == 'model' and x['config'] == 'sleeb'
                     and x['test'] == 'work-fork'), {})
        check(work.get('value') == 20.0 and work.get('metric') == 'cycles_per_op',
              'a workload\'s window gives its model cycles per operation, all vCPUs',
              f'sleeb work-fork: {work.get("value")} {work.get("metric")}, want 20.0 cycles_per_op')
        c = row(results_md(out), '| c_concurrent cache-64 n=100 cycles_per_op')
        check('| 2.00 |' in c, 'results.md has the model ratio vanilla/sleeb (2.00)', c)
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
