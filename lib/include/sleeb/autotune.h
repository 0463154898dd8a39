/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Auto-tuning decisions: pure logic, no I/O. The daemon measures, this
 * file decides, the daemon writes.
 *
 * The signal is relative: slow-path trips per operation, from the
 * kernel's queue_stats, so that a faster clock or more cpus do not change
 * what a load looks like. A trip is a round trip of a cpu queue's lock:
 * a refill (alloc_refill), a drain (free_drain) or a flushed row of
 * remote frees (remote_free / batch, since a row flushes a batch at a
 * time). A trip that goes on to the slabs (shared_alloc_miss: the refill
 * found the shared queue empty; shared_overflow: the drain found it full)
 * counts twice, since it takes the node's list_lock and touches cold
 * slabs as well. Operations are what the queues served: fastpath_ops
 * (bulk frees pass object by object through the same fast paths and are
 * in it), bulk_alloc, and one per trip (the allocation or free that took
 * it).
 *
 * Sizing, in one step. A queue of q objects moves q/2 per trip, so a
 * load's trips per operation fall as 1/q (the benchmark's micro tests:
 * 123, 15 and 3.5 trips per 1000 operations at 16, 120 and 480 objects,
 * docs/benchmarks.md of 9e97897). A cache at ratio r wants
 * q * r / target: one resize, not a doubling per interval. The batch is
 * half the queue. The shared queue does not grow in proportion: it keeps
 * its size, or becomes two of the new batches (the new queue's size) if
 * that is more. What one cpu drains waits there for another cpu's refill,
 * and two batches are enough for that. Beyond them it holds what the end
 * of a load frees: at the kernel's ratio (four cpu queues per node) that
 * was most of what a grown cache kept right after the load
 * (docs/benchmarks.md, "sleebd against q480"). A refill that still finds
 * it empty, or a drain that finds it full, counts as a trip to the slabs
 * and so raises the ratio that sizes the queue.
 *
 * The ratio is smoothed (an exponential moving average of the counters'
 * rates, the newest interval weighted AutoTuneSmoothing=%): a ratio of
 * two averages moves to a new load's ratio in the load's first interval,
 * while a single busy interval of a mostly quiet cache still counts as
 * what it is.
 *
 * Worth a change at all: a grow must save at least AutoTuneMinTripRate=
 * trips per second (the whole cache, every cpu). A trip costs about
 * SLEEB_AUTOTUNE_TRIP_CYCLES; below that rate the slow path costs the
 * machine less than a resize (work on every cpu) and the daemon's own
 * reading of the cache, and a ratio from so few events is noise. And it
 * must pay for the memory it adds: AutoTuneTripsPerMiB= trips a second
 * saved for each MiB of capacity it adds to the queues (object size x
 * (queue x cpus + shared x nodes), the group's copies together). A grow
 * from q to q' saves about trips x (1 - q/q') a second; a grow that does
 * not pay is cut to the largest size that does, or refused if that is
 * within a quarter of q. Large objects and groups of many copies (the
 * sixteen copies of kmalloc-4k hold 63 MiB more at 192 objects than at
 * 24 on 4 cpus in 2 nodes) then need a busy load to grow; small hot
 * caches hardly notice.
 *
 * Never shrink because a cache went quiet: the kernel's reaper already
 * gives an idle queue's objects back within a second or two, so a
 * smaller idle queue saves nothing and costs the next burst its first
 * refills. Shrink only
 *   - when memory is short (the caller says so, from MemAvailable or
 *     PSI: sleeb_autotune_memory_short()): every auto-tuned queue halves,
 *     no queue grows;
 *   - to keep within MaxQueuedMemory: the caches with the most bytes
 *     queued above their floor halve until the total fits;
 *   - when the reaper keeps returning most of what refills brought in
 *     (reap_drained against alloc_refill x batch, smoothed, at
 *     AutoTuneReapShrink=% or more while the cache is busy enough to be
 *     worth a change): the queue is bigger than the load uses. Two
 *     limits keep this shrink and the grow from undoing each other (a
 *     bursty load fills a grown queue, then the reaper takes back what
 *     the burst left, and it would be halved and grown again at every
 *     burst): it never goes below the size the grow rule would pick
 *     for the ratio measured now (so at or above the target ratio it
 *     does not shrink at all), nor below the size the cache's last
 *     grow chose, which a burst has shown it needs.
 * Growth never crosses AutoTuneMax or 7/8 of the budget (a grow that
 * does not fit is cut to what fits; the last eighth is the hysteresis
 * that keeps a grow and a budget shrink from following each other);
 * shrinking stops at AutoTuneMin.
 *
 * Groups: the copies of a kmalloc size class under
 * CONFIG_RANDOM_KMALLOC_CACHES (kmalloc-SIZE and kmalloc-rnd-NN-SIZE)
 * each see a sixteenth of the traffic; they are decided as one: their
 * counters summed, the same sizes for all (sleeb_autotune_group_key()).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/policy.h"
#include "sleeb/sysfs.h"

/*
 * The per-trip cost, from the benchmark's own measurements: model cycles
 * per operation against lock round trips per operation on the module's
 * own cache-64 (no other user), full run of 9e97897 (docs/benchmarks.md
 * at that commit, "Where the queues leave their fast paths" and the model
 * clock's table). Between q16 (batch 8) and q480 (batch 240) the slope is
 * 690-1,730 cycles per trip (a: 764, d_remote_free: 1,150,
 * d_remote_node_free: 692, e: 1,730); between the default sizes (batch
 * 60) and q480, 1,509 (a) to 5,690 (e, whose drains overflow to the
 * slabs). 1,500 is the figure at the default batch where trips stay in
 * the queues. A fast-path operation costs about 105 (b_pair cache-64:
 * 209.5 cycles a pair, no trip).
 */
#define SLEEB_AUTOTUNE_TRIP_CYCLES     1500
#define SLEEB_AUTOTUNE_FASTPATH_CYCLES 105

/*
 * Defaults (sleebd.conf(5); the [Daemon] keys named above override them).
 *
 * TARGET_TRIPS, per 1000 operations: at 4 the slow path is about 5% of
 * the cache's allocator work (4 x 1,500 against 1000 x 105 + 4 x 1,500
 * cycles), and it is what the largest queues of the benchmark reached
 * (q480: 0-5 trips per 1000 operations in every micro test) while the
 * default sizes took 5-18 at 64-256 B, 31-36 at 1 KiB and 74-83 at 4 KiB.
 *
 * MIN_TRIP_RATE, trips per second saved: 50 trips cost 75,000 cycles a
 * second, 0.0025% of one 3 GHz core, less than one resize (it runs work
 * on every cpu and reallocates each queue's array) repays soon; and in a
 * 2 s interval a ratio from fewer than 100 events is noise.
 *
 * TRIPS_PER_MIB, trips per second saved per MiB a grow adds: 50, so a
 * MiB held is worth 75,000 cycles a second to the load (the rate
 * MIN_TRIP_RATE asks of any change). The grows that carry the
 * benchmark's hackbench (skbuff_head_cache, kmalloc-cg-512) add about
 * 1 MiB each, so it asks little more of them than MIN_TRIP_RATE does.
 *
 * SMOOTHING 50%: the newest interval weighs as much as all before.
 * REAP_SHRINK 50%: "most of what refills brought in".
 * MEMORY_LOW 5%: MemAvailable below 5% of MemTotal is where the kernel's
 * own watermarks and kswapd are at work; the queues give back first.
 * PSI_SOME 10%: /proc/pressure/memory "some avg10" at 10% or more means
 * tasks stall on memory a tenth of the time.
 */
#define SLEEB_AUTOTUNE_TARGET_TRIPS   4
#define SLEEB_AUTOTUNE_MIN_TRIP_RATE  50
#define SLEEB_AUTOTUNE_TRIPS_PER_MIB  50
#define SLEEB_AUTOTUNE_SMOOTHING      50
#define SLEEB_AUTOTUNE_REAP_SHRINK    50
#define SLEEB_AUTOTUNE_MEMORY_LOW     5
#define SLEEB_AUTOTUNE_PSI_SOME       10

/* Ranges the configuration accepts. */
#define SLEEB_AUTOTUNE_TRIPS_MAX     1000       /* target trips per 1000 operations: 1.. */
#define SLEEB_AUTOTUNE_RATE_MAX      1000000    /* min trip rate: 0.. */

/* A change must move the queue by a quarter at least: less is not worth a resize. */
#define SLEEB_AUTOTUNE_MIN_STEP_NUM  5
#define SLEEB_AUTOTUNE_MIN_STEP_DEN  4

struct sleeb_autotune_params {
	double target_ratio;    /* trips per operation (AutoTuneTargetTrips= / 1000) */
	double min_trip_rate;   /* trips per second a grow must save (AutoTuneMinTripRate=) */
	double trips_per_mib;   /* and per MiB of capacity it adds (AutoTuneTripsPerMiB=); 0: off */
	double smoothing;       /* weight of the newest interval, 0 < w <= 1 (AutoTuneSmoothing=) */
	double reap_shrink;     /* reaped share of refilled objects that shrinks (AutoTuneReapShrink=) */
	bool memory_short;      /* from sleeb_autotune_memory_short() */
	char memory_reason[96]; /* what it said, for the decisions' reasons */
	unsigned ncpus;         /* for the memory estimate */
	unsigned nnodes;
	uint64_t budget_bytes;  /* MaxQueuedMemory; 0: unlimited */
	uint64_t other_bytes;   /* queued memory of caches not auto-tuned */
};

void sleeb_autotune_params_init(struct sleeb_autotune_params *p);

/*
 * One interval's counter deltas of a cache (or a group, summed), from
 * two reads of queue_stats. Plain numbers so that tests can replay
 * recorded sequences.
 */
struct sleeb_autotune_sample {
	uint64_t elapsed_usec;
	uint64_t refills, drains, remote_objects;
	uint64_t to_slabs;      /* shared_alloc_miss + shared_overflow */
	uint64_t ops;           /* fastpath_ops + bulk_alloc */
	uint64_t reaped;        /* reap_drained */
	uint64_t failed;        /* refill_nomem + array_fail: the kernel was short */
};

/*
 * The deltas between two reads of a cache's queue_stats, elapsed_usec
 * apart. -ERANGE when a counter went backwards (the cache was destroyed
 * and created again) or nothing elapsed; -ENODATA when the kernel lacks
 * fastpath_ops, without which there is no ratio.
 */
int sleeb_autotune_sample_delta(const struct sleeb_queue_stats *prev, const struct sleeb_queue_stats *cur,
				uint64_t elapsed_usec, struct sleeb_autotune_sample *out);

/* Adds b into a (a group's members); the elapsed time is a's, b's counts
 * taken over it at b's rates (b may span several intervals). */
void sleeb_autotune_sample_add(struct sleeb_autotune_sample *a, const struct sleeb_autotune_sample *b);

/*
 * The group a cache is decided in: "kmalloc-rnd-NN-SIZE" and
 * "kmalloc-SIZE" give "kmalloc-SIZE"; any other name itself. Returns
 * the length written (truncated to size - 1 like snprintf).
 */
size_t sleeb_autotune_group_key(const char *name, char *buf, size_t size);

/*
 * Whether memory is short: MemAvailable below memory_low_percent of
 * MemTotal (either unknown: not short), or PSI memory "some avg10" at
 * psi_some_percent or more (psi_some_avg10 < 0: unknown). Writes what it
 * found into why (always, for logs).
 */
bool sleeb_autotune_memory_short(uint64_t memtotal, uint64_t memavailable, unsigned memory_low_percent,
				 double psi_some_avg10, unsigned psi_some_percent, char *why, size_t size);

/* Per-cache memory that survives between decisions. Zero-initialise. */
struct sleeb_autotune_state {
	bool primed;            /* the averages hold at least one interval */
	double trips;           /* weighted trips per second */
	double ops;             /* operations per second */
	double refilled;        /* objects refills brought in, per second */
	double reaped;          /* objects the reaper gave back, per second */
	uint32_t grown_to;      /* the queue size the last grow chose, 0 if none: the
				 * reaper's share does not shrink it below that (a
				 * change restarts the averages, not this) */
};

enum sleeb_autotune_action {
	SLEEB_AUTOTUNE_KEEP,
	SLEEB_AUTOTUNE_GROW,
	SLEEB_AUTOTUNE_SHRINK,
};

/*
 * One cache as one decision sees it. sleebd fills it from its struct
 * cache and the interval's snapshot, and copies state and next back.
 * Members of a group: every member's group is the index of the group's
 * first member (a cache alone: its own index); the first member's
 * sample and state stand for the group after sleeb_autotune_decide()
 * has summed the others' samples into it.
 */
struct sleeb_autotune_cache {
	/* input */
	uint64_t object_size;
	struct sleeb_tunables cur;
	uint32_t min, max;      /* queue bounds, 1 <= min <= max <= 10000 */
	bool has_sample;        /* false: no counters this interval (first read,
				 * recreated cache, no queue_stats) */
	struct sleeb_autotune_sample sample;
	size_t group;
	/* input and output */
	struct sleeb_autotune_state state;
	/* output */
	enum sleeb_autotune_action action;
	struct sleeb_tunables next; /* == cur when KEEP */
	char reason[160];
};

/*
 * Decides one interval for n caches at once (the budget is global).
 * Never fails.
 */
void sleeb_autotune_decide(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n);

/* Bytes an object queue configuration can hold: size x (queue x cpus + shared x nodes). */
uint64_t sleeb_autotune_queued_bytes(const struct sleeb_autotune_params *p, uint64_t object_size,
				     const struct sleeb_tunables *v);

/* Values for a new queue size: batch (q+1)/2, shared scaled and clamped
 * (a policy's bounds, applied to its sizes). */
void sleeb_autotune_scale(const struct sleeb_tunables *cur, uint32_t queue, struct sleeb_tunables *ret);

/* Values for an auto-tuning decision's new queue size: as
 * sleeb_autotune_scale(), but a grow takes the shared queue only to the
 * new queue size (two batches), or keeps it if it is larger. */
void sleeb_autotune_resize(const struct sleeb_tunables *cur, uint32_t queue, struct sleeb_tunables *ret);
