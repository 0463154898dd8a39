# SPDX-License-Identifier: GPL-2.0
# Auto-tuning: under sleeb_stress's churn the queues of its dedicated
# cache (sleeb_stress) and of kmalloc-8k grow; once the stress is over
# (which also destroys sleeb_stress) kmalloc-8k shrinks back to its floor.
# Both start from a small queue (8) so the refill/drain rate is high.
# With CONFIG_RANDOM_KMALLOC_CACHES the stress's kmalloc call site uses one
# of 16 copies of kmalloc-8k (kmalloc-rnd-NN-8k), chosen at boot: the
# policy covers them all, and K becomes the one that grew most.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
S=sleeb_stress K=kmalloc-8k
MIN=8 MAX=512
secs=30
setup_root d-autotune
origK=$(tun $K)
daemon_conf <<'P'
[Daemon]
Interval=500ms
P
policy 50-autotune.conf <<P
[Cache]
Match=$S $K kmalloc-rnd-*-8k
CpuQueueSize=8
CpuBatchSize=4
SharedQueueSize=0
AutoTune=yes
AutoTuneMin=$MIN
AutoTuneMax=$MAX
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "$K starts at the policy's small queue" "8 4 0" "$(tun $K)"

dmesg -c >/dev/null
insmod /lib/modules/sleeb_stress.ko duration_s=$secs &
ipid=$!
peakS=0 peakK=0 trace=""
tunedS=""
while kill -0 $ipid 2>/dev/null; do
	qs=$(cat /sys/kernel/slab/$S/cpu_queue_size 2>/dev/null)
	qk=$(cat /sys/kernel/slab/kmalloc-8k/cpu_queue_size /sys/kernel/slab/kmalloc-rnd-*-8k/cpu_queue_size 2>/dev/null | sort -n | tail -1)
	for c in kmalloc-8k $(cd /sys/kernel/slab && ls -d kmalloc-rnd-*-8k 2>/dev/null); do
		[ "$(cat /sys/kernel/slab/$c/cpu_queue_size)" -gt "$peakK" ] && K=$c
	done
	# count only after sleebd put it at the policy's 8 (it starts at
	# the kernel default of 120 until the uevent is handled)
	[ -n "$qs" ] && [ "$qs" != 120 ] && tunedS=1
	[ -n "$tunedS" ] && [ -n "$qs" ] && [ "$qs" -gt "$peakS" ] && peakS=$qs
	[ "$qk" -gt "$peakK" ] && peakK=$qk
	trace="$trace ${qs:--}/$qk"
	sleep 1
done
wait $ipid
# sleebd has read every auto-tuned cache's queue_stats many times by now.
# A sysfs file it kept open would pin a page-sized seq_file buffer in the
# kernel for as long as it runs; at most one read may be in flight.
held=$(for f in /proc/$PID/fd/*; do readlink "$f"; done 2>/dev/null | grep -c '^/sys/kernel/slab/')
echo "# files under /sys/kernel/slab held open by sleebd: $held"
check "sleebd keeps no /sys/kernel/slab file open between reads ($held open)" test "$held" -le 1
echo "# queue sizes $S/(largest 8k cache) every second under stress:$trace; the stress's 8k cache: $K"
echo "# $(dmesg | grep -m1 'sleeb_stress: \(PASS\|FAIL\)')"
grep -E "($S|$K): queue/batch/shared" "$LOG" | sed 's/^/#   /'
check "$S grew under churn (peak $peakS > 8)" test "$peakS" -gt 8
check "$K grew under churn (peak $peakK > 8)" test "$peakK" -gt 8
check "growth stayed within AutoTuneMax=$MAX" test "$peakS" -le $MAX -a "$peakK" -le $MAX
check "$S was set to the policy's 8 by the uevent" grep -qE "$S: queue/batch/shared [0-9]+/[0-9]+/[0-9]+ -> 8/4/0 \\(new cache \\(uevent\\)" "$LOG"
check "$S's growth is an auto-tune decision in the log" grep -qE "$S: queue/batch/shared 8/4/0 -> 16/8/0 \\(rate [0-9]+/s/cpu above" "$LOG"
check "$K's growth is an auto-tune decision in the log" grep -qE "$K: queue/batch/shared 8/4/0 -> 16/8/0 \\(rate [0-9]+/s/cpu above" "$LOG"

# Idle: kmalloc-8k must come back down to AutoTuneMin.
i=0 trace=""
while [ "$(cat /sys/kernel/slab/$K/cpu_queue_size)" -gt $MIN ] && [ $i -lt 90 ]; do
	sleep 1
	i=$((i + 1))
	trace="$trace $(cat /sys/kernel/slab/$K/cpu_queue_size)"
done
echo "# $K after the stress, every second:$trace"
qk=$(cat /sys/kernel/slab/$K/cpu_queue_size)
check "$K shrank after idle (peak $peakK, now $qk)" test "$qk" -lt "$peakK"
expect_eq "$K shrank to its floor AutoTuneMin=$MIN" "$MIN" "$qk"
check "sleebd still running" kill -0 $PID
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
grep -E "^$K " /tmp/status.out | sed 's/^/#   status: /'
check "status shows $K's last auto-tune decision" grep -qE "^$K .* auto-tune: " /tmp/status.out
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$K restored to its original" "$origK" "$(tun $K)"
check "state file removed" test ! -e "$ROOT/run/sleeb/state"
