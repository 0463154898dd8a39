/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model clock's penalties: model cycles = instructions + each event
 * counted times its penalty. One table, documented in docs/benchmarks.md
 * ("The model clock"), every entry overridable on the plugin's command
 * line as cost_NAME=CYCLES.
 *
 * Cycles at about 2.5 GHz, rounded; what each figure stands for and where
 * it comes from is in docs/benchmarks.md. An L1 hit costs nothing beyond
 * its instruction (out-of-order execution hides the 4-5 cycles), and no
 * L2 is modelled: an L1 miss that hits the LLC pays for both.
 */
#ifndef SLEEB_MODEL_CLOCK_COSTS_H
#define SLEEB_MODEL_CLOCK_COSTS_H

#include <stddef.h>
#include <stdint.h>

#include "cache-model.h"

struct mc_cost {
	const char *name;
	uint64_t cycles;
	size_t counter;		/* offsetof(struct mc_counts, ...) */
};

#define MC_COST(n, c, field) { n, c, offsetof(struct mc_counts, field) }
#define MC_COSTS_DEFAULT {						\
	MC_COST("locked", 20, locked),		/* lock add/xchg/cmpxchg16b */	\
	MC_COST("llc_hit", 40, llc_hit),	/* L2 miss, L3 hit */		\
	MC_COST("xfer_node", 70, xfer_node),	/* modified line, same socket */ \
	MC_COST("xfer_remote", 200, xfer_remote), /* modified line, other socket */ \
	MC_COST("upgrade", 40, upgrades),	/* invalidate the sharers */	\
	MC_COST("mem_local", 200, mem_local),	/* ~80 ns local DRAM */		\
	MC_COST("mem_remote", 320, mem_remote),	/* ~130 ns remote DRAM */	\
}
#define MC_NCOSTS 7

static inline uint64_t mc_cycles(const struct mc_counts *c, const struct mc_cost *costs)
{
	uint64_t cycles = c->insns;
	unsigned i;

	for (i = 0; i < MC_NCOSTS; i++)
		cycles += costs[i].cycles * *(const uint64_t *)((const char *)c + costs[i].counter);
	return cycles;
}

#endif
