# SPDX-License-Identifier: GPL-2.0
# A static policy: sleebd applies it at start, and the values are what the
# kernel shows in sysfs and in /proc/slabinfo's tunables columns.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
A=kmalloc-128 B=kmalloc-512
setup_root d-static
origA=$(tun $A) origB=$(tun $B)
echo "# originals: $A $origA, $B $origB"
daemon_conf <<'P'
[Daemon]
# long: only the start-up apply may change anything here
Interval=30s
P
policy 50-static.conf <<'P'
# static sizes for two kmalloc caches
[Cache]
Match=kmalloc-128
CpuQueueSize=200
CpuBatchSize=40
SharedQueueSize=400

[Cache]
Match=kmalloc-5* nosuchcache
MinObjectSize=300
CpuQueueSize=90
CpuBatchSize=default
SharedQueueSize=0
P

if start_daemon; then ok "sleebd starts and applies the policy"; else not_ok "sleebd starts and applies the policy"; show_log; fi
expect_eq "$A in sysfs" "200 40 400" "$(tun $A)"
expect_eq "$A in /proc/slabinfo" "200 40 10" "$(slabinfo_tunables $A)"
expect_eq "$B in sysfs (batch=default is (90+1)/2)" "90 45 0" "$(tun $B)"
expect_eq "$B in /proc/slabinfo" "90 45 0" "$(slabinfo_tunables $B)"
check "log names old and new values and the policy file:line" \
	grep -qF "$A: queue/batch/shared $(echo $origA | tr ' ' /) -> 200/40/400 (start, policy $ROOT/etc/sleeb/policy.d/50-static.conf:4)" "$LOG"
check "the state file holds $A's originals" grep -qx "$A $origA" "$ROOT/run/sleeb/state"
check "the state file holds $B's originals" grep -qx "$B $origB" "$ROOT/run/sleeb/state"
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
expect_eq "sleebctl status as root exits 0" 0 $?
sed 's/^/#   status: /' /tmp/status.out
check "status lists the policy file" grep -qF "$ROOT/etc/sleeb/policy.d/50-static.conf" /tmp/status.out
check "status shows $A current and target 200/40/400" grep -qE "^$A +200/40/400 +200/40/400 " /tmp/status.out
check "sleebd still running" kill -0 $PID
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$A back to its original" "$origA" "$(tun $A)"
expect_eq "$B back to its original" "$origB" "$(tun $B)"
