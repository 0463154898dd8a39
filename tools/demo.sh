#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job, from a fresh Debian 12 machine (run as root): install what is
# missing, build the patched kernel and the tools, make the Debian 12 +
# systemd guest with the project's Debian package installed, boot it under
# QEMU and show, as it happens, sleebd.service tuning the caches: kernel
# defaults against the shipped policies, its status, auto-tuning under a
# hackbench load and backing off when idle, and `sleebctl check`.
# Cold: ~15 min (kernel build, debootstrap); warm: 2-3 min.
set -euo pipefail
# One block, read whole before it runs: bash reads a script as it goes,
# so an edit of this file during a run would otherwise run half of each.
{
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SLEEB_DEMO_BUILD_DIR:-$top/build-demo}
cd "$top"
step() { printf '\n==> %s\n' "$*"; }
# with_progress WHAT CMD...: run CMD, its output to a log, and say every 30 s
# that it is still going, so a long step is never a silent terminal.
with_progress() {
	local what=$1 log t=0 pid rc
	shift
	log=$(mktemp)
	"$@" >"$log" 2>&1 &
	pid=$!
	while kill -0 $pid 2>/dev/null; do
		sleep 1
		t=$((t + 1))
		[ $((t % 30)) -eq 0 ] && printf '    ... %s, %dm%02ds\n' "$what" $((t / 60)) $((t % 60))
	done
	set +e
	wait $pid
	rc=$?
	set -e
	[ $rc -eq 0 ] || { tail -n 30 "$log"; rm -f "$log"; echo "tools/demo.sh: $what failed" >&2; exit $rc; }
	rm -f "$log"
}

step "installing missing packages"
tools/install-deps.sh
step "building the sleeb kernel (cold: ~10 min, warm: seconds)"
with_progress "building the kernel" kernel/build.sh sleeb
step "building sleebd and sleebctl"
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build" >/dev/null
step "making the Debian 12 + systemd guest (cold: debootstrap, ~2 min, once)"
with_progress "debootstrap" vm-images/debian-rootfs.sh
step "booting it (4 vCPUs, 2 NUMA nodes, TCG): systemd starts sleebd.service"
log=$build/vm-logs/demo-sleeb
set +e
tests/vm/harness.sh demo sleeb --build-dir "$build" --image systemd >"$build/demo.tap" &
harness=$!
# Follow the guest's report as it comes (the harness starts it afresh);
# tail stops by itself when the harness is done.
sleep 2
tail -n +1 -F --pid=$harness "$log/tap.log" 2>/dev/null | sed -u -n 's/^# \{0,1\}//p' |
	grep --line-buffered -v '^running ' &
follow=$!
wait $harness
rc=$?
wait $follow
set -e
step "result"
grep -E '^(not )?ok|^Bail' "$build/demo.tap"
step "guest logs: $log/ (console.log: kernel and systemd; tap.log: the report)"
exit $rc
}
