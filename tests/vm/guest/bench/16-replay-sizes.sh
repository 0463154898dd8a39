# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, config replay (sleeb.replay=1 on the command line): set
# the sizes sleebd ended with in the sleebd boot of the same round, once,
# at the point where that boot started the daemon (after the micro tests,
# before hackbench), and run everything after with no daemon: the same
# decisions without their cost. tools/bench.sh copies the sleebd boot's
# "# BENCH sleebd final CACHE QUEUE BATCH SHARED" lines (50-sleebd-stop.sh)
# into the image as /usr/bin/bench-replay-sizes (--extra puts files there),
# "CACHE QUEUE BATCH SHARED" a line; each is one write of the cache's
# queue_sizes. A cache of the list that does not exist here (sleeb_bench's,
# made and destroyed by the profile) is reported, not fatal.
# Prints "# BENCH replay set CACHE QUEUE BATCH SHARED" per cache set and
# "# BENCH replay missing CACHE" per cache absent.
. /tests/lib.sh
grep -q 'sleeb\.replay=1' /proc/cmdline || exit 0
sizes=/usr/bin/bench-replay-sizes
if [ ! -r "$sizes" ]; then
	not_ok "replay: $sizes in the image (tools/bench.sh runs replay after sleebd)"
	exit 1
fi
set=0 failed=0
while read -r cache q b s; do
	if [ ! -w "/sys/kernel/slab/$cache/queue_sizes" ]; then
		echo "# BENCH replay missing $cache"
		continue
	fi
	if echo "$q $b $s" >"/sys/kernel/slab/$cache/queue_sizes"; then
		echo "# BENCH replay set $cache $q $b $s"
		set=$((set + 1))
	else
		echo "# replay: $cache refused '$q $b $s'"
		failed=1
	fi
done <"$sizes"
expect_eq "replay: every size the sleebd boot ended with was set ($set caches)" 0 "$failed"
