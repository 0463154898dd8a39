# SPDX-License-Identifier: GPL-2.0
# Scale sweep guest, part 2: one workload on every cpu (tests/vm/guest-bin/
# workload, mode sleeb.scale_work=, default fork; sleeb.workload_iters=N
# operations per thread), twice:
#   run 1, then Slab right after it and after 30 s idle (the reaper);
#   run 2, then what the caches hold in free objects right after it: every
#   cache's active objects (/proc/slabinfo) before and after a write to its
#   shrink file, which drains its queues (and, in SLUB, its cpu slabs: the
#   vanilla kernel's drop is that part alone).
# Prints "# BENCH work MODE THREADS OPS SECONDS" once for both runs (the
# model clock's window sums both), "# BENCH mem PHASE SLAB_KB
# SUNRECLAIM_KB", per cache with slabs "# BENCH slab PHASE CACHE ACTIVE
# NUM KB", and per cache "# BENCH held PHASE CACHE OBJSIZE ACTIVE_BEFORE
# ACTIVE_AFTER QUEUE BATCH SHARED" (the queue sizes 0 without queues).
. /tests/lib.sh
mode=$(sed -n 's/.*sleeb\.scale_work=\([a-z]*\).*/\1/p' /proc/cmdline)
mode=${mode:-fork}
iters=$(sed -n 's/.*sleeb\.workload_iters=\([0-9]*\).*/\1/p' /proc/cmdline)
iters=${iters:-100}
cpus=$(grep -c ^processor /proc/cpuinfo)
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
mem() {
	echo "# BENCH mem $1 $(awk '/^Slab:/ {s=$2} /^SUnreclaim:/ {u=$2} END {print s, u}' /proc/meminfo)"
	# slabinfo 2.1: $2 active_objs, $3 num_objs, $6 pagesperslab, $15
	# num_slabs; 4 kB pages.
	awk -v phase="$1" 'NR > 2 && $15 > 0 {print "# BENCH slab", phase, $1, $2, $3, $15 * $6 * 4}' /proc/slabinfo
}
size() { cat "/sys/kernel/slab/$1/$2" 2>/dev/null || echo 0; }
held() {
	cp /proc/slabinfo /tmp/held.before
	for d in /sys/kernel/slab/*; do
		[ -L "$d" ] || echo 1 >"$d/shrink"
	done
	cp /proc/slabinfo /tmp/held.after
	awk 'NR > 2 {print $1, $4, $2}' /tmp/held.before | while read -r name objsize before; do
		after=$(awk -v n="$name" 'NR > 2 && $1 == n {print $2}' /tmp/held.after)
		echo "# BENCH held $1 $name $objsize $before ${after:-0}" \
			"$(size "$name" cpu_queue_size) $(size "$name" cpu_batch_size) $(size "$name" shared_queue_size)"
	done
}
threads=$cpus
[ "$mode" = tcp ] && threads=$((cpus / 2 * 2))
mem boot
ops=0 secs=0
for run in 1 2; do
	out=$(cd /tmp && workload "$mode" "$threads" "$iters" 2>&1)
	set -- $out
	if [ "$1" != ops ]; then
		not_ok "workload $mode, run $run"
		echo "#   $out"
		exit 1
	fi
	ops=$((ops + $2))
	secs=$(awk -v a="$secs" -v b="$4" 'BEGIN {print a + b}')
	if [ $run = 1 ]; then
		mem after_workload
		sleep 30
		mem after_idle
	else
		held after_workload
	fi
done
ok "workload $mode on $threads threads: $ops operations"
echo "# BENCH work $mode $threads $ops $secs"
