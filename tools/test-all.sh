#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The whole test suite, from a fresh Debian 12 machine (run as root):
# installs what is missing, builds the three kernel variants and the
# userspace (with ASan/UBSan), then runs every meson suite: unit, fuzz,
# perf-model (the model clock's own tests, a few minutes) and the guest
# suites. Extra arguments go to `meson test` (e.g. --suite vm-boot).
# The last line is the plain summary "N passed, N failed, N skipped".
set -euo pipefail
# One block, read whole before it runs: bash reads a script as it goes,
# so an edit of this file during a run would otherwise run half of each.
{
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SLEEB_BUILD_DIR:-$top/build}
cd "$top"

tools/install-deps.sh
kernel/build.sh all
# The systemd guest's Debian tree (cached); its promtool also checks the
# Prometheus textfile in the host unit tests.
rootfs=$(vm-images/debian-rootfs.sh)
export SLEEB_PROMTOOL=$rootfs/usr/bin/promtool
if [ ! -f "$build/build.ninja" ]; then
	meson setup "$build" -Db_sanitize=address,undefined -Db_lundef=false
elif tools/qemu-plugin-api.sh >/dev/null && ! grep -q 'model-clock.so' "$build/build.ninja"; then
	# Set up before qemu-plugin.h was fetched: now the plugin can build.
	meson setup --reconfigure "$build"
fi
meson compile -C "$build"
set +e
meson test -C "$build" --print-errorlogs "$@" 2>&1 | tee "$build/test-all.log"
rc=${PIPESTATUS[0]}
set -e
# The reasons, near the end where CI's excerpt of the output keeps them.
[ "$rc" -eq 0 ] || python3 tools/failure-digest.py "$build" || true
count() { sed -n "s/^$1: *\([0-9]*\).*/\1/p" "$build/test-all.log" | tail -1; }
ok=$(count 'Ok') xfail=$(count 'Expected Fail') fail=$(count 'Fail') xpass=$(count 'Unexpected Pass')
skip=$(count 'Skipped') tmo=$(count 'Timeout')
echo "$(( ${ok:-0} + ${xfail:-0} )) passed, $(( ${fail:-0} + ${xpass:-0} + ${tmo:-0} )) failed, ${skip:-0} skipped"
exit "$rc"
}
