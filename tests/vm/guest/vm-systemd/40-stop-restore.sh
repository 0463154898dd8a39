# SPDX-License-Identifier: GPL-2.0
# `systemctl stop sleebd` puts back the values the kernel had before sleebd
# touched them, on every cache; start tunes again; stop restores again.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
wait_for 300 ready
all_tunables >/tmp/tuned0
check "systemctl stop sleebd" systemctl stop sleebd.service
expect_eq "sleebd inactive after stop" inactive "$(systemctl is-active sleebd.service)"
all_tunables >/tmp/orig
check "journal: stop restored the originals" sh -c "journalctl -q -u sleebd.service -o export | grep -q '^REASON=rollback'"
n=$(diff /tmp/tuned0 /tmp/orig | grep -c '^>')
echo "# $n caches changed back by the stop ($(wc -l </tmp/orig) caches with queues)"
check "the stop changed something back (sleebd had tuned caches)" test "$n" -gt 0

check "systemctl start sleebd" systemctl start sleebd.service
wait_for 300 ready
all_tunables >/tmp/tuned1
check "started again: caches tuned again" sh -c "! cmp -s /tmp/orig /tmp/tuned1"
check "systemctl stop sleebd (again)" systemctl stop sleebd.service
all_tunables >/tmp/orig2
if cmp -s /tmp/orig /tmp/orig2; then
	ok "second stop restored exactly the same originals on every cache"
else
	not_ok "second stop restored exactly the same originals on every cache"
	diff /tmp/orig /tmp/orig2 | head -10 | sed 's/^/#   /'
fi
check "systemctl start sleebd (for the next scripts)" systemctl start sleebd.service
wait_for 300 ready
