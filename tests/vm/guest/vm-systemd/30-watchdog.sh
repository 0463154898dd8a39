# SPDX-License-Identifier: GPL-2.0
# The watchdog: a sleebd that stops answering (SIGSTOP) is killed by systemd
# after WatchdogSec, restarted (Restart=on-failure), and tuning resumes: a
# value changed behind its back is set back to the policy's.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
C=kmalloc-8k
P=/etc/sleeb/policy.d/90-vm-systemd.conf
wait_for 300 ready
wd=$(systemctl show -P WatchdogUSec sleebd.service)
echo "# WatchdogUSec=$wd"
case "$wd" in
*min*) wd_s=$(( ${wd%min*} * 60 )) ;;
*s) wd_s=${wd%s} ;;
*) wd_s=0 ;;
esac
check "sleebd.service has a watchdog (WatchdogSec=$wd)" test "$wd_s" -gt 0
static_policy $P $C 20 5 40
systemctl reload sleebd.service
wait_for 100 tun_is $C "20 5 40" || not_ok "policy applied before the test: $C is $(tun $C)"

pid=$(main_pid)
restarts=$(systemctl show -P NRestarts sleebd.service)
kill -STOP "$pid"
t0=$(date +%s)
echo 30 >/sys/kernel/slab/$C/cpu_queue_size
limit=$((wd_s + 20))
wait_for $((limit * 10)) sh -c "p=\$(systemctl show -P MainPID sleebd.service); [ \"\$p\" != 0 ] && [ \"\$p\" != $pid ]"
t=$(( $(date +%s) - t0 ))
newpid=$(main_pid)
echo "# stopped pid $pid; new pid $newpid after ${t}s (WatchdogSec ${wd_s}s)"
check "systemd replaced the stopped daemon (pid $pid -> $newpid)" sh -c "[ '$newpid' != 0 ] && [ '$newpid' != '$pid' ]"
check "within WatchdogSec plus restart time (${t}s <= ${limit}s)" test "$t" -le "$limit"
check "the old process is gone" sh -c "! kill -0 $pid"
expect_eq "NRestarts went up by one" $((restarts + 1)) "$(systemctl show -P NRestarts sleebd.service)"
check "journal: systemd reports the watchdog timeout" sh -c "journalctl -q -u sleebd.service | grep -qi 'watchdog timeout'"
wait_for 300 ready
if wait_for 100 tun_is $C "20 5 40"; then ok "tuning resumed: $C back to 20/5/40"; else not_ok "tuning resumed: $C is $(tun $C)"; show_journal; fi
rm -f $P
systemctl reload sleebd.service
