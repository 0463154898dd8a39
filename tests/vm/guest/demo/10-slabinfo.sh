# SPDX-License-Identifier: GPL-2.0
# The main job's guest: show the patched kernel's slab caches and queues.
. /tests/lib.sh
echo "# kernel $(uname -r)"
echo "# /proc/slabinfo (first caches):"
head -25 /proc/slabinfo | sed 's/^/#   /'
if [ -e /sys/kernel/slab/kmalloc-64/cpu_queue_size ]; then
	for c in kmalloc-64 kmalloc-256 kmalloc-1k; do
		echo "#   $c: queue $(cat /sys/kernel/slab/$c/cpu_queue_size)" \
			"batch $(cat /sys/kernel/slab/$c/cpu_batch_size)" \
			"shared $(cat /sys/kernel/slab/$c/shared_queue_size)"
	done
fi
if command -v sleebctl >/dev/null; then
	echo "# sleebctl show:"
	sleebctl show 2>&1 | head -20 | sed 's/^/#   /'
fi
check "/proc/slabinfo is readable" sh -c "head -1 /proc/slabinfo | grep -q '^slabinfo - version: 2.1'"
