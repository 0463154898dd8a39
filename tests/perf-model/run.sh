#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The model clock's guest tests (suite perf-model), TAP on stdout:
#
#   tests/perf-model/run.sh BUILD_DIR [--plugin-args "ARG=V,..."] [--quick]
#
# Boots the vanilla kernel's busybox guest three times (--quick: once)
# under single-threaded TCG with -icount shift=0, the model clock
# (BUILD_DIR/model-clock/model-clock.so) and a fixed seed, runs
# tests/vm/guest/perf-model/ (model-probe's memory patterns, one window
# each), and checks the plugin's report against what the model's
# geometry predicts:
#   - strides: L1 misses, LLC hits and memory accesses, within 2% + 64;
#   - one line written in turns by two vCPUs: one transfer per turn, same
#     node or cross node, within 5% + 16 (the kernel's own work on those
#     vCPUs during the window, timer ticks and scheduling, adds about 3%);
#   - locked add, xchg with memory, lock cmpxchg16b count as locked, plain
#     adds do not (within 1% + 16);
#   - every report line adds up (misses by where they were served, cycles
#     from the penalties);
#   - the same guest booted twice reports the very same counts in every
#     window: boots 2 and 3, with one vCPU each. With 4 vCPUs QEMU 7.2
#     does not repeat a boot exactly even with -icount shift=0 and a fixed
#     seed: the vCPUs' interleaving, and so where the kernel's interrupts
#     land, varies, and a window that catches a timer tick counts its
#     handler (docs/benchmarks.md, "The model clock"). Boot 1's windows
#     are checked against the geometry with tolerances for that.
# --plugin-args adds model-clock arguments (e.g. l1_kib=64 or
# coherence=off to see the checks fail). Each boot holds
# /tmp/sleeb-guest.lock. Any vanilla kernel will do, so an existing build
# is booted as it is (kernel/build.sh vanilla only when there is none).
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
build=${1:?usage: run.sh BUILD_DIR [--plugin-args ARGS] [--quick]}
build=$(cd "$build" && pwd)
shift
pargs='' runs=3
while [ $# -gt 0 ]; do
	case "$1" in
	--plugin-args) pargs=,$2; shift ;;
	--quick) runs=1 ;;
	*) echo "run.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done

echo "TAP version 13"
so=$build/model-clock/model-clock.so
probe=$build/tests/perf-model/model-probe
if [ ! -f "$so" ]; then
	echo "1..0 # SKIP model-clock.so not built (no qemu-plugin.h: tools/qemu-plugin-api.sh --fetch)"
	exit 0
fi
[ -x "$probe" ] || { echo "Bail out! $probe missing (meson compile -C $build)"; exit 1; }

kout=$("$top/kernel/build.sh" --out vanilla)
if [ ! -r "$kout/bzImage" ]; then
	"$top/kernel/build.sh" vanilla >&2 || { echo "Bail out! kernel/build.sh vanilla failed"; exit 1; }
fi
out=$build/perf-model
mkdir -p "$out"

n=0 failed=0
point() { # point ok|not-ok DESCRIPTION [DETAIL]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || echo "#   $3"
	fi
}

for r in $(seq 1 "$runs"); do
	rm -f "$out/run$r.txt"
	start=$(date +%s)
	one=()
	[ "$r" = 1 ] || one=(--one-cpu)
	SLEEB_QEMU_CLOCK=icount flock /tmp/sleeb-guest.lock "$top/tests/vm/harness.sh" perf-model vanilla \
		--build-dir "$build" --kernel-out "$kout" --tag "run$r" --extra "$probe" --timeout 600 \
		--plugin "$so,out=$out/run$r.txt$pargs" --seed 1 ${one[@]+"${one[@]}"} >"$out/run$r.tap" 2>&1
	rc=$?
	sed 's/^/# run '"$r"': /' "$out/run$r.tap" | grep -v '^# run [0-9]*: TAP version'
	if [ $rc = 0 ] && [ -s "$out/run$r.txt" ]; then
		point ok "boot $r ($([ "$r" = 1 ] && echo 4 vCPUs || echo 1 vCPU)): every probe ran, kernel log clean ($(( $(date +%s) - start )) s)"
	else
		point not-ok "boot $r: guest run failed (harness status $rc, see $build/vm-logs/perf-model-vanilla-run$r)"
	fi
done
report=$out/run1.txt

# field ID VCPU NAME: a counter of window ID's first close on that vCPU.
field() {
	awk -v id="id=$1" -v vcpu="vcpu=$2" -v name="$3" '
		$2 == "window" && $3 == id && $4 == "seq=1" && $5 == vcpu {
			for (i = 6; i <= NF; i++) { split($i, kv, "="); if (kv[1] == name) { print kv[2]; exit } }
		}' "$report"
}

# near DESC ID VCPU NAME WANT PERCENT ABS: |got - want| <= want * PERCENT/100 + ABS
near() {
	local desc=$1 got
	got=$(field "$2" "$3" "$4")
	if [ -z "$got" ]; then
		point not-ok "$desc" "window $2 vcpu $3 has no $4 in the report"
		return
	fi
	if awk -v g="$got" -v w="$5" -v p="$6" -v a="$7" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(d <= w * p / 100 + a) }'; then
		point ok "$desc: $4=$got (want $5 within $6% + $7)"
	else
		point not-ok "$desc: $4=$got, want $5 within $6% + $7"
	fi
}

# Strides (cpu 0 unless said): the window starts with cold caches.
near "24 KiB x8 fits the L1: one miss per line, on the first pass" 1 0 l1_miss 384 2 64
near "64 KiB x4 is twice the L1: LRU misses every line" 2 0 l1_miss 4096 2 64
near "1 MiB x2 misses the L1 every time" 3 0 l1_miss 32768 2 64
near "1 MiB x2 fits the LLC: the second pass hits it" 3 0 llc_hit 16384 2 64
near "1 MiB x2: memory on the first pass only" 3 0 mem_local 16384 2 64
near "16 MiB x2 is 4 times the LLC: every line from memory" 4 0 mem_local 524288 2 64
near "16 MiB x2: no LLC hits" 4 0 llc_hit 0 0 2048
near "node 1 reading node 0's memory: remote misses" 5 2 mem_remote 16384 2 64
near "counted for node 0, which owns the frames" 5 2 mem_node0 16384 2 64
near "node 1 reading node 0's memory: none local" 5 2 mem_local 0 0 64

# One line written in turns, 2000 turns each.
near "pingpong cpus 0-1: cpu 0 gets one same-node transfer per turn" 10 0 xfer_node 2000 5 16
near "pingpong cpus 0-1: cpu 1 too" 10 1 xfer_node 2000 5 16
near "pingpong cpus 0-1: no cross-node transfer" 10 1 xfer_remote 0 0 16
near "pingpong cpus 0-2: cpu 0 gets one cross-node transfer per turn" 11 0 xfer_remote 2000 5 16
near "pingpong cpus 0-2: cpu 2 too" 11 2 xfer_remote 2000 5 16
near "pingpong cpus 0-2: no same-node transfer" 11 2 xfer_node 0 0 32

# Locked read-modify-writes, 10000 each.
near "lock add counts as locked" 20 0 locked 10000 1 16
near "xchg with memory counts as locked" 21 0 locked 10000 1 16
near "lock cmpxchg16b counts as locked" 22 0 locked 10000 1 16
near "plain add does not (a timer tick in the window adds a few)" 23 0 locked 0 0 100

# Every line adds up: misses by where they were served; cycles by the table.
bad=$(awk '
	$2 == "params" { for (i = 3; i <= NF; i++) { split($i, kv, "="); if (kv[1] ~ /^cost_/) cost[substr(kv[1], 6)] = kv[2] } }
	$2 == "window" || $2 == "total" {
		delete f
		for (i = 3; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
		if (f["l1_miss"] != f["llc_hit"] + f["xfer_node"] + f["xfer_remote"] + f["mem_local"] + f["mem_remote"])
			{ print "misses do not add up: " $0; exit }
		c = f["insns"] + f["locked"] * cost["locked"] + f["llc_hit"] * cost["llc_hit"] + \
			f["xfer_node"] * cost["xfer_node"] + f["xfer_remote"] * cost["xfer_remote"] + \
			f["upgrades"] * cost["upgrade"] + f["mem_local"] * cost["mem_local"] + \
			f["mem_remote"] * cost["mem_remote"]
		if (c != f["cycles"]) { print "cycles " f["cycles"] " != " c ": " $0; exit }
		lines++
	}
	END { if (!lines) print "no window lines" }' "$report")
if [ -z "$bad" ]; then
	point ok "every report line: misses add up by source, cycles = insns + events x penalties"
else
	point not-ok "every report line adds up" "$bad"
fi

# The same guest, booted again, counts the same: boots 2 and 3 (1 vCPU).
if [ "$runs" -ge 3 ]; then
	a=$(grep ' window ' "$out/run2.txt" 2>/dev/null)
	b=$(grep ' window ' "$out/run3.txt" 2>/dev/null)
	if [ -n "$a" ] && [ "$a" = "$b" ]; then
		point ok "the same guest booted twice reports the very same counts ($(echo "$a" | wc -l) window lines)"
	else
		point not-ok "the same guest booted twice reports the very same counts" \
			"$(diff <(echo "$a") <(echo "$b") | head -3 | cut -c1-200 | tr '\n' ' ')"
	fi
fi

echo "1..$n"
[ $failed -eq 0 ]
