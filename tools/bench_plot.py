# SPDX-License-Identifier: GPL-2.0
"""SVG plots of a benchmark run, for tools/bench-report.py (issue 22, 5).

    plots(outdir, records, configs) -> ([(file name, title)], note)

writes next to results.md:
  ratio-CONFIG.svg    vanilla/CONFIG for every figure (micro tests and
                      workloads): model cycles where the model clock measured
                      the figure, else icount instructions
  ratio-sheaves-sleeb.svg  the same, sheaves/sleeb (upstream's 7.x against
                      SLEEB), when both were booted
  slab-CLOCK.svg      Slab: (kB) at each memory probe, one line per config
  handoff-CONFIG.svg  the handoff sweep: vanilla/CONFIG of alloc+free per
                      object against N, one line per size, same node and
                      other node side by side

Drawn with gnuplot (Debian's gnuplot-nox), not matplotlib: a small package
with no Python dependencies whose SVG terminal is built in, so the report
stays a standard-library script and a machine without it loses only the
plots. SLEEB_GNUPLOT names another binary (the unit test points it at
nothing to see the plots skipped). The data go to gnuplot in a temporary
directory; only the SVGs stay.
"""
import os
import re
import shutil
import statistics
import subprocess
import tempfile

# bench/20-hackbench.sh's memory probes, in the order they are taken.
PHASES = ['boot', 'after_workload', 'idle_2s', 'idle_4s', 'idle_8s', 'idle_16s', 'after_idle']
PHASE_LABELS = ['boot', 'after', '2 s', '4 s', '8 s', '16 s', 'after idle']


def medians(records, clock, pred):
    """{(test, cache, n, metric): {config: median}} of one clock's records."""
    vals = {}
    for r in records:
        if r['clock'] == clock and pred(r):
            k = (r['test'], r['cache'], r['n'], r['metric'])
            vals.setdefault(k, {}).setdefault(r['config'], []).append(r['value'])
    return {k: {c: statistics.median(v) for c, v in cs.items()} for k, cs in vals.items()}


def ratio(meds, config, ref='vanilla'):
    v, c = meds.get(ref), meds.get(config)
    return v / c if v and c else None


def model_twin(k):
    """The model clock's key of an icount figure."""
    test, cache, n, metric = k
    if metric == 's_per_kop':  # a workload: seconds per 1000 ops
        return (test, cache, n, 'cycles_per_op')
    return (test, cache, n, metric.replace('ns_per_', 'cycles_per_'))


def safe(name):
    return re.sub(r'[^A-Za-z0-9_.-]', '_', name)


def quote(label):
    return '"' + label.replace('"', "'") + '"'


def ratio_plot(records, config, ref='vanilla'):
    """Data and gnuplot commands of ratio-CONFIG.svg (REF/CONFIG), or None."""
    is_fig = lambda r: r['kind'] in ('micro', 'work')  # noqa: E731
    icount, model = medians(records, 'icount', is_fig), medians(records, 'model', is_fig)
    rows = []
    for k in sorted(icount, key=lambda k: (k[0], k[1], k[2], k[3])):
        m = ratio(model.get(model_twin(k), {}), config, ref)
        i = ratio(icount[k], config, ref) if m is None else None
        if m is None and i is None:
            continue
        test, cache, n, metric = k
        label = f'{test} {cache} {n} {metric.replace("_per_op", "").replace("ns_per_", "")}'
        rows.append(f'{len(rows)} {quote(label)} {m if m else "?"} {i if i else "?"}')
    if not rows:
        return None
    width = max(900, 14 * len(rows) + 160)
    cmds = [f'set terminal svg size {width},700 noenhanced font "sans,10" background "white"',
            f'set title "{ref}/{config} per figure (above 1: {config} is cheaper)"',
            'set style fill solid 0.8', 'set boxwidth 0.8', 'set datafile missing "?"',
            'set xtics rotate by 90 right font ",7"', f'set ylabel "ratio {ref}/{config}"',
            'set grid ytics', f'set xrange [-1:{len(rows)}]', 'set yrange [0:*]',
            'set key top left',
            'plot DATA using 1:3:xtic(2) with boxes lc rgb "#1f77b4" title "model cycles", '
            'DATA using 1:4:xtic(2) with boxes lc rgb "#ff7f0e" title "icount (no model figure)", '
            '1 with lines lc rgb "black" dt 2 notitle']
    return rows, cmds


def slab_plot(records, clock, configs):
    """Slab: over the probes, one line per config."""
    meds = medians(records, clock, lambda r: r['kind'] == 'mem' and r['metric'] == 'Slab_kB')
    cols = [c for c in configs if any(c in meds.get(('mem-' + p, '-', 0, 'Slab_kB'), {})
                                      for p in PHASES)]
    if not cols:
        return None
    rows = []
    for i, p in enumerate(PHASES):
        m = meds.get(('mem-' + p, '-', 0, 'Slab_kB'), {})
        rows.append(f'{i} {quote(PHASE_LABELS[i])} ' + ' '.join(
            f'{m[c]:.0f}' if c in m else '?' for c in cols))
    plots = ', '.join(f'DATA using 1:{j + 3}:xtic(2) with linespoints title {quote(c)}'
                      for j, c in enumerate(cols))
    cmds = ['set terminal svg size 900,500 noenhanced font "sans,11" background "white"',
            f'set title "Slab: after the workload ({clock} boots, medians)"',
            'set datafile missing "?"', 'set ylabel "Slab: (kB)"', 'set xlabel "probe"',
            'set grid', f'set xrange [-0.3:{len(PHASES) - 0.7}]', 'set key outside right',
            f'plot {plots}']
    return rows, cmds


def handoff_plot(records, config):
    """The sweep: ratio against N per size, same node and other node."""
    pred = lambda r: r['test'].startswith('h_') and r['metric'].startswith('handoff_')  # noqa: E731
    clock = 'model' if any(r['clock'] == 'model' and pred(r) for r in records) else 'icount'
    meds = medians(records, clock, pred)
    sizes = sorted({k[1] for k in meds}, key=lambda c: int(c.rsplit('-', 1)[1]) if
                   c.rsplit('-', 1)[1].isdigit() else 1 << 30)
    ns = sorted({k[2] for k in meds})
    if not sizes or not ns or not any(ratio(m, config) for m in meds.values()):
        return None
    rows, panels = [], []
    for test, title in (('h_handoff', 'freed on the same node'),
                        ('h_handoff_node', 'freed on the other node')):
        for n in ns:
            cells = []
            for size in sizes:
                k = next((k for k in meds if k[0] == test and k[1] == size and k[2] == n), None)
                r = ratio(meds[k], config) if k else None
                cells.append(f'{r:.4f}' if r else '?')
            rows.append(f'{n} ' + ' '.join(cells))
        rows += ['', '']  # a new gnuplot data block: index 0, 1
        panels.append(title)
    unit = 'model cycles' if clock == 'model' else 'icount'
    cmds = ['set terminal svg size 1100,480 noenhanced font "sans,11" background "white"',
            'set datafile missing "?"', 'set logscale x', 'set grid', 'set key bottom left',
            'set xlabel "N (objects handed over)"',
            f'set ylabel "vanilla/{config}, alloc+free per object ({unit})"',
            f'set multiplot layout 1,2 title "cross-cpu handoff: vanilla/{config} ({unit})"']
    for idx, title in enumerate(panels):
        lines = ', '.join(f'DATA index {idx} using 1:{j + 2} with linespoints title {quote(s)}'
                          for j, s in enumerate(sizes))
        cmds += [f'set title {quote(title)}',
                 f'plot {lines}, 1.3 with lines lc rgb "gray" dt 2 title "1.3", '
                 '0.98 with lines lc rgb "red" dt 3 title "0.98"']
    cmds.append('unset multiplot')
    return rows, cmds


def draw(gnuplot, tmp, outdir, name, rows, cmds):
    data = os.path.join(tmp, name + '.dat')
    with open(data, 'w') as f:
        f.write('\n'.join(rows) + '\n')
    # The terminal first, then the file it writes.
    script = [f'DATA = {quote(data)}', cmds[0],
              f'set output {quote(os.path.join(outdir, name))}'] + cmds[1:]
    r = subprocess.run([gnuplot], input='\n'.join(script) + '\n', capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(f'{name}: gnuplot: {r.stderr.strip()[-300:]}')


def plots(outdir, records, configs):
    gnuplot = shutil.which(os.environ.get('SLEEB_GNUPLOT', 'gnuplot'))
    if not gnuplot:
        return [], ('Plots skipped: gnuplot not found (Debian package gnuplot-nox, '
                    'tools/install-deps.sh).')
    jobs = []
    for c in configs:
        if c != 'vanilla':
            jobs.append((f'ratio-{safe(c)}.svg', f'vanilla/{c} per figure', ratio_plot(records, c)))
    if 'sheaves' in configs and 'sleeb' in configs:
        # The head-to-head with upstream's sheaves (issue 33).
        jobs.append(('ratio-sheaves-sleeb.svg', 'sheaves/sleeb per figure',
                     ratio_plot(records, 'sleeb', 'sheaves')))
    for clock in ('icount', 'mttcg'):
        jobs.append((f'slab-{clock}.svg', f'Slab: after the workload, {clock}',
                     slab_plot(records, clock, configs)))
    for c in configs:
        if c != 'vanilla':
            jobs.append((f'handoff-{safe(c)}.svg', f'handoff sweep, vanilla/{c}',
                         handoff_plot(records, c)))
    done, failed = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name, title, plot in jobs:
            if plot is None:
                continue
            try:
                draw(gnuplot, tmp, outdir, name, *plot)
                done.append((name, title))
            except (RuntimeError, OSError) as e:
                failed.append(str(e))
    note = f'{len(done)} plots (gnuplot, SVG) beside this file.'
    if failed:
        note += ' Not drawn: ' + '; '.join(failed)
    return done, note
