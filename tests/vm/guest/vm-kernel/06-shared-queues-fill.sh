#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with slub_debug=P,kmem_cache_node init_on_alloc=0
# (vm-kernel-sleeb-init-on-free): every struct kmem_cache_node starts out
# as slub_debug's poison instead of zeroes, so a field that
# init_kmem_cache_node() leaves alone is garbage. A garbage
# shared_backoff reads as "back off until jiffies wrap" and no node ever
# gets a shared queue (issue 30, 1.4). So: a load that overflows a cpu
# queue must put objects into the node's shared queue, and take them back.
. /tests/lib.sh
grep -q 'slub_debug=P,kmem_cache_node' /proc/cmdline ||
	{ ok "# SKIP shared queues: not booted with slub_debug=P,kmem_cache_node"; exit 0; }
queues_on || { ok "# SKIP shared queues: no object queues on this kernel"; exit 0; }
check "kmem_cache_node is poisoned" grep -qx 1 /sys/kernel/slab/kmem_cache_node/poison

# dentry: tmpfs files allocate one each and free it (after RCU) on the
# cpu that removes them. All on cpu 0, so that the frees are local ones,
# which go through the cpu queue to the node's shared queue (a remote
# free would go to the object's node a row at a time).
taskset -p 1 $$ >/dev/null || { not_ok "taskset -p 1 $$ failed"; exit 0; }
C=/sys/kernel/slab/dentry
stat_of() { queue_stat dentry "$1"; }
n=$((2 * ($(cat $C/cpu_queue_size) + $(cat $C/shared_queue_size)) + 100))
echo "# dentry: queue $(cat $C/cpu_queue_size), shared $(cat $C/shared_queue_size); $n files per round"
mkdir -p /tmp/fill
fill() {
	i=0
	while [ $i -lt $n ]; do
		: >/tmp/fill/f$i
		i=$((i + 1))
	done
}
free0=$(stat_of shared_free) hit0=$(stat_of shared_alloc_hit)
fill
rm -f /tmp/fill/f*
# The dentries are freed by RCU callbacks: wait for them.
t=0
while [ "$(stat_of shared_free)" = "$free0" ] && [ $t -lt 20 ]; do
	sleep 1
	t=$((t + 1))
done
free1=$(stat_of shared_free)
check "dentry: freeing $n objects fills the shared queue (shared_free $free0 -> $free1)" \
	test "$free1" -gt "$free0"
fill
hit1=$(stat_of shared_alloc_hit)
check "dentry: allocating $n objects refills from the shared queue (shared_alloc_hit $hit0 -> $hit1)" \
	test "$hit1" -gt "$hit0"
rm -rf /tmp/fill
sed 's/^/# dentry queue_stats: /' $C/queue_stats
