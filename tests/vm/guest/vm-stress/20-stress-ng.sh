# SPDX-License-Identifier: GPL-2.0
# A peer's stressor suite (issue 30, section 3): Debian's stress-ng
# (harness.sh --extra /usr/bin/stress-ng) runs one instance each of the
# slab-heavy stressors below, while resize-storm changes the sizes of the
# caches they fill, a cpu goes offline and back, and nic-traffic keeps the
# network cards' softirq busy. Every stressor must pass or be skipped by
# stress-ng itself (a facility this guest lacks), none may fail, the kernel
# log must stay clean (the harness), and Slab: must come back near where it
# started once the load is gone and the reclaimable caches are dropped.
# Duration: sleeb.stressng_seconds= on the kernel command line (default 100).
. /tests/lib.sh
. /tests/vm-stress/stress.lib
secs=$(sed -n 's/.*sleeb\.stressng_seconds=\([0-9]*\).*/\1/p' /proc/cmdline)
secs=${secs:-100}
command -v stress-ng >/dev/null || { not_ok "stress-ng: not in the guest (harness.sh --extra /usr/bin/stress-ng)"; exit 0; }
# The socket stressors talk over the loopback device, down at boot here.
ifconfig lo 127.0.0.1 up
mkdir -p /tmp/stress-ng
# Sockets, fork and clone, dentry/inode/file churn, pipes and splice,
# signalfd/timerfd/eventfd, SysV IPC and POSIX message queues,
# mmap/brk/mremap, procfs and sysfs readers.
stressors="sock udp fork clone dentry inode-flags open filename pipe splice sigfd timerfd
eventfd sem-sysv msg shm-sysv mq mmap brk mremap procfs sysfs"
args=
for s in $stressors; do args="$args --$s 1"; done

slab_kb() { awk '$1 == "Slab:" { print $2 }' /proc/meminfo; }
drop() { sync; echo 3 >/proc/sys/vm/drop_caches; sleep 5; }
drop
slab0=$(slab_kb)

caches=
for c in dentry filp inode_cache shmem_inode_cache proc_inode_cache sock_inode_cache \
	signal_cache vm_area_struct anon_vma_chain anon_vma skbuff_head_cache kmalloc-64 kmalloc-192 kmalloc-1k; do
	has_queues $c && caches="$caches $c"
done
# shellcheck disable=SC2086 # one line
echo "# stress-ng for $secs s:" $stressors
echo "# resize-storm on:$caches"
rm -f /tmp/ng.done /tmp/ng-hotplug.count
hotplug /tmp/ng.done /tmp/ng-hotplug.count &
# shellcheck disable=SC2086 # one word per cache
resize-storm /tmp/ng.done $caches >/tmp/ng-storm.out 2>&1 &
storm=$!
nic-traffic --until /tmp/ng.done eth0 eth1 >/tmp/ng-nic.out 2>&1 &
nic=$!
# shellcheck disable=SC2086 # one word per option
(cd /tmp/stress-ng && stress-ng $args --timeout "${secs}s" --temp-path /tmp/stress-ng \
	--metrics-brief) >/tmp/ng.out 2>&1
rc=$?
touch /tmp/ng.done
wait $storm
storm_rc=$?
wait $nic
nic_rc=$?
wait
sed 's/^/#   /' /tmp/ng.out | tail -60
# stress-ng 0.15 exits 0 when every stressor passed, 2 when one failed,
# 3 when one could not get its resources and 4 when one is not
# implemented here (both skips); a stressor that ran has a row of bogo
# operations in the metrics, and a failure prints a "fail:" line.
ran='' skipped=''
for s in $stressors; do
	if grep -Eq "metrc: \[[0-9]+\] $s +[0-9]+ " /tmp/ng.out; then
		ran="$ran $s"
	else
		skipped="$skipped $s"
	fi
done
fails=$(grep -c ' fail: ' /tmp/ng.out)
echo "# stress-ng ran:$ran"
echo "# stress-ng skipped or without figures:${skipped:- none}"
# shellcheck disable=SC2086 # counting words
check "stress-ng: no stressor failed ($(echo $ran | wc -w) ran, $(echo $skipped | wc -w) skipped, $fails failure lines, status $rc)" \
	sh -c "case $rc in 0|3|4) ;; *) exit 1 ;; esac && [ $fails = 0 ] && [ -n '$ran' ]"
cat /tmp/ng-storm.out
check "stress-ng: resize-storm exited cleanly (status $storm_rc)" test $storm_rc = 0
sed 's/^/#   nic-traffic: /' /tmp/ng-nic.out
check "stress-ng: nic-traffic exited cleanly (status $nic_rc)" test $nic_rc = 0
check "stress-ng: cpus were taken offline meanwhile ($(cat /tmp/ng-hotplug.count 2>/dev/null) times)" \
	test "$(cat /tmp/ng-hotplug.count 2>/dev/null || echo 0)" -gt 0
expect_eq "stress-ng: all cpus back online" "0-3" "$(cat /sys/devices/system/cpu/online)"
rm -rf /tmp/stress-ng
# Objects freed by RCU, the queues' reaper (twice a second, on idle cpus
# too) and KASAN's quarantine need a moment; then the page cache's
# dentries and inodes go with drop_caches.
sleep 10
drop
slab1=$(slab_kb)
echo "# Slab: ${slab0} kB before stress-ng, ${slab1} kB after it and drop_caches"
limit=$((slab0 + slab0 / 4 + 16384))
check "stress-ng: Slab: back near its start (${slab1} kB <= ${limit} kB: start + 25% + 16 MiB)" \
	test "$slab1" -le "$limit"
