# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, part 1: the slab microbenchmarks (kernel/modules/sleeb_bench).
# Reports "# BENCH micro TEST CACHE N REP METRIC VALUE" and "# BENCH window"
# lines (below) for tools/bench.sh; sleeb.bench_reps=, sleeb.bench_quick=
# and sleeb.bench_handoff_max= on the command line.
. /tests/lib.sh
reps=$(sed -n 's/.*sleeb\.bench_reps=\([0-9]*\).*/\1/p' /proc/cmdline)
quick=$(sed -n 's/.*sleeb\.bench_quick=\([01]\).*/\1/p' /proc/cmdline)
# The handoff sweep's largest N (sleeb.bench_handoff_max=, default all).
hmax=$(sed -n 's/.*sleeb\.bench_handoff_max=\([0-9]*\).*/\1/p' /proc/cmdline)
echo "# BENCH queues $(cat /sys/kernel/slab/kmalloc-64/cpu_queue_size 2>/dev/null || echo none)"
dmesg -c >/dev/null
check "sleeb_bench ran" insmod /lib/modules/sleeb_bench.ko reps="${reps:-5}" quick="${quick:-0}" \
	handoff_max="${hmax:-50000}"
dmesg | sed -n 's/.*SLEEB-BENCH \([a-z].*\)/# BENCH micro \1/p'
# Which model-clock window (id, seq) measured which figure: "# BENCH window
# ID SEQ TEST CACHE N REP METRIC OPS" (the plugin's report is on the host).
dmesg | sed -n 's/.*SLEEB-BENCH-WINDOW \(.*\)/# BENCH window \1/p'
check "sleeb_bench reported figures" sh -c "dmesg | grep -q SLEEB-BENCH-END"
