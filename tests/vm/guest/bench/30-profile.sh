# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, part 3 (sleeb.profile=1 on the command line, a kernel
# with queues): how often each microbenchmark leaves the queues' fast paths.
# sleeb_bench runs each test once per write to its run parameter, and the
# cache's queue_stats is read before and after: every refill, drain and row
# flush is a round trip of the cpu queue's lock and, mostly, the shared
# queue's. Prints "# BENCH profile TEST TARGET N OPS COUNTER DELTA", and
# the cache's cpu_batch_size as counter "batch".
# The kmalloc caches also serve the rest of the kernel (the sysfs write, the
# test's kthreads), so their counts carry a little background; the
# module's own cache (cache-64) carries none. With random kmalloc caches
# (CONFIG_RANDOM_KMALLOC_CACHES) a kmalloc of the module lands in one of
# the copies kmalloc-rnd-NN-SIZE, picked by its call site: a kmalloc
# target's counters are summed over kmalloc-SIZE and every copy.
. /tests/lib.sh
grep -q 'sleeb\.profile=1' /proc/cmdline || exit 0
if ! queues_on; then
	ok "profile: no queues in this kernel, nothing to count # SKIP"
	exit 0
fi
rmmod sleeb_bench 2>/dev/null
check "sleeb_bench loaded for profiling" insmod /lib/modules/sleeb_bench.ko profile=1
run=/sys/module/sleeb_bench/parameters/run
failed=0
for target in cache-64 kmalloc-64 kmalloc-256 kmalloc-1024 kmalloc-4096; do
	case $target in
	cache-64) dir=/sys/kernel/slab/sleeb_bench64 size= ;;
	kmalloc-1024) dir=/sys/kernel/slab/kmalloc-1k size=1k ;;
	kmalloc-4096) dir=/sys/kernel/slab/kmalloc-4k size=4k ;;
	*) dir=/sys/kernel/slab/$target size=${target#kmalloc-} ;;
	esac
	if [ ! -r "$dir/queue_stats" ]; then
		failed=1
		echo "# profile: no $dir/queue_stats"
		continue
	fi
	stats=$dir/queue_stats batch=$(cat "$dir/cpu_batch_size")
	[ -z "$size" ] || stats="$stats $(ls /sys/kernel/slab/kmalloc-rnd-*-"$size"/queue_stats 2>/dev/null)"
	for spec in "a 100" "a 1000" "b 1000" "c 100" "d_remote_free 100" \
		"d_remote_node_free 100" "e 1000"; do
		set -- $spec
		cat $stats >/tmp/profile.before
		if ! echo "$1 $target $2" >"$run"; then
			failed=1
			continue
		fi
		cat $stats >/tmp/profile.after
		ops=$(cat /sys/module/sleeb_bench/parameters/last_ops)
		awk -v t="$1" -v c="$target" -v n="$2" -v ops="$ops" -v batch="$batch" '
			NR == FNR { before[$1] += $2; next }
			!($1 in after) { order[++k] = $1 }
			{ after[$1] += $2 }
			END {
				for (i = 1; i <= k; i++)
					print "# BENCH profile", t, c, n, ops, order[i], after[order[i]] - before[order[i]]
				print "# BENCH profile", t, c, n, ops, "batch", batch
			}
		' /tmp/profile.before /tmp/profile.after
	done
done
expect_eq "profile: every test ran" 0 "$failed"
rmmod sleeb_bench
