# SPDX-License-Identifier: GPL-2.0
# The longest irqs-off section while a cache's queues are at the largest
# sizes the sysfs files accept (tools/irqsoff-latency.sh, on a kernel with
# CONFIG_IRQSOFF_TRACER, booted with one vCPU): sleeb_bench's own 64-byte
# cache, sleeb_bench64, at 10000/5000/10000, then
#   refill       sleeb_bench's test a (1000 allocations, then their frees)
#                on the empty queue: one refill of a 5000 batch
#   shrink       its shrink file: the flush of about 5000 queued objects
#   resize-down  another refill, then a resize to 16/8/16: the 5000 that
#                no longer fit go back to the slabs
# A free that finds the queue full, and the shared queue's drains, need a
# second cpu that frees what another allocated; with more than one cpu,
# the phase handoff (sleeb_bench's h_handoff of 50000 objects, three
# times) comes first.
#
# Prints for each phase
#   # IRQSOFF <phase> <max-us> <start-function> <end-function> <refills> <drains>
# with the irqsoff tracer's tracing_max_latency (guest microseconds), where
# that section began and ended, read from its trace, and how many refills
# and full-queue drains of sleeb_bench64's queues the phase made.
. /tests/lib.sh
t=/sys/kernel/tracing
grep -q " $t tracefs " /proc/mounts || mount -t tracefs nodev $t
slab=/sys/kernel/slab/sleeb_bench64
run=/sys/module/sleeb_bench/parameters/run

check "the irqsoff tracer is there" grep -qw irqsoff $t/available_tracers
check "sleeb_bench loads" insmod /lib/modules/sleeb_bench.ko profile=1
check "sleeb_bench64 takes 10000 5000 10000" sh -c "echo 10000 5000 10000 > $slab/queue_sizes"

# phase NAME CMD...: CMD under a fresh maximum, then the IRQSOFF line.
phase() {
	local name=$1 us start end refills drains
	shift
	refills=$(queue_stat sleeb_bench64 alloc_refill)
	drains=$(queue_stat sleeb_bench64 free_drain)
	echo 0 >$t/tracing_max_latency
	echo 1 >$t/tracing_on
	"$@"
	echo 0 >$t/tracing_on
	read -r us <$t/tracing_max_latency
	start=$(sed -n 's/^# *=> started at: *\([^ ]*\).*/\1/p' $t/trace | head -n 1)
	end=$(sed -n 's/^# *=> ended at: *\([^ ]*\).*/\1/p' $t/trace | head -n 1)
	refills=$(($(queue_stat sleeb_bench64 alloc_refill) - refills))
	drains=$(($(queue_stat sleeb_bench64 free_drain) - drains))
	echo "# IRQSOFF $name $us ${start:-?} ${end:-?} $refills $drains"
}

handoffs() {
	local i
	for i in 1 2 3; do
		echo "h_handoff cache-64 50000" >$run || return 1
	done
}

echo irqsoff >$t/current_tracer
[ "$(nproc)" -gt 1 ] && phase handoff check "handoffs of 50000 objects run" handoffs
phase refill check "test a runs on the empty queue" sh -c \
	"echo 1 > $slab/shrink && echo 'a cache-64 1000' > $run"
phase shrink check "the queue shrinks" sh -c "echo 1 > $slab/shrink"
phase resize-down check "a resize to 16 8 16 takes" sh -c \
	"echo 'a cache-64 1000' > $run && echo 16 8 16 > $slab/queue_sizes"
echo nop >$t/current_tracer
