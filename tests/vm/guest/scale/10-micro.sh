# SPDX-License-Identifier: GPL-2.0
# Scale sweep guest (tools/scale-sweep.sh), part 1: sleeb_bench's micro
# tests, as in the bench suite (bench/10-micro.sh: sleeb.bench_reps= and
# sleeb.bench_quick= on the command line).
# sleeb_bench runs its tests on the first 8 online cpus (MAX_CPUS, the
# size of its per-cpu arrays). Cpus 8 and up also go offline while it runs,
# so that the figures are those of an 8-cpu machine with the guest's node
# layout, and come back for the workload (part 2), which uses them all.
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
