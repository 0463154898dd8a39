// SPDX-License-Identifier: GPL-2.0
/*
 * The model clock: a QEMU TCG plugin (QEMU 7.2, plugin API version 1) that
 * counts, per vCPU and per measurement window, instructions, loads,
 * stores, locked read-modify-writes and what the cache model
 * (cache-model.c) says each access cost, and prices them in model cycles
 * (costs.h). Meant for single-threaded TCG with -icount shift=0, where the
 * callbacks come in one deterministic order.
 *
 *   -plugin file=model-clock.so[,ARG=VALUE]...
 *     out=FILE           write the report there (default: QEMU's log,
 *                        -d plugin -D FILE)
 *     cpunodes=N:N:...   node of vCPU 0, 1, ... (default: all on node 0)
 *     nodemem=N:START+SIZE  guest physical memory of node N (repeatable;
 *                        frames outside every range count as node 0)
 *     outside=cold|track what happens outside windows (below)
 *     l1_kib=32 l1_ways=8 llc_kib=4096 llc_ways=16   cache geometry
 *     cost_NAME=CYCLES   a penalty of costs.h
 *     coherence=off      no invalidations (only to see the tests fail)
 *
 * Windows are opened and closed by the guest's markers
 * (model-clock-marker.h). Every instruction is instrumented all the time:
 * QEMU 7.2 cannot switch instrumentation safely (qemu_plugin_reset()
 * flushes the translations and frees their memory-callback arrays while
 * a vCPU may still point at one, and the next memory access made by a
 * helper aborts in qemu_plugin_vcpu_mem_cb, plugins/core.c:473). Outside
 * every window, with outside=cold (the default), the callbacks return at
 * once: the instruction counter and one call per memory access and per
 * block remain, the caches are not tracked, and each window that opens
 * when none is open starts with empty (cold) caches. With outside=track
 * every access is modelled all the time (slower; warm caches that are
 * right at the window's start); counters are still reported for windows
 * only.
 *
 * Report, one line each, key=value:
 *   model-clock params ...                      at start
 *   model-clock window id=I seq=S vcpu=V ...    when window I closes
 *   model-clock total id=I windows=N vcpu=V ... at exit, sums per window id
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu/qemu-plugin.h>

#include "cache-model.h"
#include "costs.h"
#include "insn-class.h"
#include "model-clock-marker.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

struct window {
	unsigned refs;		/* STARTs not yet balanced by an END */
	uint64_t closes;
	struct mc_counts start[MC_MAX_VCPUS];
	struct mc_counts total[MC_MAX_VCPUS];
};

static struct mc_model model;
static struct mc_cost costs[MC_NCOSTS] = MC_COSTS_DEFAULT;
static struct mc_counts counts[MC_MAX_VCPUS];
static struct window *windows[MODEL_CLOCK_MAX_ID + 1];
static unsigned nvcpus, nopen;
static bool track, coherence = true;
/* Whether the callbacks count: while a window is open, or always with track. */
static bool modelling;
static FILE *out;
static uint64_t stray_ends;

/*
 * Instructions: an inline add per instruction to one counter (cheap,
 * exact even when a block is left half-way by a fault), handed to the
 * vCPU that executed them when the next block starts. Single-threaded
 * TCG switches vCPUs only between blocks.
 */
static uint64_t insns_run, insns_banked;
static int insns_vcpu = -1;

static void bank(void)
{
	if (insns_vcpu >= 0)
		counts[insns_vcpu].insns += insns_run - insns_banked;
	insns_banked = insns_run;
}

static void report(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void report(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (out)
		fputs(line, out);
	else
		qemu_plugin_outs(line);
}

static void report_counts(const char *head, unsigned vcpu, const struct mc_counts *c)
{
	char nodes[256] = "";
	size_t len = 0;
	unsigned n;

	for (n = 0; n < model.cfg.nnodes; n++)
		len += (size_t)snprintf(nodes + len, sizeof(nodes) - len, " mem_node%u=%" PRIu64, n,
					c->mem_node[n]);
	report("model-clock %s vcpu=%u node=%u insns=%" PRIu64 " loads=%" PRIu64 " stores=%" PRIu64
	       " locked=%" PRIu64 " l1_miss=%" PRIu64 " llc_hit=%" PRIu64 " xfer_node=%" PRIu64
	       " xfer_remote=%" PRIu64 " upgrades=%" PRIu64 " mem_local=%" PRIu64
	       " mem_remote=%" PRIu64 "%s cycles=%" PRIu64 "\n",
	       head, vcpu, model.cfg.vcpu_node[vcpu], c->insns, c->loads, c->stores, c->locked,
	       c->l1_miss, c->llc_hit, c->xfer_node, c->xfer_remote, c->upgrades, c->mem_local,
	       c->mem_remote, nodes, mc_cycles(c, costs));
}

static void counts_sub(struct mc_counts *d, const struct mc_counts *a, const struct mc_counts *b)
{
	const uint64_t *pa = (const uint64_t *)a, *pb = (const uint64_t *)b;
	uint64_t *pd = (uint64_t *)d;
	size_t i;

	for (i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		pd[i] = pa[i] - pb[i];
}

static void counts_add(struct mc_counts *d, const struct mc_counts *a)
{
	const uint64_t *pa = (const uint64_t *)a;
	uint64_t *pd = (uint64_t *)d;
	size_t i;

	for (i = 0; i < sizeof(*d) / sizeof(uint64_t); i++)
		pd[i] += pa[i];
}

static void vcpu_tb_exec(unsigned int vcpu, void *udata)
{
	(void)udata;
	if (!modelling)
		return;
	bank();
	insns_vcpu = (int)vcpu;
}

static void vcpu_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, vaddr);

	(void)udata;
	if (!modelling || !hw || qemu_plugin_hwaddr_is_io(hw) || vcpu >= nvcpus)
		return;
	mc_access(&model, &counts[vcpu], vcpu, qemu_plugin_hwaddr_phys_addr(hw),
		  1u << qemu_plugin_mem_size_shift(info), qemu_plugin_mem_is_store(info));
}

static void vcpu_locked(unsigned int vcpu, void *udata)
{
	(void)udata;
	if (modelling && vcpu < nvcpus)
		counts[vcpu].locked++;
}

static void window_start(unsigned int vcpu, unsigned wid)
{
	struct window *w = windows[wid];
	unsigned v;

	if (!w) {
		w = windows[wid] = calloc(1, sizeof(*w));
		if (!w) {
			fprintf(stderr, "model-clock: out of memory for window %u\n", wid);
			abort();
		}
	}
	if (w->refs++)
		return;
	if (!nopen++ && !track)
		mc_flush(&model);
	(void)vcpu;
	for (v = 0; v < nvcpus; v++)
		w->start[v] = counts[v];
	modelling = true;
}

static void window_end(unsigned int vcpu, unsigned wid)
{
	struct window *w = windows[wid];
	struct mc_counts d;
	char head[64];
	unsigned v;

	if (!w || !w->refs) {
		if (!stray_ends++)
			report("model-clock warning: END of window %u on vCPU %u, which is not open\n",
			       wid, vcpu);
		return;
	}
	if (--w->refs)
		return;
	w->closes++;
	for (v = 0; v < nvcpus; v++) {
		counts_sub(&d, &counts[v], &w->start[v]);
		counts_add(&w->total[v], &d);
		snprintf(head, sizeof(head), "window id=%u seq=%" PRIu64, wid, w->closes);
		report_counts(head, v, &d);
	}
	if (!--nopen)
		modelling = track;
}

static void vcpu_marker(unsigned int vcpu, void *udata)
{
	uintptr_t m = (uintptr_t)udata;
	unsigned op = (unsigned)(m >> 16), wid = (unsigned)(m & 0xffff);

	bank();
	insns_vcpu = (int)vcpu;
	if (vcpu >= nvcpus)
		return;
	if (op == MODEL_CLOCK_OP_START)
		window_start(vcpu, wid);
	else if (op == MODEL_CLOCK_OP_END)
		window_end(vcpu, wid);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	unsigned op, wid;

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_cb(tb, vcpu_tb_exec, QEMU_PLUGIN_CB_NO_REGS, NULL);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		enum insn_class k = insn_classify(qemu_plugin_insn_data(insn),
						  qemu_plugin_insn_size(insn), &op, &wid);

		if (k == INSN_MARKER) {
			/* Not counted itself: a window holds what lies between. */
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)(op << 16 | wid));
			continue;
		}
		qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							   &insns_run, 1);
		qemu_plugin_register_vcpu_mem_cb(insn, vcpu_mem, QEMU_PLUGIN_CB_NO_REGS,
						 QEMU_PLUGIN_MEM_RW, NULL);
		if (k == INSN_LOCKED)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, vcpu_locked,
							       QEMU_PLUGIN_CB_NO_REGS, NULL);
	}
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	char head[64];
	unsigned wid, v;

	(void)id;
	(void)udata;
	bank();
	for (wid = 0; wid <= MODEL_CLOCK_MAX_ID; wid++) {
		struct window *w = windows[wid];

		if (!w)
			continue;
		if (w->refs)
			report("model-clock warning: window %u still open at exit (%u STARTs unbalanced)\n",
			       wid, w->refs);
		if (!w->closes)
			continue;
		snprintf(head, sizeof(head), "total id=%u windows=%" PRIu64, wid, w->closes);
		for (v = 0; v < nvcpus; v++)
			report_counts(head, v, &w->total[v]);
	}
	if (stray_ends)
		report("model-clock warning: %" PRIu64 " ENDs of windows that were not open\n", stray_ends);
	if (out)
		fflush(out);
}


/* Arguments. */

static int bad(const char *arg, const char *why)
{
	fprintf(stderr, "model-clock: %s: %s\n", arg, why);
	return -1;
}

/* A number with an optional K, M or G (binary) suffix; 0x for hex. */
static int parse_u64(const char *s, uint64_t *v, const char **end)
{
	char *e;

	errno = 0;
	if (*s == '-' || *s == '\0')
		return -1;
	*v = strtoull(s, &e, 0);
	if (errno || e == s)
		return -1;
	switch (*e) {
	case 'K': *v <<= 10; e++; break;
	case 'M': *v <<= 20; e++; break;
	case 'G': *v <<= 30; e++; break;
	default: break;
	}
	if (end)
		*end = e;
	else if (*e)
		return -1;
	return 0;
}

static int parse_uint(const char *arg, const char *s, unsigned *v)
{
	uint64_t x;

	if (parse_u64(s, &x, NULL) || x > 1u << 30)
		return bad(arg, "not a number (or too large)");
	*v = (unsigned)x;
	return 0;
}

static int parse_cpunodes(const char *arg, const char *s, struct mc_config *cfg)
{
	unsigned i = 0;
	const char *e;
	uint64_t n;

	for (;;) {
		if (i >= MC_MAX_VCPUS)
			return bad(arg, "more vCPUs than the model holds");
		if (parse_u64(s, &n, &e) || n >= MC_MAX_NODES)
			return bad(arg, "expected node numbers 0-7 separated by ':'");
		cfg->vcpu_node[i++] = (unsigned)n;
		if (n + 1 > cfg->nnodes)
			cfg->nnodes = (unsigned)n + 1;
		if (*e == '\0')
			return 0;
		if (*e != ':')
			return bad(arg, "expected node numbers 0-7 separated by ':'");
		s = e + 1;
	}
}

static int parse_nodemem(const char *arg, const char *s, struct mc_config *cfg)
{
	uint64_t node, start, size;
	const char *e;
	struct mc_range *r;

	if (cfg->nranges >= MC_MAX_RANGES)
		return bad(arg, "too many ranges");
	if (parse_u64(s, &node, &e) || *e != ':' || node >= MC_MAX_NODES ||
	    parse_u64(e + 1, &start, &e) || *e != '+' || parse_u64(e + 1, &size, NULL) || !size ||
	    start + size < start)
		return bad(arg, "expected NODE:START+SIZE (e.g. 1:0x40000000+1G)");
	r = &cfg->ranges[cfg->nranges++];
	r->node = (unsigned)node;
	r->start = start;
	r->end = start + size;
	if (node + 1 > cfg->nnodes)
		cfg->nnodes = (unsigned)node + 1;
	return 0;
}

static int parse_arg(const char *arg, struct mc_config *cfg)
{
	const char *eq = strchr(arg, '='), *val;
	size_t klen;
	unsigned i, kib;

	if (!eq)
		return bad(arg, "expected NAME=VALUE");
	klen = (size_t)(eq - arg);
	val = eq + 1;
#define KEY(k) (klen == strlen(k) && !strncmp(arg, k, klen))
	if (KEY("out")) {
		if (out)
			fclose(out);
		out = fopen(val, "w");
		if (!out)
			return bad(arg, strerror(errno));
		setvbuf(out, NULL, _IOLBF, 0);
		return 0;
	}
	if (KEY("cpunodes"))
		return parse_cpunodes(arg, val, cfg);
	if (KEY("nodemem"))
		return parse_nodemem(arg, val, cfg);
	if (KEY("outside")) {
		if (!strcmp(val, "cold"))
			track = false;
		else if (!strcmp(val, "track"))
			track = true;
		else
			return bad(arg, "expected cold or track");
		return 0;
	}
	if (KEY("coherence"))
		return qemu_plugin_bool_parse("coherence", val, &coherence) ? 0 : bad(arg, "expected on or off");
	if (KEY("l1_ways"))
		return parse_uint(arg, val, &cfg->l1_ways);
	if (KEY("llc_ways"))
		return parse_uint(arg, val, &cfg->llc_ways);
	if (KEY("l1_kib") || KEY("llc_kib")) {
		if (parse_uint(arg, val, &kib) || kib > (1u << 21))
			return bad(arg, "expected a size in KiB up to 2 GiB");
		*(KEY("l1_kib") ? &cfg->l1_bytes : &cfg->llc_bytes) = kib << 10;
		return 0;
	}
	if (klen > 5 && !strncmp(arg, "cost_", 5)) {
		for (i = 0; i < MC_NCOSTS; i++) {
			if (klen - 5 == strlen(costs[i].name) && !strncmp(arg + 5, costs[i].name, klen - 5)) {
				if (parse_u64(val, &costs[i].cycles, NULL))
					return bad(arg, "expected a number of cycles");
				return 0;
			}
		}
		return bad(arg, "no such penalty (locked, llc_hit, xfer_node, xfer_remote, upgrade, mem_local, mem_remote)");
	}
#undef KEY
	return bad(arg, "unknown argument (out, cpunodes, nodemem, outside, l1_kib, l1_ways, llc_kib, llc_ways, cost_NAME, coherence)");
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	struct mc_config cfg = {
		.l1_bytes = 32u << 10, .l1_ways = 8,
		.llc_bytes = 4u << 20, .llc_ways = 16,
		.nnodes = 1,
	};
	char err[256], line[1024];
	size_t len = 0;
	int i;

	if (!info->system_emulation || strcmp(info->target_name, "x86_64") != 0) {
		fprintf(stderr, "model-clock: needs qemu-system-x86_64 (system emulation)\n");
		return -1;
	}
	nvcpus = (unsigned)info->system.max_vcpus;
	if (nvcpus > MC_MAX_VCPUS) {
		fprintf(stderr, "model-clock: %u vCPUs, the model holds at most %d\n", nvcpus, MC_MAX_VCPUS);
		return -1;
	}
	for (i = 0; i < argc; i++)
		if (parse_arg(argv[i], &cfg))
			return -1;
	cfg.nvcpus = nvcpus;
	cfg.coherence = coherence;
	if (mc_init(&model, &cfg, err, sizeof(err))) {
		fprintf(stderr, "model-clock: %s\n", err);
		return -1;
	}
	modelling = track;

	len += (size_t)snprintf(line + len, sizeof(line) - len,
				"model-clock params vcpus=%u nodes=%u l1_bytes=%u l1_ways=%u llc_bytes=%u llc_ways=%u line=%u outside=%s coherence=%s cpunodes=",
				nvcpus, cfg.nnodes, cfg.l1_bytes, cfg.l1_ways, cfg.llc_bytes, cfg.llc_ways,
				1u << MC_LINE_SHIFT, track ? "track" : "cold", coherence ? "on" : "off");
	for (unsigned v = 0; v < nvcpus; v++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, "%s%u", v ? ":" : "", cfg.vcpu_node[v]);
	for (unsigned c = 0; c < MC_NCOSTS; c++)
		len += (size_t)snprintf(line + len, sizeof(line) - len, " cost_%s=%" PRIu64, costs[c].name,
					costs[c].cycles);
	report("%s\n", line);
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
