# SPDX-License-Identifier: GPL-2.0
# A control client that dribbles its command, a byte every 400 ms, holds
# nothing up: `sleebctl status` is answered within 1 s all along, the
# dribbler is cut off at its 2 s deadline, and the watchdog never fires.
# WatchdogSec= is lowered to 10 s for the test, below the 16 s a 40-byte
# command takes to dribble, so a daemon that waited for it would be killed
# (and not lower: a pass over every cache takes a while under TCG).
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
D=/run/systemd/system/sleebd.service.d
SOCK=/run/sleeb/sleebd.sock
wait_for 300 ready
mkdir -p $D
printf '[Service]\nWatchdogSec=10s\n' >$D/90-vm-systemd-watchdog.conf
systemctl daemon-reload
check "sleebd restarted with WatchdogSec=10s" systemctl restart sleebd.service
wait_for 300 ready
expect_eq "WatchdogUSec" 10s "$(systemctl show -P WatchdogUSec sleebd.service)"
pid=$(main_pid)
restarts=$(systemctl show -P NRestarts sleebd.service)
mark

# Three dribblers one after the other, about 7 s in all.
(for i in 1 2 3; do control-dribble $SOCK 400 40; done) >/tmp/dribble.out 2>&1 &
dribblers=$!
sleep 0.3
worst=0 failed=0 n=0
while kill -0 $dribblers 2>/dev/null && [ $n -lt 20 ]; do
	t0=$(date +%s%3N)
	sleebctl status >/tmp/status.out 2>&1 || { failed=$((failed + 1)); sed 's/^/#   status: /' /tmp/status.out; }
	t=$(($(date +%s%3N) - t0))
	[ $t -gt $worst ] && worst=$t
	n=$((n + 1))
	sleep 0.3
done
wait $dribblers
sed 's/^/#   dribbler: /' /tmp/dribble.out
echo "# $n status requests while dribbling, slowest ${worst} ms"
check "sleebctl status asked while the dribblers ran ($n times)" test $n -ge 5
expect_eq "every sleebctl status succeeded" 0 $failed
check "every answer within 1 s (slowest ${worst} ms)" test $worst -lt 1000
expect_eq "each dribbler cut off at its deadline" 3 "$(grep -c '^ERROR timeout' /tmp/dribble.out)"
check "journal: sleebd closed the slow clients" sh -c \
	"journalctl -q -u sleebd.service | grep -q 'control: client sent no complete command within 2 s'"

expect_eq "same sleebd process (pid $pid)" "$pid" "$(main_pid)"
expect_eq "NRestarts unchanged" "$restarts" "$(systemctl show -P NRestarts sleebd.service)"
if journal_since | grep -qi 'watchdog timeout'; then
	not_ok "the watchdog never fired"
	show_journal
else
	ok "the watchdog never fired"
fi
expect_eq "sleebd.service still active" active "$(systemctl is-active sleebd.service)"

rm -f $D/90-vm-systemd-watchdog.conf
systemctl daemon-reload
systemctl restart sleebd.service
wait_for 300 ready
