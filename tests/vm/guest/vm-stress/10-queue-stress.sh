# SPDX-License-Identifier: GPL-2.0
# Queue-core stress: the sleeb_stress module runs a thread per cpu that
# allocates and frees random kmalloc sizes and a dedicated cache, handing
# objects across cpus and nodes, while this script takes cpus 1-3 offline
# and back, vma-churn splits, merges, maps and forks address spaces (the
# maple tree's bulk allocations and RCU frees, under lockless page faults)
# and resize-storm rewrites all those caches' tunables (sysfs and
# /proc/slabinfo, valid and invalid values) about every millisecond,
# checking each answer. Duration: sleeb.stress_seconds= on the kernel
# command line (default 300).
. /tests/lib.sh
secs=$(sed -n 's/.*sleeb\.stress_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-300}

hotplug() {
	n=0
	while [ ! -e /tmp/stress.done ]; do
		for c in 1 2 3; do
			echo 0 >/sys/devices/system/cpu/cpu$c/online && n=$((n + 1))
			sleep 1
			echo 1 >/sys/devices/system/cpu/cpu$c/online
			sleep 1
		done
	done
	echo $n >/tmp/hotplug.count
}

# The caches sleeb_stress works on (its own exists once it is loaded), and
# vma-churn's: maple_node and vm_area_struct, unless merged into another
# cache (slabinfo then lists them under that cache's name).
storm() {
	n=0
	while [ ! -d /sys/kernel/slab/sleeb_stress ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	vma_caches=
	for c in maple_node vm_area_struct; do
		grep -q "^$c " /proc/slabinfo && vma_caches="$vma_caches $c"
	done
	echo "# resize-storm also on:${vma_caches:- (maple_node and vm_area_struct are merged)}" >/tmp/storm.out
	# shellcheck disable=SC2086 # one word per cache
	resize-storm /tmp/stress.done sleeb_stress kmalloc-32 kmalloc-64 kmalloc-192 kmalloc-256 \
		kmalloc-1k kmalloc-4k $vma_caches >>/tmp/storm.out 2>&1
	echo $? >/tmp/storm.rc
}

churn() {
	vma-churn /tmp/stress.done >/tmp/churn.out 2>&1
	echo $? >/tmp/churn.rc
}

dmesg -c >/dev/null
rm -f /tmp/stress.done /tmp/hotplug.count /tmp/storm.out /tmp/storm.rc /tmp/churn.out /tmp/churn.rc
hotplug &
storm &
churn &
echo "# sleeb_stress for $secs s with cpu hotplug"
insmod /lib/modules/sleeb_stress.ko duration_s="$secs"
touch /tmp/stress.done
wait
result=$(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\)')
echo "# $result"
case "$result" in
*PASS*) ok "stress: every object accounted for, none corrupted ($secs s)" ;;
*) not_ok "stress: ${result:-no result line}" ;;
esac
check "cpus were taken offline during the stress ($(cat /tmp/hotplug.count 2>/dev/null) times)" \
	test "$(cat /tmp/hotplug.count 2>/dev/null || echo 0)" -gt 0
expect_eq "all cpus back online" "0-3" "$(cat /sys/devices/system/cpu/online)"
cat /tmp/storm.out
check "resize-storm exited cleanly (status $(cat /tmp/storm.rc 2>/dev/null))" test "$(cat /tmp/storm.rc 2>/dev/null)" = 0
cat /tmp/churn.out
check "vma-churn exited cleanly (status $(cat /tmp/churn.rc 2>/dev/null))" test "$(cat /tmp/churn.rc 2>/dev/null)" = 0
rmmod sleeb_stress
