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
# step WHAT CMD...: run one step of a cycle; on failure keep what the
# service and its journal said, for the report.
step() {
	_what=$1
	shift
	"$@" && return 0
	failed=$((failed + 1))
	{
		echo "cycle $n: $_what failed"
		systemctl status --no-pager -l sleebd.service 2>&1 | tail -n 15
		journalctl -q --no-pager -u sleebd.service -n 25 2>&1
	} >>/tmp/restart.failures
}
rm -f /tmp/restart.failures
n=0
failed=0
while [ "$n" -lt "$want" ]; do
	step stop systemctl stop sleebd.service
	# systemd refuses a sixth start within 10 s (StartLimitBurst=5) with
	# "start request repeated too quickly"; this loop restarts on purpose.
	systemctl reset-failed sleebd.service 2>/dev/null
	step start systemctl start sleebd.service
	step "back to ready" wait_for 600 ready
	n=$((n + 1))
done
touch /tmp/restart.done
wait
expect_eq "$want stop/start cycles under load, each back to ready" 0 "$failed"
[ -s /tmp/restart.failures ] && sed 's/^/#   /' /tmp/restart.failures
cat /tmp/restart-churn.out
