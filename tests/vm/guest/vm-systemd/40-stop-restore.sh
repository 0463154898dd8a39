# SPDX-License-Identifier: GPL-2.0
# `systemctl stop sleebd` puts back the values the kernel had before sleebd
# touched them, on every cache; start tunes again; stop restores again.
. /tests/lib.sh
. /tests/vm-systemd/systemd.lib
wait_for 300 ready
# The shipped policies change nothing on an idle guest: kernel defaults,
# and auto-tuning with no load to follow. A static policy gives each stop
# something to put back (the package's removal in 70-package.sh too).
mkdir -p /etc/sleeb/policy.d
printf '[Cache]\nMatch=filp\nCpuQueueSize=200\nCpuBatchSize=100\nSharedQueueSize=800\n' \
	>/etc/sleeb/policy.d/90-test-static.conf
check "systemctl restart sleebd (a static policy for filp)" systemctl restart sleebd.service
wait_for 300 ready
expect_eq "filp at the static policy's sizes" "200 100 800" \
	"$(echo $(cat /sys/kernel/slab/filp/cpu_queue_size /sys/kernel/slab/filp/cpu_batch_size \
		/sys/kernel/slab/filp/shared_queue_size))"
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
