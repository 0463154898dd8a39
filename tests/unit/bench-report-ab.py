#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""tools/bench-report.py's A/B of two points of the series (tools/bench.sh
--base VARIANT): the "base" config's boots against sleeb's, base/sleeb per
figure, the figures sleeb makes worse by more than 1% listed, and whether
the whole range over boots is worse too.

    bench-report-ab.py tools/bench-report.py
"""
import sys

from bench_fixture import bench_out, results_json, results_md, row, run_report, write_run
from tap import Tap

tap = Tap()
check = tap.check

# (test, n, instructions per op in boots 1 and 2) per config
FIGURES = {
    'vanilla': {'a_alloc': (100, 200, 200), 'b_pair': (1000, 300, 300),
                'c_concurrent': (100, 500, 500), 'e_one_to_many': (100, 900, 900)},
    # a_alloc: 5% better than the base; b_pair: 0.5% worse (within 1%);
    # c_concurrent: 10% worse in both boots; e_one_to_many: worse in one
    # boot only (the ranges overlap).
    'base': {'a_alloc': (100, 105, 105), 'b_pair': (1000, 200, 200),
             'c_concurrent': (100, 400, 400), 'e_one_to_many': (100, 600, 500)},
    'sleeb': {'a_alloc': (100, 100, 100), 'b_pair': (1000, 201, 201),
              'c_concurrent': (100, 440, 440), 'e_one_to_many': (100, 510, 660)},
}


def boot(out, config, nr):
    lines = ['# BENCH at boot 10.0', '# BENCH mem boot 1000 900']
    for test, (n, *per_boot) in FIGURES[config].items():
        lines.append(f'# BENCH micro {test} cache-64 {n} 0 ns_per_op {per_boot[nr - 1]}')
    if nr == 1:  # as the handoffs of N >= 10^4: the first boot only
        slow = {'vanilla': 130, 'base': 100, 'sleeb': 120}[config]
        lines.append(f'# BENCH micro h_handoff kmalloc-64 10000 0 alloc_ns_per_op {slow}')
    write_run(out, f'icount-{config}-{nr}.log', lines)


def main():
    report = sys.argv[1]
    print('TAP version 13')
    with bench_out() as out:
        for nr in (1, 2):
            for config in FIGURES:
                boot(out, config, nr)
        r = run_report(report, out, args=('--base', 'sleeb-upto-11'))
        check(r.returncode == 0, 'bench-report.py runs with --base', r.stderr.strip()[-300:])
        if r.returncode:
            return tap.done()
        md = results_md(out)
        heading = '## The sleeb kernel against the base kernel (sleeb-upto-11)'
        ab = md[md.index(heading):] if heading in md else []
        ab = ab[:next((i for i, line in enumerate(ab) if i and line.startswith('## ')), len(ab))]
        check(results_json(out)['meta']['base'] == 'sleeb-upto-11', 'results.json names the base kernel')
        check(ab != [], 'results.md has the A/B section, named after the base kernel')
        summary = row(ab, '- 5 figures')
        check('1 better than the base by more than 1%' in summary and '1 within 1%' in summary and
              '**3 worse by more than 1%**' in summary and '1 of them over the whole range' in summary
              and '1 measured in one boot only' in summary,
              'the summary counts better, within and worse figures', summary)
        h = row(ab, '| h_handoff kmalloc-64 n=10000 alloc_ns_per_op |')
        check(h.endswith('| 100 | 120 | 0.83 | one boot |'),
              'a figure of one boot has no range to be sure of', h)
        c = row(ab, '| c_concurrent cache-64 n=100 ns_per_op |')
        check(c.endswith('| 400 | 440 | 0.91 | yes |'), 'a figure worse in every boot is listed as such', c)
        e = row(ab, '| e_one_to_many cache-64 n=100 ns_per_op |')
        check(e.endswith('| no |') and '(0.76..1.18)' in e,
              'a figure worse in one boot only has its range and is not worse for sure', e)
        check(not row(ab, '| b_pair') and not row(ab, '| a_alloc'),
              'figures within 1% or better are not listed')
        a = row(md, '| a_alloc cache-64 n=100 ns_per_op |')
        check(a == '| a_alloc cache-64 n=100 ns_per_op | 200 | 100 | 105 | 2.00 | 1.90 |',
              'the micro table has the base config beside the others, against vanilla', a)
    with bench_out() as out:
        for config in ('vanilla', 'sleeb'):
            boot(out, config, 1)
        r = run_report(report, out)
        md = results_md(out)
        check(r.returncode == 0 and not any(line.startswith('## The sleeb kernel against') for line in md),
              'without a base config there is no A/B section')
    return tap.done()


if __name__ == '__main__':
    sys.exit(main())
