# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, part 2: hackbench (rt-tests) in process and thread mode
# with a fixed loop count, then Slab/SUnreclaim right after it, 2, 4, 8 and
# 16 s later and after 30 s idle (how fast the reaper gives memory back);
# sleeb.hackbench_reps= and sleeb.hackbench_loops=
# on the command line. "# BENCH hackbench MODE REP SECONDS",
# "# BENCH mem PHASE SLAB_KB SUNRECLAIM_KB", and per cache holding slabs
# "# BENCH slab PHASE CACHE ACTIVE_OBJS NUM_OBJS SLAB_KB" (/proc/slabinfo:
# where a difference in Slab: comes from), and "# BENCH at PHASE UPTIME"
# (the guest's clock at each probe, to place sleebd's decisions). The
# config "resize" (sleeb.resize=1) resizes the hot caches during each run
# (resize.lib: "# BENCH resize hackbench-MODE ..."). Each measured run is
# a model-clock window (model-window: hackbench in model cycles); with
# sleeb.learn=1 one unmeasured run of each mode comes first, where sleebd
# learns (run.lib); sleeb.workload_list= without hackbench skips it all.
. /tests/lib.sh
. /tests/bench/resize.lib
. /tests/bench/run.lib
if ! selected hackbench; then
	ok "hackbench not in sleeb.workload_list # SKIP"
	exit 0
fi
reps=$(sed -n 's/.*sleeb\.hackbench_reps=\([0-9]*\).*/\1/p' /proc/cmdline)
loops=$(sed -n 's/.*sleeb\.hackbench_loops=\([0-9]*\).*/\1/p' /proc/cmdline)
mem() {
	mark "$1"
	echo "# BENCH mem $1 $(awk '/^Slab:/ {s=$2} /^SUnreclaim:/ {u=$2} END {print s, u}' /proc/meminfo)"
	# slabinfo 2.1: $2 active_objs, $3 num_objs, $6 pagesperslab, $15
	# num_slabs; the guest is x86-64, 4 kB pages.
	awk -v phase="$1" 'NR > 2 && $15 > 0 {print "# BENCH slab", phase, $1, $2, $3, $15 * $6 * 4}' /proc/slabinfo
}
mem boot
if ! command -v hackbench >/dev/null; then
	echo "# hackbench not in the image"
	exit 0
fi
flag_of() {
	[ "$1" = thread ] && echo -T
}
if learning; then
	for mode in process thread; do
		mark "learn-hackbench-$mode-start"
		learn hackbench $(flag_of $mode) -g 4 -f 10 -l "${loops:-100}" >/dev/null 2>&1
		mark "learn-hackbench-$mode-end"
	done
fi
for r in $(seq 1 "${reps:-3}"); do
	for mode in process thread; do
		resize_start "hackbench-$mode"
		model-window start "hackbench-$mode"
		t=$(hackbench $(flag_of $mode) -g 4 -f 10 -l "${loops:-100}" 2>&1 | sed -n 's/^Time: *//p')
		model-window end "hackbench-$mode"
		resize_stop
		[ -n "$t" ] && echo "# BENCH hackbench $mode $r $t"
	done
done
mem after_workload
idle=0
for t in 2 4 8 16; do
	sleep $((t - idle))
	idle=$t
	mem "idle_${t}s"
done
sleep $((30 - idle))
mem after_idle
ok "hackbench ran"
