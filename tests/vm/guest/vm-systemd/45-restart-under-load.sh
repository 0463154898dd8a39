# SPDX-License-Identifier: GPL-2.0
# Restart sleebd again and again while the guest is busy: every stop puts
# the tuned kmalloc caches back (a resize on every cpu), every start tunes
# them again, while vma-churn maps, splits and forks (maple nodes, freed
# from RCU callbacks in softirq) and readers walk files and /proc. This is
# what exposed a fast-path race with irqs (a maple node handed out twice);
# a splat anywhere fails the suite. Restarts: sleeb.restarts= (default 10).
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
want=$(sed -n 's/.*sleeb\.restarts=\([0-9]*\).*/\1/p' /proc/cmdline)
want=${want:-10}
readers() {
	while [ ! -e /tmp/restart.done ]; do
		find /usr/lib /usr/share/doc -type f 2>/dev/null | head -2000 | xargs cat >/dev/null 2>&1
		for _i in 1 2 3 4; do sh -c 'cat /proc/self/maps /proc/slabinfo >/dev/null' & done
		wait
	done
}
wait_for 300 ready
rm -f /tmp/restart.done
readers &
readers &
vma-churn /tmp/restart.done >/tmp/restart-churn.out 2>&1 &
n=0
failed=0
while [ "$n" -lt "$want" ]; do
	systemctl stop sleebd.service || failed=$((failed + 1))
	systemctl start sleebd.service || failed=$((failed + 1))
	wait_for 600 ready || failed=$((failed + 1))
	n=$((n + 1))
done
touch /tmp/restart.done
wait
expect_eq "$want stop/start cycles under load, each back to ready" 0 "$failed"
cat /tmp/restart-churn.out
