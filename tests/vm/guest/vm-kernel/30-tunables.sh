# SPDX-License-Identifier: GPL-2.0
# The queue control interface: the three sysfs tunables, queue_sizes (all
# three in one write), /proc/slabinfo's tunables columns (SLAB's limit,
# batchcount and sharedfactor) and its write path, with every rejected
# value.
. /tests/lib.sh
C=kmalloc-64
D=/sys/kernel/slab/$C

get() { echo "$(cat $D/cpu_queue_size) $(cat $D/cpu_batch_size) $(cat $D/shared_queue_size)"; }
slabinfo_tunables() { # the "limit batchcount sharedfactor" columns of cache $1
	awk -v c="$1" '$1 == c { for (i = 1; i <= NF; i++) if ($i == "tunables") print $(i+1), $(i+2), $(i+3) }' /proc/slabinfo
}
# set ATTR VALUE EXPECTED: write and check the kernel's answer
set_attr() {
	expect_eq "write $2 to $C/$1 gives $3" "$3" "$(sleeb-write $D/$1 "$2")"
}

for a in cpu_queue_size cpu_batch_size shared_queue_size queue_sizes queue_stats; do
	check "$C/$a exists" test -r $D/$a
done
# Root only, like every SLUB attribute: fill levels and counts are a side
# channel.
for f in cpu_queue_size cpu_batch_size shared_queue_size queue_sizes; do
	expect_eq "$f is mode 0600" "-rw-------" "$(ls -l $D/$f | cut -c1-10)"
done
expect_eq "queue_stats is mode 0400" "-r--------" "$(ls -l $D/queue_stats | cut -c1-10)"
defaults=$(get)
echo "# $C defaults: $defaults"
expect_eq "64-byte default sizes follow SLAB's table (120, 60, 480)" "120 60 480" "$defaults"
expect_eq "/proc/slabinfo shows the defaults, the shared queue in batches" "120 60 8" "$(slabinfo_tunables $C)"
expect_eq "queue_sizes reads the three sizes" "120 60 480" "$(cat $D/queue_sizes)"

set_attr cpu_queue_size 200 OK
set_attr cpu_batch_size 50 OK
set_attr shared_queue_size 400 OK
expect_eq "sysfs reads back 200 50 400" "200 50 400" "$(get)"
expect_eq "/proc/slabinfo reads back 200 50 8" "200 50 8" "$(slabinfo_tunables $C)"
set_attr shared_queue_size 420 OK
expect_eq "a shared queue of 420 shows as 9 batches of 50 (rounded up)" "200 50 9" "$(slabinfo_tunables $C)"
set_attr shared_queue_size 400 OK

for bad in 10001 abc -1 " " 99999999999 "5 6"; do
	set_attr cpu_queue_size "$bad" EINVAL
done
set_attr cpu_queue_size 40 EINVAL     # below the batch of 50
set_attr cpu_batch_size 0 EINVAL
set_attr cpu_batch_size 201 EINVAL    # above the queue
set_attr shared_queue_size 49 EINVAL  # below the batch
set_attr shared_queue_size 10001 EINVAL
expect_eq "rejected writes changed nothing" "200 50 400" "$(get)"

set_attr shared_queue_size 0 OK
set_attr cpu_queue_size 0 OK
expect_eq "queue 0 turns the cache's queues off" "0 0 0" "$(get)"
set_attr cpu_batch_size 10 EINVAL
set_attr shared_queue_size 10 EINVAL
set_attr cpu_queue_size 30 OK
expect_eq "turning queues on takes batch (30+1)/2 and no shared queue" "30 15 0" "$(get)"

# Merged caches share one directory; every alias link reaches the tunables.
target=$(readlink -f $D)
aliases=0
for l in /sys/kernel/slab/*; do
	[ -L "$l" ] && [ "$(readlink -f "$l")" = "$target" ] && aliases=$((aliases + 1))
done
echo "# $C lives in $target with $aliases alias link(s)"
for l in /sys/kernel/slab/*; do
	[ -L "$l" ] && [ "$(readlink -f "$l")" = "$target" ] &&
		expect_eq "alias $(basename "$l") reads the same queue size" 30 "$(cat "$l"/cpu_queue_size)"
done

# /proc/slabinfo writes, SLAB's syntax and meaning: the third number is a
# factor of the batch.
expect_eq "/proc/slabinfo is mode 0600" "-rw-------" "$(ls -l /proc/slabinfo | cut -c1-10)"
expect_eq "slabinfo write 'kmalloc-64 64 16 8'" OK "$(sleeb-write /proc/slabinfo 'kmalloc-64 64 16 8')"
expect_eq "slabinfo write's shared queue is 8 batches of 16" "64 16 128" "$(get)"
for bad in "nosuchcache 10 5 0" "kmalloc-64 10 20 0" "kmalloc-64 x 1 0" "kmalloc-64 10 5" \
	"kmalloc-64 10 5 0 9" "kmalloc-64 10001 5 0" "kmalloc-64 100 50 201"; do
	expect_eq "slabinfo write '$bad' rejected" EINVAL "$(sleeb-write /proc/slabinfo "$bad")"
done
expect_eq "rejected slabinfo writes changed nothing" "64 16 128" "$(get)"
# A line as SLAB-era tools and admin notes have it, on dentry where it has
# queues (the slub_debug boot takes them away from dentry), else on $C.
S=dentry
[ "$(cat /sys/kernel/slab/$S/cpu_queue_size 2>/dev/null || echo 0)" -gt 0 ] || S=$C
old=$(cat /sys/kernel/slab/$S/queue_sizes)
expect_eq "SLAB-era line '$S 120 60 8' accepted" OK "$(sleeb-write /proc/slabinfo "$S 120 60 8")"
expect_eq "$S's shared queue is 8 * 60 objects" "120 60 480" "$(cat /sys/kernel/slab/$S/queue_sizes)"
expect_eq "/proc/slabinfo shows $S's line as written" "120 60 8" "$(slabinfo_tunables $S)"
expect_eq "restore $S" OK "$(sleeb-write /sys/kernel/slab/$S/queue_sizes "$old")"

# queue_sizes: all three in one write, one resize.
resizes() { queue_stat $C resize; }
r0=$(resizes)
expect_eq "queue_sizes write '96 24 240'" OK "$(sleeb-write $D/queue_sizes '96 24 240')"
expect_eq "queue_sizes write reflected in the single files" "96 24 240" "$(get)"
expect_eq "one queue_sizes write is one resize" "$((r0 + 1))" "$(resizes)"
for bad in "96 24" "10 20 0" "a b c" "10 5 4" "10 5 0 9" "10001 5 0" "4294967297 1 0"; do
	expect_eq "queue_sizes write '$bad' rejected" EINVAL "$(sleeb-write $D/queue_sizes "$bad")"
done
expect_eq "rejected queue_sizes writes changed nothing" "96 24 240" "$(get)"

# A cache with debug flags cannot queue.
insmod /lib/modules/sleeb_test_caches.ko
expect_eq "debug cache reads 0" "0" "$(cat /sys/kernel/slab/sleeb_debug_test/cpu_queue_size)"
expect_eq "debug cache refuses a queue" EOPNOTSUPP \
	"$(sleeb-write /sys/kernel/slab/sleeb_debug_test/cpu_queue_size 10)"
rmmod sleeb_test_caches

# Counters and shrink.
check "queue_stats lists the 10 counters" test "$(grep -cE '^(alloc_refill|free_drain|shared_alloc_hit|shared_alloc_miss|shared_free|shared_overflow|remote_free|remote_alloc|reap_drained|resize) [0-9]+$' $D/queue_stats)" -eq 10
# With CONFIG_RANDOM_KMALLOC_CACHES a call site allocates from one of 16
# copies of kmalloc-64: count them all.
ops() { cat /sys/kernel/slab/kmalloc-64/queue_stats /sys/kernel/slab/kmalloc-rnd-*-64/queue_stats 2>/dev/null | awk '$1 == "fastpath_ops" { n += $2 } END { print n }'; }
o1=$(ops)
insmod /lib/modules/sleeb_stress.ko duration_s=2 && rmmod sleeb_stress # kmalloc churn
o2=$(ops)
echo "# $C fastpath_ops $o1 -> $o2"
check "queue_stats counts the fast path's operations (fastpath_ops $o1 -> $o2)" test "${o2:-0}" -gt "${o1:-0}"
check "resize counter counted the resizes" test "$(resizes)" -ge 5
echo 1 >$D/shrink
expect_eq "shrink empties the shared queues (sharedavail 0)" 0 \
	"$(awk -v c=$C '$1 == c { print $NF }' /proc/slabinfo)"

expect_eq "restore defaults" OK "$(sleeb-write $D/queue_sizes "$defaults")"
