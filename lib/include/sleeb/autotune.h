/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Auto-tuning decisions: pure logic, no I/O. The daemon measures, this
 * file decides, the daemon writes.
 *
 * Two signals, one per direction:
 *
 *   rate  refills + drains per second per cpu: how often the queue ran
 *         empty or full, i.e. how hot the slow path is. The signal for
 *         growing: a bigger queue makes those events rarer.
 *   flow  objects moved through the slow path per second per cpu, rate x
 *         the current batch size. The signal for shrinking: a queue's
 *         memory is worth giving back only when few objects pass through
 *         it. The rate alone is not: a busy cache with a big batch refills
 *         rarely and would look idle (hackbench shrank kmalloc-cg-512 from
 *         54/27 to 16/8 that way).
 *
 * Hysteresis and a cooldown so load oscillating around a mark never
 * flaps: grow x2 only after the rate stayed above grow_rate for
 * grow_after intervals, shrink /2 only after the flow stayed below
 * idle_flow for shrink_after intervals, and after any change do nothing
 * for cooldown intervals. A shrink keeps the flow and halves the batch,
 * so it roughly doubles the rate; with idle_flow <= grow_rate (enforced
 * by the configuration) a shrink cannot push a steady load over the grow
 * mark. Growth never crosses AutoTuneMax or the global MaxQueuedMemory
 * budget; shrinking stops at AutoTuneMin.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/policy.h"

struct sleeb_autotune_params {
	double grow_rate;       /* refills+drains per second per cpu (AutoTuneGrowRate=) */
	double idle_flow;       /* objects per second per cpu (AutoTuneIdleFlow=); 0: never idle */
	unsigned grow_after;    /* K intervals with the rate above grow_rate */
	unsigned shrink_after;  /* M intervals with the flow below idle_flow */
	unsigned cooldown;      /* intervals without change after a change */
	unsigned ncpus;         /* for the memory estimate */
	unsigned nnodes;
	uint64_t budget_bytes;  /* MaxQueuedMemory; 0: unlimited */
	uint64_t other_bytes;   /* queued memory of caches not auto-tuned */
};

/*
 * Defaults used by sleebd (documented in sleebd.conf(5), where the
 * [Daemon] keys named above override them).
 *
 * SLEEB_AUTOTUNE_IDLE_FLOW: below 200 objects per second per cpu the
 * slow path costs nothing measurable whatever the queue size (even at
 * batch 1 that is 200 refills or drains of a few hundred ns each, well
 * under 0.1% of a cpu), so the queue's memory is worth more than what it
 * saves. It leaves busy caches alone: at the batch of 27 of a 54-object
 * queue, fewer than 8 refills+drains per second per cpu look idle. And it
 * is below the grow rate: after a shrink to batch b the same flow gives a
 * rate under 200 / b <= 1000, so a shrink cannot bring a steady load back
 * over the grow mark.
 */
#define SLEEB_AUTOTUNE_GROW_RATE    1000
#define SLEEB_AUTOTUNE_IDLE_FLOW    200
#define SLEEB_AUTOTUNE_GROW_AFTER   3
#define SLEEB_AUTOTUNE_SHRINK_AFTER 5
#define SLEEB_AUTOTUNE_COOLDOWN     5

/* Ranges the configuration accepts. */
#define SLEEB_AUTOTUNE_RATE_MAX      1000000    /* grow rate 1.., idle flow 0.. */
#define SLEEB_AUTOTUNE_INTERVALS_MAX 1000       /* grow/shrink after 1.., cooldown 0.. */

void sleeb_autotune_params_init(struct sleeb_autotune_params *p);

/* Per-cache memory that survives between decisions. Zero-initialise. */
struct sleeb_autotune_state {
	unsigned above;         /* consecutive intervals with the rate above grow_rate */
	unsigned below;         /* consecutive intervals with the flow below idle_flow */
	unsigned cooldown;      /* intervals left before another change */
};

enum sleeb_autotune_action {
	SLEEB_AUTOTUNE_KEEP,
	SLEEB_AUTOTUNE_GROW,
	SLEEB_AUTOTUNE_SHRINK,
};

/*
 * One cache as one decision sees it: only numbers, so that the decision
 * stays pure and testable without a kernel or a daemon. sleebd fills it
 * from its struct cache and the interval's struct sleeb_cache snapshot,
 * and copies state and next back.
 */
struct sleeb_autotune_cache {
	/* input */
	uint64_t object_size;
	struct sleeb_tunables cur;
	uint32_t min, max;      /* queue bounds, 1 <= min <= max <= 10000 */
	double rate;            /* refills+drains/s/cpu; < 0: unknown this interval */
	bool rate_is_flow;      /* rate counts objects already (the slabinfo churn
				 * fallback): flow = rate, not rate x batch */
	bool has_ops;           /* the kernel reports fastpath_ops: */
	double ops;             /* allocations+frees/s/cpu the cpu queues served,
				 * the flow itself; < 0: unknown this interval */
	double reaped;          /* objects/s/cpu the kernel's reaper took from
				 * queues that were neither refilled nor drained
				 * since its last pass (queue_stats reap_drained);
				 * <= 0: none or unknown */
	/* input and output */
	struct sleeb_autotune_state state;
	/* output */
	enum sleeb_autotune_action action;
	struct sleeb_tunables next; /* == cur when KEEP */
	char reason[128];
};

/*
 * Decides one interval for n caches at once (the budget is global).
 * Shrinks are decided before grows so freed budget can be used in the
 * same interval. Never fails.
 */
void sleeb_autotune_decide(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n);

/* Bytes an object queue configuration can hold: size x (queue x cpus + shared x nodes). */
uint64_t sleeb_autotune_queued_bytes(const struct sleeb_autotune_params *p, uint64_t object_size,
				     const struct sleeb_tunables *v);

/*
 * Events per second per cpu from a counter delta over elapsed_usec.
 * Returns -1 when it cannot be computed (no time elapsed, no cpus, or the
 * counters went backwards, as after a cache was recreated).
 */
double sleeb_autotune_rate(uint64_t prev_events, uint64_t cur_events, uint64_t elapsed_usec, unsigned ncpus);

/*
 * Slabinfo churn, the fallback signal without queue_stats: the change in
 * active objects per second per cpu, in either direction. -1 as above
 * when it cannot be computed.
 */
double sleeb_autotune_churn_rate(uint64_t prev_active, uint64_t cur_active, uint64_t elapsed_usec, unsigned ncpus);

/* Values for a new queue size: batch (q+1)/2, shared scaled and clamped. */
void sleeb_autotune_scale(const struct sleeb_tunables *cur, uint32_t queue, struct sleeb_tunables *ret);
