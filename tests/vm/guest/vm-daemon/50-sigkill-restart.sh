# SPDX-License-Identifier: GPL-2.0
# SIGKILL leaves the tuned values in the kernel; the next sleebd reads the
# true originals from the state file, applies its (different) policy and on
# SIGTERM restores the true originals, not the dead daemon's values.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
C=kmalloc-64 E=kmalloc-8
setup_root d-sigkill
orig=$(tun $C) origE=$(tun $E)
echo "# originals: $C $orig, $E $origE"
daemon_conf <<'P'
[Daemon]
Interval=30s
P
policy 50-kill.conf <<'P'
[Cache]
Match=kmalloc-64 kmalloc-8
CpuQueueSize=40
CpuBatchSize=10
SharedQueueSize=80
P
if start_daemon; then ok "first sleebd starts"; else not_ok "first sleebd starts"; show_log; fi
expect_eq "first daemon's values" "40 10 80" "$(tun $C)"
check "state file holds the originals" grep -qx "$C $orig" "$ROOT/run/sleeb/state"
stop_daemon KILL
expect_eq "SIGKILL" 137 "$RC"
expect_eq "values stay after SIGKILL" "40 10 80" "$(tun $C)"
check "state file survives SIGKILL" grep -qx "$C $orig" "$ROOT/run/sleeb/state"

# The second daemon has another policy, and only for kmalloc-64: the
# original of kmalloc-8 must come back from the state file alone.
policy 50-kill.conf <<'P'
[Cache]
Match=kmalloc-64
CpuQueueSize=50
CpuBatchSize=25
SharedQueueSize=100
P
if start_daemon; then ok "second sleebd starts"; else not_ok "second sleebd starts"; show_log; fi
check "second daemon found the saved originals" grep -q "found originals of 2 caches" "$LOG"
expect_eq "second daemon's policy applied" "50 25 100" "$(tun $C)"
expect_eq "a cache no policy matches any more is restored at once" "$origE" "$(tun $E)"
check "state file still has the true originals" grep -qx "$C $orig" "$ROOT/run/sleeb/state"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$C: the true originals restored (sysfs)" "$orig" "$(tun $C)"
expect_eq "$C: the true originals restored (/proc/slabinfo)" "$orig" "$(slabinfo_sizes $C)"
expect_eq "$E: the true originals restored" "$origE" "$(tun $E)"
check "state file removed" test ! -e "$ROOT/run/sleeb/state"
