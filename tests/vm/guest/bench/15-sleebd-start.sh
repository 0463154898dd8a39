# SPDX-License-Identifier: GPL-2.0
# Benchmark guest, sleeb+sleebd (sleeb.sleebd=1 on the command line):
# start sleebd, the project's daemon, after the micro benchmarks
# (10-micro.sh measured the kernel's default queues) and before hackbench,
# with the shipped configuration and policies (/etc/sleeb/sleebd.conf,
# /usr/lib/sleeb/policy.d) as they are: no time constant is scaled to
# the guest's clock (docs/benchmarks.md, "sleeb+sleebd in the benchmark",
# says why). It runs through hackbench, the profile and the workloads;
# 50-sleebd-stop.sh stops it.
#
# Its stderr goes through a reader that stamps each line with the guest's
# uptime (/tmp/sleebd.log), so that the decisions can be put beside the
# phases the other scripts mark ("# BENCH at PHASE UPTIME"). A subshell
# waits for it and leaves its exit status in /tmp/sleebd.rc: the stop
# script runs in another shell, which cannot wait for it.
. /tests/lib.sh
. /tests/bench/sleebd.lib
grep -q 'sleeb\.sleebd=1' /proc/cmdline || exit 0
if ! command -v sleebd >/dev/null; then
	not_ok "sleebd in the image (tools/bench.sh --build-dir DIR)"
	exit 1
fi
# What the kernel had, for the stop script's check of the rollback.
queues /tmp/queues.before
rm -f /tmp/sleebd.log /tmp/sleebd.rc /tmp/sleebd.fifo
mkfifo /tmp/sleebd.fifo
# The reader: one `read` of /proc/uptime per line, no fork.
(
	while IFS= read -r line; do
		read -r up _ </proc/uptime
		echo "$up $line"
	done </tmp/sleebd.fifo >/tmp/sleebd.log
) </dev/null >/dev/null 2>&1 &
(
	sleebd 2>/tmp/sleebd.fifo </dev/null >/dev/null &
	echo $! >/tmp/sleebd.pid
	wait $!
	echo $? >/tmp/sleebd.rc
) </dev/null >/dev/null 2>&1 &
read -r up _ </proc/uptime
echo "# BENCH at sleebd-start $up"
echo "$up" >/tmp/sleebd.start
n=100
while [ $n -gt 0 ] && ! grep -q 'caches under policy' /tmp/sleebd.log 2>/dev/null; do
	[ -e /tmp/sleebd.rc ] && break
	sleep 0.1
	n=$((n - 1))
done
if grep -q 'caches under policy' /tmp/sleebd.log 2>/dev/null; then
	ok "sleebd started: $(grep -m1 'caches under policy' /tmp/sleebd.log | sed 's/^[0-9.]* sleebd: //')"
else
	not_ok "sleebd started (its first apply within 10 s)"
	sed 's/^/#   log: /' /tmp/sleebd.log
	exit 1
fi
