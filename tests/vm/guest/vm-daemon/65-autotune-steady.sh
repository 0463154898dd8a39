# SPDX-License-Identifier: GPL-2.0
# Auto-tuning follows the load (issue 22, section 3; issue 31): under a
# steady load a cache grows in one step and stays grown for a whole
# minute, while an idle cache next to it keeps its size (a quiet cache is
# not shrunk); once the load stops the grown one keeps its size too, so
# the load's next run starts where this one ended.
#
# The load (guest-bin/steady-load.c) sends 2000 small messages a second
# from cpu 0 to cpu 1 over an AF_UNIX socketpair: one skbuff_head_cache
# object each, allocated on cpu 0 and freed on cpu 1, paced so that it is
# the same every second and leaves the guest room to watch. The idle
# cache is sleeb_test_caches' sleeb_uevent_test, which nothing allocates
# from. The decision runs with its shipped settings.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
S=skbuff_head_cache I=sleeb_uevent_test
MIN=8 MAX=64 RATE=2000 WINDOW=60
q() { cat /sys/kernel/slab/$1/cpu_queue_size; }
up() { s=$(cut -d' ' -f1 /proc/uptime); echo "${s%.*}"; }

setup_root d-steady
rmmod sleeb_test_caches 2>/dev/null
insmod /lib/modules/sleeb_test_caches.ko
origS=$(tun $S) origI=$(tun $I)
daemon_conf <<'P'
[Daemon]
Interval=500ms
P
policy 50-steady.conf <<P
[Cache]
Match=$S
CpuQueueSize=$MIN
CpuBatchSize=4
SharedQueueSize=0
AutoTune=yes
AutoTuneMin=$MIN
AutoTuneMax=$MAX

[Cache]
Match=$I
CpuQueueSize=$MAX
CpuBatchSize=32
SharedQueueSize=0
AutoTune=yes
AutoTuneMin=$MIN
AutoTuneMax=$MAX
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "$S starts at the policy's small queue" "8 4 0" "$(tun $S)"
expect_eq "$I starts at the policy's large queue" "64 32 0" "$(tun $I)"

steady-load $RATE 900 0 1 >/tmp/steady.out 2>&1 &
load=$!
t0=$(up)
while [ "$(q $S)" -le $MIN ] && [ $(($(up) - t0)) -lt 60 ]; do sleep 1; done
grown=$(q $S)
check "$S grew under the steady load ($MIN -> $grown after $(($(up) - t0)) s)" test "$grown" -gt $MIN

# The window: every second for WINDOW seconds of the guest's clock.
ws=$(up) low=$grown trace="" traceI=""
while [ $(($(up) - ws)) -lt $WINDOW ]; do
	sleep 1
	qs=$(q $S)
	[ "$qs" -lt "$low" ] && low=$qs
	trace="$trace $qs"
	traceI="$traceI $(q $I)"
done
echo "# $S every second of the ${WINDOW}s window under load:$trace"
echo "# $I (idle) meanwhile:$traceI"
sleebctl status --config-root "$ROOT" 2>/dev/null | grep -E "^($S|$I) " | sed 's/^/#   status: /'
check "the load ran through the window" kill -0 $load
check "$S stayed grown for ${WINDOW}s of steady load (lowest $low, grown to $grown)" test "$low" -ge "$grown"
changes=$(count_log "^sleebd: $S: queue/batch/shared [0-9]+/[0-9]+/[0-9]+ -> ")
echo "# changes of $S in the log: $changes"
check "$S grew in one step: its start and one auto-tune change ($changes)" test "$changes" -le 2
expect_eq "$I, idle, keeps its queue (no shrink for quiet)" $MAX "$(q $I)"

kill $load
wait $load
echo "# $(cat /tmp/steady.out)"
t1=$(up) trace=""
while [ $(($(up) - t1)) -lt 15 ]; do
	sleep 1
	trace="$trace $(q $S)"
done
echo "# $S every second after the load:$trace"
expect_eq "$S keeps its grown size once the load stopped" "$grown" "$(q $S)"
grep -E "^sleebd: ($S|$I): queue/batch/shared" "$LOG" | sed 's/^/#   /'
check "sleebd still running" kill -0 $PID
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$S restored to its original" "$origS" "$(tun $S)"
expect_eq "$I restored to its original" "$origI" "$(tun $I)"
rmmod sleeb_test_caches
