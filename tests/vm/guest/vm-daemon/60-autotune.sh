# SPDX-License-Identifier: GPL-2.0
# Auto-tuning with the shipped decision settings: under sleeb_stress's
# churn the queues of its dedicated cache (sleeb_stress) and of
# kmalloc-8k grow, each in one step from its trips per operation (not a
# doubling per interval); once the stress is over (which also destroys
# sleeb_stress) kmalloc-8k keeps its size: a quiet cache is not shrunk.
# Both start from a small queue (8) so trips are frequent. With
# CONFIG_RANDOM_KMALLOC_CACHES the stress's kmalloc call site uses one of
# 16 copies of kmalloc-8k (kmalloc-rnd-NN-8k), chosen at boot: they are
# decided as one group, so every copy gets the same size.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
S=sleeb_stress K=kmalloc-8k
MIN=8 MAX=512
secs=30
setup_root d-autotune
origK=$(tun $K)
# No byte budget: the sixteen kmalloc-8k copies grown as one group queue
# about 120 MB on this 2 GiB guest's four cpus, which with the other
# caches' default queues is past 7/8 of the default budget (10% of
# MemTotal) and would refuse sleeb_stress's grow. The budget's own
# decisions are tested on recorded sequences (tests/data/autotune).
daemon_conf <<'P'
[Daemon]
Interval=500ms
MaxQueuedMemory=infinity
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
check "$S's growth is an auto-tune decision in the log" grep -qE "$S: queue/batch/shared 8/4/0 -> [0-9]+/[0-9]+/0 \\([0-9.]+ trips per 1000 operations" "$LOG"
check "$K's growth is an auto-tune decision in the log" grep -qE "$K: queue/batch/shared 8/4/0 -> [0-9]+/[0-9]+/0 \\([0-9.]+ trips per 1000 operations" "$LOG"
# One step: the first auto-tune change of each goes past a doubling.
firstS=$(grep -E "$S: queue/batch/shared 8/4/0 -> " "$LOG" | head -1 | sed -E 's|.* -> ([0-9]+)/.*|\1|')
firstK=$(grep -E "$K: queue/batch/shared 8/4/0 -> " "$LOG" | head -1 | sed -E 's|.* -> ([0-9]+)/.*|\1|')
check "$S grew in one step past a doubling (8 -> ${firstS:-none})" test "${firstS:-0}" -gt 16
check "$K grew in one step past a doubling (8 -> ${firstK:-none})" test "${firstK:-0}" -gt 16
# The copies of kmalloc-8k: one group, one size.
sizes=$(cat /sys/kernel/slab/kmalloc-8k/cpu_queue_size /sys/kernel/slab/kmalloc-rnd-*-8k/cpu_queue_size 2>/dev/null | sort -u | tr '\n' ' ')
echo "# kmalloc-8k and its copies: queue sizes $sizes"
expect_eq "every copy of kmalloc-8k has the same size" 1 "$(echo $sizes | wc -w)"

# Idle: kmalloc-8k keeps what it grew to; the reaper gives the objects back.
qk0=$(cat /sys/kernel/slab/$K/cpu_queue_size)
i=0 trace=""
while [ $i -lt 20 ]; do
	sleep 1
	i=$((i + 1))
	trace="$trace $(cat /sys/kernel/slab/$K/cpu_queue_size)"
done
echo "# $K after the stress, every second:$trace"
qk=$(cat /sys/kernel/slab/$K/cpu_queue_size)
expect_eq "$K, quiet for 20 s, keeps its size" "$qk0" "$qk"
expect_eq "no auto-tune shrink of $K" 0 "$(count_log "$K: queue/batch/shared [0-9]+/[0-9]+/[0-9]+ -> [0-9]+/[0-9]+/[0-9]+ \\(.*(memory|reaper|budget)")"
check "sleebd still running" kill -0 $PID
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
grep -E "^$K " /tmp/status.out | sed 's/^/#   status: /'
check "status shows $K's last auto-tune decision" grep -qE "^$K .* auto-tune: " /tmp/status.out
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$K restored to its original" "$origK" "$(tun $K)"
check "state file removed" test ! -e "$ROOT/run/sleeb/state"
