#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print what each failed meson test said, briefly, from testlog.json.

    tools/failure-digest.py BUILD_DIR

CI keeps only the end of the output, and meson prints the failed tests'
logs long before it: tools/test-all.sh prints this digest just above its
summary line, so the reason for a failure is still on screen. For each
test that did not pass: its name and result, then its failure lines
(TAP "not ok", Check ":F:"/":E:", assertions, errors), or its last lines
when it has none of those.
"""
import json
import re
import sys

FAILURE = re.compile(r'^not ok|:[FE]:|Assertion|ERROR|error:|Traceback|timed out', re.IGNORECASE)
PASSED = {'OK', 'SKIP', 'EXPECTEDFAIL'}
MAX_LINES = 15


def digest(path):
    out = []
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            try:
                t = json.loads(line)
            except json.JSONDecodeError:
                continue
            if t.get('result') in PASSED:
                continue
            lines = (t.get('stdout') or '').splitlines()
            hits = [x for x in lines if FAILURE.search(x)]
            out.append(f"# {t.get('name')}: {t.get('result')} (exit {t.get('returncode')})")
            out.extend('#   ' + x for x in (hits or lines)[-MAX_LINES:])
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    try:
        lines = digest(sys.argv[1] + '/meson-logs/testlog.json')
    except OSError as e:
        sys.exit(f'failure-digest: {e}')
    if lines:
        print('# what the failed tests said:')
        print('\n'.join(lines))


if __name__ == '__main__':
    main()
