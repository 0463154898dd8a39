#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Booted with slub_debug=FLAGS,CACHES (vm-kernel-sleeb-lockdep-slub-debug):
# the caches named there are debug caches and have no queues, every other
# cache keeps its own. The rest of the suite ran on this kernel meanwhile:
# a queue that took a debug cache's object, or a free that wrote into one
# before it knew the cache had no queue, shows up as a slub_debug report
# in the console log, which the host scans.
. /tests/lib.sh
# Other boots name other caches (slub_debug=P,kmem_cache_node).
grep -qE 'slub_debug=[^ ]*dentry' /proc/cmdline || { ok "# SKIP not booted with slub_debug on dentry"; exit 0; }
for c in kmalloc-128 kmalloc-512 dentry; do
	expect_eq "$c (slub_debug) has no queue" "0" "$(cat /sys/kernel/slab/$c/cpu_queue_size)"
	check "$c (slub_debug) has its checks on" grep -qx 1 /sys/kernel/slab/$c/sanity_checks
done
check "kmalloc-64 keeps a queue" test "$(cat /sys/kernel/slab/kmalloc-64/cpu_queue_size)" -gt 0
check "kmalloc-64 has no checks" grep -qx 0 /sys/kernel/slab/kmalloc-64/sanity_checks
