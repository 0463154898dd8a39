#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn tools/bench.sh's guest logs into results.json and results.md.

Every "# BENCH ..." line of every boot becomes a record. Figures are
medians over repetitions and boots; ratios are vanilla/config (> 1: the
config is faster, or uses less). For the wall clock, the spread of vanilla
against itself (per-boot medians, max/min) is printed beside each ratio, and
a ratio inside that band is "no measurable difference".

The model clock (model-clock/model-clock.so on the icount boots): each
"# BENCH window ID M TEST CACHE N REP METRIC OPS" line of a boot says that
the closes of window ID in measurement M (after the M-th close of window
MEASURE_WINDOW in the plugin's report, runs/icount-CONFIG-BOOT.mc, and
before the next) hold that figure's region; their counters summed over
closes and vCPUs and divided by OPS become records of clock "model"
(metric "cycles_per_op", "alloc_cycles_per_op", ... and the events per op
beside them).

sleeb+sleebd (config "sleebd"): "# BENCH sleebd change UPTIME CACHE OLD NEW
KIND" lines are the daemon's decisions, "# BENCH sleebd cpu SECONDS UPTIME"
its cpu time, "# BENCH sleebd share SECONDS LIFE CPUS" the same against the
guest seconds it ran and the guest's cpus, "# BENCH sleebd final CACHE QUEUE
BATCH SHARED" the sizes it ended with, and "# BENCH at PHASE UPTIME" (every config) the guest's
clock at each memory probe, which places each decision between two probes.
The config "replay" boots with those sizes set ("# BENCH replay set CACHE
Q B S", "# BENCH replay missing CACHE") and no daemon. hackbench's measured
runs are model-clock windows too (model-window, ids 0xf03/0xf04): model
cycles per run.

The handoff sweep (sleeb_bench's h_handoff, h_handoff_node: cpu 0
allocates N, another cpu frees them) also gets, per repetition, the sum of
its allocation and free per object (metric handoff_ns_per_obj, or
handoff_cycles_per_obj in the model clock): what one object's trip costs.

Beside results.md it writes SVG plots (bench_plot.py, gnuplot): ratios per
figure for each config, Slab: over time after the workload, and the
handoff sweep's ratio against N; without gnuplot results.md says they were
skipped.
"""
import argparse
import datetime
import json
import os
import platform
import re
import statistics
import subprocess

import bench_plot
import bench_sleebd

LINE = re.compile(r'^# BENCH (.*)$')
RUN = re.compile(r'^(icount|mttcg)-(.+)-(\d+)\.log$')
MC_WINDOW = re.compile(r'^model-clock window id=(\d+) seq=(\d+) vcpu=(\d+) (.*)$')
# sleeb_bench's W_MEASURE (enum window, static_assert there): an empty window before each measurement.
MEASURE_WINDOW = 12
# tests/vm/guest-bin/workload.c's windows: 0xf00 + the workload's mode.
WORK_WINDOW = 0xf00
WORK_MODES = ('files', 'fork', 'tcp')
# tests/vm/guest-bin/model-window.c's windows around each hackbench run.
HACKBENCH_WINDOW = {'process': 0xf03, 'thread': 0xf04}
# The model clock's counters kept per operation (beside cycles).
MC_EVENTS = ('insns', 'locked', 'l1_miss', 'llc_hit', 'xfer_node', 'xfer_remote', 'upgrades',
             'mem_local', 'mem_remote')


def parse_model(path):
    """{(id, measurement): {counter: sum over closes and vCPUs}} and the
    number of measurements, from a model-clock report (lines in the order
    the windows closed)."""
    windows, measurement = {}, 0
    with open(path) as f:
        for line in f:
            m = MC_WINDOW.match(line.rstrip())
            if not m:
                continue
            wid, seq = int(m.group(1)), int(m.group(2))
            if wid == MEASURE_WINDOW:
                measurement = seq
                continue
            w = windows.setdefault((wid, measurement), {})
            for kv in m.group(4).split():
                k, _, v = kv.partition('=')
                if k != 'node' and v.isdigit():
                    w[k] = w.get(k, 0) + int(v)
    return windows, measurement


def model_record(base, w, ops, window, measurement, **fields):
    """A record of clock "model": window w's cycles per operation, and each
    of the model's counters per operation beside them."""
    return dict(base, clock='model', **fields, value=w['cycles'] / ops, window=window,
                measurement=measurement, ops=ops, events={e: w.get(e, 0) / ops for e in MC_EVENTS})


def model_records(base, marks, model, problems):
    """Join the module's window lines (marks) with the plugin's windows."""
    windows, measurements = model
    out = []
    want = max((m for _, m, *_ in marks), default=0)
    if want != measurements:
        problems.append(f'{base["config"]} boot {base["boot"]}: the plugin saw {measurements} '
                        f'measurements, sleeb_bench reported {want}: not joined')
        return out
    for wid, meas, test, cache, n, rep, metric, ops in marks:
        w = windows.get((wid, meas))
        if not w or not ops:
            problems.append(f'{base["config"]} boot {base["boot"]}: no window {wid} in '
                            f'measurement {meas} ({test} {cache} {metric})')
            continue
        # ns_per_op -> cycles_per_op, alloc_ns_per_op -> alloc_cycles_per_op, ...
        out.append(model_record(base, w, ops, wid, meas, kind='micro', test=test, cache=cache,
                                n=n, rep=rep, metric=metric.replace('ns_per_', 'cycles_per_')))
    return out


def work_model_records(base, works, model, problems):
    """The workloads' windows (workload.c: id WORK_WINDOW + mode), each
    run once per boot after sleeb_bench's last measurement: model cycles
    per operation, all vCPUs."""
    windows, measurements = model
    out = []
    for name, threads, ops in works:
        wid = WORK_WINDOW + WORK_MODES.index(name) if name in WORK_MODES else None
        w = windows.get((wid, measurements))
        if not w:
            problems.append(f'{base["config"]} boot {base["boot"]}: no model-clock window for workload {name}')
            continue
        out.append(model_record(base, w, ops, wid, measurements, kind='work', test='work-' + name,
                                cache='-', n=threads, rep=0, metric='cycles_per_op'))
    return out


def hackbench_model_records(base, runs, model, problems):
    """hackbench's windows (model-window around each measured run, one
    id per mode, all runs of a mode summed by the plugin): model cycles
    per run, all vCPUs; runs = {mode: how many the boot reported}."""
    windows, _ = model
    out = []
    for mode, n in sorted(runs.items()):
        wid = HACKBENCH_WINDOW[mode]
        # Summed over measurements: hackbench runs between sleeb_bench's.
        parts = [w for (i, _), w in windows.items() if i == wid]
        if not parts:
            problems.append(f'{base["config"]} boot {base["boot"]}: no model-clock window for hackbench {mode}')
            continue
        w = {}
        for part in parts:
            for e, v in part.items():
                w[e] = w.get(e, 0) + v
        out.append(model_record(base, w, n, wid, None, kind='hackbench', test='hackbench-' + mode,
                                cache='-', n=0, rep=0, metric='cycles_per_run'))
    return out


def parse_runs(runs_dir, problems):
    records = []
    any_mc = any(n.endswith('.mc') for n in os.listdir(runs_dir))
    for name in sorted(os.listdir(runs_dir)):
        m = RUN.match(name)
        if not m:
            continue
        clock, config, boot = m.group(1), m.group(2), int(m.group(3))
        base = {'clock': clock, 'config': config, 'boot': boot}
        marks, works, hack_runs = [], [], {}
        with open(os.path.join(runs_dir, name)) as f:
            for line in f:
                lm = LINE.match(line.rstrip())
                if not lm:
                    continue
                w = lm.group(1).split()
                if w[0] == 'window' and len(w) == 9:
                    marks.append((int(w[1]), int(w[2]), w[3], w[4], int(w[5]), int(w[6]),
                                  w[7], int(w[8])))
                elif w[0] == 'micro' and len(w) == 7:
                    records.append(dict(base, kind='micro', test=w[1], cache=w[2],
                                        n=int(w[3]), rep=int(w[4]), metric=w[5],
                                        value=float(w[6])))
                elif w[0] == 'hackbench' and len(w) == 4:
                    records.append(dict(base, kind='hackbench', test='hackbench-' + w[1],
                                        cache='-', n=0, rep=int(w[2]), metric='seconds',
                                        value=float(w[3])))
                    if w[1] in HACKBENCH_WINDOW:
                        hack_runs[w[1]] = hack_runs.get(w[1], 0) + 1
                elif w[0] == 'mem' and len(w) == 4:
                    for metric, v in (('Slab_kB', w[2]), ('SUnreclaim_kB', w[3])):
                        records.append(dict(base, kind='mem', test='mem-' + w[1], cache='-',
                                            n=0, rep=0, metric=metric, value=float(v)))
                elif w[0] == 'profile' and len(w) == 7:
                    records.append(dict(base, kind='profile', test=w[1], cache=w[2],
                                        n=int(w[3]), rep=0, metric=w[5], value=float(w[6]),
                                        ops=int(w[4])))
                elif w[0] == 'work' and len(w) == 5 and float(w[3]) > 0:
                    # Seconds per 1000 operations, so that vanilla/config
                    # reads as every other ratio here: above 1, faster.
                    records.append(dict(base, kind='work', test='work-' + w[1], cache='-',
                                        n=int(w[2]), rep=0, metric='s_per_kop',
                                        value=float(w[4]) * 1000 / float(w[3])))
                    works.append((w[1], int(w[2]), int(w[3])))
                elif w[0] == 'wprof' and len(w) == 5:
                    # 40-workloads.sh: what a workload moved through a
                    # cache's queues (queue_stats delta of one counter).
                    records.append(dict(base, kind='wprof', test='work-' + w[1], cache=w[2],
                                        n=0, rep=0, metric=w[3], value=float(w[4])))
                elif w[0] == 'resize' and len(w) == 6:
                    # bench/resize.lib: one measured part's resizes of one
                    # kind (grow: grows or keeps every size; shrink), with
                    # what they drained and the queues' capacity before each.
                    records.append(dict(base, kind='resize', test=w[1], cache=w[2], n=0, rep=0,
                                        metric='resizes', value=float(w[3]),
                                        drained=int(w[4]), capacity=int(w[5])))
                elif w[0] == 'at' and len(w) == 3:
                    records.append(dict(base, kind='at', test=w[1], cache='-', n=0, rep=0,
                                        metric='uptime', value=float(w[2])))
                elif w[0] == 'sleebd' and w[1] == 'change' and len(w) == 7:
                    records.append(dict(base, kind='sleebd', test='sleebd-change', cache=w[3],
                                        n=0, rep=0, metric=w[6], value=float(w[2]),
                                        old=w[4], new=w[5]))
                elif w[0] == 'sleebd' and w[1] == 'final' and len(w) == 6:
                    records.append(dict(base, kind='sleebd', test='sleebd-final', cache=w[2],
                                        n=0, rep=0, metric='sizes', value=0,
                                        sizes=' '.join(w[3:])))
                elif w[0] == 'replay' and w[1] in ('set', 'missing'):
                    records.append(dict(base, kind='replay', test='replay-' + w[1], cache=w[2],
                                        n=0, rep=0, metric='sizes', value=0,
                                        sizes=' '.join(w[3:])))
                elif w[0] == 'sleebd' and w[1] == 'cpu' and len(w) == 4:
                    records.append(dict(base, kind='sleebd', test='sleebd-cpu', cache='-', n=0,
                                        rep=0, metric='cpu_seconds', value=float(w[2]),
                                        uptime=float(w[3])))
                elif w[0] == 'sleebd' and w[1] == 'share' and len(w) == 5:
                    records.append(dict(base, kind='sleebd', test='sleebd-share', cache='-', n=0,
                                        rep=0, metric='cpu_seconds', value=float(w[2]),
                                        life=float(w[3]), cpus=int(w[4])))
                elif w[0] == 'held' and len(w) == 9:
                    # tests/vm/guest/scale/20-work.sh: a cache's active
                    # objects before and after draining it; the queue sizes.
                    records.append(dict(base, kind='held', test='held-' + w[1], cache=w[2], n=0,
                                        rep=0, metric='drained_objs',
                                        value=float(int(w[4]) - int(w[5])), objsize=int(w[3]),
                                        queue=int(w[6]), batch=int(w[7]), shared=int(w[8])))
                elif w[0] == 'slab' and len(w) == 6:
                    for metric, v in (('active_objs', w[3]), ('num_objs', w[4]),
                                      ('slab_kB', w[5])):
                        records.append(dict(base, kind='slab', test='slab-' + w[1], cache=w[2],
                                            n=0, rep=0, metric=metric, value=float(v)))
        mc = os.path.join(runs_dir, name[:-len('.log')] + '.mc')
        if marks and os.path.exists(mc):
            model = parse_model(mc)
            records += model_records(base, marks, model, problems)
            records += work_model_records(base, works, model, problems)
            records += hackbench_model_records(base, hack_runs, model, problems)
        elif marks and any_mc and clock == 'icount':
            problems.append(f'{config} boot {boot}: no model-clock report {os.path.basename(mc)}')
    return records


def handoff_records(records):
    """Per repetition of a handoff figure (h_*), alloc + free per object."""
    sides = {}
    for r in records:
        if r['kind'] == 'micro' and r['test'].startswith('h_') and \
                r['metric'].startswith(('alloc_', 'free_')):
            side, _, unit = r['metric'].partition('_')
            k = (r['clock'], r['config'], r['boot'], r['test'], r['cache'], r['n'], r['rep'], unit)
            sides.setdefault(k, {})[side] = r
    out = []
    for (*_, unit), s in sorted(sides.items(), key=lambda x: tuple(map(str, x[0]))):
        if 'alloc' in s and 'free' in s:
            # ns_per_op -> handoff_ns_per_obj, cycles_per_op -> handoff_cycles_per_obj
            out.append(dict(s['free'], metric='handoff_' + unit.replace('_per_op', '_per_obj'),
                            value=s['alloc']['value'] + s['free']['value'], derived=True))
            out[-1].pop('events', None)
    return out


# The queues' default sizes by object size (kernel series: SLAB's sizes) and
# the sweep configs of tools/bench.sh: (queue, batch, shared queue).
QUEUE_SIZES = {
    'q16': lambda size: (16, 8, 64),
    'q480': lambda size: (480, 240, 1920),
}


def default_queue_sizes(size):
    return (120, 60, 480) if size <= 256 else (54, 27, 108) if size <= 1024 else (24, 12, 24)


def object_size(cache):
    """Object size of a sleeb_bench target: kmalloc-SIZE or cache-64."""
    return int(cache.rsplit('-', 1)[1])


def handoff_fits(config, test, size, n):
    """Whether N objects freed on one cpu fit the queues that catch them: the
    freeing cpu's queue and its node's shared queue on the same node, the
    alien row and the owner node's shared queue across nodes."""
    q, b, h = QUEUE_SIZES.get(config, default_queue_sizes)(size)
    return n <= (h + b - 1 if test.endswith('_node') else q + h)


def key(r):
    return (r['kind'], r['test'], r['cache'], r['n'], r['metric'])


def group(records, clock):
    """{key: {config: [values]}} and {key: {config: {boot: [values]}}}."""
    flat, per_boot = {}, {}
    for r in records:
        if r['clock'] != clock or r['kind'] in ('at', 'sleebd', 'resize', 'replay'):
            continue
        k = key(r)
        flat.setdefault(k, {}).setdefault(r['config'], []).append(r['value'])
        per_boot.setdefault(k, {}).setdefault(r['config'], {}).setdefault(r['boot'], []).append(r['value'])
    return flat, per_boot


def label(k):
    kind, test, cache, n, metric = k
    if kind == 'micro':
        return f'{test} {cache} n={n} {metric}'
    if kind == 'work':
        return f'{test} threads={n} {metric}'
    return f'{test} {metric}'


def ratio(a, b):
    return a / b if a and b else None


def fmt(x, digits=2):
    return '-' if x is None else f'{x:.{digits}f}'


def spread(values, digits=0):
    """Median, with min..max when the values differ."""
    if not values:
        return '-'
    med, lo, hi = statistics.median(values), min(values), max(values)
    if fmt(lo, digits) == fmt(hi, digits):
        return fmt(med, digits)
    return f'{fmt(med, digits)} ({fmt(lo, digits)}..{fmt(hi, digits)})'


def boot_medians(per_boot_cfg):
    """Per-boot medians of one figure in one config."""
    return [statistics.median(v) for v in (per_boot_cfg or {}).values() if v]


def ratio_range(flat, per_boot, k, config, ref='vanilla'):
    """ref/config: (median of all values' ratio, lowest, highest over boots).

    Boots of two kernels do not pair up, so the range is the widest one
    the per-boot medians allow: min(ref)/max(config) to
    max(ref)/min(config).
    """
    if ref not in flat[k] or config not in flat[k]:
        return None, None, None
    v, c = boot_medians(per_boot[k][ref]), boot_medians(per_boot[k][config])
    med = ratio(statistics.median(flat[k][ref]), statistics.median(flat[k][config]))
    if not v or not c:
        return med, None, None
    return med, ratio(min(v), max(c)), ratio(max(v), min(c))


def fmt_range(r):
    med, lo, hi = r
    if med is None:
        return '-'
    if lo is None or (fmt(lo) == fmt(med) and fmt(hi) == fmt(med)):
        return fmt(med)
    return f'{fmt(med)} ({fmt(lo)}..{fmt(hi)})'


def figure_digits(k, digits):
    """Decimals to print a figure with: guest seconds (hackbench) and
    guest seconds per 1000 operations (the workloads, icount) are small."""
    return {'seconds': 3, 's_per_kop': 4}.get(k[4], digits)


def micro_table(flat, per_boot, configs, digits=0):
    """Every micro figure: per config median (min..max), ratios (min..max over boots)."""
    cols = [c for c in configs if c != 'vanilla']
    lines = ['| figure | vanilla | ' + ' | '.join(f'{c}' for c in cols) + ' | ' +
             ' | '.join(f'vanilla/{c}' for c in cols) + ' |',
             '|' + '---|' * (2 + 2 * len(cols))]
    for k in sorted(flat):
        if k[0] not in ('micro', 'work', 'hackbench'):
            continue
        d = figure_digits(k, digits)
        lines.append(f'| {label(k)} | {spread(flat[k].get("vanilla"), d)} | ' +
                     ' | '.join(spread(flat[k].get(c), d) for c in cols) +
                     ' | ' + ' | '.join(fmt_range(ratio_range(flat, per_boot, k, c))
                                        for c in cols) + ' |')
    return lines


def ab_table(flat, per_boot, digits=0, margin=0.01):
    """The A/B of two points of the series (tools/bench.sh --base): base/sleeb
    for every timed figure, above 1 = the sleeb kernel faster. A summary
    line, then every figure on which sleeb is worse than the base by more
    than margin, marked where the whole range over boots is worse too."""
    rs = []
    for k in sorted(flat):
        if k[0] in ('micro', 'work', 'hackbench'):
            r = ratio_range(flat, per_boot, k, 'sleeb', 'base')
            if r[0] is not None:
                rs.append((r, k))
    if not rs:
        return []
    low = 1 - margin

    def one_boot(k):
        return len(per_boot[k]['base']) == 1 and len(per_boot[k]['sleeb']) == 1

    def verdict(r, k):
        if one_boot(k):
            return 'one boot'
        return 'yes' if r[2] is not None and r[2] < low else 'no'

    worse = [(r, k) for r, k in rs if r[0] < low]
    sure = [x for x in worse if verdict(*x) == 'yes']
    single = [x for x in worse if verdict(*x) == 'one boot']
    better = [(r, k) for r, k in rs if r[0] > 1 + margin]
    geo = statistics.geometric_mean([r[0] for r, _ in rs])
    pct = f'{margin * 100:.0f}%'
    lines = [f'- {len(rs)} figures, geomean base/sleeb {geo:.3f}: {len(better)} better than the '
             f'base by more than {pct}, {len(rs) - len(better) - len(worse)} within {pct}, '
             f'**{len(worse)} worse by more than {pct}** (median): {len(sure)} of them over '
             f'the whole range over boots, {len(single)} measured in one boot only.']
    if worse:
        lines += ['', '| figure | base | sleeb | base/sleeb (range over boots) | whole range worse |',
                  '|---|---|---|---|---|']
        for r, k in sorted(worse, key=lambda x: x[0][0]):
            d = figure_digits(k, digits)
            lines.append(f'| {label(k)} | {spread(flat[k]["base"], d)} | '
                         f'{spread(flat[k]["sleeb"], d)} | {fmt_range(r)} | {verdict(r, k)} |')
    return lines


def events_table(records, configs):
    """What the model charged per operation: vanilla against each config."""
    ev = {}
    for r in records:
        if r['clock'] == 'model' and 'events' in r:
            e = ev.setdefault(key(r), {}).setdefault(r['config'], {})
            for name, v in r['events'].items():
                e.setdefault(name, []).append(v)
            e.setdefault('cycles', []).append(r['value'])
    cols = [c for c in configs if c in ('vanilla', 'sheaves', 'sleeb')]
    if len(cols) < 2:
        return []

    def cell(e, names):
        return fmt(sum(statistics.median(e[n]) for n in names), 1) if e else '-'

    groups = (('cycles', ('cycles',)), ('insns', ('insns',)), ('locked', ('locked',)),
              ('L1 misses', ('l1_miss',)), ('LLC hits', ('llc_hit',)),
              ('transfers', ('xfer_node', 'xfer_remote')), ('upgrades', ('upgrades',)),
              ('memory', ('mem_local', 'mem_remote')))
    lines = ['| figure | ' + ' | '.join(f'{g} {c}' for g, _ in groups for c in cols) + ' |',
             '|' + '---|' * (1 + len(groups) * len(cols))]
    for k in sorted(ev):
        lines.append(f'| {label(k)} | ' + ' | '.join(cell(ev[k].get(c), names)
                                                     for _, names in groups for c in cols) + ' |')
    return lines


def targets_table(flat, per_boot, configs):
    """Issue 22's targets that sleeb_bench's tests speak to (model cycles);
    SLEEB's, so not asked of upstream's sheaves."""
    # resize: sleeb's micro figures (its resizes run under hackbench and
    # the workloads only).
    cols = [c for c in configs if c not in ('vanilla', 'sheaves', 'resize')]

    def sizes(k):
        return object_size(k[2])

    def ratios(pred, config):
        rs = [(ratio_range(flat, per_boot, k, config), k) for k in sorted(flat)
              if k[0] == 'micro' and pred(k, config) and config in flat[k] and 'vanilla' in flat[k]]
        return [(r, k) for r, k in rs if r[0] is not None]

    def handoff(k):
        return k[1].startswith('h_') and k[4].startswith('handoff_')

    queues = [c for c in cols if c != 'sleeb-off']
    # (target, figures, lowest, highest, configs it is asked of)
    rows = [
        ('alloc/free pair >= 1.0 at every size', lambda k, c: k[1] == 'b_pair', 1.0, None, cols),
        ('bursts a, N=100 and 1000, <= 1 KiB: >= 1.15 (sleebd)',
         lambda k, c: k[1] in ('a_alloc', 'a_free') and k[3] in (100, 1000) and sizes(k) <= 1024,
         1.15, None, queues),
        ('cross-cpu d, e, <= 1 KiB: >= 1.3 (sleebd, while N fits)',
         lambda k, c: k[1].startswith(('d_', 'e_')) and sizes(k) <= 1024, 1.3, None, queues),
        ('handoff h (alloc+free per object), <= 1 KiB, N fits the queues: >= 1.3',
         lambda k, c: handoff(k) and sizes(k) <= 1024 and handoff_fits(c, k[1], sizes(k), k[3]),
         1.3, None, queues),
        ('no cross-cpu figure (c, d, e) below 0.98',
         lambda k, c: k[1].startswith(('c_', 'd_', 'e_')), 0.98, None, cols),
        ('no handoff figure (h, alloc+free, any N and size) below 0.98',
         lambda k, c: handoff(k), 0.98, None, cols),
        ('queues off within 2% of vanilla (every figure)', lambda k, c: True, 0.98, 1.02,
         ['sleeb-off']),
    ]
    lines = ['| target | ' + ' | '.join(cols) + ' |', '|---|' + '---|' * len(cols)]
    for name, pred, low, high, asked in rows:
        cells = []
        for c in cols:
            rs = ratios(pred, c) if c in asked else []
            cells.append(target_verdict(rs, low, high) if rs else '' if c not in asked else '-')
        lines.append(f'| {name} | ' + ' | '.join(cells) + ' |')
    return lines


def target_verdict(rs, low, high=None):
    """A target's cell: rs [((median, lo, hi) ratio, key)], each to be at
    least low (and at most high)."""
    hi_ok = (lambda r: True) if high is None else (lambda r: r <= high)
    # met: the median is inside; sure: so is the whole range over boots;
    # missed for sure: the whole range is outside.
    met = [(r, k) for r, k in rs if r[0] >= low and hi_ok(r[0])]
    sure = [(r, k) for r, k in met if r[1] is None or (r[1] >= low and hi_ok(r[2]))]
    out = [(r, k) for r, k in rs if r[1] is not None and
           (r[2] < low or (high is not None and r[1] > high))]
    worst = min(rs, key=lambda x: x[0][0])
    geo = statistics.geometric_mean([r[0] for r, _ in rs])
    text = (f'{"met" if len(met) == len(rs) else "MISSED"}: {len(met)}/{len(rs)} '
            f'figures (whole range: {len(sure)} in, {len(out)} out); geomean {geo:.2f}; '
            f'lowest {fmt_range(worst[0])} {label(worst[1])}')
    if worst[0][0] < low:
        text += f' ({(worst[0][0] / low - 1) * 100:+.0f}% from {low})'
    if high is not None:
        best = max(rs, key=lambda x: x[0][0])
        text += f'; highest {fmt_range(best[0])} {label(best[1])}'
    return text


# The measured parts the config "resize" resizes under (bench/resize.lib):
# hackbench's two modes and the workloads.
RESIZE_PARTS = ('hackbench-process', 'hackbench-thread', 'work-files', 'work-fork', 'work-tcp')


def resize_table(records):
    """Issue 30's resizes under live load: per part, its cost in config
    resize against sleeb (model cycles per operation for the workloads;
    guest seconds under icount, i.e. instructions, for hackbench, which has
    no model-clock window), the resizes, what a growing (or keeping) and a
    shrinking resize drained on average, as % of the queues' capacity
    before it; then the two targets. [] without the config."""
    tally = {}
    for r in records:
        if r['kind'] == 'resize' and r['config'] == 'resize':
            t = tally.setdefault((r['test'], r['cache']), [0, 0, 0])
            t[0] += int(r['value'])
            t[1] += r['drained']
            t[2] += r['capacity']
    if not tally:
        return []
    model, model_boot = group(records, 'model')
    icount, icount_boot = group(records, 'icount')

    def figure(part):
        """(key, flat, per_boot, clock name) of the part's timed figure."""
        if part.startswith('hackbench-'):
            k = ('hackbench', part, '-', 0, 'seconds')
            return (k, icount, icount_boot, 'guest s (icount)') if k in icount else None
        ks = [k for k in model if k[0] == 'work' and k[1] == part and k[4] == 'cycles_per_op']
        return (ks[0], model, model_boot, 'model cycles/op') if ks else None

    def drained(part, kind):
        n, d, c = tally.get((part, kind), (0, 0, 0))
        if not n:
            return '-', None
        pct = d / c * 100 if c else 0.0
        return f'{d / n:.1f} ({pct:.2f}%)', pct

    lines = ['| part | figure | sleeb | resize | sleeb/resize | resizes (one per cache per round) | '
             'drained per grow/keep resize (% of capacity) | drained per shrink resize (% of capacity) |',
             '|---|---|---|---|---|---|---|---|']
    costs, grows = [], []
    for part in RESIZE_PARTS:
        if not any(p == part for p, _ in tally):
            continue
        f = figure(part)
        g, gpct = drained(part, 'grow')
        sh, _ = drained(part, 'shrink')
        n = sum(tally.get((part, kind), (0,))[0] for kind in ('grow', 'shrink'))
        if gpct is not None:
            grows.append((gpct, part))
        if f:
            k, flat, per_boot, unit = f
            digits = figure_digits(k, 1)
            r = ratio_range(flat, per_boot, k, 'resize', 'sleeb')
            if r[0] is not None:
                costs.append((r, k))
            cells = [unit, boot_range(per_boot[k].get('sleeb'), digits),
                     boot_range(per_boot[k].get('resize'), digits), fmt_range(r)]
        else:
            cells = ['-', '-', '-', '-']
        lines.append(f'| {part} | ' + ' | '.join(cells) + f' | {n} | {g} | {sh} |')
    lines += ['', '| target | resize |', '|---|---|',
              '| resizes under load within 2% of sleeb (sleeb/resize >= 0.98, every part) | ' +
              (target_verdict(costs, 0.98) if costs else '-') + ' |']
    if grows:
        worst = max(grows)
        ok = [p for pct, p in grows if pct < 5]
        lines.append(f'| fewer than 5% of queued objects drained per growing or keeping resize | '
                     f'{"met" if len(ok) == len(grows) else "MISSED"}: {len(ok)}/{len(grows)} parts; '
                     f'highest {worst[0]:.2f}% {worst[1]} |')
    else:
        lines.append('| fewer than 5% of queued objects drained per growing or keeping resize | - |')
    return lines


def wall_table(flat, per_boot):
    """sleeb (and sheaves, when booted) against vanilla, with vanilla's own
    spread over its boots as the band of no measurable difference."""
    if not flat:
        return ['No wall-clock boots in this run (tools/bench.sh --mttcg-boots 0).']
    others = [c for c in ('sleeb', 'sheaves') if any(c in v for v in flat.values())]
    lines = ['| figure | vanilla | ' + ' | '.join(others) + ' | ' +
             ' | '.join(f'vanilla/{c}' for c in others) + ' | vanilla/vanilla band | ' +
             ' | '.join(f'verdict {c}' for c in others) + ' |',
             '|---|---|' + '---|' * (3 * len(others) + 1)]
    names = {'sleeb': 'SLEEB', 'sheaves': 'sheaves'}
    for k in sorted(flat):
        kind, test = k[0], k[1]
        if kind == 'micro' and not test.startswith(('c_', 'd_', 'e_')):
            continue
        if kind in ('mem', 'slab', 'held') or 'vanilla' not in flat[k] or 'sleeb' not in flat[k]:
            continue
        v = statistics.median(flat[k]['vanilla'])
        boots = [statistics.median(x) for x in per_boot[k]['vanilla'].values()]
        lo, hi = (min(boots), max(boots)) if boots else (v, v)
        band = hi / lo if lo else None
        rs, verdicts = [], []
        for c in others:
            r = ratio(v, statistics.median(flat[k][c])) if c in flat[k] else None
            if r is None or band is None:
                verdict = '-'
            elif 1 / band <= r <= band:
                verdict = 'no measurable difference'
            else:
                verdict = f'{names[c]} faster' if r > 1 else f'{names[c]} slower'
            rs.append(r)
            verdicts.append(verdict)
        d = figure_digits(k, 0)
        lines.append(f'| {label(k)} | {spread(flat[k]["vanilla"], d)} | ' +
                     ' | '.join(spread(flat[k].get(c), d) for c in others) + ' | ' +
                     ' | '.join(fmt(r) for r in rs) + ' | ' +
                     f'{fmt(1 / band if band else None)}..{fmt(band)} | ' + ' | '.join(verdicts) + ' |')
    return lines


# The memory probes of bench/20-hackbench.sh, in the order they are taken.
MEM_PHASES = ['boot', 'after_workload', 'idle_2s', 'idle_4s', 'idle_8s', 'idle_16s', 'after_idle']


def mem_order(k):
    phase = k[1][4:]
    return (MEM_PHASES.index(phase) if phase in MEM_PHASES else len(MEM_PHASES), phase, k[4])


def mem_table(records):
    lines = ['| clock | phase | metric | vanilla | sheaves | sleeb | sleeb-off | sleeb vs vanilla |',
             '|---|---|---|---|---|---|---|---|']
    for clock in ('icount', 'mttcg'):
        flat, _ = group(records, clock)
        for k in sorted((k for k in flat if k[0] == 'mem'), key=mem_order):
            med = {c: statistics.median(v) for c, v in flat[k].items()}
            v, s = med.get('vanilla'), med.get('sleeb')
            diff = f'{(s - v) / v * 100:+.1f}%' if v and s else '-'
            lines.append(f'| {clock} | {k[1][4:]} | {k[4]} | {fmt(v, 0)} | {fmt(med.get("sheaves"), 0)} '
                         f'| {fmt(s, 0)} | {fmt(med.get("sleeb-off"), 0)} | {diff} |')
    return lines


def mem_timeline(records, configs):
    """Slab: of every config against vanilla's, probe by probe."""
    lines = ['| clock | phase | vanilla kB | ' + ' | '.join(c for c in configs if c != 'vanilla') + ' |',
             '|---|---|---|' + '---|' * (len(configs) - 1)]
    for clock in ('icount', 'mttcg'):
        flat, _ = group(records, clock)
        for k in sorted((k for k in flat if k[0] == 'mem' and k[4] == 'Slab_kB'), key=mem_order):
            med = {c: statistics.median(v) for c, v in flat[k].items()}
            v = med.get('vanilla')
            cells = []
            for c in configs:
                if c == 'vanilla':
                    continue
                s = med.get(c)
                cells.append('-' if s is None else
                             f'{s:.0f} ({(s - v) / v * 100:+.0f}%)' if v else f'{s:.0f}')
            lines.append(f'| {clock} | {k[1][4:]} | {fmt(v, 0)} | ' + ' | '.join(cells) + ' |')
    return lines


def slab_table(records, clock, phase, top=10):
    """The caches whose slabs differ most between vanilla and sleeb."""
    flat, per_boot = group(records, clock)
    boots = {c: len(b) for k, v in per_boot.items() if k[0] == 'mem' for c, b in v.items()}
    if not boots.get('vanilla') or not boots.get('sleeb'):
        return []

    def med(cache, metric, config):
        # A cache with no slabs in a boot printed no line there: count 0.
        v = flat.get(('slab', 'slab-' + phase, cache, 0, metric), {}).get(config, [])
        return statistics.median(v + [0.0] * (boots[config] - len(v)))

    caches = {k[2] for k in flat if k[0] == 'slab' and k[1] == 'slab-' + phase}
    rows = sorted(((med(c, 'slab_kB', 'sleeb') - med(c, 'slab_kB', 'vanilla'), c) for c in caches),
                  reverse=True)
    lines = [f'| cache | vanilla kB | sleeb kB | difference kB | vanilla objects in use/total '
             f'| sleeb objects in use/total |', '|---|---|---|---|---|---|']
    for d, c in rows[:top]:
        lines.append(f'| {c} | {med(c, "slab_kB", "vanilla"):.0f} | {med(c, "slab_kB", "sleeb"):.0f} '
                     f'| {d:+.0f} | {med(c, "active_objs", "vanilla"):.0f}/'
                     f'{med(c, "num_objs", "vanilla"):.0f} | {med(c, "active_objs", "sleeb"):.0f}/'
                     f'{med(c, "num_objs", "sleeb"):.0f} |')
    rest = sum(d for d, _ in rows[top:])
    lines.append(f'| {len(rows) - top} other caches | | | {rest:+.0f} | | |')
    lines.append(f'| all caches | | | {sum(d for d, _ in rows):+.0f} | | |')
    return lines


def phase_of(marks, t):
    """Where uptime t falls among a boot's probes [(uptime, phase)]: the
    probes before and after it ("start" and "stop" at the ends). Uptime
    comes in hundredths: a decision stamped with a probe's hundredth was
    read after that probe (the reader stamps a line when it reads it)."""
    before = [p for u, p in marks if u <= t]
    after = [p for u, p in marks if u > t]
    return f'{before[-1] if before else "start"}..{after[0] if after else "stop"}'


def cache_family(name):
    """kmalloc-rnd-NN-SIZE (CONFIG_RANDOM_KMALLOC_CACHES' 16 copies) as
    kmalloc-rnd-*-SIZE; 7.x's kmalloc-part-NN-SIZE (its successor,
    KMALLOC_PARTITION_CACHES) as kmalloc-part-*-SIZE."""
    return re.sub(r'^kmalloc-(rnd|part)-\d+-', r'kmalloc-\1-*-', name)


def sleebd_decisions(records, config='sleebd'):
    """The daemon's decisions over the boots of config: (rows, summary).

    rows: (kind, old, new, count, caches, families, boots, phases), one per
    kind and change of queue/batch/shared, caches how many caches it was
    taken for and families their names (cache_family); summary: per boot the decisions by
    kind and the daemon's cpu time against the guest's uptime."""
    marks, changes, cpu, share = {}, [], {}, {}
    for r in records:
        if r['config'] != config or r['clock'] != 'icount':
            continue
        b = r['boot']
        if r['kind'] == 'at':
            marks.setdefault(b, []).append((r['value'], r['test']))
        elif r['kind'] == 'sleebd' and r['test'] == 'sleebd-change':
            changes.append(r)
        elif r['kind'] == 'sleebd' and r['test'] == 'sleebd-cpu':
            cpu[b] = (r['value'], r['uptime'])
        elif r['kind'] == 'sleebd' and r['test'] == 'sleebd-share':
            share[b] = (r['value'], r['life'] * r['cpus'])
    rows = {}
    for r in changes:
        e = rows.setdefault((r['metric'], r['old'], r['new']), [0, set(), set(), set(), set()])
        e[0] += 1
        e[1].add(cache_family(r['cache']))
        e[4].add(r['cache'])
        e[2].add(r['boot'])
        e[3].add(phase_of(sorted(marks.get(r['boot'], [])), r['value']))
    kinds = ('policy', 'grow', 'shrink', 'rollback', 'other')
    summary = {}
    for b in sorted({r['boot'] for r in changes} | set(cpu) | set(share)):
        by = {k: sum(1 for r in changes if r['boot'] == b and r['metric'] == k) for k in kinds}
        summary[b] = dict(by, cpu=cpu.get(b), share=share.get(b))
    order = {k: i for i, k in enumerate(kinds)}

    def qsize(v):
        return int(v.split('/')[0]) if v.split('/')[0].isdigit() else 0

    out = sorted(((k, o, n, e[0], len(e[4]), sorted(e[1]), len(e[2]), sorted(e[3]))
                  for (k, o, n), e in rows.items()),
                 key=lambda x: (order.get(x[0], 9), -qsize(x[1]), x[1], x[2]))
    return out, summary


def sleebd_table(records):
    rows, summary = sleebd_decisions(records)
    if not rows and not summary:
        return []
    lines = ['| boot | policy | grow | shrink | rollback | other | sleebd cpu s / guest uptime s '
             '| of the guest\'s cpu time while it ran |',
             '|---|---|---|---|---|---|---|---|']
    for b, s in summary.items():
        c, sh = s['cpu'], s['share']
        cpu = f'{c[0]:.2f} / {c[1]:.1f} ({c[0] / c[1] * 100:.1f}%)' if c and c[1] else '-'
        of = f'{sh[0] / sh[1] * 100:.2f}%' if sh and sh[1] else '-'
        lines.append(f'| {b} | {s["policy"]} | {s["grow"]} | {s["shrink"]} | {s["rollback"]} '
                     f'| {s["other"]} | {cpu} | {of} |')
    lines += ['', '| kind | queue/batch/shared from -> to | decisions (boots) | caches '
              '| between probes |', '|---|---|---|---|---|']
    for kind, old, new, count, caches, families, boots, phases in rows:
        shown = ', '.join(families[:6]) + (f' and {len(families) - 6} more' if len(families) > 6 else '')
        lines.append(f'| {kind} | {old} -> {new} | {count} ({boots}) | {caches}: {shown} '
                     f'| {", ".join(phases)} |')
    return lines


def profile_table(records):
    """Queue slow-path entries per 1000 operations, from queue_stats deltas."""
    prof = {}
    for r in records:
        if r['kind'] == 'profile' and r['clock'] == 'icount':
            p = prof.setdefault(r['config'], {}).setdefault((r['test'], r['cache'], r['n']), {})
            p[r['metric']] = r['value']
            p['ops'] = r['ops']
    if 'sleeb' not in prof:
        return []
    others = [c for c in ('q16', 'q480') if c in prof]

    def per_k(p, count):
        return count * 1000 / p['ops'] if p and p.get('ops') else None

    def per_k_of(p, name):
        return per_k(p, p.get(name, 0))

    def trips(p):
        # A refill and a drain are one round trip of the cpu queue's lock
        # (and mostly of the shared queue's); a row of remote frees is
        # flushed, under the same locks, once per cpu_batch_size objects.
        if not p:
            return None
        rows = p.get('remote_free', 0) / p['batch'] if p.get('batch') else 0
        return per_k(p, p.get('alloc_refill', 0) + p.get('free_drain', 0) + rows)

    lines = ['| test | target | n | ops | fast path | refills (shared hit/miss) | drains '
             '| to slabs (shared full) | remote objects via rows | lock round trips |' +
             ''.join(f' {c} round trips |' for c in others),
             '|' + '---|' * (10 + len(others))]
    for k in sorted(prof['sleeb']):
        p = prof['sleeb'][k]
        hit, miss = per_k_of(p, 'shared_alloc_hit'), per_k_of(p, 'shared_alloc_miss')
        lines.append(f'| {k[0]} | {k[1]} | {k[2]} | {p["ops"]} | {fmt(per_k_of(p, "fastpath_ops"), 0)} '
                     f'| {fmt(per_k_of(p, "alloc_refill"), 1)} ({fmt(hit, 1)}/{fmt(miss, 1)}) '
                     f'| {fmt(per_k_of(p, "free_drain"), 1)} | {fmt(per_k_of(p, "shared_overflow"), 1)} '
                     f'| {fmt(per_k_of(p, "remote_free"), 0)} | {fmt(trips(p), 1)} |' +
                     ''.join(f' {fmt(trips(prof[c].get(k)), 1)} |' for c in others))
    return lines


WPROF_COLUMNS = (('fastpath_ops', 'fast path'), ('bulk_alloc', 'bulk alloc'),
                 ('bulk_free', 'bulk free (kfree_rcu too)'), ('alloc_refill', 'refills'),
                 ('free_drain', 'drains'), ('remote_free', 'remote frees'))


def workload_profile_table(records, config='sleeb', top=6):
    """Per workload of the first icount boot: the caches (kmalloc copies as
    one family) that moved the most objects through the queues, by path."""
    prof = {}
    for r in records:
        if r['kind'] == 'wprof' and r['clock'] == 'icount' and r['config'] == config:
            boots = prof.setdefault(r['test'], {})
            fam = boots.setdefault(r['boot'], {}).setdefault(cache_family(r['cache']), {})
            fam[r['metric']] = fam.get(r['metric'], 0) + r['value']
    lines = []
    for work in sorted(prof):
        boot = min(prof[work])
        fams = prof[work][boot]
        total = {m: sum(f.get(m, 0) for f in fams.values()) for m, _ in WPROF_COLUMNS}

        def moved(f):
            return sum(f.get(m, 0) for m in ('fastpath_ops', 'bulk_alloc', 'bulk_free'))
        if not lines:
            lines = ['| workload | cache | ' + ' | '.join(t for _, t in WPROF_COLUMNS) + ' |',
                     '|' + '---|' * (2 + len(WPROF_COLUMNS))]
        ranked = sorted(fams, key=lambda c: (-moved(fams[c]), c))[:top]
        for c in ranked + ['all caches']:
            f = total if c == 'all caches' else fams[c]
            lines.append(f'| {work} | {c} | ' +
                         ' | '.join(f'{f.get(m, 0):.0f}' for m, _ in WPROF_COLUMNS) + ' |')
    return lines


# The kernels the head-to-head puts side by side (issue 33), and their names.
H2H = (('vanilla', 'vanilla 6.12'), ('sheaves', 'sheaves 7.x'), ('sleeb', 'SLEEB'),
       ('sleebd', 'SLEEB+sleebd'))
# Memory probes after each workload that the head-to-head shows: hackbench's
# (bench/20-hackbench.sh) and each workload's (bench/40-workloads.sh).
H2H_MEM = [(w, f'{p}{s}') for w, p in (('hackbench', ''), ('files', 'work-files-'),
                                        ('fork', 'work-fork-'), ('tcp', 'work-tcp-'))
           for s in (('after_workload', 'idle_2s', 'idle_8s') if not p else ('after', 'idle_2s', 'idle_8s'))]


def h2h_figure(k):
    """Whether a figure is a row of the head-to-head: the micro tests at
    N of 100 and more (a, b, c, d, e) and the handoffs' alloc+free per
    object at N = 100 and 1000, and the workloads."""
    kind, test, cache, n, metric = k
    if kind == 'work':
        return True
    if kind != 'micro':
        return False
    if test.startswith('h_'):
        return metric.startswith('handoff_') and n in (100, 1000)
    return n >= 100


def group_insns(records):
    """Model-clock instructions per operation, grouped like group()."""
    flat, per_boot = {}, {}
    for r in records:
        if r['clock'] == 'model' and 'events' in r:
            k = key(r)
            v = r['events']['insns']
            flat.setdefault(k, {}).setdefault(r['config'], []).append(v)
            per_boot.setdefault(k, {}).setdefault(r['config'], {}).setdefault(r['boot'], []).append(v)
    return flat, per_boot


def boot_range(per_boot_cfg, digits=0):
    """Median of the per-boot medians, with their min..max when they differ."""
    return spread(boot_medians(per_boot_cfg), digits)


def head_to_head(records, configs):
    """Issue 33's head-to-head: per figure, each kernel's model cycles and
    instructions per operation (median over boots, min..max of the boots),
    sheaves/SLEEB (above 1: SLEEB costs less); then Slab: after each
    workload. [] without a sheaves config."""
    if 'sheaves' not in configs or 'sleeb' not in configs:
        return []
    cols = [(c, name) for c, name in H2H if c in configs]
    md = []
    for title, (flat, per_boot), unit in (
            ('Model cycles per operation', group(records, 'model'), 'cycles'),
            ('Instructions per operation (model clock, all vCPUs)', group_insns(records), 'insns')):
        rows = [k for k in sorted(flat) if h2h_figure(k)]
        if not rows:
            continue
        md += [f'#### {title}', '',
               '| figure | ' + ' | '.join(n for _, n in cols) + ' | sheaves/SLEEB |',
               '|---|' + '---|' * (len(cols) + 1)]
        for k in rows:
            # In the sleebd config the micro tests run before the daemon starts.
            cells = [boot_range(per_boot[k].get(c)) if k[0] == 'work' or c != 'sleebd' else '=SLEEB'
                     for c, _ in cols]
            md.append(f'| {label(k).replace("cycles_per_", unit + "_per_")} | ' + ' | '.join(cells) + ' | ' +
                      fmt_range(ratio_range(flat, per_boot, k, 'sleeb', 'sheaves')) + ' |')
        md.append('')
    flat, per_boot = group(records, 'icount')
    mem_rows = [(w, p) for w, p in H2H_MEM if ('mem', 'mem-' + p, '-', 0, 'Slab_kB') in flat]
    if mem_rows:
        md += ['#### Slab: after each workload (kB, icount boots)', '',
               '| workload | probe | ' + ' | '.join(n for _, n in cols) + ' | SLEEB vs sheaves |'
               + (' SLEEB+sleebd vs sheaves |' if 'sleebd' in configs else ''),
               '|---|---|' + '---|' * (len(cols) + 1 + ('sleebd' in configs))]
        for w, p in mem_rows:
            k = ('mem', 'mem-' + p, '-', 0, 'Slab_kB')
            med = {c: statistics.median(v) for c, v in flat[k].items()}
            diffs = [f'{(med[c] - med["sheaves"]) / med["sheaves"] * 100:+.1f}%'
                     if med.get(c) and med.get('sheaves') else '-'
                     for c in ('sleeb', 'sleebd') if c == 'sleeb' or 'sleebd' in configs]
            md.append(f'| {w} | {p.rsplit("-", 1)[-1] if p.startswith("work-") else p} | ' +
                      ' | '.join(boot_range(per_boot[k].get(c)) for c, _ in cols) + ' | ' +
                      ' | '.join(diffs) + ' |')
    return md


def sheaves_targets(records, configs):
    """Issue 33's targets against sheaves (model cycles, median over boots
    with the range over boots): SLEEB's default queues at least as fast on
    every micro figure up to 1 KiB, 1.2x on the frees across nodes (which
    sheaves send past their arrays); Slab: 2 s and 8 s after each workload
    at or below sheaves'. [] without a sheaves config."""
    if 'sheaves' not in configs or 'sleeb' not in configs:
        return []
    model, model_boot = group(records, 'model')

    def ratios(pred, config):
        rs = [(ratio_range(model, model_boot, k, config, 'sheaves'), k) for k in sorted(model)
              if k[0] == 'micro' and pred(k) and config in model[k] and 'sheaves' in model[k]]
        return [(r, k) for r, k in rs if r[0] is not None]

    def small(k):
        return object_size(k[2]) <= 1024 and not k[4].startswith('handoff_')

    def remote_node_free(k):
        return small(k) and k[1] in ('d_remote_node_free', 'h_handoff_node') and k[4].startswith('free_')

    lines = ['| target | SLEEB (default queues) |' + (' SLEEB+sleebd |' if 'sleebd' in configs else ''),
             '|---|---|' + ('---|' if 'sleebd' in configs else '')]
    micro = [('every micro figure up to 1 KiB: sheaves/SLEEB >= 1.0', small, 1.0),
             ('frees across nodes (d_remote_node_free, h_handoff_node; free side, <= 1 KiB): '
              'sheaves/SLEEB >= 1.2', remote_node_free, 1.2)]
    for name, pred, low in micro:
        rs = ratios(pred, 'sleeb')
        lines.append(f'| {name} | {target_verdict(rs, low) if rs else "-"} |' +
                     (' (micro tests run before the daemon starts) |' if 'sleebd' in configs else ''))
    icount, icount_boot = group(records, 'icount')
    for probe in ('idle_2s', 'idle_8s'):
        cells = []
        for c in ('sleeb', 'sleebd'):
            if c not in configs:
                continue
            rs = []
            for w, p in H2H_MEM:
                k = ('mem', 'mem-' + p, '-', 0, 'Slab_kB')
                if p.endswith(probe) and k in icount and c in icount[k] and 'sheaves' in icount[k]:
                    # sheaves/config: at or above 1, the config holds no more.
                    rs.append((ratio_range(icount, icount_boot, k, c, 'sheaves'), k))
            cells.append(target_verdict(rs, 1.0) if rs else '-')
        lines.append(f'| Slab: {probe[5:]} after each workload (hackbench, files, fork, tcp) '
                     f'<= sheaves\' (ratio sheaves/config >= 1) | ' + ' | '.join(cells) + ' |')
    return lines


def parse_args():
    """OUTDIR [--seconds S] [--quick 0|1], as tools/bench.sh and
    tools/scale-sweep.sh call their report."""
    ap = argparse.ArgumentParser()
    ap.add_argument('outdir')
    ap.add_argument('--seconds', type=int, default=0)
    ap.add_argument('--quick', type=int, default=0)
    ap.add_argument('--command', default='',
                    help='the command line of the run, for results.md (tools/bench.sh passes its own)')
    ap.add_argument('--base', default='',
                    help='the kernel variant of the "base" config (tools/bench.sh --base)')
    return ap.parse_args()


def sheaves_kernel(kout):
    """What kernel/build.sh left beside the sheaves kernel that the run
    booted (tools/bench.sh copies it to OUTDIR/kernels/sheaves), or None."""
    def read(name):
        try:
            with open(os.path.join(kout, name)) as f:
                return f.read().strip()
        except OSError:
            return None
    release = read('kernelrelease')
    if release is None:
        return None
    return {'release': 'linux ' + release, 'package': 'Debian ' + (read('source-package') or '?'),
            'config_differences': (read('config-differences') or '').splitlines()}


def main():
    args = parse_args()
    problems = []
    records = parse_runs(os.path.join(args.outdir, 'runs'), problems)
    records += handoff_records(records)
    cache = os.environ.get('SLEEB_CACHE') or os.path.join(
        os.environ.get('XDG_CACHE_HOME') or os.path.expanduser('~/.cache'), 'sleeb')
    kernel = subprocess.run(['make', '-s', '-C', os.path.join(cache, 'src', 'vanilla'),
                             'kernelversion'], capture_output=True, text=True).stdout.strip()
    meta = {
        'date': datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC'),
        'command': args.command or 'tools/bench.sh' + (' --quick' if args.quick else '') +
                   (f' --base {args.base}' if args.base else ''),
        'host': f'{platform.node()}: {os.cpu_count()} cpus, {platform.machine()}, '
                f'{os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") >> 30} GiB',
        'guest': 'QEMU TCG emulation (no KVM), 4 vCPUs in 2 NUMA nodes, 2 GiB',
        'kernel': f'linux {kernel} (Debian linux-source-6.12)',
        'seconds': args.seconds,
        'base': args.base,
    }
    sheaves = sheaves_kernel(os.path.join(args.outdir, 'kernels', 'sheaves'))
    if sheaves:
        meta['sheaves_kernel'] = sheaves
    with open(os.path.join(args.outdir, 'results.json'), 'w') as f:
        json.dump({'meta': meta, 'records': records, 'problems': problems}, f, indent=1)

    icount, icount_boot = group(records, 'icount')
    model, model_boot = group(records, 'model')
    mttcg, mttcg_boot = group(records, 'mttcg')
    order = ['vanilla', 'sheaves', 'sleeb', 'base', 'sleeb-off', 'sleebd', 'replay', 'resize', 'q16',
             'q480']
    configs = sorted({r['config'] for r in records if r['clock'] == 'icount'},
                     key=lambda c: order.index(c) if c in order else len(order))
    md = ['# SLEEB benchmark results', '',
          f'- Command: `{meta["command"]}` ({meta["seconds"]} s)',
          f'- Date: {meta["date"]}',
          f'- Host: {meta["host"]}',
          f'- Guest: {meta["guest"]}; the guest ran under TCG emulation, so only '
          'ratios measured in one run mean anything, never absolute figures.',
          f'- Kernel: {meta["kernel"]}'] + \
        ([f'- sheaves: {sheaves["release"]} ({sheaves["package"]}), unpatched, the same '
          'guest config fragments; what they asked for and 7.x does not have or set: ' +
          ('; '.join(sheaves['config_differences']) or 'nothing')] if sheaves else []) + [
          '- Ratios are vanilla/config: above 1 the config is faster.', '']
    t = head_to_head(records, configs)
    if t:
        md += ['## Head to head: vanilla 6.12, sheaves 7.x, SLEEB (issue 33)', '',
               'Model clock, per operation: the median over boots, (min..max) of the '
               'per-boot medians; sheaves/SLEEB with the range the boots allow '
               '(above 1: SLEEB costs less). SLEEB is the sleeb kernel with its default '
               'queues; SLEEB+sleebd runs the daemon from after the micro tests on, so '
               'its micro figures are SLEEB\'s again (=SLEEB). sheaves has no '
               '`queue_stats`: the tables that read SLEEB\'s counters below have no '
               'sheaves column (n/a).', ''] + t
        md += ['', '### Issue 33 targets (against sheaves, model cycles)', ''] + \
            sheaves_targets(records, configs)
    md += ['',
          '## Deterministic clock (icount: guest ns = instructions)', '',
          'Single-threaded TCG with `-icount shift=0,sleep=off`: figures are '
          'instructions per operation (path length; caches and atomics are not '
          'modelled): medians over boots and repetitions, (min..max) where they '
          'differ; ratios vanilla/config of the medians, (min..max) the widest '
          'range the per-boot medians allow. Configs: `sleeb` default queues, '
          '`sleeb-off` the same kernel with `slub_queues=off`, `sleebd` the sleeb '
          'kernel with sleebd running the shipped policies from after the micro '
          'tests on (so its micro figures are the default queues\' again; '
          'hackbench, the workloads and the memory probes ran under the daemon), '
          '`q16`/`q480` every queue set at boot to 16/8/64 and 480/240/1920. '
          'hackbench: guest seconds per run.' +
          (f' `base`: the kernel {meta["base"] or "of an earlier point of the series"} '
           '(the first patches of kernel/series) with its default queues.'
           if 'base' in configs else ''), '']
    md += micro_table(icount, icount_boot, configs)
    if model:
        md += ['', '## Model clock (model cycles per operation)', '',
               'The same icount boots, priced by the model clock '
               '(model-clock/model-clock.so, docs/benchmarks.md): instructions plus '
               'each L1 miss, cache-line transfer and locked operation at its penalty, '
               'summed over the vCPUs inside each measured window (sleeb_bench marks '
               'exactly the timed loops), per allocation, free or pair. Medians over '
               'boots and repetitions, (min..max); ratios vanilla/config with the range '
               'over boots (4-vCPU boots are not bit-identical under QEMU 7.2).', '']
        md += micro_table(model, model_boot, configs, 1)
        md += ['', '### Issue 22 targets, sleeb_bench tests (model cycles)', '',
               'Per target and config: how many of the figures it covers meet it '
               '(median ratio vanilla/config), how many do so over the whole range '
               'over boots and how many miss it over the whole range (the rest '
               'straddle it), the geometric mean of the ratios, and the lowest '
               'figure (gap to the target in %). The "sleebd" targets are for '
               'sleeb+sleebd; in the `sleebd` config the micro tests run before the '
               'daemon starts (one look per 100 ms of guest time could not follow '
               'them), so the default and q480 queues stand in for what the daemon '
               'would pick.', '']
        md += targets_table(model, model_boot, configs)
        t = events_table(records, configs)
        if t:
            md += ['', '### What the model charged, per operation (medians)', '',
                   'Instructions, locked operations and where L1 misses were served, '
                   'vanilla against sleeb; transfers are lines taken from another '
                   'cpu\'s cache (same or other node), memory misses local or remote.', '']
            md += t
    if 'base' in configs:
        md += ['', f'## The sleeb kernel against the base kernel ({meta["base"] or "base"})', '',
               'The A/B of two points of the series, booted alternately in this run '
               'with the same guest: base/sleeb for every timed figure (above 1, the '
               'whole series is faster than the base), medians with the range the '
               'per-boot medians allow.', '']
        for title, flat, per_boot, digits in (('Model cycles', model, model_boot, 1),
                                              ('Instructions (icount)', icount, icount_boot, 0)):
            t = ab_table(flat, per_boot, digits)
            if t:
                md += [f'### {title}', ''] + t + ['']
    t = bench_sleebd.tables(model, icount, configs)
    if t:
        md += ['', '## sleebd against q480, sleeb and replay (issue 31)', '',
               'Per part, vanilla/config (above 1, faster) and each config\'s median: '
               'model cycles per hackbench run or workload operation (all vCPUs) where '
               'the model clock ran. `sleebd`: the shipped sleebd.conf and policies as '
               'they are, each part run twice and the second run measured (the first is where it '
               'learns); `replay`: the sizes that sleebd boot ended with, set once at the '
               'point where sleebd started, no daemon, the same two runs. "gain": '
               'vanilla/config - 1; "sleebd vs sleeb": sleeb/sleebd - 1 (below 0, slower '
               'than the default queues); "daemon cost": sleebd/replay - 1 in the figure\'s '
               'unit (above 0, what the daemon\'s own work and its timing cost).', ''] + t
    t = resize_table(records)
    if t:
        md += ['', '## Resizes under load (issue 30)', '',
               'The config `resize`: the sleeb kernel with its default queues, whose hot '
               'caches (tests/vm/guest/bench/resize.lib) were resized every 100 ms of guest '
               'time during each hackbench run and each workload, alternating between their '
               'sizes and double them in one write of `queue_sizes`: a grow, then a shrink. '
               'Against sleeb, the same boots without resizes: model cycles per operation '
               '(all vCPUs, the resizer\'s work and the resizes\' work items included) for '
               'the workloads, guest seconds under icount (instructions) for hackbench, '
               'which has no model-clock window; medians over boots (min..max), and '
               'sleeb/resize (below 1: the resizes cost) with the range over boots. '
               'Resizes and `resize_drained` summed over the boots and caches; drained per '
               'resize as a share of what the queues could hold right before it (online '
               'cpus x queue + nodes x shared queue): the kernel shows no count of the '
               'objects queued at a moment, so the share of those drained is at least this.',
               ''] + t
    md += ['', '## Wall clock (multi-threaded TCG, concurrency tests and hackbench)', '',
           'Medians over all boots and repetitions, (min..max) of single '
           'repetitions; the band is the spread of vanilla '
           'against itself over its boots (max/min of per-boot medians).', '']
    md += wall_table(mttcg, mttcg_boot)
    t = profile_table(records)
    if t:
        md += ['', '## Where the queues leave their fast paths (icount boot 1, queue_stats)', '',
               'Each test run once more after the measurements, with the cache\'s '
               '`queue_stats` read before and after; figures per 1000 operations (an '
               'allocation or a free). "fast path": pushes and pops of the cpu queue '
               'without its lock; "lock round trips": refills, drains and flushed rows '
               'of remote frees (remote_free / cpu_batch_size), each a round trip of '
               'the cpu queue\'s lock and mostly of the shared queue\'s. The kmalloc '
               'caches also serve the rest of the kernel meanwhile; cache-64 is the '
               'module\'s own.' + (' sheaves: n/a (7.x has no `queue_stats`).'
                                    if 'sheaves' in configs else ''), '']
        md += t
    t = workload_profile_table(records)
    if t:
        md += ['', '## What the workloads moved through the queues (icount boot 1, sleeb, queue_stats)', '',
               'Objects per path over each whole workload, summed over the cpus: the '
               'caches that moved the most (a kmalloc size\'s 16 copies as one), and '
               'all caches. "bulk alloc": objects kmem_cache_alloc_bulk() took from a '
               'cpu queue; "bulk free": objects kmem_cache_free_bulk() passed to the '
               'queues, kfree_rcu\'s batches included (they end in kfree_bulk()). '
               'The two reads of every queue_stats add their own sysfs traffic.' +
               (' sheaves: n/a (7.x has no `queue_stats`).' if 'sheaves' in configs else ''), '']
        md += t
    md += ['', '## Memory (/proc/meminfo, kB)', '',
           'Taken at boot, right after hackbench, 2, 4, 8 and 16 s later and after '
           '30 s idle: how fast the reaper gives back what the queues held.', '']
    md += mem_table(records)
    md += ['', '### Slab: probe by probe, every config (kB, and against vanilla)', '',
           'How fast each queue size gives its memory back once the workload '
           'stops (the sweep configs had one deterministic boot).', '']
    md += mem_timeline(records, configs)
    for clock in ('icount', 'mttcg'):
        t = slab_table(records, clock, 'after_workload')
        if t:
            md += ['', f'### Where Slab: differs after the workload ({clock}, /proc/slabinfo, '
                   'medians over boots)', '',
                   'Objects in use count what sits in the queues (SLUB sees them allocated); '
                   'every slab holding one such object stays allocated.', '']
            md += t
    t = sleebd_table(records)
    if t:
        md += ['', '## sleeb+sleebd: what the daemon decided (icount boots of `sleebd`)', '',
               'sleebd with the shipped sleebd.conf and policies as they are, started '
               'after the micro tests and stopped (SIGTERM, which rolls every value back) '
               'after the workloads. Per boot the decisions by kind and the daemon\'s '
               'cpu time, against the guest\'s uptime and against the guest\'s cpu time '
               'while it ran (guest seconds x cpus; under -icount a share of instructions, '
               'not of model cycles, which the model clock gives per region, not per '
               'process; the per-cpu kernel work of a resize is not in it); then the '
               'decisions by kind and change, summed over the boots, '
               'with how many caches took them (the 16 copies of a kmalloc size, '
               'kmalloc-rnd-NN-SIZE, named as one) and the memory probes they '
               'fell between (boot: before hackbench; after_workload: after it; '
               'work-NAME-start/after: around the workload NAME; start: the daemon\'s '
               'first apply; stop: its rollback).', '']
        md += t

    svgs, note = bench_plot.plots(args.outdir, records, configs)
    md += ['', '## Plots', '', note, '']
    md += [f'![{title}]({name})' for name, title in svgs]
    if problems:
        md += ['', '## Problems', ''] + [f'- {p}' for p in problems]
    with open(os.path.join(args.outdir, 'results.md'), 'w') as f:
        f.write('\n'.join(md) + '\n')


if __name__ == '__main__':
    main()
