/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Health checks over one or more cache snapshots (no I/O: samples in,
 * problems out), with monitoring-plugin severities.
 *
 *   waste      per cache, (num_objs - active_objs) * objsize  >= threshold
 *   slab       total slab memory (meminfo Slab, else the sum over caches)
 *              as a percentage of MemTotal                    >= threshold
 *   growth     active objects grew between every pair of consecutive
 *              samples (leak suspicion); rate in bytes/s      >= threshold
 *   thrash     (alloc_refill + free_drain) per second between the first
 *              and last sample, from queue_stats               >= threshold
 *   invariant  tunables the kernel should never show (batch > queue, ...):
 *              always CRITICAL
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sleeb/cache.h"
#include "sleeb/meminfo.h"

enum sleeb_health_status {
	SLEEB_HEALTH_OK = 0,
	SLEEB_HEALTH_WARNING = 1,
	SLEEB_HEALTH_CRITICAL = 2,
	SLEEB_HEALTH_UNKNOWN = 3,
};

enum sleeb_health_check {
	SLEEB_CHECK_WASTE,
	SLEEB_CHECK_SLAB,
	SLEEB_CHECK_GROWTH,
	SLEEB_CHECK_THRASH,
	SLEEB_CHECK_INVARIANT,
	_SLEEB_CHECK_MAX,
};

/* A value of 0 disables that threshold. */
struct sleeb_health_thresholds {
	uint64_t waste_warn, waste_crit;    /* bytes */
	unsigned slab_warn, slab_crit;      /* percent of MemTotal */
	uint64_t growth_warn, growth_crit;  /* bytes per second */
	uint64_t thrash_warn, thrash_crit;  /* refills + drains per second */
};

struct sleeb_health_problem {
	enum sleeb_health_status status;
	enum sleeb_health_check check;
	char cache[SLEEB_CACHE_NAME_MAX];  /* "" for the slab total */
	uint64_t value;
	uint64_t threshold;
	char message[384];
};

struct sleeb_health_report {
	enum sleeb_health_status status;   /* worst problem, OK if none */
	struct sleeb_health_problem *problems;
	size_t n;
	size_t ncaches;
	uint64_t slab_bytes;
	uint64_t mem_total;
	unsigned slab_percent;
	uint64_t waste_bytes;              /* sum over caches */
	uint64_t elapsed_usec;             /* first to last sample */
	/* The worst cache's value of each per-cache check, whether or not
	 * it crossed a threshold (monitoring perfdata graphs them): waste in
	 * bytes, growth in bytes/s (caches that grew in every step; 0 if
	 * none did), thrash in refills + drains per second. The rates are
	 * measured only with two samples or more (rates_measured). */
	uint64_t waste_max, growth_max, thrash_max;
	bool rates_measured;
};

/* Defaults: waste 64M/256M, slab 10%/25%, growth 64K/s / 1M/s,
 * thrash 10000/s / 100000/s. */
void sleeb_health_thresholds_default(struct sleeb_health_thresholds *t);

/* "OK", "WARNING", "CRITICAL", "UNKNOWN". */
const char *sleeb_health_status_name(enum sleeb_health_status s);

/* "waste", "slab", "growth", "thrash", "invariant". */
const char *sleeb_health_check_name(enum sleeb_health_check c);

/*
 * Evaluate @nsamples (>= 1) snapshots, oldest first; growth and thrash
 * need two or more.  @mi may be NULL (no slab percentage then).
 * Returns 0 or -ENOMEM / -EINVAL (no samples); @out must be freed with
 * sleeb_health_report_free() either way.
 */
int sleeb_health_evaluate(const struct sleeb_cache_set *samples, size_t nsamples,
			  const struct sleeb_meminfo *mi,
			  const struct sleeb_health_thresholds *t,
			  struct sleeb_health_report *out);

void sleeb_health_report_free(struct sleeb_health_report *r);
