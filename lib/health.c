/* SPDX-License-Identifier: GPL-2.0-only */
/* Health checks over cache snapshots (see sleeb/health.h). */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/health.h"
#include "sleeb/parse.h"

void sleeb_health_thresholds_default(struct sleeb_health_thresholds *t)
{
	*t = (struct sleeb_health_thresholds) {
		.waste_warn = UINT64_C(64) << 20,
		.waste_crit = UINT64_C(256) << 20,
		.slab_warn = 10,
		.slab_crit = 25,
		.growth_warn = UINT64_C(64) << 10,
		.growth_crit = UINT64_C(1) << 20,
		.thrash_warn = 10000,
		.thrash_crit = 100000,
	};
}

const char *sleeb_health_status_name(enum sleeb_health_status s)
{
	static const char *const names[] = { "OK", "WARNING", "CRITICAL", "UNKNOWN" };

	return (unsigned)s < 4 ? names[s] : "UNKNOWN";
}

const char *sleeb_health_check_name(enum sleeb_health_check c)
{
	static const char *const names[_SLEEB_CHECK_MAX] = {
		[SLEEB_CHECK_WASTE] = "waste",
		[SLEEB_CHECK_SLAB] = "slab",
		[SLEEB_CHECK_GROWTH] = "growth",
		[SLEEB_CHECK_THRASH] = "thrash",
		[SLEEB_CHECK_INVARIANT] = "invariant",
	};

	return (unsigned)c < _SLEEB_CHECK_MAX ? names[c] : "unknown";
}

/* Severity of @value against a warn/crit pair (0 disables a level). */
static enum sleeb_health_status grade(uint64_t value, uint64_t warn, uint64_t crit,
				      uint64_t *threshold)
{
	if (crit && value >= crit) {
		*threshold = crit;
		return SLEEB_HEALTH_CRITICAL;
	}
	if (warn && value >= warn) {
		*threshold = warn;
		return SLEEB_HEALTH_WARNING;
	}
	return SLEEB_HEALTH_OK;
}

static int report_add(struct sleeb_health_report *r, enum sleeb_health_status status,
		      enum sleeb_health_check check, const char *cache, uint64_t value,
		      uint64_t threshold, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static int report_add(struct sleeb_health_report *r, enum sleeb_health_status status,
		      enum sleeb_health_check check, const char *cache, uint64_t value,
		      uint64_t threshold, const char *fmt, ...)
{
	struct sleeb_health_problem *p;
	va_list ap;

	if ((r->n & (r->n - 1)) == 0) {
		p = reallocarray(r->problems, r->n ? r->n * 2 : 1, sizeof(*p));
		if (!p)
			return -ENOMEM;
		r->problems = p;
	}
	p = &r->problems[r->n++];
	memset(p, 0, sizeof(*p));
	p->status = status;
	p->check = check;
	snprintf(p->cache, sizeof(p->cache), "%s", cache ? cache : "");
	p->value = value;
	p->threshold = threshold;
	va_start(ap, fmt);
	vsnprintf(p->message, sizeof(p->message), fmt, ap);
	va_end(ap);
	if (status > r->status)
		r->status = status;
	return 0;
}

static int check_waste(const struct sleeb_cache *c, const struct sleeb_health_thresholds *t,
		       struct sleeb_health_report *r)
{
	uint64_t waste = sleeb_cache_waste(c), thr = 0;
	enum sleeb_health_status s = grade(waste, t->waste_warn, t->waste_crit, &thr);
	char a[32], b[32];

	if (waste > r->waste_max)
		r->waste_max = waste;
	if (s == SLEEB_HEALTH_OK)
		return 0;
	return report_add(r, s, SLEEB_CHECK_WASTE, c->si.name, waste, thr,
			  "%s: waste %s (%llu unused objects of %u bytes) >= %s", c->si.name,
			  sleeb_format_size(waste, a, sizeof(a)),
			  (unsigned long long)(c->si.num_objs - c->si.active_objs), c->si.objsize,
			  sleeb_format_size(thr, b, sizeof(b)));
}

static int check_invariant(const struct sleeb_cache *c, struct sleeb_health_report *r)
{
	struct sleeb_error err = { 0 };

	if (sleeb_tunables_validate(&c->tunables, &err) == 0)
		return 0;
	return report_add(r, SLEEB_HEALTH_CRITICAL, SLEEB_CHECK_INVARIANT, c->si.name, 0, 0,
			  "%s: tunables break the invariants: %s", c->si.name, err.msg);
}

/* Find @name in @set starting at the same index (sets are usually in the
 * same order), falling back to a scan. */
static const struct sleeb_cache *find_like(const struct sleeb_cache_set *set, size_t hint,
					   const char *name)
{
	if (hint < set->n && strcmp(set->caches[hint].si.name, name) == 0)
		return &set->caches[hint];
	return sleeb_cache_set_find(set, name);
}

/* @count per second over @elapsed microseconds, saturating at UINT64_MAX:
 * count * 10^6 overflows for large counters, and casting a double above
 * 2^64 to an integer is undefined. */
static uint64_t per_sec(uint64_t count, uint64_t elapsed)
{
	uint64_t whole, rest;

	if (__builtin_mul_overflow(count / elapsed, UINT64_C(1000000), &whole))
		return UINT64_MAX;
	/* count % elapsed < elapsed; elapsed below 2^44 us (half a year)
	 * keeps this product in range, and beyond it rates are ~0 anyway. */
	rest = count % elapsed;
	rest = __builtin_mul_overflow(rest, UINT64_C(1000000), &rest) ?
		(uint64_t)((double)(count % elapsed) * 1e6 / (double)elapsed) : rest / elapsed;
	if (__builtin_add_overflow(whole, rest, &whole))
		return UINT64_MAX;
	return whole;
}

static int check_growth(const struct sleeb_cache_set *samples, size_t nsamples, size_t idx,
			uint64_t elapsed, const struct sleeb_health_thresholds *t,
			struct sleeb_health_report *r)
{
	const struct sleeb_cache *last = &samples[nsamples - 1].caches[idx], *first = NULL, *prev;
	uint64_t grown, rate, thr = 0;
	enum sleeb_health_status s;
	char a[32], b[32];
	size_t i;

	prev = NULL;
	for (i = 0; i < nsamples; i++) {
		const struct sleeb_cache *c = find_like(&samples[i], idx, last->si.name);

		if (!c)
			return 0;
		if (prev && c->si.active_objs <= prev->si.active_objs)
			return 0;  /* not monotonic: not a leak suspect */
		if (!first)
			first = c;
		prev = c;
	}
	if (__builtin_mul_overflow(last->si.active_objs - first->si.active_objs,
				   (uint64_t)last->si.objsize, &grown))
		grown = UINT64_MAX;
	rate = per_sec(grown, elapsed);
	if (rate > r->growth_max)
		r->growth_max = rate;
	s = grade(rate, t->growth_warn, t->growth_crit, &thr);
	if (s == SLEEB_HEALTH_OK)
		return 0;
	return report_add(r, s, SLEEB_CHECK_GROWTH, last->si.name, rate, thr,
			  "%s: leak suspected: active objects grew in every one of %zu samples, %llu -> %llu, %s/s >= %s/s",
			  last->si.name, nsamples, (unsigned long long)first->si.active_objs,
			  (unsigned long long)last->si.active_objs,
			  sleeb_format_size(rate, a, sizeof(a)), sleeb_format_size(thr, b, sizeof(b)));
}

static int check_thrash(const struct sleeb_cache_set *samples, size_t nsamples, size_t idx,
			uint64_t elapsed, const struct sleeb_health_thresholds *t,
			struct sleeb_health_report *r)
{
	const struct sleeb_cache *last = &samples[nsamples - 1].caches[idx];
	const struct sleeb_cache *first = find_like(&samples[0], idx, last->si.name);
	uint64_t refill, drain, rate, thr = 0;
	enum sleeb_health_status s;

	if (!first || !first->has_stats || !last->has_stats)
		return 0;
	/* A counter going backwards means the cache was destroyed and
	 * re-created between samples: no meaningful delta. */
	if (last->stats.value[SLEEB_QSTAT_ALLOC_REFILL] < first->stats.value[SLEEB_QSTAT_ALLOC_REFILL] ||
	    last->stats.value[SLEEB_QSTAT_FREE_DRAIN] < first->stats.value[SLEEB_QSTAT_FREE_DRAIN])
		return 0;
	refill = last->stats.value[SLEEB_QSTAT_ALLOC_REFILL] - first->stats.value[SLEEB_QSTAT_ALLOC_REFILL];
	drain = last->stats.value[SLEEB_QSTAT_FREE_DRAIN] - first->stats.value[SLEEB_QSTAT_FREE_DRAIN];
	rate = __builtin_add_overflow(per_sec(refill, elapsed), per_sec(drain, elapsed), &rate) ?
		UINT64_MAX : rate;
	if (rate > r->thrash_max)
		r->thrash_max = rate;
	s = grade(rate, t->thrash_warn, t->thrash_crit, &thr);
	if (s == SLEEB_HEALTH_OK)
		return 0;
	return report_add(r, s, SLEEB_CHECK_THRASH, last->si.name, rate, thr,
			  "%s: queue thrash: %llu refills + %llu drains/s >= %llu/s (queue=%u batch=%u)",
			  last->si.name, (unsigned long long)per_sec(refill, elapsed),
			  (unsigned long long)per_sec(drain, elapsed), (unsigned long long)thr,
			  last->tunables.v[SLEEB_TUNABLE_QUEUE], last->tunables.v[SLEEB_TUNABLE_BATCH]);
}

static int check_slab(const struct sleeb_cache_set *set, const struct sleeb_meminfo *mi,
		      const struct sleeb_health_thresholds *t, struct sleeb_health_report *r)
{
	uint64_t sum = 0, thr = 0;
	enum sleeb_health_status s;
	char a[32], b[32];
	size_t i;

	for (i = 0; i < set->n; i++) {
		uint64_t m = sleeb_cache_memory(&set->caches[i]);

		sum = sum > UINT64_MAX - m ? UINT64_MAX : sum + m;
	}
	r->slab_bytes = sum;
	if (mi && (mi->present & (1u << SLEEB_MEMINFO_SLAB)))
		r->slab_bytes = mi->value[SLEEB_MEMINFO_SLAB];
	if (!mi || !(mi->present & (1u << SLEEB_MEMINFO_MEM_TOTAL)) ||
	    mi->value[SLEEB_MEMINFO_MEM_TOTAL] == 0)
		return 0;
	r->mem_total = mi->value[SLEEB_MEMINFO_MEM_TOTAL];
	r->slab_percent = (unsigned)((double)r->slab_bytes * 100.0 / (double)r->mem_total);
	s = grade(r->slab_percent, t->slab_warn, t->slab_crit, &thr);
	if (s == SLEEB_HEALTH_OK)
		return 0;
	return report_add(r, s, SLEEB_CHECK_SLAB, NULL, r->slab_percent, thr,
			  "slab memory %s is %u%% of MemTotal %s >= %llu%%",
			  sleeb_format_size(r->slab_bytes, a, sizeof(a)), r->slab_percent,
			  sleeb_format_size(r->mem_total, b, sizeof(b)), (unsigned long long)thr);
}

int sleeb_health_evaluate(const struct sleeb_cache_set *samples, size_t nsamples,
			  const struct sleeb_meminfo *mi,
			  const struct sleeb_health_thresholds *t,
			  struct sleeb_health_report *out)
{
	const struct sleeb_cache_set *last;
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	if (nsamples == 0)
		return -EINVAL;
	last = &samples[nsamples - 1];
	out->ncaches = last->n;
	if (last->timestamp_usec > samples[0].timestamp_usec)
		out->elapsed_usec = last->timestamp_usec - samples[0].timestamp_usec;
	out->rates_measured = nsamples >= 2 && out->elapsed_usec > 0;
	r = check_slab(last, mi, t, out);
	if (r < 0)
		return r;
	for (i = 0; i < last->n; i++) {
		const struct sleeb_cache *c = &last->caches[i];
		uint64_t w = sleeb_cache_waste(c);

		out->waste_bytes = out->waste_bytes > UINT64_MAX - w ? UINT64_MAX : out->waste_bytes + w;
		r = check_invariant(c, out);
		if (r >= 0)
			r = check_waste(c, t, out);
		if (r >= 0 && nsamples >= 2 && out->elapsed_usec > 0)
			r = check_growth(samples, nsamples, i, out->elapsed_usec, t, out);
		if (r >= 0 && nsamples >= 2 && out->elapsed_usec > 0)
			r = check_thrash(samples, nsamples, i, out->elapsed_usec, t, out);
		if (r < 0)
			return r;
	}
	return 0;
}

void sleeb_health_report_free(struct sleeb_health_report *r)
{
	free(r->problems);
	r->problems = NULL;
	r->n = 0;
}
