#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark vanilla SLUB against SLEEB, and both against upstream's
# sheaves (Linux 7.x), in one run, same guest setup:
#
#   tools/bench.sh [--quick] [--build-dir DIR] [--base VARIANT]
#                  [--configs CONFIG,...] [--workloads PART,...]
#                  [--boots N] [--mttcg-boots N] [--cached-kernels]
#
# Boots, alternating (A B C A B C ...), these configurations:
#   vanilla    the vanilla kernel
#   sheaves    upstream's per-cpu sheaves: Debian's newest linux-source-7.N,
#              unpatched, with the same guest config fragments (kernel/build.sh
#              sheaves); it has no queue_stats, so the figures that read
#              SLEEB's counters (the profile, what the workloads moved
#              through the queues) are SLEEB's only
#   sleeb      the sleeb kernel, default queues
#   sleeb-off  the sleeb kernel booted with slub_queues=off (cost of the patch)
#   q16, q480  the sleeb kernel with every queue set at boot to 16/8/64 and
#              480/240/1920 (a sweep: what should the daemon pick?)
#   sleebd     sleeb+sleebd: the sleeb kernel with sleebd (a release build
#              of the tree, DIR/bench-guest) started after the micro
#              benchmarks and running the shipped sleebd.conf and policies
#              as they are through hackbench, the profile and the
#              workloads; each part (each hackbench mode, each workload)
#              runs twice, the first run unmeasured, where the daemon
#              learns (sleeb.learn=1), repeated for two of its intervals
#              (tests/vm/guest/bench/run.lib); icount boots only
#   replay     the sleeb kernel with the sizes the sleebd boot of the same
#              round ended with, set once where that boot started the
#              daemon (tests/vm/guest/bench/16-replay-sizes.sh), no daemon,
#              the same two runs of each part: the daemon's decisions
#              without its cost. It boots right after sleebd in each round
#              and needs it (--configs with replay but not sleebd is
#              refused); icount boots only
#   resize     the sleeb kernel, default queues, with the hot caches
#              resized every 100 ms of guest time (between their sizes and
#              double them, tests/vm/guest/bench/resize.lib) during each
#              hackbench run and each workload: what a resize under live load
#              costs against sleeb (issue 30); icount boots only
#   base       with --base VARIANT (e.g. sleeb-upto-11, kernel/build.sh): an
#              earlier point of the series with its default queues, icount
#              boots only: the A/B of two kernels in one run (results.md,
#              "The sleeb kernel against the base kernel")
# under two clocks: "icount" (single-threaded TCG with -icount shift=0: one
# guest ns per instruction, deterministic) for every configuration, and
# "mttcg" (multi-threaded TCG, wall clock, noisy) with 10 boots of vanilla,
# sleeb and sheaves each for the concurrency tests and hackbench. Each boot runs the
# sleeb_bench module (5 repetitions), hackbench and the Slab memory probes;
# the icount boots then run the workloads of tests/vm/guest-bin/workload.c
# (file churn, fork/mmap churn, loopback TCP across nodes, with Slab after
# each; --quick: the first boot only), and the first icount boot of each
# config counts, per test, how often the queues left their fast paths
# (sleeb_bench's profile mode).
#
# The icount boots also carry the model clock (model-clock/model-clock.so,
# docs/benchmarks.md): sleeb_bench marks each measured region as a window,
# the plugin prices it in model cycles (instructions + cache misses,
# transfers and locked operations by a penalty table) and writes its report
# to runs/icount-CONFIG-BOOT.mc. Boots with 4 vCPUs are not bit-identical
# under QEMU 7.2, so each config gets several (min..max in the report).
# Without the plugin (no qemu-plugin.h: tools/qemu-plugin-api.sh --fetch)
# the icount boots run without it and the report has no model-cycle table.
#
# Every boot holds /tmp/sleeb-guest.lock while it runs (one at a time, so
# other guest runs can interleave): do not run this script under that lock
# yourself. The kernels are copied to DIR/bench/kernels first, so a rebuild
# of the shared kernel cache during the run cannot mix two builds.
#
# Writes DIR/bench/results.json (every figure) and DIR/bench/results.md
# (ratios vanilla/SLEEB, > 1 = SLEEB faster). --quick: fewer boots and
# sizes, for development. A reduced run: --configs (icount configs, in
# this order, from the list above; the wall-clock boots keep those of
# vanilla, sleeb and sheaves it names), --workloads (of hackbench, files,
# fork, tcp; the others are not run), --boots (icount boots per config;
# the sweeps q16/q480 at most 2, or 1 with --quick) and --mttcg-boots
# (wall-clock boots, 0 for none). --cached-kernels boots the kernels in
# the cache as they are, without kernel/build.sh: for a run beside a
# rebuild of that cache (which bench.sh must not join), DIR/bench/kernels
# records each one's build stamp.
set -euo pipefail
# One block, read whole before it runs: bash reads a script as it goes,
# so an edit of this file during a run would otherwise run half of each.
{
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
command="tools/bench.sh $*"
build=$top/build quick=0 base= configs_opt= workloads_opt= boots_opt= mttcg_opt= cached=0
usage="usage: tools/bench.sh [--quick] [--build-dir DIR] [--base VARIANT] [--configs CONFIG,...]
       [--workloads PART,...] [--boots N] [--mttcg-boots N] [--cached-kernels]"
while [ $# -gt 0 ]; do
	case "$1" in
	--quick) quick=1 ;;
	--build-dir) build=$(cd "$2" && pwd); shift ;;
	--base) base=${2:?$usage}; shift ;;
	--configs) configs_opt=${2:?$usage}; shift ;;
	--workloads) workloads_opt=${2:?$usage}; shift ;;
	--boots) boots_opt=${2:?$usage}; shift ;;
	--mttcg-boots) mttcg_opt=${2:?$usage}; shift ;;
	--cached-kernels) cached=1 ;;
	*) echo "$usage" >&2; exit 2 ;;
	esac
	shift
done
die() { echo "tools/bench.sh: $*" >&2; exit 2; }
for n in "$boots_opt" "$mttcg_opt"; do
	case "$n" in
	'' | [0-9] | [0-9][0-9]) ;;
	*) die "--boots and --mttcg-boots take a number of boots, not '$n'" ;;
	esac
done
[ "$boots_opt" != 0 ] || die "--boots takes 1 or more"
for p in ${workloads_opt//,/ }; do
	case "$p" in
	hackbench | files | fork | tcp) ;;
	*) die "--workloads takes hackbench, files, fork and tcp, not '$p'" ;;
	esac
done
case "$base" in
'' | sleeb-upto-[1-9] | sleeb-upto-[1-9][0-9]) ;;
*) die "--base takes sleeb-upto-N (the first N patches of kernel/series), not '$base'" ;;
esac
# The learning run of each part lasts two of the daemon's intervals
# (sleeb.learn_seconds, tests/vm/guest/bench/run.lib), so that at least
# one whole interval sees the load: twice the shipped Interval=, in whole
# seconds (replay runs the same sequence).
interval_of() { # interval_of FILE: its [Daemon] Interval= (commented or not) in seconds
	sed -n 's/^#*Interval=\([0-9]*\)\(m*s\)$/\1 \2/p' "$1" | tail -n 1 |
		awk '{ s = $2 == "ms" ? $1 / 1000 : $1; printf "%d", s == int(s) ? s : int(s) + 1 }'
}
learn_s=$(( 2 * $(interval_of "$top/sleebd/sleebd.conf") ))
[ "$learn_s" -gt 0 ] || die "no Interval= in sleebd/sleebd.conf"
declare -A append=(
	[vanilla]="" [sleeb]="" [sleeb-off]="slub_queues=off"
	[q16]="slub_queue_size=16 slub_queue_batch=8 slub_shared_queue_size=64"
	[q480]="slub_queue_size=480 slub_queue_batch=240 slub_shared_queue_size=1920"
	[sleebd]="sleeb.sleebd=1 sleeb.learn=1 sleeb.learn_seconds=$learn_s"
	[replay]="sleeb.replay=1 sleeb.learn=1 sleeb.learn_seconds=$learn_s"
	[resize]="sleeb.resize=1" [base]=""
	# 7.3's boot-time check that the timer reaches the IO-APIC panicked in
	# the first multi-threaded TCG boot on a loaded host ("IO-APIC + timer
	# doesn't work!"); skipping it changes nothing measured.
	[sheaves]="no_timer_check"
)
variant_of() {
	case "$1" in
	vanilla | sheaves) echo "$1" ;;
	base) echo "$base" ;;
	*) echo sleeb ;;
	esac
}

if [ $quick = 1 ]; then
	icount_boots=2 sweep_boots=1 mttcg_boots=1 micro="sleeb.bench_reps=1 sleeb.bench_quick=1"
	hack="sleeb.hackbench_reps=1 sleeb.hackbench_loops=20"
	work="sleeb.workloads=1 sleeb.workload_iters=200"
	icount_configs=(vanilla sleeb sheaves sleeb-off sleebd replay)
else
	icount_boots=3 sweep_boots=2 mttcg_boots=10 micro="sleeb.bench_reps=5 sleeb.bench_quick=0"
	hack="sleeb.hackbench_reps=3 sleeb.hackbench_loops=50"
	work="sleeb.workloads=1 sleeb.workload_iters=1000"
	icount_configs=(vanilla sleeb sheaves sleeb-off sleebd replay resize q16 q480)
fi
# A full run's sleeb_bench prints about 1500 lines (the handoff sweep's
# among them) before bench/10-micro.sh reads dmesg: more than the guest's
# default 128 KiB log buffer keeps.
micro="$micro log_buf_len=1M"
mttcg_configs=(vanilla sleeb sheaves)
# The base kernel boots right after sleeb in each round, under the same clock.
[ -z "$base" ] || icount_configs=(vanilla sleeb base "${icount_configs[@]:2}")
if [ -n "$configs_opt" ]; then
	icount_configs=() mttcg_keep=()
	for c in ${configs_opt//,/ }; do
		[ -n "${append[$c]+set}" ] || die "--configs: no config '$c' (${!append[*]})"
		[ "$c" != base ] || [ -n "$base" ] || die "--configs: base needs --base VARIANT"
		icount_configs+=("$c")
		[[ " ${mttcg_configs[*]} " != *" $c "* ]] || mttcg_keep+=("$c")
	done
	mttcg_configs=(${mttcg_keep[@]+"${mttcg_keep[@]}"})
fi
# replay sets the sizes its round's sleebd boot ended with: right after it.
if [[ " ${icount_configs[*]} " == *" replay "* ]]; then
	[[ " ${icount_configs[*]} " == *" sleebd "* ]] || die "--configs: replay needs sleebd (it replays its sizes)"
	ordered=()
	for c in "${icount_configs[@]}"; do
		[ "$c" = replay ] || ordered+=("$c")
		[ "$c" != sleebd ] || ordered+=(replay)
	done
	icount_configs=("${ordered[@]}")
fi
[ -z "$boots_opt" ] || icount_boots=$boots_opt
[ -z "$boots_opt" ] || [ "$boots_opt" -ge "$sweep_boots" ] || sweep_boots=$boots_opt
[ -z "$mttcg_opt" ] || mttcg_boots=$mttcg_opt
[ -z "$workloads_opt" ] || work="$work sleeb.workload_list=$workloads_opt"
# The kernels the chosen configs boot.
variants=()
for c in "${icount_configs[@]}" "${mttcg_configs[@]}"; do
	v=$(variant_of "$c")
	[[ " ${variants[*]} " == *" $v "* ]] || variants+=("$v")
done

out=$build/bench
cd "$top"
tools/install-deps.sh
[ $cached = 1 ] || kernel/build.sh "${variants[@]}"
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
# Under `meson compile bench` the plugin is a dependency, built already
# (and a nested build of the same directory is not safe).
[ -n "${MESON_BUILD_ROOT:-}" ] || meson compile -C "$build" >/dev/null
# What runs in the guest (sleebd, sleebctl, the workload and window
# programs) comes from a release build of the same tree, DIR/bench-guest:
# DIR is usually the suites' sanitized build (tools/test-all.sh), and
# ASan's instrumentation would be measured as the daemon's cost and as
# the workloads' own work. The plugin stays DIR's (it runs in QEMU).
guest=$build/bench-guest
[ -f "$guest/build.ninja" ] || meson setup "$guest" --buildtype=release -Db_sanitize=none >/dev/null
meson compile -C "$guest" >/dev/null
rm -rf "$out"
mkdir -p "$out/runs" "$out/kernels"
for v in "${variants[@]}"; do
	cp -a "$(kernel/build.sh --out "$v")" "$out/kernels/$v"
	[ -f "$out/kernels/$v/bzImage" ] || die "no kernel $v in the cache ($(kernel/build.sh --out "$v"))"
	[ $cached = 0 ] || echo "bench: kernel $v as cached, build stamp $(cat "$out/kernels/$v/.stamp" 2>/dev/null || echo none)"
done
so=$build/model-clock/model-clock.so
if [ -f "$so" ]; then
	echo "bench: icount boots carry the model clock ($so)"
else
	so=
	echo "bench: no model clock ($build/model-clock/model-clock.so not built:" \
		"tools/qemu-plugin-api.sh --fetch, then meson setup --reconfigure)"
fi

run() { # run CLOCK CONFIG BOOT
	local clock=$1 cfg=$2 boot=$3 variant log t0 mc=() windows=''
	variant=$(variant_of "$cfg")
	log=$out/runs/$clock-$cfg-$boot
	printf 'bench: %-6s %-9s boot %2s ... ' "$clock" "$cfg" "$boot"
	# The first deterministic boot of each config also counts the queues'
	# slow paths per test (bench/30-profile.sh), after everything timed.
	# The workloads run in every deterministic boot of a full run (4-vCPU
	# boots differ: a range over boots) and in the first of a quick one.
	profile=
	if [ "$clock" = icount ]; then
		[ "$boot" != 1 ] || profile="sleeb.profile=1"
		[ "$boot" != 1 ] && [ $quick = 1 ] || profile="$profile $work"
	fi
	# The handoff sweep's N of 10^4 and more (most of its time): first boots only.
	[ "$boot" = 1 ] || profile="$profile sleeb.bench_handoff_max=1000"
	# The model clock rides on the icount boots; --seed BOOT: the same
	# guest randomness for every config in boot BOOT.
	[ "$clock" = icount ] && [ -n "$so" ] && mc=(--plugin "$so,out=$log.mc" --seed "$boot")
	# replay: the sizes of this round's sleebd boot, into the image
	# (--extra puts a file in /usr/bin: 16-replay-sizes.sh reads it there).
	extra=()
	if [ "$cfg" = replay ]; then
		mkdir -p "$log.sizes"
		# The guest's serial lines end in CR LF.
		sed -n 's/\r$//; s/^# BENCH sleebd final //p' "$out/runs/$clock-sleebd-$boot.log" \
			>"$log.sizes/bench-replay-sizes"
		extra=(--extra "$log.sizes/bench-replay-sizes")
		printf '(%s caches) ' "$(wc -l <"$log.sizes/bench-replay-sizes")"
	fi
	t0=$(date +%s)
	SLEEB_QEMU_CLOCK=$clock flock /tmp/sleeb-guest.lock tests/vm/harness.sh bench "$variant" \
		--build-dir "$guest" --kernel-out "$out/kernels/$variant" \
		--extra /usr/bin/hackbench ${extra[@]+"${extra[@]}"} --timeout 1200 ${mc[@]+"${mc[@]}"} \
		--append "${append[$cfg]} $micro $hack $profile" >"$log.tap" 2>&1 || true
	cp "$guest/vm-logs/bench-$variant/tap.log" "$log.log"
	[ ${#mc[@]} = 0 ] || windows=", $(grep -c "^model-clock window" "$log.mc" 2>/dev/null || true) window lines"
	grep -q '^ok .*kernel log free of splats' "$log.tap" && grep -q 'ran suite bench to the end' "$log.tap" &&
		{ [ "$cfg" != sleebd ] || grep -q '^ok .*sleebd stopped on SIGTERM with status 0' "$log.tap"; } &&
		{ [ "$cfg" != resize ] || ! grep -q '^not ok .*resize' "$log.tap"; } &&
		{ [ "$cfg" != replay ] || grep -q '^ok .*replay: every size' "$log.tap"; } &&
		echo "done in $(( $(date +%s) - t0 )) s ($(grep -c 'BENCH micro' "$log.log") figures$windows)" ||
		{ echo "FAILED (see $log.tap)"; exit 1; }
}

start=$(date +%s)
for boot in $(seq 1 "$icount_boots"); do
	for cfg in "${icount_configs[@]}"; do
		[ "$boot" -gt "$sweep_boots" ] && [[ $cfg == q* ]] && continue # sweeps: fewer boots
		run icount "$cfg" "$boot"
	done
done
for boot in $(seq 1 "$mttcg_boots"); do
	for cfg in "${mttcg_configs[@]}"; do
		run mttcg "$cfg" "$boot"
	done
done
python3 tools/bench-report.py "$out" --seconds $(( $(date +%s) - start )) --quick $quick \
	${base:+--base "$base"} --command "$command"
echo "bench: $out/results.md, $out/results.json"
exit
}
