/* SPDX-License-Identifier: GPL-2.0-only */
/* Auto-tuning decisions: pure, no I/O (see autotune.h for the rules). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sleeb/autotune.h"

void sleeb_autotune_params_init(struct sleeb_autotune_params *p)
{
	*p = (struct sleeb_autotune_params) {
		.target_ratio = SLEEB_AUTOTUNE_TARGET_TRIPS / 1000.0,
		.min_trip_rate = SLEEB_AUTOTUNE_MIN_TRIP_RATE,
		.trips_per_mib = SLEEB_AUTOTUNE_TRIPS_PER_MIB,
		.smoothing = SLEEB_AUTOTUNE_SMOOTHING / 100.0,
		.reap_shrink = SLEEB_AUTOTUNE_REAP_SHRINK / 100.0,
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

static uint64_t stat_delta(const struct sleeb_queue_stats *prev, const struct sleeb_queue_stats *cur,
			   enum sleeb_queue_stat s, bool *backwards)
{
	if (cur->value[s] < prev->value[s]) {
		*backwards = true;
		return 0;
	}
	return cur->value[s] - prev->value[s];
}

int sleeb_autotune_sample_delta(const struct sleeb_queue_stats *prev, const struct sleeb_queue_stats *cur,
				uint64_t elapsed_usec, struct sleeb_autotune_sample *out)
{
	bool back = false;

	memset(out, 0, sizeof(*out));
	if (!(cur->present & prev->present & (1u << SLEEB_QSTAT_FASTPATH_OPS)))
		return -ENODATA;
	if (elapsed_usec == 0)
		return -ERANGE;
	out->elapsed_usec = elapsed_usec;
	out->refills = stat_delta(prev, cur, SLEEB_QSTAT_ALLOC_REFILL, &back);
	out->drains = stat_delta(prev, cur, SLEEB_QSTAT_FREE_DRAIN, &back);
	out->remote_objects = stat_delta(prev, cur, SLEEB_QSTAT_REMOTE_FREE, &back);
	out->to_slabs = stat_delta(prev, cur, SLEEB_QSTAT_SHARED_ALLOC_MISS, &back) +
			stat_delta(prev, cur, SLEEB_QSTAT_SHARED_OVERFLOW, &back);
	out->ops = stat_delta(prev, cur, SLEEB_QSTAT_FASTPATH_OPS, &back) +
		   stat_delta(prev, cur, SLEEB_QSTAT_BULK_ALLOC, &back);
	out->reaped = stat_delta(prev, cur, SLEEB_QSTAT_REAP_DRAINED, &back);
	out->failed = stat_delta(prev, cur, SLEEB_QSTAT_REFILL_NOMEM, &back) +
		      stat_delta(prev, cur, SLEEB_QSTAT_ARRAY_FAIL, &back);
	return back ? -ERANGE : 0;
}

/* @v events over @from usec, as many over @to usec (rounded). */
static uint64_t rescale(uint64_t v, uint64_t from, uint64_t to)
{
	return from == to || from == 0 ? v : (uint64_t) ((double) v * (double) to / (double) from + 0.5);
}

void sleeb_autotune_sample_add(struct sleeb_autotune_sample *a, const struct sleeb_autotune_sample *b)
{
	uint64_t from = b->elapsed_usec, to = a->elapsed_usec;

	/* A member read after intervals in which its slabinfo line stood
	 * still has counted over a longer time: its rate, not its count,
	 * adds to the group's. */
	a->refills += rescale(b->refills, from, to);
	a->drains += rescale(b->drains, from, to);
	a->remote_objects += rescale(b->remote_objects, from, to);
	a->to_slabs += rescale(b->to_slabs, from, to);
	a->ops += rescale(b->ops, from, to);
	a->reaped += rescale(b->reaped, from, to);
	a->failed += rescale(b->failed, from, to);
}

size_t sleeb_autotune_group_key(const char *name, char *buf, size_t size)
{
	static const char rnd[] = "kmalloc-rnd-";
	const char *p = name + sizeof(rnd) - 1;
	int n;

	/* kmalloc-rnd-NN-SIZE: two digits, a dash, the size class. */
	if (strncmp(name, rnd, sizeof(rnd) - 1) == 0 && p[0] >= '0' && p[0] <= '9' && p[1] >= '0' &&
	    p[1] <= '9' && p[2] == '-' && p[3] != '\0')
		n = snprintf(buf, size, "kmalloc-%s", p + 3);
	else
		n = snprintf(buf, size, "%s", name);
	if (n < 0)
		return 0;
	return size == 0 ? 0 : ((size_t) n < size ? (size_t) n : size - 1);
}

bool sleeb_autotune_memory_short(uint64_t memtotal, uint64_t memavailable, unsigned memory_low_percent,
				 double psi_some_avg10, unsigned psi_some_percent, char *why, size_t size)
{
	double avail = memtotal ? 100.0 * (double) memavailable / (double) memtotal : -1;

	if (memtotal && memory_low_percent && avail < memory_low_percent) {
		snprintf(why, size, "memory short: MemAvailable %.1f%% of MemTotal, below %u%%", avail,
			 memory_low_percent);
		return true;
	}
	if (psi_some_avg10 >= 0 && psi_some_percent && psi_some_avg10 >= psi_some_percent) {
		snprintf(why, size, "memory short: PSI memory some avg10=%.2f, at or above %u", psi_some_avg10,
			 psi_some_percent);
		return true;
	}
	snprintf(why, size, "memory not short");
	return false;
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

void sleeb_autotune_resize(const struct sleeb_tunables *cur, uint32_t queue, struct sleeb_tunables *ret)
{
	uint32_t q = cur->v[SLEEB_TUNABLE_QUEUE], s = cur->v[SLEEB_TUNABLE_SHARED];

	sleeb_autotune_scale(cur, queue, ret);
	/* A grow keeps the shared queue's size, or makes it two of the new
	 * batches if that is more: what a cpu drains waits there for another
	 * cpu's refill, and what a longer one holds is mostly what the end
	 * of a load frees (autotune.h). */
	if (queue > q && s > 0 && ret->v[SLEEB_TUNABLE_SHARED] > queue)
		ret->v[SLEEB_TUNABLE_SHARED] = queue > s ? queue : s;
}

static void say(struct sleeb_autotune_cache *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct sleeb_autotune_cache *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	va_end(ap);
}

static void keep(struct sleeb_autotune_cache *c)
{
	c->action = SLEEB_AUTOTUNE_KEEP;
	c->next = c->cur;
}

/* A change; the averages restart, since they described the old size.
 * What the last grow chose stays (sleeb_autotune_decide() records a
 * grow's final size, after the budget had its say). */
static void change(struct sleeb_autotune_cache *c, uint32_t queue)
{
	uint32_t q = c->cur.v[SLEEB_TUNABLE_QUEUE];

	c->action = queue > q ? SLEEB_AUTOTUNE_GROW : SLEEB_AUTOTUNE_SHRINK;
	sleeb_autotune_resize(&c->cur, queue, &c->next);
	c->state = (struct sleeb_autotune_state) { .grown_to = c->state.grown_to };
}

static void smooth(double *avg, double now, double w, bool primed)
{
	*avg = primed ? w * now + (1 - w) * *avg : now;
}

/* Folds the interval's sample into the averages (the group's leader). */
static void update_state(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *c)
{
	const struct sleeb_autotune_sample *s = &c->sample;
	double secs = (double) s->elapsed_usec / 1e6, w = p->smoothing > 0 && p->smoothing <= 1 ? p->smoothing : 1;
	uint32_t batch = c->cur.v[SLEEB_TUNABLE_BATCH] ? c->cur.v[SLEEB_TUNABLE_BATCH] : 1;
	double rows = (double) s->remote_objects / batch;
	double trips = (double) (s->refills + s->drains + s->to_slabs) + rows;
	double ops = (double) s->ops + (double) (s->refills + s->drains);

	smooth(&c->state.trips, trips / secs, w, c->state.primed);
	smooth(&c->state.ops, ops / secs, w, c->state.primed);
	smooth(&c->state.refilled, (double) s->refills * batch / secs, w, c->state.primed);
	smooth(&c->state.reaped, (double) s->reaped / secs, w, c->state.primed);
	c->state.primed = true;
}

static uint32_t clamp_queue(double want, uint32_t min, uint32_t max)
{
	if (want >= max)
		return max;
	if (want <= min)
		return min;
	{
		uint32_t w = (uint32_t) want;

		return w < want ? w + 1 : w;
	}
}

/* Whether two queue sizes are within a quarter of each other (the larger
 * below 5/4 of the smaller): too close for a change to be worth a resize. */
static bool within_a_quarter(uint32_t a, uint32_t b)
{
	uint64_t hi = a > b ? a : b, lo = a > b ? b : a;

	return hi * SLEEB_AUTOTUNE_MIN_STEP_DEN < lo * SLEEB_AUTOTUNE_MIN_STEP_NUM;
}

/* The group's bytes if every member had v. */
static uint64_t group_bytes(const struct sleeb_autotune_params *p, const struct sleeb_autotune_cache *caches,
			    size_t n, size_t lead, const struct sleeb_tunables *v)
{
	uint64_t b = 0;

	for (size_t i = lead; i < n; i++)
		if (caches[i].group == lead)
			b += sleeb_autotune_queued_bytes(p, caches[i].object_size, v);
	return b;
}

/* Trips a second a grow of @c to @queue saves (trips fall as 1/queue). */
static double grow_saves(const struct sleeb_autotune_cache *c, uint32_t queue)
{
	double q = c->cur.v[SLEEB_TUNABLE_QUEUE];

	return queue > q ? c->state.trips * (1 - q / queue) : 0;
}

/* Whether a grow of the group led by @lead to @queue pays for the memory
 * it adds (AutoTuneTripsPerMiB=); @added gets the bytes. */
static bool grow_pays(const struct sleeb_autotune_params *p, const struct sleeb_autotune_cache *caches, size_t n,
		      size_t lead, uint32_t queue, uint64_t *added)
{
	const struct sleeb_autotune_cache *c = &caches[lead];
	struct sleeb_tunables v;
	uint64_t before = group_bytes(p, caches, n, lead, &c->cur), after;

	sleeb_autotune_resize(&c->cur, queue, &v);
	after = group_bytes(p, caches, n, lead, &v);
	*added = after > before ? after - before : 0;
	return grow_saves(c, queue) * (1024.0 * 1024.0) >= p->trips_per_mib * (double) *added;
}

/* The largest queue up to @want whose grow pays for its memory (q if none). */
static uint32_t paying_grow(const struct sleeb_autotune_params *p, const struct sleeb_autotune_cache *caches,
			    size_t n, size_t lead, uint32_t want, uint64_t *added)
{
	uint32_t lo = caches[lead].cur.v[SLEEB_TUNABLE_QUEUE], hi = want;
	uint64_t ignored;

	if (p->trips_per_mib <= 0 || grow_pays(p, caches, n, lead, want, added))
		return want;
	/* What a grow saves rises ever more slowly with its size, what it
	 * adds about in proportion: the sizes that pay are one range above
	 * q, and the largest of them is found by bisection. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (grow_pays(p, caches, n, lead, mid, &ignored))
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* What one cache (a group's leader) wants on its own, budget aside. */
static void decide_one(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n,
		       size_t lead)
{
	struct sleeb_autotune_cache *c = &caches[lead];
	uint32_t q = c->cur.v[SLEEB_TUNABLE_QUEUE], want, pays;
	uint64_t added = 0;
	double ratio, saved, reap_share;

	keep(c);
	if (q == 0) {
		say(c, "queue disabled (0)");
		return;
	}
	/* Bounds are policy, not measurement: enforce them at once. */
	if (q > c->max) {
		change(c, c->max);
		say(c, "queue %u above AutoTuneMax=%u", q, c->max);
		return;
	}
	if (q < c->min) {
		change(c, c->min);
		say(c, "queue %u below AutoTuneMin=%u", q, c->min);
		return;
	}
	if (p->memory_short) {
		if (q <= c->min) {
			say(c, "at AutoTuneMin=%u, %s", c->min, p->memory_reason);
			return;
		}
		change(c, q / 2 > c->min ? q / 2 : c->min);
		say(c, "%s", p->memory_reason);
		return;
	}
	if (c->has_sample && c->sample.failed > 0 && c->sample.failed * 10 >= c->sample.refills) {
		/* The kernel could not get memory for a tenth of the refills
		 * (or for an array): a bigger queue would ask for more of
		 * what is not there. A stray failure (a node-bound
		 * allocation on a full node) is no such sign. */
		say(c, "kernel short of memory for it (refill_nomem+array_fail %llu of %llu refills this interval)",
		    (unsigned long long) c->sample.failed, (unsigned long long) c->sample.refills);
		return;
	}
	if (!c->state.primed) {
		say(c, "no counters yet");
		return;
	}
	if (c->state.ops <= 0) {
		say(c, "no operations");
		return;
	}
	ratio = c->state.trips / c->state.ops;
	reap_share = c->state.refilled > 0 ? c->state.reaped / c->state.refilled : 0;
	/* Busy enough that what it does is worth a decision at all. */
	if (c->state.trips < p->min_trip_rate) {
		say(c, "not worth a change: %.0f trips/s below AutoTuneMinTripRate=%.0f (%.1f per 1000 operations)",
		    c->state.trips, p->min_trip_rate, ratio * 1000);
		return;
	}
	if (reap_share >= p->reap_shrink) {
		/* What the reaper's share asks for, at most one halving, and
		 * never below what the grow rule wants for the ratio now, nor
		 * below the last grow's choice: else the next burst grows it
		 * back, and the two rules take turns (autotune.h). */
		double w = q * (1 - reap_share), need = q * ratio / p->target_ratio;
		uint32_t grown = c->state.grown_to;

		if (w < q / 2.0)
			w = q / 2.0;
		if (w < need)
			w = need;
		if (w < grown)
			w = grown;
		if (q <= c->min) {
			say(c, "at AutoTuneMin=%u, the reaper returns %.0f%% of what refills bring in", c->min,
			    reap_share * 100);
			return;
		}
		want = clamp_queue(w, c->min, c->max);
		if (want < q && within_a_quarter(want, q) && want > c->min) {
			say(c, "the reaper returns %.0f%% of what refills bring in: %u would be within a quarter of %u",
			    reap_share * 100, want, q);
			return;
		}
		if (want < q) {
			change(c, want);
			say(c, "the reaper returns %.0f%% of what refills bring in (AutoTuneReapShrink=%.0f%%)",
			    reap_share * 100, p->reap_shrink * 100);
			return;
		}
		if (ratio <= p->target_ratio) {
			if (grown >= q && need < q)
				say(c, "the reaper returns %.0f%% of what refills bring in, but the last grow "
				    "chose %u", reap_share * 100, grown);
			else
				say(c, "the reaper returns %.0f%% of what refills bring in, but a smaller queue "
				    "would miss the target %.1f trips per 1000 operations (%.1f now)",
				    reap_share * 100, p->target_ratio * 1000, ratio * 1000);
			return;
		}
	}
	if (ratio <= p->target_ratio) {
		say(c, "%.1f trips per 1000 operations, at or below the target %.1f", ratio * 1000,
		    p->target_ratio * 1000);
		return;
	}
	saved = c->state.trips * (1 - p->target_ratio / ratio);
	if (saved < p->min_trip_rate) {
		say(c, "not worth a change: would save %.0f trips/s, below AutoTuneMinTripRate=%.0f", saved,
		    p->min_trip_rate);
		return;
	}
	if (q >= c->max) {
		say(c, "at AutoTuneMax=%u (%.1f trips per 1000 operations, target %.1f)", c->max, ratio * 1000,
		    p->target_ratio * 1000);
		return;
	}
	want = clamp_queue((double) q * ratio / p->target_ratio, c->min, c->max);
	if (within_a_quarter(want, q) && want < c->max) {
		say(c, "%.1f trips per 1000 operations: %u would be within a quarter of %u", ratio * 1000, want, q);
		return;
	}
	pays = paying_grow(p, caches, n, lead, want, &added);
	if (pays < want && within_a_quarter(pays, q)) {
		say(c, "not worth its memory: a grow to %u would save %.0f trips/s for %.1f MiB more queue "
		    "capacity, below AutoTuneTripsPerMiB=%.0f", want, grow_saves(c, want),
		    (double) added / (1024.0 * 1024.0), p->trips_per_mib);
		return;
	}
	say(c, "%.1f trips per 1000 operations (%.0f/s, %.0f cycles/s) above the target %.1f", ratio * 1000,
	    c->state.trips, c->state.trips * SLEEB_AUTOTUNE_TRIP_CYCLES, p->target_ratio * 1000);
	if (pays < want)
		snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
			 "; cut to %u by AutoTuneTripsPerMiB", pays);
	change(c, pays);
}

/*
 * Grows fill the budget only up to 7/8 of it, shrinks start above all of
 * it: a cache that grew to the last byte would be shrunk again by the
 * next small change elsewhere (a new cache, another's default), and grow
 * back the interval after.
 */
static uint64_t grow_limit(const struct sleeb_autotune_params *p)
{
	return p->budget_bytes - p->budget_bytes / 8;
}

/* A grow that does not fit is cut to the largest queue that does. */
static void fit_grow(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n,
		     size_t lead, uint64_t *total)
{
	struct sleeb_autotune_cache *c = &caches[lead];
	uint64_t limit = grow_limit(p);
	uint64_t before = group_bytes(p, caches, n, lead, &c->cur), after;
	uint32_t q = c->cur.v[SLEEB_TUNABLE_QUEUE], lo = q, hi = c->next.v[SLEEB_TUNABLE_QUEUE];
	struct sleeb_tunables v;

	after = group_bytes(p, caches, n, lead, &c->next);
	if (*total - before + after <= limit) {
		*total = *total - before + after;
		return;
	}
	/* The largest queue in (q, hi) that fits, by bisection. */
	while (hi - lo > 1) {
		uint32_t mid = lo + (hi - lo) / 2;

		sleeb_autotune_resize(&c->cur, mid, &v);
		if (*total - before + group_bytes(p, caches, n, lead, &v) <= limit)
			lo = mid;
		else
			hi = mid;
	}
	if (within_a_quarter(lo, q)) {
		keep(c);
		say(c, "grow to %u refused: MaxQueuedMemory budget %llu bytes (grows fill 7/8 of it)", hi,
		    (unsigned long long) p->budget_bytes);
		return;
	}
	sleeb_autotune_resize(&c->cur, lo, &c->next);
	*total = *total - before + group_bytes(p, caches, n, lead, &c->next);
	snprintf(c->reason + strlen(c->reason), sizeof(c->reason) - strlen(c->reason),
		 "; cut to %u by MaxQueuedMemory", lo);
}

/* Over budget: halve the groups with the most bytes above their floor. */
static void shrink_to_budget(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n,
			     uint64_t *total)
{
	while (*total > p->budget_bytes) {
		size_t best = n;
		uint64_t best_excess = 0;

		for (size_t i = 0; i < n; i++) {
			struct sleeb_autotune_cache *c = &caches[i];
			struct sleeb_tunables floor;
			uint64_t now, low;

			if (c->group != i || c->action != SLEEB_AUTOTUNE_KEEP || c->next.v[SLEEB_TUNABLE_QUEUE] <= c->min)
				continue;
			sleeb_autotune_scale(&c->next, c->min, &floor);
			now = group_bytes(p, caches, n, i, &c->next);
			low = group_bytes(p, caches, n, i, &floor);
			if (now - low > best_excess) {
				best_excess = now - low;
				best = i;
			}
		}
		if (best == n)
			return;     /* every group at its floor: nothing left to give */
		{
			struct sleeb_autotune_cache *c = &caches[best];
			uint32_t q = c->cur.v[SLEEB_TUNABLE_QUEUE];
			uint64_t before = group_bytes(p, caches, n, best, &c->cur);

			change(c, q / 2 > c->min ? q / 2 : c->min);
			say(c, "over MaxQueuedMemory budget %llu bytes (%llu queued)",
			    (unsigned long long) p->budget_bytes, (unsigned long long) *total);
			*total = *total - before + group_bytes(p, caches, n, best, &c->next);
		}
	}
}

void sleeb_autotune_decide(const struct sleeb_autotune_params *p, struct sleeb_autotune_cache *caches, size_t n)
{
	uint64_t total = p->other_bytes;

	/* Members' samples into their leader; a group has a sample if any
	 * member has (a member read for the first time adds nothing). */
	for (size_t i = 0; i < n; i++) {
		struct sleeb_autotune_cache *c = &caches[i], *lead;

		if (c->group >= n || c->group > i)
			c->group = i;
		lead = &caches[c->group];
		if (c->group == i || !c->has_sample)
			continue;
		if (!lead->has_sample) {
			lead->sample = c->sample;
			lead->has_sample = true;
		} else {
			sleeb_autotune_sample_add(&lead->sample, &c->sample);
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct sleeb_autotune_cache *c = &caches[i];

		if (c->group != i)
			continue;
		if (c->has_sample && c->sample.elapsed_usec > 0)
			update_state(p, c);
		decide_one(p, caches, n, i);
	}

	/* Memory after shrinks and keeps; grows must fit in what is left. */
	for (size_t i = 0; i < n; i++) {
		const struct sleeb_autotune_cache *c = &caches[i], *lead = &caches[c->group];

		total += sleeb_autotune_queued_bytes(p, c->object_size,
						     lead->action == SLEEB_AUTOTUNE_GROW ? &c->cur : &lead->next);
	}
	if (p->budget_bytes > 0) {
		shrink_to_budget(p, caches, n, &total);
		for (size_t i = 0; i < n; i++)
			if (caches[i].group == i && caches[i].action == SLEEB_AUTOTUNE_GROW)
				fit_grow(p, caches, n, i, &total);
	}

	/* What a grow chose, budget cuts included: the reaper's floor. */
	for (size_t i = 0; i < n; i++)
		if (caches[i].group == i && caches[i].action == SLEEB_AUTOTUNE_GROW)
			caches[i].state.grown_to = caches[i].next.v[SLEEB_TUNABLE_QUEUE];

	/* Every member takes its leader's decision. */
	for (size_t i = 0; i < n; i++) {
		struct sleeb_autotune_cache *c = &caches[i];
		const struct sleeb_autotune_cache *lead = &caches[c->group];

		if (c->group == i)
			continue;
		c->action = lead->action;
		c->state = lead->state;
		memcpy(c->reason, lead->reason, sizeof(c->reason));
		if (lead->action == SLEEB_AUTOTUNE_KEEP)
			c->next = c->cur;
		else
			sleeb_autotune_resize(&c->cur, lead->next.v[SLEEB_TUNABLE_QUEUE], &c->next);
	}
}
