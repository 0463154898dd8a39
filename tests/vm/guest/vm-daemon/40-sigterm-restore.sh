# SPDX-License-Identifier: GPL-2.0
# SIGTERM puts back every value sleebd changed, in sysfs and slabinfo,
# and removes the state file.
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
setup_root d-sigterm
CACHES="kmalloc-96 kmalloc-192 kmalloc-1k kmalloc-2k"
for c in $CACHES; do
	eval "orig_$(echo $c | tr -- - _)=\"$(tun $c)\""
	echo "# original $c: $(tun $c) (slabinfo $(slabinfo_tunables $c))"
done
orig() { eval echo "\$orig_$(echo $1 | tr -- - _)"; }
daemon_conf <<'P'
[Daemon]
Interval=30s
Rollback=yes
P
policy 10-all.conf <<'P'
[Cache]
Match=kmalloc-96 kmalloc-192 kmalloc-1k kmalloc-2k
CpuQueueSize=16
CpuBatchSize=8
SharedQueueSize=32
P
policy 20-override.conf <<'P'
# later files override earlier ones
[Cache]
Match=kmalloc-?k
SharedQueueSize=0
P
if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
expect_eq "kmalloc-96 tuned" "16 8 32" "$(tun kmalloc-96)"
expect_eq "kmalloc-192 tuned" "16 8 32" "$(tun kmalloc-192)"
expect_eq "kmalloc-1k tuned (shared overridden by the later file)" "16 8 0" "$(tun kmalloc-1k)"
expect_eq "kmalloc-2k tuned (shared overridden by the later file)" "16 8 0" "$(tun kmalloc-2k)"
check "state file exists while running" test -s "$ROOT/run/sleeb/state"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
for c in $CACHES; do
	expect_eq "$c restored in sysfs" "$(orig $c)" "$(tun $c)"
	expect_eq "$c restored in /proc/slabinfo" "$(orig $c)" "$(slabinfo_sizes $c)"
done
check "the rollback is logged" grep -q "rollback to original" "$LOG"
check "state file removed after a full restore" test ! -e "$ROOT/run/sleeb/state"
