// SPDX-License-Identifier: GPL-2.0
/*
 * Host tests of the model clock's pieces that need no QEMU: the cache
 * model (geometry, LRU, coherence, memory nodes) and the instruction
 * classes (markers, locked read-modify-writes). TAP on stdout.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache-model.h"
#include "costs.h"
#include "insn-class.h"
#include "model-clock-marker.h"

static unsigned tests, failures;

static void expect(bool ok, const char *what, uint64_t got, uint64_t want)
{
	tests++;
	if (ok) {
		printf("ok %u - %s\n", tests, what);
	} else {
		failures++;
		printf("not ok %u - %s: got %" PRIu64 ", want %" PRIu64 "\n", tests, what, got, want);
	}
}
#define EXPECT_EQ(what, got, want) expect((got) == (want), what, got, want)

/* 4 vCPUs, 2 nodes (0-1 on node 0, 2-3 on node 1), 1 GiB each. */
static void setup(struct mc_model *m, bool coherence)
{
	struct mc_config cfg = {
		.l1_bytes = 32 << 10, .l1_ways = 8, .llc_bytes = 4 << 20, .llc_ways = 16,
		.nvcpus = 4, .nnodes = 2, .vcpu_node = { 0, 0, 1, 1 }, .nranges = 2,
		.ranges = { { 0, 1ull << 30, 0 }, { 1ull << 30, 2ull << 30, 1 } },
		.coherence = coherence,
	};
	char err[256];

	if (mc_init(m, &cfg, err, sizeof(err))) {
		printf("Bail out! mc_init: %s\n", err);
		exit(1);
	}
}

static void stride(struct mc_model *m, struct mc_counts *c, unsigned vcpu, uint64_t base,
		   uint64_t bytes, unsigned passes)
{
	for (unsigned p = 0; p < passes; p++)
		for (uint64_t off = 0; off < bytes; off += 64)
			mc_access(m, c, vcpu, base + off, 8, false);
}

static void test_geometry(void)
{
	struct mc_model m;
	struct mc_counts c;

	setup(&m, true);
	memset(&c, 0, sizeof(c));
	stride(&m, &c, 0, 0, 24 << 10, 8);
	EXPECT_EQ("24 KiB x8: L1 misses only on the first pass", c.l1_miss, 384);
	EXPECT_EQ("24 KiB x8: the first pass from local memory", c.mem_local, 384);

	mc_flush(&m);
	memset(&c, 0, sizeof(c));
	stride(&m, &c, 0, 0, 64 << 10, 4);
	EXPECT_EQ("64 KiB x4: every access misses the LRU L1", c.l1_miss, 4096);
	EXPECT_EQ("64 KiB x4: passes 2-4 hit the LLC", c.llc_hit, 3072);

	mc_flush(&m);
	memset(&c, 0, sizeof(c));
	stride(&m, &c, 0, 0, 1 << 20, 2);
	EXPECT_EQ("1 MiB x2: memory on the first pass only", c.mem_local, 16384);
	EXPECT_EQ("1 MiB x2: the LLC holds it for the second", c.llc_hit, 16384);

	mc_flush(&m);
	memset(&c, 0, sizeof(c));
	stride(&m, &c, 0, 0, 16 << 20, 2);
	EXPECT_EQ("16 MiB x2: every access goes to memory", c.mem_local, 524288);
	EXPECT_EQ("16 MiB x2: no LLC hit", c.llc_hit, 0);

	mc_flush(&m);
	memset(&c, 0, sizeof(c));
	stride(&m, &c, 2, 0, 1 << 20, 1);
	EXPECT_EQ("node 1 reading node 0's frames: remote", c.mem_remote, 16384);
	EXPECT_EQ("counted for the node that owns them", c.mem_node[0], 16384);
	mc_access(&m, &c, 0, 60, 8, false);
	EXPECT_EQ("an access across a line boundary touches two lines", c.l1_miss, 16386);
	mc_free(&m);
}

static void pingpong(unsigned a, unsigned b, const char *what_node, bool coherence,
		     uint64_t want_node, uint64_t want_remote)
{
	struct mc_model m;
	struct mc_counts ca, cb;
	char what[128];

	setup(&m, coherence);
	memset(&ca, 0, sizeof(ca));
	memset(&cb, 0, sizeof(cb));
	mc_access(&m, &ca, a, 4096, 4, true);
	for (unsigned i = 0; i < 100; i++) {
		/* b sees the turn (read), then writes it back; then a does. */
		mc_access(&m, &cb, b, 4096, 4, false);
		mc_access(&m, &cb, b, 4096, 4, true);
		mc_access(&m, &ca, a, 4096, 4, false);
		mc_access(&m, &ca, a, 4096, 4, true);
	}
	snprintf(what, sizeof(what), "pingpong %u-%u: one %s transfer per turn", a, b, what_node);
	EXPECT_EQ(what, cb.xfer_node + ca.xfer_node, want_node);
	EXPECT_EQ(what, cb.xfer_remote + ca.xfer_remote, want_remote);
	snprintf(what, sizeof(what), "pingpong %u-%u: each write after the read is an upgrade", a, b);
	EXPECT_EQ(what, ca.upgrades + cb.upgrades, coherence ? 200 : 0);
	mc_free(&m);
}

static void test_coherence(void)
{
	struct mc_model m;
	struct mc_counts c;

	pingpong(0, 1, "same-node", true, 200, 0);
	pingpong(0, 2, "cross-node", true, 0, 200);

	/* A modified line evicted from node 0's L1 is dirty in node 0's LLC:
	 * node 1 gets it from there, not from memory. */
	setup(&m, true);
	memset(&c, 0, sizeof(c));
	mc_access(&m, &c, 0, 0, 8, true);
	stride(&m, &c, 0, 4096, 64 << 10, 1);	/* evicts line 0 from L1 0 */
	memset(&c, 0, sizeof(c));
	mc_access(&m, &c, 2, 0, 8, false);
	EXPECT_EQ("dirty line in another node's LLC: a cross-node transfer", c.xfer_remote, 1);
	memset(&c, 0, sizeof(c));
	mc_access(&m, &c, 1, 0, 8, false);
	EXPECT_EQ("the clean line in the own node's LLC: an LLC hit", c.llc_hit, 1);
	/* Node 1 writes it: node 0's copies go, so cpu 0 must miss. */
	mc_access(&m, &c, 3, 0, 8, true);
	memset(&c, 0, sizeof(c));
	mc_access(&m, &c, 0, 0, 8, false);
	EXPECT_EQ("after a write elsewhere the L1 copy is invalid", c.l1_miss, 1);
	EXPECT_EQ("and the line comes from the writer", c.xfer_remote, 1);
	mc_free(&m);
}

static void test_costs(void)
{
	struct mc_cost costs[MC_NCOSTS] = MC_COSTS_DEFAULT;
	struct mc_counts c = { .insns = 1000, .locked = 2, .llc_hit = 3, .mem_remote = 1 };

	EXPECT_EQ("cycles = instructions + events x penalties", mc_cycles(&c, costs),
		  1000 + 2 * 20 + 3 * 40 + 320);
}

static void test_insn_class(void)
{
	static const uint8_t start7[] = { 0x0f, 0x1f, 0x80, 0x07, 0x00, 0xeb, 0x5e };
	static const uint8_t end7[] = { 0x0f, 0x1f, 0x80, 0x07, 0x10, 0xeb, 0x5e };
	static const uint8_t other_nop[] = { 0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00 };
	static const uint8_t lock_add[] = { 0xf0, 0x48, 0x83, 0x05, 0, 0, 0, 0, 0x01 };
	static const uint8_t xchg_mem[] = { 0x48, 0x87, 0x05, 0, 0, 0, 0 };
	static const uint8_t xchg_reg[] = { 0x48, 0x87, 0xc3 };
	static const uint8_t cx16_nolock[] = { 0x65, 0x48, 0x0f, 0xc7, 0x0e };
	static const uint8_t rdrand[] = { 0x48, 0x0f, 0xc7, 0xf0 };
	static const uint8_t plain_add[] = { 0x48, 0x83, 0x05, 0, 0, 0, 0, 0x01 };
	unsigned op = 99, id = 99;

	EXPECT_EQ("marker START 7", insn_classify(start7, 7, &op, &id), INSN_MARKER);
	EXPECT_EQ("marker START 7: op", op, MODEL_CLOCK_OP_START);
	EXPECT_EQ("marker START 7: id", id, 7);
	insn_classify(end7, 7, &op, &id);
	EXPECT_EQ("marker END 7: op", op, MODEL_CLOCK_OP_END);
	EXPECT_EQ("another nopl is no marker", insn_classify(other_nop, 7, &op, &id), INSN_PLAIN);
	EXPECT_EQ("lock add", insn_classify(lock_add, sizeof(lock_add), &op, &id), INSN_LOCKED);
	EXPECT_EQ("xchg with memory", insn_classify(xchg_mem, sizeof(xchg_mem), &op, &id), INSN_LOCKED);
	EXPECT_EQ("xchg of registers", insn_classify(xchg_reg, sizeof(xchg_reg), &op, &id), INSN_PLAIN);
	EXPECT_EQ("cmpxchg16b %gs: without lock", insn_classify(cx16_nolock, sizeof(cx16_nolock), &op, &id),
		  INSN_LOCKED);
	EXPECT_EQ("rdrand (0f c7 /6)", insn_classify(rdrand, sizeof(rdrand), &op, &id), INSN_PLAIN);
	EXPECT_EQ("plain add", insn_classify(plain_add, sizeof(plain_add), &op, &id), INSN_PLAIN);
}

static void test_bad_geometry(void)
{
	struct mc_config cfg = { .l1_bytes = 24 << 10, .l1_ways = 8, .llc_bytes = 4 << 20,
				 .llc_ways = 16, .nvcpus = 1, .nnodes = 1 };
	struct mc_model m;
	char err[256] = "";

	EXPECT_EQ("24 KiB 8-way L1 (48 sets) is refused", mc_init(&m, &cfg, err, sizeof(err)), -1);
	EXPECT_EQ("with a reason", strstr(err, "power-of-two") != NULL, 1);
}

int main(void)
{
	test_geometry();
	test_coherence();
	test_costs();
	test_insn_class();
	test_bad_geometry();
	printf("1..%u\n", tests);
	return failures ? 1 : 0;
}
