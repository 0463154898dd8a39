# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, sleeb+sleebd: stop the sleebd that 15-sleebd-start.sh
# started (SIGTERM: it restores every value it changed and exits 0) and
# print what it did:
#   "# BENCH sleebd change UPTIME CACHE OLD NEW KIND"  one per decision,
#       OLD and NEW queue/batch/shared, KIND grow, shrink, policy,
#       rollback or other (from the reason it logged)
#   "# BENCH sleebd cpu SECONDS UPTIME"  its user+system time, and the
#       guest's uptime at the stop (how much of the guest it took)
. /tests/lib.sh
grep -q 'sleeb\.sleebd=1' /proc/cmdline || exit 0
pid=$(cat /tmp/sleebd.pid 2>/dev/null)
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null; then
	not_ok "sleebd ran until the end of the bench"
	sed 's/^/#   log: /' /tmp/sleebd.log 2>/dev/null
	exit 1
fi
ok "sleebd ran until the end of the bench"
# utime and stime, fields 14 and 15 of /proc/PID/stat, in USER_HZ (100);
# the comm field (2) has no spaces here.
cpu=$(awk '{printf "%.2f", ($14 + $15) / 100}' /proc/$pid/stat)
read -r up _ </proc/uptime
echo "# BENCH sleebd cpu $cpu $up"
kill -TERM "$pid"
n=100
while [ $n -gt 0 ] && [ ! -e /tmp/sleebd.rc ]; do
	sleep 0.1
	n=$((n - 1))
done
expect_eq "sleebd stopped on SIGTERM with status 0" 0 "$(cat /tmp/sleebd.rc 2>/dev/null || echo hung)"
# Lines: "UPTIME sleebd: CACHE: queue/batch/shared OLD -> NEW (REASON)".
awk '$2 == "sleebd:" && $4 == "queue/batch/shared" && $6 == "->" {
	cache = $3; sub(/:$/, "", cache)
	reason = $0; sub(/^[^(]*\(/, "", reason)
	kind = "other"
	if (reason ~ /^rollback/) kind = "rollback"
	else if (reason ~ /above/) kind = "grow"
	else if (reason ~ /below/) kind = "shrink"
	else if (reason ~ /policy/) kind = "policy"
	print "# BENCH sleebd change", $1, cache, $5, $7, kind
}' /tmp/sleebd.log
grep -v 'queue/batch/shared' /tmp/sleebd.log | sed 's/^/# sleebd: /'
check "sleebd's log has no error" sh -c "! grep -qiE 'error|fail|cannot' /tmp/sleebd.log"
