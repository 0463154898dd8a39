/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The model clock's memory model: a private L1 data cache per vCPU, a
 * last-level cache shared by the vCPUs of each NUMA node, MESI-like
 * coherence between them, and memory owned by nodes. It knows nothing of
 * QEMU, so the host unit tests drive it directly.
 */
#ifndef SLEEB_MODEL_CLOCK_CACHE_MODEL_H
#define SLEEB_MODEL_CLOCK_CACHE_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MC_LINE_SHIFT 6		/* 64-byte lines */
#define MC_MAX_VCPUS 64
#define MC_MAX_NODES 8
#define MC_MAX_RANGES 16

/* What one vCPU did, as counters; the cost is computed from these. */
struct mc_counts {
	uint64_t insns;
	uint64_t loads;		/* reads of guest RAM (I/O is not counted) */
	uint64_t stores;	/* writes, read-modify-writes included */
	uint64_t locked;	/* lock prefix, xchg with memory, cmpxchg8b/16b */
	uint64_t l1_miss;	/* = llc_hit + xfer_node + xfer_remote + mem_local + mem_remote */
	uint64_t llc_hit;	/* served by the own node's last-level cache */
	uint64_t xfer_node;	/* a line modified in another L1 of the same node */
	uint64_t xfer_remote;	/* a line modified in another node's L1 or LLC */
	uint64_t upgrades;	/* a write to a shared line: the other copies invalidated */
	uint64_t mem_local;	/* served by memory of the vCPU's own node */
	uint64_t mem_remote;	/* served by another node's memory */
	uint64_t mem_node[MC_MAX_NODES]; /* the same misses by the node that owns the frame */
};

struct mc_range {
	uint64_t start, end;	/* guest physical, end exclusive */
	unsigned node;
};

struct mc_config {
	unsigned l1_bytes, l1_ways;
	unsigned llc_bytes, llc_ways;
	unsigned nvcpus;
	unsigned nnodes;
	unsigned vcpu_node[MC_MAX_VCPUS];
	unsigned nranges;
	struct mc_range ranges[MC_MAX_RANGES];	/* frames outside every range: node 0 */
	bool coherence;		/* off only to check that the tests notice */
};

struct mc_line {
	uint64_t line;		/* physical address >> MC_LINE_SHIFT */
	uint8_t state;		/* enum mc_state */
};

struct mc_cache {
	unsigned sets, ways;
	struct mc_line *lines;	/* sets * ways, each set most recently used first */
};

struct mc_model {
	struct mc_config cfg;
	struct mc_cache l1[MC_MAX_VCPUS];
	struct mc_cache llc[MC_MAX_NODES];
};

/* Fills the model from cfg; on a bad geometry returns -1 with why in err. */
int mc_init(struct mc_model *m, const struct mc_config *cfg, char *err, size_t errlen);
void mc_free(struct mc_model *m);
/* Empties every cache (a cold start). */
void mc_flush(struct mc_model *m);
/* One access of size bytes at guest physical address pa by vcpu, counted in c. */
void mc_access(struct mc_model *m, struct mc_counts *c, unsigned vcpu, uint64_t pa,
	       unsigned size, bool write);
unsigned mc_node_of(const struct mc_model *m, uint64_t pa);

#endif
