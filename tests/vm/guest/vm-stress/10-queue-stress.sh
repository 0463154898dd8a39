# SPDX-License-Identifier: GPL-2.0
# Queue-core stress: the sleeb_stress module runs a thread per cpu that
# allocates and frees random kmalloc sizes and a dedicated cache, for any
# node or a given one, handing objects across cpus and nodes, charging half
# of them to two child memory cgroups, while its migrator keeps moving the
# threads between the nodes' cpus and this script takes cpus 1-3 offline
# and back, vma-churn splits, merges, maps and forks address spaces (the
# maple tree's bulk allocations and RCU frees, under lockless page faults),
# nic-traffic sends TCP and UDP both ways between the guest's two network
# cards (harness.sh --nics), one of them in a network namespace, so that
# NAPI's softirq bulk-allocates and bulk-frees skbs in the middle of all
# that, and resize-storm rewrites all those caches' tunables, the skb
# caches' too (sysfs and /proc/slabinfo, valid and invalid values) about
# every millisecond, checking each answer. Duration: sleeb.stress_seconds=
# on the kernel command line (default 300).
. /tests/lib.sh
. /tests/vm-stress/stress.lib
secs=$(sed -n 's/.*sleeb\.stress_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-300}
# sleeb.stress_args=A,B: more module parameters (A B) for sleeb_stress.
args=$(sed -n 's/.*sleeb\.stress_args=\([^ ]*\).*/\1/p' /proc/cmdline | tr , ' ')

# Slab and the largest caches every 30 s, for whoever reads a failure.
watch_memory() {
	while [ ! -e /tmp/stress.done ]; do
		echo "# $(grep -E '^(MemFree|Slab):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')top: $(awk 'NR > 2 { printf "%d %s\n", $3 * $4 / 1024, $1 }' /proc/slabinfo | sort -n -r | head -3 | tr '\n' ' ')" >>/tmp/memory.log
		sleep 30
	done
}

# The caches sleeb_stress works on (its own exists once it is loaded),
# vma-churn's: maple_node and vm_area_struct, unless merged into another
# cache (slabinfo then lists them under that cache's name), and the
# receive path's: skb heads (NAPI's bulk refills) and small heads.
storm() {
	n=0
	while [ ! -d /sys/kernel/slab/sleeb_stress ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
	more=
	for c in maple_node vm_area_struct; do
		grep -q "^$c " /proc/slabinfo && more="$more $c"
	done
	for c in skbuff_head_cache skbuff_small_head; do
		has_queues $c && more="$more $c"
	done
	echo "# resize-storm also on:${more:- nothing else}" >/tmp/storm.out
	# shellcheck disable=SC2086 # one word per cache
	resize-storm /tmp/stress.done sleeb_stress kmalloc-32 kmalloc-64 kmalloc-192 kmalloc-256 \
		kmalloc-1k kmalloc-4k $more >>/tmp/storm.out 2>&1
	echo $? >/tmp/storm.rc
}

churn() {
	vma-churn /tmp/stress.done >/tmp/churn.out 2>&1
	echo $? >/tmp/churn.rc
}

nic() {
	nic-traffic --until /tmp/stress.done eth0 eth1 >/tmp/nic.out 2>&1
	echo $? >/tmp/nic.rc
}

# memcg: cgroup v2 with the memory controller. A charge that leaks shows in
# the slab bytes (memory.stat) of the parent of a removed cgroup, which
# inherits what its child still had charged; rstat is flushed every 2 s.
CG=/sys/fs/cgroup
mkdir -p $CG
mount -t cgroup2 none $CG
echo +memory >$CG/cgroup.subtree_control
children() { # PARENT CHILD...: a cgroup with the memory controller and children
	_p=$1
	shift
	mkdir $CG/$_p
	echo +memory >$CG/$_p/cgroup.subtree_control
	for _c; do mkdir $CG/$_p/$_c; done
}
# Per-cpu stocks keep up to a page of each cpu's charges and slab bytes
# unflushed; a write to memory.high drains them (drain_all_stock()).
slab_after_rmdir() { # PARENT CHILD...: remove the children, print the parent's slab bytes
	_p=$1
	shift
	for _c; do echo 0 >$CG/$_p/$_c/memory.high; done
	sleep 1
	for _c; do rmdir $CG/$_p/$_c; done
	sleep 3
	awk '$1 == "slab" { print $2 }' $CG/$_p/memory.stat
}

# Removed children leave their parent a few KB of slab bytes of their own
# for a while (1 to 6 KB here, vanilla as well: structures freed after RCU
# grace periods), so a lost charge of one object would hide in that noise.
# What the check catches is a loss that grows with the load: more than
# 64 KB left. The selftest leaks 128 KB of charged objects on purpose.
limit=65536
children sleeb-cg-0 a b
echo "# slab bytes that two children leave their parent without any load: $(slab_after_rmdir sleeb-cg-0 a b)"

# The verdict's own checks must be able to fail: one fault of each kind,
# committed on purpose through them, and a leaked charge.
children sleeb-cg-1 a b
dmesg -c >/dev/null
insmod /lib/modules/sleeb_stress.ko selftest=1 duration_s=1 migrate_us=0 memcgs=/sleeb-cg-1/a,/sleeb-cg-1/b &&
	rmmod sleeb_stress
result=$(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\) allocs')
echo "# selftest: $result"
check "stress selftest: the faults committed on purpose fail the run" \
	sh -c "echo '$result' | grep -q 'FAIL .* live_errors=2 wrong_node=1 '"
leaked=$(slab_after_rmdir sleeb-cg-1 a b)
check "stress selftest: the charge leaked on purpose shows (sleeb-cg-1 slab $leaked bytes > $limit)" \
	test "${leaked:-0}" -gt $limit

# The stress threads charge half of their allocations to two children of
# sleeb-cg-2.
children sleeb-cg-2 a b

dmesg -c >/dev/null
rm -f /tmp/stress.done /tmp/hotplug.count /tmp/storm.out /tmp/storm.rc /tmp/churn.out /tmp/churn.rc \
	/tmp/nic.out /tmp/nic.rc
hotplug /tmp/stress.done /tmp/hotplug.count &
storm &
churn &
nic &
watch_memory &
echo "# sleeb_stress for $secs s with cpu hotplug"
# shellcheck disable=SC2086 # one word per parameter
insmod /lib/modules/sleeb_stress.ko duration_s="$secs" migrate_us=1000 memcgs=/sleeb-cg-2/a,/sleeb-cg-2/b $args
touch /tmp/stress.done
wait
result=$(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\) allocs')
echo "# $result"
cat /tmp/memory.log
dmesg | grep 'sleeb_stress: FAIL object' | head -20 | sed 's/^/#   /'
case "$result" in
*PASS*) ok "stress: no address handed out twice or freed while free, every node-bound object on its node, every object accounted for and intact ($secs s)" ;;
*) not_ok "stress: ${result:-no result line}" ;;
esac
check "stress: node-bound allocations were made and checked" sh -c "echo '$result' | grep -q ' node_allocs=[1-9]'"
check "stress: accounted allocations were charged to the child cgroups" sh -c "echo '$result' | grep -q ' accounted=[1-9]'"
check "stress: the migrator moved the threads" sh -c "echo '$result' | grep -q ' migrations=[1-9]'"
for c in a b; do
	echo "# memory.current of sleeb-cg-2/$c after the stress: $(cat $CG/sleeb-cg-2/$c/memory.current)"
done
# Every accounted object was freed: nothing may stay charged.
slab=$(slab_after_rmdir sleeb-cg-2 a b)
echo "# sleeb-cg-2 after its children are removed: memory.current $(cat $CG/sleeb-cg-2/memory.current), slab $slab"
check "memcg: no slab charge lost once the children are removed (sleeb-cg-2 slab $slab bytes <= $limit)" \
	test "${slab:-$limit}" -le $limit
check "cpus were taken offline during the stress ($(cat /tmp/hotplug.count 2>/dev/null) times)" \
	test "$(cat /tmp/hotplug.count 2>/dev/null || echo 0)" -gt 0
expect_eq "all cpus back online" "0-3" "$(cat /sys/devices/system/cpu/online)"
cat /tmp/storm.out
check "resize-storm exited cleanly (status $(cat /tmp/storm.rc 2>/dev/null))" test "$(cat /tmp/storm.rc 2>/dev/null)" = 0
cat /tmp/churn.out
check "vma-churn exited cleanly (status $(cat /tmp/churn.rc 2>/dev/null))" test "$(cat /tmp/churn.rc 2>/dev/null)" = 0
cat /tmp/nic.out
check "nic-traffic exited cleanly (status $(cat /tmp/nic.rc 2>/dev/null))" test "$(cat /tmp/nic.rc 2>/dev/null)" = 0
rmmod sleeb_stress
