#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark vanilla SLUB against SLEEB in one run, same guest setup:
#
#   tools/bench.sh [--quick] [--build-dir DIR]
#
# Boots, alternating (A B C A B C ...), these configurations:
#   vanilla    the vanilla kernel
#   sleeb      the sleeb kernel, default queues
#   sleeb-off  the sleeb kernel booted with slub_queues=off (cost of the patch)
#   q16, q480  the sleeb kernel with every queue set at boot to 16/8/64 and
#              480/240/1920 (a sweep: what should the daemon pick?)
# under two clocks: "icount" (single-threaded TCG with -icount shift=0: one
# guest ns per instruction, deterministic) for every configuration, and
# "mttcg" (multi-threaded TCG, wall clock, noisy) with 10 boots of vanilla and
# sleeb each for the concurrency tests and hackbench. Each boot runs the
# sleeb_bench module (5 repetitions), hackbench and the Slab memory probes;
# the first icount boot of each config then runs the workloads of
# tests/vm/guest-bin/workload.c (file churn, fork/mmap churn, loopback TCP
# across nodes, with Slab after each) and counts, per test, how often the
# queues left their fast paths (sleeb_bench's profile mode).
#
# Writes DIR/bench/results.json (every figure) and DIR/bench/results.md
# (ratios vanilla/SLEEB, > 1 = SLEEB faster). --quick: one boot each, fewer
# sizes, for development.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$top/build quick=0
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--build-dir) build=$(cd "$2" && pwd); shift ;;
	*) echo "usage: tools/bench.sh [--quick] [--build-dir DIR]" >&2; exit 2 ;;
	esac
	shift
done
out=$build/bench
cd "$top"
tools/install-deps.sh
kernel/build.sh vanilla sleeb
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
rm -rf "$out"
mkdir -p "$out/runs"

declare -A append=(
	[vanilla]="" [sleeb]="" [sleeb-off]="slub_queues=off"
	[q16]="slub_queue_size=16 slub_queue_batch=8 slub_shared_queue_size=64"
	[q480]="slub_queue_size=480 slub_queue_batch=240 slub_shared_queue_size=1920"
)
variant_of() { [ "$1" = vanilla ] && echo vanilla || echo sleeb; }

if [ $quick = 1 ]; then
	icount_boots=1 mttcg_boots=1 micro="sleeb.bench_reps=1 sleeb.bench_quick=1"
	hack="sleeb.hackbench_reps=1 sleeb.hackbench_loops=20"
	work="sleeb.workloads=1 sleeb.workload_iters=200"
	icount_configs=(vanilla sleeb sleeb-off)
else
	icount_boots=2 mttcg_boots=10 micro="sleeb.bench_reps=5 sleeb.bench_quick=0"
	hack="sleeb.hackbench_reps=3 sleeb.hackbench_loops=50"
	work="sleeb.workloads=1 sleeb.workload_iters=1000"
	icount_configs=(vanilla sleeb sleeb-off q16 q480)
fi
mttcg_configs=(vanilla sleeb)

run() { # run CLOCK CONFIG BOOT
	local clock=$1 cfg=$2 boot=$3 variant log
	variant=$(variant_of "$cfg")
	log=$out/runs/$clock-$cfg-$boot
	printf 'bench: %-6s %-9s boot %2s ... ' "$clock" "$cfg" "$boot"
	# The first deterministic boot of each config also counts the queues'
	# slow paths per test (bench/30-profile.sh), after everything timed.
	profile=
	[ "$clock" = icount ] && [ "$boot" = 1 ] && profile="sleeb.profile=1 $work"
	SLEEB_QEMU_CLOCK=$clock tests/vm/harness.sh bench "$variant" --build-dir "$build" \
		--extra /usr/bin/hackbench --timeout 1200 \
		--append "${append[$cfg]} $micro $hack $profile" >"$log.tap" 2>&1 || true
	cp "$build/vm-logs/bench-$variant/tap.log" "$log.log"
	grep -q '^ok .*kernel log free of splats' "$log.tap" && grep -q 'ran suite bench to the end' "$log.tap" &&
		echo "done ($(grep -c 'BENCH micro' "$log.log") figures)" || { echo "FAILED (see $log.tap)"; exit 1; }
}

start=$(date +%s)
for boot in $(seq 1 "$icount_boots"); do
	for cfg in "${icount_configs[@]}"; do
		[ "$boot" -gt 1 ] && [[ $cfg == q* ]] && continue # sweeps: one deterministic boot
		run icount "$cfg" "$boot"
	done
done
for boot in $(seq 1 "$mttcg_boots"); do
	for cfg in "${mttcg_configs[@]}"; do
		run mttcg "$cfg" "$boot"
	done
done
python3 tools/bench-report.py "$out" --seconds $(( $(date +%s) - start )) --quick $quick
echo "bench: $out/results.md, $out/results.json"
