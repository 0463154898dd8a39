# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, sleeb+sleebd: stop the sleebd that 15-sleebd-start.sh
# started (SIGTERM: it restores every value it changed and exits 0) and
# print what it did:
#   "# BENCH sleebd change UPTIME CACHE OLD NEW KIND"  one per decision,
#       OLD and NEW queue/batch/shared, KIND policy or rollback (from
#       the reason it logged), else grow or shrink (the queue's direction)
#   "# BENCH sleebd cpu SECONDS UPTIME"  its user+system time, and the
#       guest's uptime at the stop (how much of the guest it took)
#   "# BENCH sleebd share SECONDS LIFE CPUS"  the same time, the guest
#       seconds it ran and the guest's cpus: its share of the guest's
#       cpu time while it ran is SECONDS / (LIFE x CPUS)
#   "# BENCH sleebd final CACHE QUEUE BATCH SHARED"  one per cache whose
#       sizes differ from the kernel's before sleebd started (or that
#       came after it), read right before the stop (which rolls them
#       back): the sizes it ended with, which tools/bench.sh hands to the
#       replay boot of the same round (16-replay-sizes.sh)
. /tests/lib.sh
. /tests/bench/sleebd.lib
grep -q 'sleeb\.sleebd=1' /proc/cmdline || exit 0
pid=$(cat /tmp/sleebd.pid 2>/dev/null)
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
	not_ok "sleebd ran until the end of the bench"
	sed 's/^/#   log: /' /tmp/sleebd.log 2>/dev/null
	exit 1
fi
ok "sleebd ran until the end of the bench"
queues /tmp/queues.final
awk 'NR == FNR { before[$1] = $0; next }
	!($1 in before) || before[$1] != $0 { print "# BENCH sleebd final", $0 }' /tmp/queues.before /tmp/queues.final
# utime and stime, fields 14 and 15 of /proc/PID/stat, in USER_HZ (100);
# the comm field (2) has no spaces here.
cpu=$(awk '{printf "%.2f", ($14 + $15) / 100}' /proc/$pid/stat)
read -r up _ </proc/uptime
echo "# BENCH sleebd cpu $cpu $up"
read -r start </tmp/sleebd.start
echo "# BENCH sleebd share $cpu $(awk -v a="$start" -v b="$up" 'BEGIN { printf "%.2f", b - a }') $(nproc)"
kill -TERM "$pid"
n=100
while [ $n -gt 0 ] && [ ! -e /tmp/sleebd.rc ]; do
	sleep 0.1
	n=$((n - 1))
done
expect_eq "sleebd stopped on SIGTERM with status 0" 0 "$(cat /tmp/sleebd.rc 2>/dev/null || echo hung)"
# Caches that came and went meanwhile (sleeb_bench's, in the profile)
# are not compared.
queues /tmp/queues.after
check "every queue is back at its value from before sleebd" awk '
	NR == FNR { before[$1] = $0; next }
	($1 in before) && before[$1] != $0 { print before[$1], "->", $0; bad = 1 }
	END { exit bad }' /tmp/queues.before /tmp/queues.after
# Lines: "UPTIME sleebd: CACHE: queue/batch/shared OLD -> NEW (REASON)",
# CACHE "NAME (ID)" where the rollback knows the cache by its sysfs id
# and its name differs (a merged cache).
awk '$2 == "sleebd:" && (i = index($0, ": queue/batch/shared ")) > 0 {
	cache = substr($0, 1, i - 1); sub(/^[^ ]* sleebd: /, "", cache); sub(/ \(.*$/, "", cache)
	split(substr($0, i + 21), v, " ")
	reason = substr($0, i + 21); sub(/^[^(]*\(/, "", reason)
	# The log gives the reason of an auto-tuning change, not its action: a
	# queue size up is a grow, down a shrink, whatever the reason (trips,
	# memory short, the reaper, MaxQueuedMemory).
	kind = "other"
	if (reason ~ /^rollback/) kind = "rollback"
	else if (reason ~ /policy/) kind = "policy"
	else if (v[3] + 0 > v[1] + 0) kind = "grow"
	else if (v[3] + 0 < v[1] + 0) kind = "shrink"
	if (v[2] == "->") print "# BENCH sleebd change", $1, cache, v[1], v[3], kind
}' /tmp/sleebd.log
grep -v ': queue/batch/shared ' /tmp/sleebd.log | sed 's/^/# sleebd: /'
# Its reasons, numbers left out, most frequent first: why it changed sizes.
sed -n 's/^[0-9.]* sleebd: .*: queue\/batch\/shared [0-9\/]* -> [0-9\/]* (\(.*\))$/\1/p' /tmp/sleebd.log |
	sed 's/[0-9][0-9.]*/N/g' | sort | uniq -c | sort -rn | head -n 12 | sed 's/^ */# sleebd reason: /'
check "sleebd's log has no error" sh -c "! grep -qiE 'error|fail|cannot' /tmp/sleebd.log"
