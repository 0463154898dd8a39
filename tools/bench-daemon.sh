#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# What sleebd costs on the machine it tunes: CPU, system calls and memory
# of the daemon at rest, on a fake tree the size of a real machine
# (tools/bench-tree.py: the 235 caches of a real 6.18 host plus made-up
# ones, 300 by default, with merged aliases), the shipped policies and
# Interval=1s. Prints figures; it is a measurement, not a test.
#
#   tools/bench-daemon.sh [--build-dir DIR] [--seconds N] [--caches N]
#                         [--interval DURATION] [--textfile]
#
# DIR is a meson build directory (build by default; use a release build:
# meson setup DIR --buildtype=release). CPU comes from the kernel's own
# accounting of the process (/proc/PID/schedstat, nanoseconds; utime and
# stime of /proc/PID/stat when schedstat is missing) over N seconds (60);
# system calls from `strace -c -f` attached for another N seconds (strace
# slows every call, so it never runs during the CPU measurement); memory
# is VmRSS and VmHWM of /proc/PID/status at the end. --textfile also
# writes the Prometheus textfile every interval (every cache's
# queue_stats is read then).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=build seconds=60 ncaches=300 interval=1s textfile=
while [ $# -gt 0 ]; do
	case $1 in
	--build-dir) build=$2; shift 2 ;;
	--seconds) seconds=$2; shift 2 ;;
	--caches) ncaches=$2; shift 2 ;;
	--interval) interval=$2; shift 2 ;;
	--textfile) textfile=1; shift ;;
	*) echo "usage: $0 [--build-dir DIR] [--seconds N] [--caches N] [--interval D] [--textfile]" >&2; exit 2 ;;
	esac
done
sleebd=$build/sleebd/sleebd
[ -x "$sleebd" ] || { echo "$0: no $sleebd (meson setup $build --buildtype=release && ninja -C $build)" >&2; exit 2; }
command -v strace >/dev/null || { echo "$0: strace is missing (tools/install-deps.sh)" >&2; exit 2; }

tree=$(mktemp -d /tmp/sleeb-bench-daemon.XXXXXX)
pid=
cleanup() {
	[ -z "$pid" ] || { kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; }
	rm -rf "$tree"
}
trap cleanup EXIT
entries=$(python3 "$here/bench-tree.py" "$tree" "$ncaches")
mkdir -p "$tree/usr/lib/sleeb/policy.d" "$tree/etc/sleeb"
cp "$here/../sleebd/policy.d/"*.conf "$tree/usr/lib/sleeb/policy.d/"
{
	echo "[Daemon]"
	echo "Interval=$interval"
	[ -z "$textfile" ] || echo "PrometheusTextfile=$tree/prom/sleeb.prom"
} >"$tree/etc/sleeb/sleebd.conf"
mkdir -p "$tree/prom"

"$sleebd" --root "$tree" --config-root "$tree" >"$tree/sleebd.log" 2>&1 &
pid=$!
# Settle: the first full apply and the first auto-tuning intervals.
sleep 3
kill -0 "$pid" 2>/dev/null || { cat "$tree/sleebd.log" >&2; echo "$0: sleebd died" >&2; exit 1; }

cpu_ns() {
	if [ -r "/proc/$pid/schedstat" ]; then
		cut -d' ' -f1 "/proc/$pid/schedstat"
	else
		awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($14 + $15) * 1e9 / hz }' "/proc/$pid/stat"
	fi
}
t0=$(date +%s%N) c0=$(cpu_ns)
sleep "$seconds"
t1=$(date +%s%N) c1=$(cpu_ns)
cpu=$(awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) 'BEGIN { printf "%.3f", c * 100 / t }')
cpu_ms=$(awk -v c=$((c1 - c0)) -v t=$((t1 - t0)) 'BEGIN { printf "%.2f", c / 1e6 / (t / 1e9) }')

strace_out=$tree/strace.txt
timeout -s INT "$seconds" strace -c -f -p "$pid" 2>"$strace_out" || true
# "% time, seconds, usecs/call, calls, [errors,] syscall": calls is the 4th.
calls=$(awk '$NF == "total" { print $4 }' "$strace_out")
rate=$(awk -v n="${calls:-0}" -v s="$seconds" 'BEGIN { printf "%.0f", n / s }')
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
fds=$(ls "/proc/$pid/fd" | wc -l)

echo "sleebd $("$sleebd" --version 2>/dev/null | head -1) ($(basename "$build")), $entries"
echo "Interval=$interval${textfile:+, PrometheusTextfile=}, shipped policies, ${seconds}s per figure"
printf 'cpu:        %s%% of one core (%s ms of cpu per second)\n' "$cpu" "$cpu_ms"
printf 'syscalls:   %s per second (%s in %ss)\n' "$rate" "${calls:-0}" "$seconds"
printf 'memory:     VmRSS %s KiB, VmHWM %s KiB, %s open files\n' "$rss" "$hwm" "$fds"
echo "top system calls:"
awk '$1 ~ /^[0-9.]+$/ && NF >= 5 && $NF != "total" { printf "  %-16s %6.0f/s\n", $NF, $4 / s }' s="$seconds" \
	"$strace_out" | sort -k2 -n -r | head -8
