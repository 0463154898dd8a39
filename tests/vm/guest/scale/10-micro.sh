# SPDX-License-Identifier: GPL-2.0
# Scale sweep guest (tools/scale-sweep.sh), part 1: sleeb_bench's micro
# tests, as in the bench suite (bench/10-micro.sh: sleeb.bench_reps= and
# sleeb.bench_quick= on the command line).
# sleeb_bench runs its jobs on at most 8 cpus and keeps its per-cpu
# arrays indexed by cpu number (MAX_CPUS 8): with more cpus online it would
# read and write past them. So cpus 8 and up go offline while it runs and
# come back for the workload (part 2), which uses them all.
. /tests/lib.sh
cpus=$(grep -c ^processor /proc/cpuinfo)
echo "# BENCH shape cpus=$cpus nodes=$(ls -d /sys/devices/system/node/node[0-9]* | wc -l)"
cpu=8
while [ $cpu -lt "$cpus" ]; do
	echo 0 >/sys/devices/system/cpu/cpu$cpu/online || not_ok "cpu $cpu offline"
	cpu=$((cpu + 1))
done
. /tests/bench/10-micro.sh
cpu=8
while [ $cpu -lt "$cpus" ]; do
	echo 1 >/sys/devices/system/cpu/cpu$cpu/online || not_ok "cpu $cpu back online"
	cpu=$((cpu + 1))
done
expect_eq "every cpu online again" "$cpus" "$(grep -c ^processor /proc/cpuinfo)"
