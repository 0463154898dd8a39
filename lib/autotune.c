/* SPDX-License-Identifier: GPL-2.0-only */
/* Auto-tuning decisions: pure, no I/O (see autotune.h for the rules). */

#include <stdarg.h>
#include <stdio.h>

#include "sleeb/autotune.h"

void sleeb_autotune_params_init(struct sleeb_autotune_params *p)
{
	*p = (struct sleeb_autotune_params) {
		.grow_rate = SLEEB_AUTOTUNE_GROW_RATE,
		.idle_flow = SLEEB_AUTOTUNE_IDLE_FLOW,
		.grow_after = SLEEB_AUTOTUNE_GROW_AFTER,
		.shrink_after = SLEEB_AUTOTUNE_SHRINK_AFTER,
		.cooldown = SLEEB_AUTOTUNE_COOLDOWN,
		.ncpus = 1,
		.nnodes = 1,
	};
}

uint64_t sleeb_autotune_queued_bytes(const struct sleeb_autotune_params *p, uint64_t object_size,
				     const struct sleeb_tunables *v)
{
	uint64_t cpus = p->ncpus ? p->ncpus : 1, nodes = p->nnodes ? p->nnodes : 1;

	return object_size * ((uint64_t) v->v[SLEEB_TUNABLE_QUEUE] * cpus + (uint64_t) v->v[SLEEB_TUNABLE_SHARED] * nodes);
}

double sleeb_autotune_rate(uint64_t prev_events, uint64_t cur_events, uint64_t elapsed_usec, unsigned ncpus)
{
	if (elapsed_usec == 0 || ncpus == 0 || cur_events < prev_events)
		return -1;
	return (double) (cur_events - prev_events) * 1e6 / (double) elapsed_usec / ncpus;
}

double sleeb_autotune_churn_rate(uint64_t prev_active, uint64_t cur_active, uint64_t elapsed_usec, unsigned ncpus)
{
	uint64_t d = cur_active > prev_active ? cur_active - prev_active : prev_active - cur_active;

	if (elapsed_usec == 0 || ncpus == 0)
		return -1;
	return (double) d * 1e6 / (double) elapsed_usec / ncpus;
}

void sleeb_autotune_scale(const struct sleeb_tunables *cur, uint32_t queue, struct sleeb_tunables *ret)
{
	struct sleeb_tunables v = { .v = { queue, (queue + 1) / 2, 0 } };

	/* A disabled shared queue stays disabled; otherwise keep its ratio to
	 * the cpu queue, within the kernel's rules (batch..10000). */
	if (cur->v[SLEEB_TUNABLE_SHARED] > 0 && cur->v[SLEEB_TUNABLE_QUEUE] > 0) {
		uint64_t s = (uint64_t) cur->v[SLEEB_TUNABLE_SHARED] * queue / cur->v[SLEEB_TUNABLE_QUEUE];

		if (s < v.v[SLEEB_TUNABLE_BATCH])
			s = v.v[SLEEB_TUNABLE_BATCH];
		if (s > SLEEB_QUEUE_MAX)
			s = SLEEB_QUEUE_MAX;
		v.v[SLEEB_TUNABLE_SHARED] = (uint32_t) s;
	}
	*ret = v;
}

static void keep(struct sleeb_autotune_cache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void keep(struct sleeb_autotune_cache *c, const char *fmt, ...)
{
	va_list ap;

	c->action = SLEEB_AUTOTUNE_KEEP;
	c->next = c->cur;
	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
}

static void change(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *c,
		   enum sleeb_autotune_action a, uint32_t queue)
{
	c->action = a;
	sleeb_autotune_scale(&c->cur, queue, &c->next);
	c->state.above = c->state.below = 0;
	c->state.cooldown = p->cooldown;
}

/* First pass: what each cache wants on its own, budget ignored. */
static void decide_one(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *c)
{
	uint32_t q = c->cur.v[SLEEB_TUNABLE_QUEUE];
	double flow;

	c->action = SLEEB_AUTOTUNE_KEEP;
	c->next = c->cur;

	if (q == 0) {
		keep(c, "queue disabled (0)");
		return;
	}
	/* Bounds are policy, not measurement: enforce them at once. */
	if (q > c->max) {
		change(p, c, SLEEB_AUTOTUNE_SHRINK, c->max);
		snprintf(c->reason, sizeof(c->reason), "queue %u above AutoTuneMax=%u", q, c->max);
		return;
	}
	if (q < c->min) {
		change(p, c, SLEEB_AUTOTUNE_GROW, c->min);
		snprintf(c->reason, sizeof(c->reason), "queue %u below AutoTuneMin=%u", q, c->min);
		return;
	}
	if (c->state.cooldown > 0) {
		c->state.cooldown--;
		keep(c, "cooldown, %u intervals left (rate %.0f/s/cpu)", c->state.cooldown, c->rate);
		return;
	}
	if (c->rate < 0 || (c->has_ops && c->ops < 0)) {
		c->state.above = c->state.below = 0;
		keep(c, "no rate this interval");
		return;
	}
	/*
	 * Objects through the queues: counted by the kernel when it reports
	 * fastpath_ops; else estimated from the slow path, where each refill
	 * or drain moves a batch.
	 */
	if (c->has_ops)
		flow = c->ops;
	else
		flow = c->rate_is_flow ? c->rate : c->rate * c->cur.v[SLEEB_TUNABLE_BATCH];
	if (c->rate > p->grow_rate) {
		c->state.below = 0;
		c->state.above++;
		if (c->state.above < p->grow_after) {
			keep(c, "rate %.0f/s/cpu above %.0f for %u of %u intervals", c->rate, p->grow_rate,
			     c->state.above, p->grow_after);
			return;
		}
		if (q >= c->max) {
			keep(c, "at AutoTuneMax=%u (rate %.0f/s/cpu above %.0f)", c->max, c->rate, p->grow_rate);
			return;
		}
		change(p, c, SLEEB_AUTOTUNE_GROW, q > c->max / 2 ? c->max : q * 2);
		snprintf(c->reason, sizeof(c->reason), "rate %.0f/s/cpu above %.0f for %u intervals", c->rate,
			 p->grow_rate, p->grow_after);
		return;
	}
	/*
	 * A queue that allocations and frees keep balanced needs no refill
	 * or drain at all, so a busy cache can show no flow. What tells it
	 * from an idle one is the reaper: it keeps finding objects in the
	 * busy cache's queues, while an idle cache's are soon empty.
	 */
	if (flow < p->idle_flow && !c->has_ops && c->reaped > 0) {
		c->state.above = c->state.below = 0;
		keep(c, "in use, queues balanced (flow %.0f objects/s/cpu, reaper took %.0f objects/s/cpu)", flow,
		     c->reaped);
		return;
	}
	/* Not hot: idle only if few objects flow, however rarely it refills. */
	if (flow < p->idle_flow) {
		c->state.above = 0;
		c->state.below++;
		if (c->state.below < p->shrink_after) {
			keep(c, "flow %.0f objects/s/cpu below %.0f for %u of %u intervals", flow, p->idle_flow,
			     c->state.below, p->shrink_after);
			return;
		}
		if (q <= c->min) {
			keep(c, "at AutoTuneMin=%u (flow %.0f objects/s/cpu below %.0f)", c->min, flow, p->idle_flow);
			return;
		}
		change(p, c, SLEEB_AUTOTUNE_SHRINK, q / 2 < c->min ? c->min : q / 2);
		snprintf(c->reason, sizeof(c->reason), "flow %.0f objects/s/cpu below %.0f for %u intervals", flow,
			 p->idle_flow, p->shrink_after);
		return;
	}
	/* Not hot, not idle: the hysteresis band, nothing accumulates. */
	c->state.above = c->state.below = 0;
	keep(c, "in use (rate %.0f/s/cpu <= %.0f, flow %.0f objects/s/cpu >= %.0f)", c->rate, p->grow_rate, flow,
	     p->idle_flow);
}

void sleeb_autotune_decide(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n)
{
	uint64_t total = p->other_bytes;

	for (size_t i = 0; i < n; i++)
		decide_one(p, &caches[i]);

	/* Memory after shrinks and keeps; grows must fit in what is left. */
	for (size_t i = 0; i < n; i++) {
		const struct sleeb_autotune_cache *c = &caches[i];

		total += sleeb_autotune_queued_bytes(p, c->object_size,
						     c->action == SLEEB_AUTOTUNE_GROW ? &c->cur : &c->next);
	}
	if (p->budget_bytes == 0)
		return;

	for (size_t i = 0; i < n; i++) {
		struct sleeb_autotune_cache *c = &caches[i];
		uint64_t before, after;
		uint32_t want;

		if (c->action != SLEEB_AUTOTUNE_GROW)
			continue;
		before = sleeb_autotune_queued_bytes(p, c->object_size, &c->cur);
		after = sleeb_autotune_queued_bytes(p, c->object_size, &c->next);
		if (total - before + after <= p->budget_bytes) {
			total = total - before + after;
			continue;
		}
		/* Refused: no cooldown, so it is retried once budget frees up,
		 * but counters restart so the load must persist again. */
		want = c->next.v[SLEEB_TUNABLE_QUEUE];
		c->state.cooldown = 0;
		c->state.above = 0;
		keep(c, "grow to %u refused: MaxQueuedMemory budget %llu bytes", want,
		     (unsigned long long) p->budget_bytes);
	}
}
