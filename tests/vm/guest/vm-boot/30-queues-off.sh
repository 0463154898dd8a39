# SPDX-License-Identifier: GPL-2.0
# Booted with slub_queues=off (test vm-boot-sleeb-queues-off): the same
# kernel runs as plain SLUB. The static key that skips the queues is
# patched at boot; no cache has queues, slabinfo shows zero tunables, and
# the tunables refuse writes with EOPNOTSUPP. Other boots skip this.
. /tests/lib.sh
grep -qw 'slub_queues=off' /proc/cmdline || exit 0
nonzero=$(awk 'NR > 2 && ($9 != 0 || $10 != 0 || $11 != 0) {print $1}' /proc/slabinfo | head -3)
expect_eq "every cache's slabinfo tunables are 0 0 0" "" "$nonzero"
expect_eq "cpu_queue_size reads 0" 0 "$(cat /sys/kernel/slab/kmalloc-64/cpu_queue_size)"
expect_eq "a write to cpu_queue_size is refused" EOPNOTSUPP \
	"$(sleeb-write /sys/kernel/slab/kmalloc-64/cpu_queue_size 16)"
expect_eq "a slabinfo write is refused" EOPNOTSUPP \
	"$(sleeb-write /proc/slabinfo 'kmalloc-64 16 8 0')"
