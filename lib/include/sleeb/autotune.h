/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Auto-tuning decisions: pure logic, no I/O. The daemon measures, this
 * file decides, the daemon writes.
 *
 * Two marks and a cooldown so load oscillating around one mark never
 * flaps: grow x2 only after the rate stayed above the high mark for
 * grow_after intervals, shrink /2 only after it stayed below the low mark
 * for shrink_after intervals, and after any change do nothing for
 * cooldown intervals. Growth never crosses AutoTuneMax or the global
 * MaxQueuedMemory budget; shrinking stops at AutoTuneMin.
 */

#include <stddef.h>
#include <stdint.h>

#include "sleeb/policy.h"

struct sleeb_autotune_params {
	double high_mark;       /* refills+drains per second per cpu */
	double low_mark;
	unsigned grow_after;    /* K intervals above high_mark */
	unsigned shrink_after;  /* M intervals below low_mark */
	unsigned cooldown;      /* intervals without change after a change */
	unsigned ncpus;         /* for the memory estimate */
	unsigned nnodes;
	uint64_t budget_bytes;  /* MaxQueuedMemory; 0: unlimited */
	uint64_t other_bytes;   /* queued memory of caches not auto-tuned */
};

/* Defaults used by sleebd (documented in sleebd.conf(5)). */
#define SLEEB_AUTOTUNE_HIGH_MARK    1000.0
#define SLEEB_AUTOTUNE_LOW_MARK     50.0
#define SLEEB_AUTOTUNE_GROW_AFTER   3
#define SLEEB_AUTOTUNE_SHRINK_AFTER 5
#define SLEEB_AUTOTUNE_COOLDOWN     5

void sleeb_autotune_params_init(struct sleeb_autotune_params *p);

/* Per-cache memory that survives between decisions. Zero-initialise. */
struct sleeb_autotune_state {
	unsigned above;         /* consecutive intervals above high_mark */
	unsigned below;         /* consecutive intervals below low_mark */
	unsigned cooldown;      /* intervals left before another change */
};

enum sleeb_autotune_action {
	SLEEB_AUTOTUNE_KEEP,
	SLEEB_AUTOTUNE_GROW,
	SLEEB_AUTOTUNE_SHRINK,
};

struct sleeb_autotune_cache {
	/* input */
	uint64_t object_size;
	struct sleeb_tunables cur;
	uint32_t min, max;      /* queue bounds, 1 <= min <= max <= 10000 */
	double rate;            /* < 0: unknown this interval */
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
