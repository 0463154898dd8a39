#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, from a fresh Debian 12 machine (run as root): install what is
# missing, build the patched kernel and the tools, boot the guest under QEMU
# and show what it reports.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SLEEB_DEMO_BUILD_DIR:-$top/build-demo}
cd "$top"
step() { printf '\n==> %s\n' "$*"; }

step "installing missing packages"
tools/install-deps.sh
step "building the sleeb kernel (cold: ~10 min, warm: seconds)"
kernel/build.sh sleeb
step "building sleebd and sleebctl"
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build" >/dev/null
step "booting the guest (4 vCPUs, 2 NUMA nodes, TCG)"
set +e
tests/vm/harness.sh demo sleeb --build-dir "$build" >"$build/demo.tap"
rc=$?
set -e
sed -n 's/^# \{0,1\}//p' "$build/demo.tap" | grep -v '^running ' || true
grep -E '^(not )?ok' "$build/demo.tap"
step "guest logs: $build/vm-logs/demo-sleeb/"
exit $rc
