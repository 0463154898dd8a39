# SPDX-License-Identifier: GPL-2.0
# SIGHUP (and sleebctl reload) with a broken policy: refused with
# file:line in the log, the old policy stays in force, the daemon lives on.
# A fixed policy is then taken.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
C=kmalloc-256
setup_root d-reload
orig=$(tun $C)
daemon_conf <<'P'
[Daemon]
Interval=30s
P
policy 50-reload.conf <<'P'
[Cache]
Match=kmalloc-256
CpuQueueSize=100
CpuBatchSize=20
SharedQueueSize=200
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "first policy in force" "100 20 200" "$(tun $C)"

# Line 6 has an unknown key, and the new sizes would be different.
policy 50-reload.conf <<'P'
[Cache]
Match=kmalloc-256
CpuQueueSize=300
CpuBatchSize=30
SharedQueueSize=600
Frobnicate=yes
P
kill -HUP $PID
if wait_log "policy reload refused"; then ok "SIGHUP with a broken policy is refused"; else not_ok "SIGHUP with a broken policy is refused"; show_log; fi
check "the error names file:line" grep -qF "$ROOT/etc/sleeb/policy.d/50-reload.conf:6: unknown key 'Frobnicate'" "$LOG"
check "sleebd still running after the refused reload" kill -0 $PID
expect_eq "old values still in force (sysfs)" "100 20 200" "$(tun $C)"
expect_eq "old values still in force (/proc/slabinfo, sharedfactor 10)" "100 20 10" "$(slabinfo_tunables $C)"
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
check "sleebctl status reports the refused reload" grep -qF "Last reload refused: $ROOT/etc/sleeb/policy.d/50-reload.conf:6:" /tmp/status.out
check "sleebctl status: target is still the old policy" grep -qE "^$C +100/20/200 +100/20/200 " /tmp/status.out

# The same through sleebctl reload, with a different kind of error.
policy 50-reload.conf <<'P'
[Cache]
Match=kmalloc-256
CpuQueueSize=100
CpuBatchSize=150
P
sleebctl reload --config-root "$ROOT" >/tmp/reload.out 2>&1
rc=$?
sed 's/^/#   reload: /' /tmp/reload.out
check "sleebctl reload of a broken policy fails (exit $rc)" test $rc -ne 0
check "sleebctl reload shows file:line" grep -qF "$ROOT/etc/sleeb/policy.d/50-reload.conf:" /tmp/reload.out
expect_eq "old values still in force after sleebctl reload" "100 20 200" "$(tun $C)"
check "sleebd still running" kill -0 $PID

# A good policy is then taken, by SIGHUP.
policy 50-reload.conf <<'P'
[Cache]
Match=kmalloc-256
CpuQueueSize=300
CpuBatchSize=30
SharedQueueSize=600
P
n=$(count_log "reloading policy")
kill -HUP $PID
i=0
while [ "$(tun $C)" != "300 30 600" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
expect_eq "a fixed policy is applied on SIGHUP" "300 30 600" "$(tun $C)"
check "the reload was logged" test "$(count_log 'reloading policy')" -gt "$n"
sleebctl status --config-root "$ROOT" >/tmp/status.out 2>&1
check "status no longer reports a refused reload" sh -c "! grep -q 'Last reload refused' /tmp/status.out"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$C back to its original, not the first policy's values" "$orig" "$(tun $C)"
