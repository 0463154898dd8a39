# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, part 4 (sleeb.workloads=1 on the command line): the
# workloads of tests/vm/guest-bin/workload.c, a file churn on the
# initramfs' tmpfs, fork/mmap/exit churn and loopback TCP request/response
# across nodes, each with Slab/SUnreclaim right after it and 2, 8 and 30 s
# later. sleeb.workload_iters=N sets each thread's operations (default
# 2000; forks: a tenth of it). Prints "# BENCH work NAME THREADS OPS
# SECONDS", "# BENCH mem work-NAME-PHASE SLAB_KB SUNRECLAIM_KB" and "# BENCH
# at work-NAME-PHASE UPTIME" (the guest's clock then).
# On a kernel with queues it also counts what each workload moved through
# them: every cache's queue_stats before the workload and after its "after"
# probe, and for each counter that moved "# BENCH wprof NAME CACHE COUNTER
# DELTA" (fast-path operations, refills, drains, remote frees, and the
# objects of kmem_cache_alloc_bulk()/free_bulk() and of kfree_rcu's
# batches, which end in kfree_bulk()). The two reads add their own sysfs
# traffic (kmalloc-cg-4k, filp, ...) to the counts. The config "resize"
# (sleeb.resize=1) resizes the hot caches while each workload runs
# (resize.lib: "# BENCH resize work-NAME ..."), and its resizes, which
# queue_stats counts too, are in the wprof deltas. With sleeb.learn=1
# each workload runs once unmeasured first (workload --unmeasured: no
# model-clock window, nothing reported but "# BENCH at
# learn-work-NAME-start/-end"), where sleebd learns; sleeb.workload_list=
# picks the workloads (run.lib).
. /tests/lib.sh
. /tests/bench/resize.lib
. /tests/bench/run.lib
grep -q 'sleeb\.workloads=1' /proc/cmdline || exit 0
iters=$(sed -n 's/.*sleeb\.workload_iters=\([0-9]*\).*/\1/p' /proc/cmdline)
iters=${iters:-2000}
cpus=$(grep -c ^processor /proc/cpuinfo)
# The initramfs guest brings up no network: tcp needs loopback.
ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
mem() {
	mark "$1"
	echo "# BENCH mem $1 $(awk '/^Slab:/ {s=$2} /^SUnreclaim:/ {u=$2} END {print s, u}' /proc/meminfo)"
}
# Every cache's counters once, under /proc/slabinfo's name for it (a
# merged cache is one line there, one directory and links in sysfs).
qstats() {
	awk 'NR > 2 { print "/sys/kernel/slab/" $1 "/queue_stats" }' /proc/slabinfo |
		xargs grep -H . 2>/dev/null | sed 's|^/sys/kernel/slab/\([^/]*\)/queue_stats:|\1 |'
}
profile=
queues_on && profile=1
for w in files fork tcp; do
	selected $w || continue
	n=$iters
	[ $w = fork ] && n=$((iters / 10))
	threads=$cpus
	[ $w = tcp ] && threads=$((cpus / 2 * 2))
	if learning; then
		mark "learn-work-$w-start"
		out=$(cd /tmp && learn workload --unmeasured $w "$threads" "$n" 2>&1) ||
			not_ok "workload $w, learning run: $out"
		mark "learn-work-$w-end"
	fi
	[ -z "$profile" ] || qstats >/tmp/wprof.before
	mark "work-$w-start"
	resize_start "work-$w"
	out=$(cd /tmp && workload $w "$threads" "$n" 2>&1)
	resize_stop
	set -- $out
	if [ "$1" = ops ]; then
		ok "workload $w: $2 operations"
		echo "# BENCH work $w $threads $2 $4"
	else
		not_ok "workload $w"
		echo "#   $out"
		continue
	fi
	mem "work-$w-after"
	if [ -n "$profile" ]; then
		qstats >/tmp/wprof.after
		awk -v w="$w" '
			NR == FNR { before[$1 " " $2] = $3; next }
			$3 - before[$1 " " $2] > 0 { print "# BENCH wprof", w, $1, $2, $3 - before[$1 " " $2] }
		' /tmp/wprof.before /tmp/wprof.after
	fi
	idle=0
	for t in 2 8 30; do
		sleep $((t - idle))
		idle=$t
		mem "work-$w-idle_${t}s"
	done
done
