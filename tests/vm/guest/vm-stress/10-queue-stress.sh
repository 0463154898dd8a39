# SPDX-License-Identifier: GPL-2.0
# Queue-core stress: the sleeb_stress module runs a thread per cpu that
# allocates and frees random kmalloc sizes and a dedicated cache, for any
# node or a given one, handing objects across cpus and nodes, charging half
# of them to two child memory cgroups, while its migrator keeps moving the
# threads between the nodes' cpus and this script takes cpus 1-3 offline
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

# The verdict's own checks must be able to fail: one fault of each kind,
# committed on purpose through them.
dmesg -c >/dev/null
insmod /lib/modules/sleeb_stress.ko selftest=1 duration_s=1 migrate_us=0 && rmmod sleeb_stress
result=$(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\) allocs')
echo "# selftest: $result"
check "stress selftest: the faults committed on purpose fail the run" \
	sh -c "echo '$result' | grep -q 'FAIL .* live_errors=2 wrong_node=1 '"

# memcg: cgroup v2 with the memory controller; the stress threads charge
# half of their allocations to two children of sleeb-stress.
CG=/sys/fs/cgroup
mkdir -p $CG
mount -t cgroup2 none $CG
echo +memory >$CG/cgroup.subtree_control
mkdir $CG/sleeb-stress
echo +memory >$CG/sleeb-stress/cgroup.subtree_control
mkdir $CG/sleeb-stress/a $CG/sleeb-stress/b
# Making the children charged their own structures to the parent; those stay
# until the removed children are freed, so this is the parent's floor.
base=$(cat $CG/sleeb-stress/memory.current)

dmesg -c >/dev/null
rm -f /tmp/stress.done /tmp/hotplug.count /tmp/storm.out /tmp/storm.rc /tmp/churn.out /tmp/churn.rc
hotplug &
storm &
churn &
echo "# sleeb_stress for $secs s with cpu hotplug"
insmod /lib/modules/sleeb_stress.ko duration_s="$secs" memcgs=/sleeb-stress/a,/sleeb-stress/b
touch /tmp/stress.done
wait
result=$(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\) allocs')
echo "# $result"
dmesg | grep 'sleeb_stress: FAIL object' | head -20 | sed 's/^/#   /'
case "$result" in
*PASS*) ok "stress: no address handed out twice or freed while free, every node-bound object on its node, every object accounted for and intact ($secs s)" ;;
*) not_ok "stress: ${result:-no result line}" ;;
esac
check "stress: node-bound allocations were made and checked" sh -c "echo '$result' | grep -q ' node_allocs=[1-9]'"
check "stress: accounted allocations were charged to the child cgroups" sh -c "echo '$result' | grep -q ' accounted=[1-9]'"
check "stress: the migrator moved the threads" sh -c "echo '$result' | grep -q ' migrations=[1-9]'"
for c in a b; do
	echo "# memory.current of sleeb-stress/$c after the stress: $(cat $CG/sleeb-stress/$c/memory.current)"
done
# Every accounted object is freed: once the children are gone (what they
# still had charged goes to the parent), the parent holds no more than it
# did before the stress.
rmdir $CG/sleeb-stress/a $CG/sleeb-stress/b
n=0
while [ "$(cat $CG/sleeb-stress/memory.current)" -gt "$base" ] && [ $n -lt 10 ]; do sleep 1; n=$((n + 1)); done
cur=$(cat $CG/sleeb-stress/memory.current)
check "memcg charges back to where they were once the children are removed (sleeb-stress memory.current $cur, $base before the stress)" \
	test "$cur" -le "$base"
check "cpus were taken offline during the stress ($(cat /tmp/hotplug.count 2>/dev/null) times)" \
	test "$(cat /tmp/hotplug.count 2>/dev/null || echo 0)" -gt 0
expect_eq "all cpus back online" "0-3" "$(cat /sys/devices/system/cpu/online)"
cat /tmp/storm.out
check "resize-storm exited cleanly (status $(cat /tmp/storm.rc 2>/dev/null))" test "$(cat /tmp/storm.rc 2>/dev/null)" = 0
cat /tmp/churn.out
check "vma-churn exited cleanly (status $(cat /tmp/churn.rc 2>/dev/null))" test "$(cat /tmp/churn.rc 2>/dev/null)" = 0
rmmod sleeb_stress
