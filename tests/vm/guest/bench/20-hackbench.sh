# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, part 2: hackbench (rt-tests) in process and thread mode
# with a fixed loop count, then Slab/SUnreclaim after it and after 30 s idle
# (the reaper's work); sleeb.hackbench_reps= and sleeb.hackbench_loops=
# on the command line. "# BENCH hackbench MODE REP SECONDS",
# "# BENCH mem PHASE SLAB_KB SUNRECLAIM_KB".
. /tests/lib.sh
reps=$(sed -n 's/.*sleeb\.hackbench_reps=\([0-9]*\).*/\1/p' /proc/cmdline)
loops=$(sed -n 's/.*sleeb\.hackbench_loops=\([0-9]*\).*/\1/p' /proc/cmdline)
mem() {
	echo "# BENCH mem $1 $(awk '/^Slab:/ {s=$2} /^SUnreclaim:/ {u=$2} END {print s, u}' /proc/meminfo)"
}
mem boot
if ! command -v hackbench >/dev/null; then
	echo "# hackbench not in the image"
	exit 0
fi
for r in $(seq 1 "${reps:-3}"); do
	for mode in process thread; do
		flag=
		[ $mode = thread ] && flag=-T
		t=$(hackbench $flag -g 4 -f 10 -l "${loops:-100}" 2>&1 | sed -n 's/^Time: *//p')
		[ -n "$t" ] && echo "# BENCH hackbench $mode $r $t"
	done
done
mem after_workload
sleep 30
mem after_idle
ok "hackbench ran"
