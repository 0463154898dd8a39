#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The longest irqs-off section of the object queues at their largest sizes,
# before and after a point of the series (issue 30, item 1.8):
#
#   tools/irqsoff-latency.sh [--build-dir DIR] [--before N] [--after M] [--boots K]
#
# Builds sleeb-upto-N and sleeb-upto-M (default: the last patch of
# kernel/series and the one before it) with CONFIG_IRQSOFF_TRACER, from a
# copy of kernel/ whose sleeb.config asks for it, in a cache of their own
# ($SLEEB_IRQSOFF_CACHE, default ~/.cache/sleeb-irqsoff: the first run
# builds the first kernel cold, 20-30 minutes here, the second mostly from
# ccache; later runs reuse both). Boots each K times (default 2), one after
# the other, with the guest suite tests/vm/guest/irqsoff, and prints per
# phase the worst section, min..max over the boots, where the worst one
# began and ended, and the phase's refills and drains of the cache.
#
# The guests run with one vCPU under the icount clock (vm-images/run-qemu.sh
# --one-cpu, SLEEB_QEMU_CLOCK=icount), where guest time advances 1 ns per
# instruction: the tracer's microseconds are thousands of instructions,
# what the section executes, whatever the host does meanwhile. Under the
# real-time clock, a vCPU thread the host deschedules inside any irqs-off
# section makes that section the worst; with more vCPUs under icount, one
# vCPU's section goes on while the others take their turns.
# Cache misses are not in it; the tracer's own hooks on every irq enable
# and disable are. Not a test and not in CI: the tracer kernels are built
# for this only.
#
# Writes DIR/irqsoff/upto-N-K.tap and results.md.
set -euo pipefail
# One block, read whole before it runs (see tools/scale-sweep.sh).
{
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/.." && pwd)
build=$top/build before='' after='' boots=2
usage() { sed -n '/^#   tools/p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2; exit 2; }
while [ $# -gt 0 ]; do
	case "$1" in
	--build-dir) build=$(realpath -m "$2"); shift ;;
	--before) before=$2; shift ;;
	--after) after=$2; shift ;;
	--boots) boots=$2; shift ;;
	*) usage ;;
	esac
	shift
done
cd "$top"
last=$(kernel/build.sh --series | wc -l)
after=${after:-$last}
before=${before:-$((after - 1))}
for n in "$before" "$after"; do
	case "$n" in
	'' | *[!0-9]*) echo "irqsoff-latency: '$n' is not a patch number" >&2; exit 2 ;;
	esac
	[ "$n" -ge 1 ] && [ "$n" -le "$last" ] ||
		{ echo "irqsoff-latency: patch $n is not in kernel/series (1..$last)" >&2; exit 2; }
done
case "$boots" in
'' | *[!0-9]* | 0) echo "irqsoff-latency: --boots wants a positive number" >&2; exit 2 ;;
esac

out=$build/irqsoff
tree=$out/tree
rm -rf "$tree"
mkdir -p "$tree"
cp -a kernel model-clock "$tree/"
printf '%s\n' '# tools/irqsoff-latency.sh' CONFIG_FTRACE=y CONFIG_IRQSOFF_TRACER=y \
	>>"$tree/kernel/configs/sleeb.config"
export SLEEB_CACHE=${SLEEB_IRQSOFF_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sleeb-irqsoff}
echo "irqsoff-latency: sleeb-upto-$before and sleeb-upto-$after with the irqsoff tracer in $SLEEB_CACHE"
"$tree/kernel/build.sh" "sleeb-upto-$before" "sleeb-upto-$after"
for n in "$before" "$after"; do
	rm -rf "$out/kernels/upto-$n"
	mkdir -p "$out/kernels"
	cp -a "$("$tree/kernel/build.sh" --out "sleeb-upto-$n")" "$out/kernels/upto-$n"
done
unset SLEEB_CACHE # harness.sh's own kernel/build.sh is not called (--kernel-out)
[ -f "$build/build.ninja" ] || meson setup "$build" >/dev/null
meson compile -C "$build" >/dev/null

for k in $(seq 1 "$boots"); do
	for n in "$before" "$after"; do
		log=$out/upto-$n-$k.tap
		printf 'irqsoff-latency: sleeb-upto-%s, boot %s ... ' "$n" "$k"
		t0=$(date +%s)
		SLEEB_QEMU_CLOCK=icount flock /tmp/sleeb-guest.lock tests/vm/harness.sh irqsoff "sleeb-upto-$n" \
			--build-dir "$build" --kernel-out "$out/kernels/upto-$n" --tag "$k" --one-cpu \
			--timeout 1800 >"$log" 2>&1 || true
		if grep -q '^not ok' "$log" || ! grep -q '^# IRQSOFF ' "$log"; then
			echo "FAILED (see $log)"
			exit 1
		fi
		echo "done in $(( $(date +%s) - t0 )) s"
	done
done

# results.md: per phase and kernel, min..max of the worst section, the
# worst boot's section ends, and the phase's refills and drains.
phase_fields() { # KERNEL PHASE: the IRQSOFF lines' fields 4.. of that phase
	cat "$out"/upto-"$1"-*.tap | awk -v p="$2" '$1 == "#" && $2 == "IRQSOFF" && $3 == p { $1 = $2 = $3 = ""; print }'
}
{
	echo "# Longest irqs-off section, thousands of instructions (icount)"
	echo
	echo "sleeb-upto-$before against sleeb-upto-$after, $boots boots each with one vCPU,"
	echo "queues of sleeb_bench64 at 10000/5000/10000 (tools/irqsoff-latency.sh)."
	echo
	echo "| phase | upto-$before | upto-$after | worst section, upto-$before | upto-$after | refills/drains, upto-$before | upto-$after |"
	echo "|---|---|---|---|---|---|---|"
	for phase in $(sed -n 's/^# IRQSOFF \([^ ]*\) .*/\1/p' "$out/upto-$before-1.tap"); do
		range='' ends='' trips=''
		for n in "$before" "$after"; do
			range="$range | $(phase_fields "$n" "$phase" | awk '{ v = $1 + 0;
				if (!c++ || v < lo) lo = v; if (v > hi) hi = v }
				END { printf "%.0f..%.0f", lo, hi }')"
			ends="$ends | $(phase_fields "$n" "$phase" | awk '$1 + 0 >= hi { hi = $1 + 0; w = $2 " .. " $3 } END { print w }')"
			trips="$trips | $(phase_fields "$n" "$phase" | awk '{ printf "%s%s/%s", c++ ? ", " : "", $4, $5 }')"
		done
		echo "| $phase$range$ends$trips |"
	done
} >"$out/results.md"
cat "$out/results.md"
exit
}
