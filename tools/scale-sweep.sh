#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# How vanilla SLUB, SLEEB and upstream's sheaves (Linux 7.x) scale with the
# machine: the same short benchmark on guests of several shapes, under the
# model clock.
#
#   tools/scale-sweep.sh [--quick] [--build-dir DIR] [--iters N]
#
# For each shape CPUS/NODES (4/2, 16/4, 32/8, then 16/2 and 32/4; --quick:
# the first three), boots vanilla, sleeb (default queues) and sheaves
# (kernel/build.sh sheaves) once each under
# single-threaded TCG with -icount shift=0, seed 1 (2 if that boot fails) and the model
# clock (model-clock/model-clock.so with the shape's NUMA layout:
# vm-images/run-qemu.sh --smp CPUS --nodes NODES), and runs the guest suite
# tests/vm/guest/scale: sleeb_bench's micro tests in quick mode (one size,
# one repetition; on cpus 0-7 only, the most sleeb_bench handles), then one
# workload on every cpu (tests/vm/guest-bin/workload fork, N operations per
# thread, default 20) with Slab: after it and after 30 s idle, and what
# every cache holds in free objects right after it (active objects before
# and after draining it through its shrink file).
#
# The project's guest kernels have CONFIG_NR_CPUS=8, so this script builds
# its own vanilla, sleeb and sheaves kernels with 32: kernel/build.sh run
# from a copy of kernel/ whose guest.config says so, with its own cache
# ($SLEEB_SCALE_CACHE, default ~/.cache/sleeb-scale; the first run builds
# the kernels, 10-20 minutes each here, later runs reuse them). The 7.x
# tarball is the project cache's (kernel/build.sh --sheaves-tarball).
#
# Every boot holds /tmp/sleeb-guest.lock while it runs (one at a time, so
# other guest runs can interleave): do not run this script under that lock
# yourself.
#
# Writes DIR/scale/SHAPE/runs/icount-CONFIG-1.{log,mc} (the guest's report
# and the model clock's), and DIR/scale/results.md and results.json
# (tools/scale-report.py: ratios vanilla/sleeb in model cycles per shape,
# Slab per vCPU, the holdings against docs/benchmarks.md's bound).
set -euo pipefail
# One block, read whole before it runs: bash reads a script as it goes,
# so an edit of this file during a run would otherwise run half of each.
{
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$top/build quick=0 iters=20
usage() { echo "usage: tools/scale-sweep.sh [--quick] [--build-dir DIR] [--iters N]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--build-dir) build=$(cd "$2" && pwd); shift ;;
	--iters) iters=$2; shift ;;
	*) usage ;;
	esac
	shift
done
case "$iters" in '' | *[!0-9]* | 0) usage ;; esac
out=$build/scale
cd "$top"
if [ $quick = 1 ]; then
	shapes=(4/2 16/4 32/8)
else
	shapes=(4/2 16/4 32/8 16/2 32/4)
fi
max_cpus=32

# The kernels: kernel/build.sh as it is, from a copy of kernel/ (and the
# model-clock marker header its modules include) with more cpus.
tree=$build/scale-tree
rm -rf "$tree"
mkdir -p "$tree"
cp -a kernel model-clock "$tree/"
sed -i "s/^CONFIG_NR_CPUS=.*/CONFIG_NR_CPUS=$max_cpus/" "$tree/kernel/configs/guest.config"
grep -q "^CONFIG_NR_CPUS=$max_cpus\$" "$tree/kernel/configs/guest.config" ||
	{ echo "scale-sweep: no CONFIG_NR_CPUS line in kernel/configs/guest.config" >&2; exit 1; }
# One download of the 7.x source serves both caches.
SLEEB_SHEAVES_TARBALL=$(kernel/build.sh --sheaves-tarball)
export SLEEB_SHEAVES_TARBALL
export SLEEB_CACHE=${SLEEB_SCALE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb-scale}
echo "scale-sweep: kernels with CONFIG_NR_CPUS=$max_cpus in $SLEEB_CACHE"
"$tree/kernel/build.sh" vanilla sleeb sheaves
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build" >/dev/null
so=$build/model-clock/model-clock.so
[ -f "$so" ] || { echo "scale-sweep: $so not built (tools/qemu-plugin-api.sh --fetch, then meson setup --reconfigure)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/kernels"
for v in vanilla sleeb sheaves; do
	cp -a "$("$tree/kernel/build.sh" --out "$v")" "$out/kernels/$v"
done
unset SLEEB_CACHE # harness.sh's own kernel/build.sh is not called (--kernel-out)

start=$(date +%s)
for shape in "${shapes[@]}"; do
	cpus=${shape%/*} nodes=${shape#*/}
	runs=$out/$cpus-$nodes/runs
	mkdir -p "$runs"
	for cfg in vanilla sleeb sheaves; do
		log=$runs/icount-$cfg-1
		# Seed 1, and seed 2 when that boot fails: the 32/4 vanilla boot
		# with seed 1 once panicked in the emulation, twice at the same
		# instruction; it has not since the initramfs became reproducible
		# (docs/benchmarks.md, the measured sweep).
		for seed in 1 2; do
			printf 'scale-sweep: %2s cpus, %s nodes, %-7s seed %s ... ' "$cpus" "$nodes" "$cfg" "$seed"
			t0=$(date +%s)
			SLEEB_QEMU_CLOCK=icount flock /tmp/sleeb-guest.lock tests/vm/harness.sh scale "$cfg" \
				--build-dir "$build" --kernel-out "$out/kernels/$cfg" --tag "$cpus-$nodes" \
				--smp "$cpus" --nodes "$nodes" --plugin "$so,out=$log.mc" --seed "$seed" --timeout 2400 \
				--append "sleeb.bench_reps=1 sleeb.bench_quick=1 sleeb.workload_iters=$iters" \
				>"$log.tap" 2>&1 || true
			cp "$build/vm-logs/scale-$cfg-$cpus-$nodes/tap.log" "$log.log"
			if grep -q '^ok .*kernel log free of splats' "$log.tap" && grep -q 'ran suite scale to the end' "$log.tap" &&
				! grep -q '^not ok' "$log.tap"; then
				echo "done in $(( $(date +%s) - t0 )) s ($(grep -c '^model-clock window' "$log.mc") window lines)"
				break
			fi
			echo "FAILED (see $log.tap)"
			[ "$seed" = 1 ] || exit 1
			cp "$log.tap" "$log.seed1-failed.tap"
		done
	done
done
python3 tools/scale-report.py "$out" --seconds $(( $(date +%s) - start )) --quick $quick
echo "scale-sweep: $out/results.md, $out/results.json"
exit
}
