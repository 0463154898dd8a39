# SPDX-License-Identifier: GPL-2.0
# The guest is the machine the other suites expect: SLUB with /proc/slabinfo
# and sysfs, 4 cpus in 2 NUMA nodes.
. /tests/lib.sh
echo "# kernel $(uname -r), cmdline: $(cat /proc/cmdline)"
expect_eq "/proc/slabinfo starts with the version 2.1 header" \
	"slabinfo - version: 2.1" "$(head -1 /proc/slabinfo)"
check "/proc/slabinfo lists caches" test "$(wc -l </proc/slabinfo)" -gt 20
check "/sys/kernel/slab is not empty" test -n "$(ls /sys/kernel/slab)"
expect_eq "2 NUMA nodes online" "0-1" "$(cat /sys/devices/system/node/online)"
expect_eq "4 cpus online" "0-3" "$(cat /sys/devices/system/cpu/online)"
expect_eq "cpus 0-1 on node 0" "0-1" "$(cat /sys/devices/system/node/node0/cpulist)"
expect_eq "cpus 2-3 on node 1" "2-3" "$(cat /sys/devices/system/node/node1/cpulist)"
