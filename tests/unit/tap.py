# SPDX-License-Identifier: GPL-2.0
"""TAP for the Python unit tests: numbered points, skips, the plan at the
end and the exit status (1 when a point failed)."""


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, detail=''):
        self.n += 1
        print(f'{"ok" if ok else "not ok"} {self.n} - {what}')
        if not ok:
            self.failed += 1
            if detail:
                print(f'#   {detail}')

    def skip(self, what, why):
        self.n += 1
        print(f'ok {self.n} - {what} # SKIP {why}')

    def done(self):
        """Print the plan; return the exit status."""
        print(f'1..{self.n}')
        return 1 if self.failed else 0
