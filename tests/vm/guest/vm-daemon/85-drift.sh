# SPDX-License-Identifier: GPL-2.0
# Drift: 'sleebctl set' on a cache the policy manages is undone by the
# daemon at its next interval, logged once with the reason, and shown by
# 'sleebctl status'; a cache no policy matches keeps what set wrote.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
C=kmalloc-256 U=kmalloc-rcl-256
setup_root d-drift
orig=$(tun $C) origU=$(tun $U)
echo "# originals: $C $orig, $U $origU"
daemon_conf <<'P'
[Daemon]
Interval=1s
P
policy 50-drift.conf <<'P'
[Cache]
Match=kmalloc-256
CpuQueueSize=200
CpuBatchSize=40
SharedQueueSize=400
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "$C at the policy's values" "200 40 400" "$(tun $C)"

sleebctl set --config-root "$ROOT" $C --queue 50 --batch 20 --shared 100 >/tmp/set.out 2>&1
expect_eq "sleebctl set exits 0" 0 $?
sed 's/^/#   set: /' /tmp/set.out
check "set warns that sleebd will put its target back" grep -q "sleebd (pid $PID) manages this cache" /tmp/set.out
sleebctl set --config-root "$ROOT" $U --queue 50 --batch 20 --shared 100 >/dev/null 2>&1
# Interval=1s: back within an interval (and some slack for TCG).
n=30
while [ "$(tun $C)" != "200 40 400" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
expect_eq "$C restored within an interval" "200 40 400" "$(tun $C)"
check "the drift is logged with its reason" wait_log "$C: drifted from its target 200/40/400 to 50/20/100 \(changed outside sleebd\)"
sleebctl set --config-root "$ROOT" $C --queue 60 >/dev/null 2>&1
n=50
while [ "$(tun $C)" != "200 40 400" ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
expect_eq "$C restored again" "200 40 400" "$(tun $C)"
expect_eq "logged once" 1 "$(count_log 'drifted from its target')"
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
grep -E "^$C |DRIFT" /tmp/status.out | sed 's/^/#   status: /'
check "status counts two restores for $C" grep -qE "^$C +200/40/400 +200/40/400 +no +2 " /tmp/status.out
expect_eq "$U (no policy) keeps what set wrote" "50 20 100" "$(tun $U)"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$C back to its original" "$orig" "$(tun $C)"
sleebctl set $U --queue "$(echo $origU | cut -d' ' -f1)" --batch "$(echo $origU | cut -d' ' -f2)" \
	--shared "$(echo $origU | cut -d' ' -f3)" >/dev/null 2>&1
expect_eq "$U put back by hand" "$origU" "$(tun $U)"
