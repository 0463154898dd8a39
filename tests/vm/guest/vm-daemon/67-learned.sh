# SPDX-License-Identifier: GPL-2.0
# Learned sizes (issue 31): what auto-tuning gave a cache under load is
# kept in $ROOT/var/lib/sleeb/learned; a restarted sleebd starts the cache
# there instead of at the policy's small queue, and so does the cache when
# it is created again after start (by its uevent). Every stop still puts
# the kernel's originals back. The cache is sleeb_stress's, which the
# stress creates and destroys at its end. Then sleebctl learned lists the
# size, and --forget drops it (through the running daemon, then without).
. /tests/lib.sh
. /tests/vm-daemon/daemon.lib
S=sleeb_stress
setup_root d-learned
LEARNED=$ROOT/var/lib/sleeb/learned
# A quiet cache is never shrunk: the size reached is the one learned.
daemon_conf <<'P'
[Daemon]
Interval=500ms
P
policy 50-learned.conf <<'P'
[Cache]
Match=sleeb_stress
CpuQueueSize=8
CpuBatchSize=4
SharedQueueSize=0
AutoTune=yes
AutoTuneMin=8
AutoTuneMax=512
P
# learned ID: "queue batch shared" of the learned file's line for ID
learned() { awk -v c="$1" '$1 == c { print $2, $3, $4 }' "$LEARNED" 2>/dev/null; }
slashed() { echo "$1" | tr ' ' /; }
# The module stays loaded after its stress (60-autotune.sh leaves it so).
rmmod sleeb_stress 2>/dev/null

if start_daemon; then ok "sleebd starts"; else not_ok "sleebd starts"; show_log; fi
insmod /lib/modules/sleeb_stress.ko duration_s=40 &
ipid=$!
# Until auto-tuning took it to 32 or more (two decisions).
i=0
while [ $i -lt 60 ] && ! [ "$(cat /sys/kernel/slab/$S/cpu_queue_size 2>/dev/null || echo 0)" -ge 32 ]; do
	sleep 0.5
	i=$((i + 1))
done
# Keyed by its sysfs directory (a symlink's target for a merged cache).
id=$(basename "$(readlink -f /sys/kernel/slab/$S)")
orig=$(grep "^$id " "$ROOT/run/sleeb/state" | cut -d' ' -f2-)
now=$(tun $S) l1=$(learned "$id")
echo "# $S ($id) under load: $now, learned '$l1', original '$orig'"
check "$S grew under load ($now)" test "${now%% *}" -ge 32
expect_eq "$S's size is learned as it grew" "$now" "$l1"
check "the learned file is root's, mode 0600" test "$(stat -c '%u %a' "$LEARNED")" = "0 600"
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
expect_eq "$S restored to its original on stop, learned size or not" "$orig" "$(tun $S)"

# A restart while the cache is there: it starts where it ended.
if start_daemon; then ok "sleebd starts again"; else not_ok "sleebd starts again"; show_log; fi
check "$S started at its learned $(slashed "$l1"), not the policy's 8/4/0" \
	grep -qE "$S: queue/batch/shared [0-9/]+ -> $(slashed "$l1") \\(.*learned size" "$LOG"
wait $ipid
rmmod sleeb_stress

# Created again after start: the uevent's apply starts it there too.
l2=$(learned "$id")
insmod /lib/modules/sleeb_stress.ko duration_s=3
grep -E "$S: queue/batch/shared" "$LOG" | sed 's/^/#   /'
check "$S created after start began at its learned '$l2' (uevent)" \
	grep -qE "$S: queue/batch/shared [0-9/]+ -> $(slashed "$l2") \\(new cache \\(uevent\\).*learned size" "$LOG"
rmmod sleeb_stress
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
check "state file removed" test ! -e "$ROOT/run/sleeb/state"
check "the learned sizes stay for the next start" test -n "$(learned "$id")"

# sleebctl learned lists it; --forget goes through a running sleebd, which
# drops the size from memory too (else its next save would bring the line
# back), leaves the cache's size alone, and starts it from the policy
# when it is created again.
l3=$(learned "$id")
sleebctl learned --config-root "$ROOT" >/tmp/learned.out 2>&1
expect_eq "sleebctl learned (no sleebd) exits 0" 0 $?
sed 's/^/#   /' /tmp/learned.out
check "sleebctl learned lists $id at $(slashed "$l3")" grep -qE "^$id +$(echo "$l3" | sed 's/ / +/g') " /tmp/learned.out
if start_daemon; then ok "sleebd starts a third time"; else not_ok "sleebd starts a third time"; show_log; fi
sleebctl learned --config-root "$ROOT" --forget no-such-cache >/tmp/forget.out 2>&1
expect_eq "sleebctl learned --forget of an unknown cache exits 1" 1 $?
check "it names the unknown cache" grep -qF "no-such-cache: no such cache, and no learned size under that name" \
	/tmp/forget.out
# The stress's cache lives while the stress runs: forget it meanwhile. It
# starts at its learned size, AutoTuneMax=, where auto-tuning leaves it.
insmod /lib/modules/sleeb_stress.ko duration_s=8 &
ipid=$!
i=0
while [ $i -lt 100 ] && [ "$(tun $S 2>/dev/null)" != "$l3" ]; do
	sleep 0.1
	i=$((i + 1))
done
before=$(tun $S 2>/dev/null)
expect_eq "$S created again is at its learned size" "$l3" "$before"
sleebctl learned --config-root "$ROOT" --forget $S >/tmp/forget.out 2>&1
expect_eq "sleebctl learned --forget $S (through sleebd) exits 0" 0 $?
sed 's/^/#   /' /tmp/forget.out
check "it says what it forgot" grep -qF "forgot $id: queue" /tmp/forget.out
check "the learned file no longer has $id" test -z "$(learned "$id")"
expect_eq "$S keeps its size when its learned size is forgotten" "$before" "$(tun $S 2>/dev/null)"
wait $ipid
rmmod sleeb_stress
n=$(count_log "$S: queue/batch/shared .*new cache \\(uevent\\)")
insmod /lib/modules/sleeb_stress.ko duration_s=1
i=0
while [ $i -lt 100 ] && [ "$(count_log "$S: queue/batch/shared .*new cache \\(uevent\\)")" = "$n" ]; do
	sleep 0.1
	i=$((i + 1))
done
last=$(grep -E "$S: queue/batch/shared .*new cache \\(uevent\\)" "$LOG" | tail -n 1)
echo "# $last"
case $i/$last in
100/*) started="no uevent apply logged" ;;
*"learned size"*) started="the learned size" ;;
*) started="the policy" ;;
esac
expect_eq "$S created again starts from the policy, not a learned size" "the policy" "$started"
rmmod sleeb_stress
stop_daemon
expect_eq "SIGTERM: exit status 0" 0 "$RC"
sleebctl learned --config-root "$ROOT" --forget >/tmp/forget.out 2>&1
expect_eq "sleebctl learned --forget (no sleebd) exits 0" 0 $?
check "no learned file left" test ! -e "$LEARNED"
sleebctl learned --config-root "$ROOT" >/tmp/learned.out 2>&1
check "sleebctl learned: none yet" grep -qF "no learned sizes yet" /tmp/learned.out
