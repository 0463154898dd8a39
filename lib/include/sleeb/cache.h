/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * A snapshot of every cache: the /proc/slabinfo line joined with what
 * sysfs says about it (tunables, queue counters, merged aliases).  This
 * is what `sleebctl show/check` and sleebd look at.
 */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/error.h"
#include "sleeb/slabinfo.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"

#define SLEEB_ALIASES_MAX 1024

/*
 * One cache as the kernel shows it now, for every caller (sleebctl,
 * sleebd). sleebd keeps its own longer-lived memory of a cache (struct
 * cache in sleebd/manager.h) and feeds auto-tuning a third, pure view
 * (struct sleeb_autotune_cache); this one holds no decision or history.
 */
struct sleeb_cache {
	struct sleeb_slabinfo_entry si;
	char id[SLEEB_CACHE_NAME_MAX];   /* the sysfs directory the name resolves
					  * to (":0000064" for a merged cache), the
					  * one key every name of it shares; the
					  * name itself without sysfs */
	bool has_sysfs;                  /* <root>/sys/kernel/slab/<name> exists */
	bool has_queues;                 /* ... and has cpu_queue_size */
	struct sleeb_tunables tunables;  /* sysfs if has_queues, else slabinfo's */
	bool has_stats;                  /* queue_stats was read */
	struct sleeb_queue_stats stats;
	int naliases;                    /* other names of the same kmem_cache */
	char aliases[SLEEB_ALIASES_MAX]; /* comma-separated (may be cut short) */
};

struct sleeb_cache_set {
	struct sleeb_cache *caches;  /* in /proc/slabinfo order */
	size_t n;
	bool sleeb_kernel;           /* some cache has cpu_queue_size, or
					 * non-zero slabinfo tunables */
	uint64_t timestamp_usec;     /* CLOCK_MONOTONIC when loaded */
};

/*
 * Load a snapshot under the current root: /proc/slabinfo (required), then
 * sysfs (optional: a missing /sys/kernel/slab just leaves has_sysfs false).
 * Returns the number of caches or a negative errno from the slabinfo
 * parser or from reading an attribute that exists but cannot be read or
 * parsed; @err says which.  On error @out is left empty.
 */
int sleeb_cache_set_load(struct sleeb_cache_set *out, struct sleeb_error *err);

void sleeb_cache_set_free(struct sleeb_cache_set *set);

/* The cache named @name (exact) or NULL. */
const struct sleeb_cache *sleeb_cache_set_find(const struct sleeb_cache_set *set,
					       const char *name);

/* True if the cache's tunables are meaningful: it has the SLEEB sysfs
 * attributes, or (no sysfs entry) /proc/slabinfo shows non-zero ones. */
bool sleeb_cache_has_tunables(const struct sleeb_cache *c);

/* Bytes in the cache's slabs: num_slabs * pagesperslab * page size. */
uint64_t sleeb_cache_memory(const struct sleeb_cache *c);

/* Bytes allocated but not in use: (num_objs - active_objs) * objsize. */
uint64_t sleeb_cache_waste(const struct sleeb_cache *c);

/* active_objs * 100 / num_objs, 0 for an empty cache. */
unsigned sleeb_cache_use_percent(const struct sleeb_cache *c);
