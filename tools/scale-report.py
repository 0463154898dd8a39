#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn tools/scale-sweep.sh's boots into results.json and results.md.

    scale-report.py OUTDIR [--seconds S] [--quick 0|1]

OUTDIR/CPUS-NODES/runs/ holds one vanilla and one sleeb boot of each
shape, and one of upstream's sheaves (Linux 7.x) where it was booted,
parsed by tools/bench-report.py's parse_runs (the same "# BENCH" lines and
model-clock join as the benchmark's). Per shape:
  - ratio vanilla/sleeb in model cycles of every micro figure and of the
    workload (> 1: sleeb is faster), and sheaves/sleeb;
  - Slab: after the workload and after 30 s idle, per vCPU, every kernel;
  - what the caches held in free objects right after the workload (the
    objects a drain through /sys/kernel/slab/*/shrink took back), in kB
    and per vCPU, and each sleeb cache's drop against the bound of
    docs/benchmarks.md ("What the queues can pin, at most"):
        C*q + N*h + C*(N-1)*(b-1) objects
    for C cpus, N nodes and the cache's queue, shared queue and batch sizes.
    A drain also gives back SLUB's own cpu slabs and per-cpu partial slabs,
    which vanilla's drop measures alone: the queues' holdings are sleeb's
    drop less vanilla's, cache by cache (a cache vanilla does not have, or
    merged otherwise, counts its whole drop). sheaves' drop is what its
    sheaves and barns held (7.x has no cpu slabs).
"""
import importlib.util
import json
import os
import re
import statistics
import sys

SHAPE = re.compile(r'^(\d+)-(\d+)$')


def load_bench_report():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'bench-report.py')
    spec = importlib.util.spec_from_file_location('bench_report', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


br = load_bench_report()


def bound(cpus, nodes, q, b, h):
    """docs/benchmarks.md: the most objects a cache's queues can hold."""
    return cpus * q + nodes * h + cpus * (nodes - 1) * max(b - 1, 0)


def held(records, config):
    """{cache: record} of the drain right after the workload."""
    return {r['cache']: r for r in records
            if r['kind'] == 'held' and r['config'] == config and r['test'] == 'held-after_workload'}


def shape_summary(cpus, nodes, records):
    model, _ = br.group(records, 'model')
    ratios, sheaves = {}, {}
    for k in model:
        if k[0] in ('micro', 'work') and 'sleeb' in model[k]:
            # The workload runs on every cpu: one row for all shapes.
            name = f'{k[1]} (every cpu) {k[4]}' if k[0] == 'work' else br.label(k)
            for ref, out in (('vanilla', ratios), ('sheaves', sheaves)):
                if ref in model[k]:
                    out[name] = br.ratio(statistics.median(model[k][ref]),
                                         statistics.median(model[k]['sleeb']))
    mem = {}
    for r in records:
        if r['kind'] == 'mem' and r['metric'] == 'Slab_kB':
            mem.setdefault(r['test'][4:], {})[r['config']] = r['value']
    hv, hs = held(records, 'vanilla'), held(records, 'sleeb')
    drained = {c: sum(r['value'] * r['objsize'] for r in held(records, c).values()) / 1024
               for c in ('vanilla', 'sleeb', 'sheaves') if c != 'sheaves' or held(records, c)}
    queues_kb, bound_kb, over, whole_over, worst = 0.0, 0.0, [], 0, None
    for cache, r in hs.items():
        if not r['queue']:
            continue
        objs = r['value'] - (hv[cache]['value'] if cache in hv else 0)
        b = bound(cpus, nodes, r['queue'], r['batch'], r['shared'])
        queues_kb += max(objs, 0) * r['objsize'] / 1024
        bound_kb += b * r['objsize'] / 1024
        frac = objs / b if b else 0
        if worst is None or frac > worst[0]:
            worst = (frac, cache, objs, b)
        if objs > b:
            over.append(f'{cache}: queues held {objs:.0f} objects, over the bound {b}')
        # The whole drop counts SLUB's cpu slabs too, which the bound leaves out.
        whole_over += r['value'] > b
    return {'cpus': cpus, 'nodes': nodes, 'ratios': ratios, 'ratios_sheaves': sheaves, 'slab_kB': mem,
            'drained_kB': drained, 'queues_kB': queues_kb, 'bound_kB': bound_kb,
            'worst_cache': worst, 'over_bound': over, 'whole_over': whole_over}


def md_tables(shapes):
    cols = [f'{s["cpus"]}/{s["nodes"]}' for s in shapes]
    md = ['### Ratio vanilla/sleeb, model cycles (> 1: sleeb faster)', '',
          '| figure | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
    figures = sorted({f for s in shapes for f in s['ratios']})
    for f in figures:
        md.append(f'| {f} | ' + ' | '.join(br.fmt(s['ratios'].get(f)) for s in shapes) + ' |')
    if any(s['ratios_sheaves'] for s in shapes):
        md += ['', '### Ratio sheaves/sleeb, model cycles (> 1: sleeb faster than upstream\'s sheaves)', '',
               '| figure | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
        for f in sorted({f for s in shapes for f in s['ratios_sheaves']}):
            md.append(f'| {f} | ' + ' | '.join(br.fmt(s['ratios_sheaves'].get(f)) for s in shapes) + ' |')
    md += ['', '### Slab: per vCPU (kB), vanilla / sleeb', '',
           '| phase | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
    for phase in ('boot', 'after_workload', 'after_idle'):
        cells = []
        for s in shapes:
            m = s['slab_kB'].get(phase, {})
            v, q = m.get('vanilla'), m.get('sleeb')
            cells.append('-' if v is None or q is None else
                         f'{v / s["cpus"]:.0f} / {q / s["cpus"]:.0f} ({(q - v) / s["cpus"]:+.0f})')
        md.append(f'| {phase} | ' + ' | '.join(cells) + ' |')
        if any('sheaves' in s['slab_kB'].get(phase, {}) for s in shapes):
            md.append(f'| {phase}, sheaves | ' + ' | '.join(
                f'{s["slab_kB"][phase]["sheaves"] / s["cpus"]:.0f}'
                if 'sheaves' in s['slab_kB'].get(phase, {}) else '-' for s in shapes) + ' |')
    md += ['', '### Free objects held right after the workload (drained by shrink)', '',
           '| | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
    rows = [
        ('vanilla drop, kB (SLUB cpu slabs)', lambda s: f'{s["drained_kB"]["vanilla"]:.0f}'),
        ('sleeb drop, kB', lambda s: f'{s["drained_kB"]["sleeb"]:.0f}'),
        ('sheaves drop, kB (its sheaves and barns)',
         lambda s: f'{s["drained_kB"]["sheaves"]:.0f}' if 'sheaves' in s['drained_kB'] else '-'),
        ('queues (sleeb less vanilla, per cache), kB', lambda s: f'{s["queues_kB"]:.0f}'),
        ('queues per vCPU, kB', lambda s: f'{s["queues_kB"] / s["cpus"]:.1f}'),
        ('bound, every cache with queues, kB', lambda s: f'{s["bound_kB"]:.0f}'),
        ('queues / bound', lambda s: f'{s["queues_kB"] / s["bound_kB"]:.3f}' if s['bound_kB'] else '-'),
        ('fullest cache: queued / its bound',
         lambda s: (f'{s["worst_cache"][1]} {s["worst_cache"][2]:.0f}/{s["worst_cache"][3]}'
                    if s['worst_cache'] else '-')),
        ('caches whose queues exceed the bound', lambda s: str(len(s['over_bound']))),
        ('caches whose whole drop (cpu slabs too) exceeds it', lambda s: str(s['whole_over'])),
    ]
    for name, cell in rows:
        md.append(f'| {name} | ' + ' | '.join(cell(s) for s in shapes) + ' |')
    return md


def main():
    args = br.parse_args()
    problems, shapes, records = [], [], []
    dirs = sorted((tuple(map(int, m.groups())), d) for d in os.listdir(args.outdir)
                  if (m := SHAPE.match(d)) and os.path.isdir(os.path.join(args.outdir, d, 'runs')))
    for (cpus, nodes), d in dirs:
        recs = br.parse_runs(os.path.join(args.outdir, d, 'runs'), problems)
        missing = {'vanilla', 'sleeb'} - {r['config'] for r in recs}
        if missing:
            # An interrupted sweep: say so rather than print zeros.
            problems.append(f'{cpus}/{nodes}: no {" or ".join(sorted(missing))} boot, shape left out')
            continue
        for r in recs:
            r['shape'] = d
        records += recs
        shapes.append(shape_summary(cpus, nodes, recs))
    if not shapes:
        sys.exit(f'scale-report: no CPUS-NODES/runs directories in {args.outdir}')
    md = ['# SLEEB scale sweep', '',
          f'- Command: `tools/scale-sweep.sh{" --quick" if args.quick else ""}` ({args.seconds} s)',
          '- One vanilla, one sleeb and (where built) one sheaves boot per shape (CPUS/NODES), single-threaded TCG, '
          '-icount shift=0, seed 1 (2 where seed 1 failed: runs/*.seed1-failed.tap), the model clock with the shape\'s NUMA layout; '
          'sleeb_bench quick (cpus 0-7), workload fork on every cpu, run twice.', '']
    md += md_tables(shapes)
    over = [f'{s["cpus"]}/{s["nodes"]}: {o}' for s in shapes for o in s['over_bound']]
    if over or problems:
        md += ['', '## Problems', ''] + [f'- {p}' for p in over + problems]
    with open(os.path.join(args.outdir, 'results.json'), 'w') as f:
        json.dump({'shapes': shapes, 'records': records, 'problems': problems}, f, indent=1)
    with open(os.path.join(args.outdir, 'results.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')


if __name__ == '__main__':
    main()
