// SPDX-License-Identifier: GPL-2.0
/*
 * The model clock's caches. Set-associative, true LRU (each set is kept
 * most recently used first), physically indexed by the low bits of the
 * line number (no slice hashing).
 *
 * L1 lines are MESI: Modified, Exclusive, Shared. A vCPU's write makes its
 * copy Modified and invalidates every other L1's copy and the other
 * nodes' LLC copies, so that the next access there misses. An L1 miss is
 * served, in this order, by:
 *   - another L1 holding the line Modified: a transfer, same-node or
 *     cross-node by the owner's node (the owner keeps a Shared copy on a
 *     read, none on a write);
 *   - the own node's LLC: an LLC hit;
 *   - another node's LLC holding the line dirty (a Modified line that was
 *     evicted from an L1 there): a cross-node transfer;
 *   - memory, counted by the node that owns the frame.
 * The line is then filled into the own node's LLC (allocation on fill,
 * no back-invalidation when the LLC evicts: not inclusive) and the L1. A
 * Modified line evicted from an L1 is written back into its node's LLC,
 * where it is dirty. Write-backs to memory cost nothing (they are off the
 * critical path on real cores).
 */
#include "cache-model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum mc_state { MC_I = 0, MC_S, MC_E, MC_M, MC_DIRTY /* LLC: written back, newer than memory */ };

static bool pow2(unsigned x)
{
	return x && !(x & (x - 1));
}

static int cache_init(struct mc_cache *c, unsigned bytes, unsigned ways, const char *what,
		      char *err, size_t errlen)
{
	unsigned lines = bytes >> MC_LINE_SHIFT;

	if (!ways || bytes % (1u << MC_LINE_SHIFT) || lines % ways || !pow2(lines / ways)) {
		snprintf(err, errlen, "%s: %u bytes in %u ways is not a power-of-two number of 64-byte sets",
			 what, bytes, ways);
		return -1;
	}
	c->ways = ways;
	c->sets = lines / ways;
	c->lines = calloc(lines, sizeof(*c->lines));
	if (!c->lines) {
		snprintf(err, errlen, "%s: out of memory", what);
		return -1;
	}
	return 0;
}

int mc_init(struct mc_model *m, const struct mc_config *cfg, char *err, size_t errlen)
{
	unsigned i;

	memset(m, 0, sizeof(*m));
	m->cfg = *cfg;
	if (!cfg->nvcpus || cfg->nvcpus > MC_MAX_VCPUS || !cfg->nnodes || cfg->nnodes > MC_MAX_NODES) {
		snprintf(err, errlen, "%u vCPUs on %u nodes: at most %d vCPUs on %d nodes",
			 cfg->nvcpus, cfg->nnodes, MC_MAX_VCPUS, MC_MAX_NODES);
		return -1;
	}
	for (i = 0; i < cfg->nvcpus; i++) {
		if (cfg->vcpu_node[i] >= cfg->nnodes) {
			snprintf(err, errlen, "vCPU %u on node %u: there are %u nodes", i,
				 cfg->vcpu_node[i], cfg->nnodes);
			return -1;
		}
	}
	for (i = 0; i < cfg->nranges; i++) {
		if (cfg->ranges[i].node >= cfg->nnodes) {
			snprintf(err, errlen, "memory range %u on node %u: there are %u nodes", i,
				 cfg->ranges[i].node, cfg->nnodes);
			return -1;
		}
	}
	for (i = 0; i < cfg->nvcpus; i++)
		if (cache_init(&m->l1[i], cfg->l1_bytes, cfg->l1_ways, "L1", err, errlen))
			goto fail;
	for (i = 0; i < cfg->nnodes; i++)
		if (cache_init(&m->llc[i], cfg->llc_bytes, cfg->llc_ways, "LLC", err, errlen))
			goto fail;
	return 0;
fail:
	mc_free(m);
	return -1;
}

void mc_free(struct mc_model *m)
{
	unsigned i;

	for (i = 0; i < MC_MAX_VCPUS; i++)
		free(m->l1[i].lines);
	for (i = 0; i < MC_MAX_NODES; i++)
		free(m->llc[i].lines);
	memset(m->l1, 0, sizeof(m->l1));
	memset(m->llc, 0, sizeof(m->llc));
}

void mc_flush(struct mc_model *m)
{
	unsigned i;

	for (i = 0; i < m->cfg.nvcpus; i++)
		memset(m->l1[i].lines, 0, sizeof(struct mc_line) * m->l1[i].sets * m->l1[i].ways);
	for (i = 0; i < m->cfg.nnodes; i++)
		memset(m->llc[i].lines, 0, sizeof(struct mc_line) * m->llc[i].sets * m->llc[i].ways);
}

unsigned mc_node_of(const struct mc_model *m, uint64_t pa)
{
	unsigned i;

	for (i = 0; i < m->cfg.nranges; i++)
		if (pa >= m->cfg.ranges[i].start && pa < m->cfg.ranges[i].end)
			return m->cfg.ranges[i].node;
	return 0;
}

static struct mc_line *set_of(const struct mc_cache *c, uint64_t line)
{
	return &c->lines[(line & (c->sets - 1)) * c->ways];
}

/* The valid entry for line, or NULL; with touch it becomes most recent. */
static struct mc_line *lookup(struct mc_cache *c, uint64_t line, bool touch)
{
	struct mc_line *set = set_of(c, line), hit;
	unsigned i;

	for (i = 0; i < c->ways; i++) {
		if (set[i].state != MC_I && set[i].line == line) {
			if (!touch || i == 0)
				return &set[i];
			hit = set[i];
			memmove(&set[1], &set[0], i * sizeof(*set));
			set[0] = hit;
			return &set[0];
		}
	}
	return NULL;
}

/*
 * Puts line (not present) in as most recent; the victim is an invalid
 * entry if the set has one, else the least recently used. Returns the
 * victim's old contents (state MC_I when nothing was evicted).
 */
static struct mc_line insert(struct mc_cache *c, uint64_t line, uint8_t state)
{
	struct mc_line *set = set_of(c, line), victim;
	unsigned v = c->ways - 1, i;

	for (i = c->ways; i-- > 0;) {
		if (set[i].state == MC_I) {
			v = i;
			break;
		}
	}
	victim = set[v];
	memmove(&set[1], &set[0], v * sizeof(*set));
	set[0].line = line;
	set[0].state = state;
	return victim;
}

/* A Modified L1 line leaves the L1: its node's LLC gets the newer data. */
static void write_back(struct mc_model *m, unsigned node, uint64_t line)
{
	struct mc_line *l = lookup(&m->llc[node], line, false);

	if (l)
		l->state = MC_DIRTY;
	else
		insert(&m->llc[node], line, MC_DIRTY);
}

/* vcpu is about to own line Modified: no other copy may stay valid. */
static void invalidate_others(struct mc_model *m, unsigned vcpu, uint64_t line)
{
	unsigned node = m->cfg.vcpu_node[vcpu], i;
	struct mc_line *l;

	for (i = 0; i < m->cfg.nvcpus; i++)
		if (i != vcpu && (l = lookup(&m->l1[i], line, false)))
			l->state = MC_I;
	for (i = 0; i < m->cfg.nnodes; i++)
		if (i != node && (l = lookup(&m->llc[i], line, false)))
			l->state = MC_I;
}

static void access_line(struct mc_model *m, struct mc_counts *c, unsigned vcpu, uint64_t line,
			uint64_t pa, bool write)
{
	unsigned node = m->cfg.vcpu_node[vcpu], i, owner = MC_MAX_VCPUS;
	bool shared = false, remote_dirty = false;
	struct mc_line *l, victim;

	l = lookup(&m->l1[vcpu], line, true);
	if (l) {
		if (write && l->state != MC_M) {
			if (l->state == MC_S)
				c->upgrades++;
			if (m->cfg.coherence)
				invalidate_others(m, vcpu, line);
			l->state = MC_M;
		}
		return;
	}

	c->l1_miss++;
	if (m->cfg.coherence) {
		/* Other L1s: a Modified copy supplies the line. */
		for (i = 0; i < m->cfg.nvcpus; i++) {
			if (i == vcpu || !(l = lookup(&m->l1[i], line, false)))
				continue;
			if (l->state == MC_M)
				owner = i;
			if (write) {
				l->state = MC_I;
			} else {
				l->state = MC_S;
				shared = true;
			}
		}
	}
	if (owner < MC_MAX_VCPUS) {
		if (m->cfg.vcpu_node[owner] == node)
			c->xfer_node++;
		else
			c->xfer_remote++;
		if (!write)	/* the owner's data reaches its node's LLC too */
			write_back(m, m->cfg.vcpu_node[owner], line);
		if (!lookup(&m->llc[node], line, true))
			insert(&m->llc[node], line, MC_S);
	} else if (lookup(&m->llc[node], line, true)) {
		c->llc_hit++;
	} else {
		if (m->cfg.coherence) {
			for (i = 0; i < m->cfg.nnodes; i++) {
				if (i != node && (l = lookup(&m->llc[i], line, false)) && l->state == MC_DIRTY) {
					remote_dirty = true;
					l->state = MC_S;	/* written back to memory on the way */
				}
			}
		}
		if (remote_dirty) {
			c->xfer_remote++;
		} else {
			unsigned home = mc_node_of(m, pa);

			c->mem_node[home]++;
			if (home == node)
				c->mem_local++;
			else
				c->mem_remote++;
		}
		insert(&m->llc[node], line, MC_S);
	}
	if (write && m->cfg.coherence)
		invalidate_others(m, vcpu, line);
	victim = insert(&m->l1[vcpu], line, write ? MC_M : shared ? MC_S : MC_E);
	if (victim.state == MC_M)
		write_back(m, node, victim.line);
}

void mc_access(struct mc_model *m, struct mc_counts *c, unsigned vcpu, uint64_t pa,
	       unsigned size, bool write)
{
	uint64_t first = pa >> MC_LINE_SHIFT, last = (pa + (size ? size - 1 : 0)) >> MC_LINE_SHIFT;

	if (vcpu >= m->cfg.nvcpus)
		return;
	if (write)
		c->stores++;
	else
		c->loads++;
	/* An access that straddles a line boundary touches both lines. */
	for (uint64_t line = first; line <= last; line++)
		access_line(m, c, vcpu, line, pa, write);
}
