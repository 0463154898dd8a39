# SPDX-License-Identifier: GPL-2.0
"""What the tests of tools/bench-report.py share: a temporary output
directory of tools/bench.sh with its runs/, synthetic guest logs and
model-clock reports written there, the report run on it, and its results
read back."""
import contextlib
import json
import os
import subprocess
import sys
import tempfile


@contextlib.contextmanager
def bench_out():
    """A temporary output directory with an empty runs/; yields its path."""
    with tempfile.TemporaryDirectory() as out:
        os.mkdir(os.path.join(out, 'runs'))
        yield out


def write_run(out, name, lines):
    """runs/NAME (icount-sleeb-1.log, icount-sleeb-1.mc, ...), a line per item."""
    with open(os.path.join(out, 'runs', name), 'w') as f:
        f.write('\n'.join(lines) + '\n')


def run_report(report_py, out, env=None, args=()):
    """tools/bench-report.py on out with args, env added to the environment."""
    return subprocess.run([sys.executable, report_py, out, *args], capture_output=True,
                          text=True, env=dict(os.environ, **(env or {})))


def results_json(out):
    with open(os.path.join(out, 'results.json')) as f:
        return json.load(f)


def results_md(out):
    """results.md's lines ([] when it is missing)."""
    path = os.path.join(out, 'results.md')
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return f.read().splitlines()


def row(md, prefix):
    """The first line of md that starts with prefix, or ''."""
    return next((line for line in md if line.startswith(prefix)), '')
