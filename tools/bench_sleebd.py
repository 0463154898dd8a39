# SPDX-License-Identifier: GPL-2.0
"""Issue 31's targets for sleebd in the benchmark (tools/bench-report.py).

Per part (hackbench's two modes, each workload): what sleebd gains against
what every queue large (q480) gains, against the default queues (sleeb),
and against replay, the same sizes set once with no daemon running (what
the daemon's own work costs); then the memory it holds after the part and
8 s later. Figures are model cycles (per hackbench run, per workload
operation; all vCPUs) where the model clock ran, else the icount figures
(guest seconds), medians over boots; `Slab:` from the icount boots.

The targets (issue 31, "Measured in the benchmark"): where q480 gains,
sleebd >= 90% of q480's gain; never more than 1% slower than sleeb; its
extra `Slab:` right after the part at most a third of q480's; 8 s after,
within +10% of vanilla.
"""
import statistics

# part: (kind, test, the figure's metric with the model clock, without),
# then the memory probes right after it and 8 s later.
PARTS = (
    ('hackbench-process', 'hackbench', ('cycles_per_run', 'seconds'),
     'mem-after_workload', 'mem-idle_8s'),
    ('hackbench-thread', 'hackbench', ('cycles_per_run', 'seconds'),
     'mem-after_workload', 'mem-idle_8s'),
    ('work-files', 'work', ('cycles_per_op', 's_per_kop'), 'mem-work-files-after', 'mem-work-files-idle_8s'),
    ('work-fork', 'work', ('cycles_per_op', 's_per_kop'), 'mem-work-fork-after', 'mem-work-fork-idle_8s'),
    ('work-tcp', 'work', ('cycles_per_op', 's_per_kop'), 'mem-work-tcp-after', 'mem-work-tcp-idle_8s'),
)
COLS = ('vanilla', 'sleeb', 'q480', 'sleebd', 'replay')
GAIN_SHARE, MAX_LOSS, MEM_SHARE, IDLE_EXCESS = 0.90, 0.01, 1 / 3, 0.10


def medians(flat, kind, test, metric):
    """{config: median} of the figure (kind, test, any cache and n, metric)."""
    out = {}
    for k, per in flat.items():
        if k[0] == kind and k[1] == test and k[4] == metric:
            for c, v in per.items():
                out.setdefault(c, []).extend(v)
    return {c: statistics.median(v) for c, v in out.items() if v}


def figure(model, icount, part):
    """(unit, {config: median}) of a part, model cycles when there are any."""
    test, kind, (mmetric, imetric), _, _ = part
    m = medians(model, kind, test, mmetric)
    if m:
        return 'model cycles per ' + ('run' if kind == 'hackbench' else 'op'), m
    return ('guest s per run' if kind == 'hackbench' else 'guest s per 1000 ops') + ' (icount)', \
        medians(icount, kind, test, imetric)


def pct(x):
    return '-' if x is None else f'{x * 100:+.1f}%'


def num(x):
    if x is None:
        return '-'
    return f'{x:.4g}' if x < 100 else f'{x:,.0f}'


def gain(v, c):
    """vanilla/config - 1: what config gains over vanilla."""
    return v['vanilla'] / v[c] - 1 if v.get(c) and v.get('vanilla') else None


def speed_rows(model, icount):
    rows = []
    for part in PARTS:
        unit, v = figure(model, icount, part)
        if not v:
            continue  # not run (tools/bench.sh --workloads)
        g = {c: gain(v, c) for c in COLS if c != 'vanilla'}
        share = g['sleebd'] / g['q480'] if g['sleebd'] is not None and g['q480'] and g['q480'] > 0 else None
        rshare = g['replay'] / g['q480'] if g['replay'] is not None and g['q480'] and g['q480'] > 0 else None
        vs_sleeb = v['sleeb'] / v['sleebd'] - 1 if v.get('sleeb') and v.get('sleebd') else None
        cost = v['sleebd'] / v['replay'] - 1 if v.get('sleebd') and v.get('replay') else None
        rows.append(dict(part=part[0], unit=unit, v=v, g=g, share=share, rshare=rshare,
                         vs_sleeb=vs_sleeb, cost=cost, q480_gains=bool(g['q480'] and g['q480'] > 0)))
    return rows


def mem_rows(icount):
    rows, seen = [], set()
    for test, kind, _, after, idle in PARTS:
        name = 'hackbench' if kind == 'hackbench' else test
        if name in seen:
            continue
        seen.add(name)
        a = medians(icount, 'mem', after, 'Slab_kB')
        i = medians(icount, 'mem', idle, 'Slab_kB')
        if 'vanilla' not in a:
            continue
        extra = {c: a[c] - a['vanilla'] for c in a}
        share = extra['sleebd'] / extra['q480'] if 'sleebd' in extra and extra.get('q480', 0) > 0 else None
        idle_vs = {c: i[c] / i['vanilla'] - 1 for c in i if i.get('vanilla')}
        rows.append(dict(part=name, after=a, extra=extra, share=share, idle=i, idle_vs=idle_vs))
    return rows


def verdict(ok, text):
    return ('met' if ok else 'MISSED') + ': ' + text


def targets(speed, mem):
    """One bullet per target and part: met or missed, by how much."""
    out = []
    for r in speed:
        if r['v'].get('sleebd') is None:
            continue
        if r['v'].get('q480') is None or r['v'].get('vanilla') is None:
            out.append(f'- {r["part"]}: no q480 or vanilla figure in this run: no gain to compare')
        elif not r['q480_gains']:
            out.append(f'- {r["part"]}: q480 does not gain here (vanilla/q480 - 1 = '
                       f'{pct(r["g"]["q480"])}): no gain to reach')
        elif r['share'] is not None:
            out.append(f'- {r["part"]}: sleebd >= 90% of q480\'s gain: ' + verdict(
                r['share'] >= GAIN_SHARE,
                f'{r["share"] * 100:.0f}% ({pct(r["g"]["sleebd"])} against {pct(r["g"]["q480"])})' +
                ('' if r['share'] >= GAIN_SHARE else f', {(GAIN_SHARE - r["share"]) * 100:.0f} points short')))
        if r['vs_sleeb'] is not None:
            out.append(f'- {r["part"]}: sleebd never below sleeb by more than 1%: ' + verdict(
                r['vs_sleeb'] >= -MAX_LOSS,
                f'{pct(r["vs_sleeb"])}' + ('' if r['vs_sleeb'] >= -MAX_LOSS else
                                          f', {(-MAX_LOSS - r["vs_sleeb"]) * 100:.1f} points beyond -1%')))
    for r in mem:
        if r['share'] is not None:
            out.append(f'- {r["part"]}: extra Slab: after it at most a third of q480\'s: ' + verdict(
                r['share'] <= MEM_SHARE,
                f'{r["extra"]["sleebd"]:+,.0f} kB against q480\'s {r["extra"]["q480"]:+,.0f} kB, '
                f'{r["share"] * 100:.0f}% of it' +
                ('' if r['share'] <= MEM_SHARE else f', {(r["share"] - MEM_SHARE) * 100:.0f} points over 33%')))
        elif 'sleebd' in r['extra'] and 'q480' in r['extra']:
            out.append(f'- {r["part"]}: extra Slab: after it at most a third of q480\'s: ' + verdict(
                r['extra']['sleebd'] <= 0,
                f'q480 holds {r["extra"]["q480"]:+,.0f} kB over vanilla, sleebd {r["extra"]["sleebd"]:+,.0f} kB'))
        if 'sleebd' in r['idle_vs']:
            x = r['idle_vs']['sleebd']
            out.append(f'- {r["part"]}: Slab: 8 s after within +10% of vanilla: ' + verdict(
                x <= IDLE_EXCESS, f'{pct(x)}' + ('' if x <= IDLE_EXCESS else
                                                f', {(x - IDLE_EXCESS) * 100:.1f} points over +10%')))
    return out


def tables(model, icount, configs):
    """results.md's lines for issue 31, [] without a sleebd config."""
    if 'sleebd' not in configs:
        return []
    speed, mem = speed_rows(model, icount), mem_rows(icount)
    cols = [c for c in COLS if c in configs]
    rc = [c for c in cols if c != 'vanilla']
    md = ['| part | unit | ' + ' | '.join(cols) + ' | ' + ' | '.join(f'vanilla/{c}' for c in rc) +
          ' | sleebd gain / q480 gain | replay gain / q480 gain | sleebd vs sleeb | '
          'daemon cost: sleebd vs replay |',
          '|---|---|' + '---|' * (len(cols) + len(rc) + 4)]
    for r in speed:
        v, g = r['v'], r['g']
        md.append(f'| {r["part"]} | {r["unit"]} | ' + ' | '.join(num(v.get(c)) for c in cols) + ' | ' +
                  ' | '.join('-' if g[c] is None else f'{g[c] + 1:.3f}' for c in rc) + ' | ' +
                  ' | '.join('-' if x is None else f'{x * 100:.0f}%' for x in (r['share'], r['rshare'])) +
                  f' | {pct(r["vs_sleeb"])} | {pct(r["cost"])} |')
    md += ['', '`Slab:` (kB, icount boots, medians): right after each part, each config\'s extra over '
           'vanilla, and 8 s later against vanilla. hackbench\'s two modes share their probes.', '',
           '| part | vanilla after | ' + ' | '.join(f'{c} extra' for c in rc) +
           ' | sleebd extra / q480 extra | vanilla 8 s | ' + ' | '.join(f'{c} 8 s vs vanilla' for c in rc) + ' |',
           '|---|---|' + '---|' * (2 * len(rc) + 2)]
    for r in mem:
        md.append(f'| {r["part"]} | {r["after"]["vanilla"]:,.0f} | ' +
                  ' | '.join('-' if c not in r['extra'] else f'{r["extra"][c]:+,.0f}' for c in rc) + ' | ' +
                  ('-' if r['share'] is None else f'{r["share"] * 100:.0f}%') + ' | ' +
                  ('-' if 'vanilla' not in r['idle'] else f'{r["idle"]["vanilla"]:,.0f}') + ' | ' +
                  ' | '.join(pct(r['idle_vs'].get(c)) for c in rc) + ' |')
    md += ['', 'Each target, per part:', ''] + targets(speed, mem)
    return md
