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

/* The longest alias list kept for one cache (longer ones are cut short). */
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
	uint64_t stats_usec;             /* CLOCK_MONOTONIC right after it was read */
	int naliases;                    /* other names of the same kmem_cache */
	const char *aliases;             /* comma-separated (may be cut short), ""
					  * when none; owned by the set (its
					  * alias pool), valid until its next
					  * load or free */
};

struct sleeb_cache_set {
	struct sleeb_cache *caches;  /* in /proc/slabinfo order */
	size_t n;
	size_t cap;                  /* allocated; sleeb_reader_load() reuses it */
	bool sleeb_kernel;           /* some cache has cpu_queue_size, or
					 * non-zero slabinfo tunables */
	uint64_t timestamp_usec;     /* CLOCK_MONOTONIC right after /proc/slabinfo
				      * was read */
	/* Every cache's aliases, one string after another: out of line, as
	 * most caches have none and a kept snapshot should cost what it
	 * holds (SLEEB_ALIASES_MAX inline was 300 KiB of sleebd's RSS). */
	char *alias_pool;
	size_t alias_pool_cap;
};

/*
 * Load a snapshot under the current root: /proc/slabinfo (required), then
 * sysfs (optional: a missing /sys/kernel/slab just leaves has_sysfs false),
 * every cache's tunables and queue_stats.  A cache destroyed meanwhile
 * (listed by /proc/slabinfo, its sysfs directory gone by the time it is
 * read) is left out: it no longer exists, which is not an error.
 * Returns the number of caches or a negative errno from the slabinfo
 * parser or from reading an attribute that exists but cannot be read or
 * parsed; @err says which.  On error @out is left empty.
 */
int sleeb_cache_set_load(struct sleeb_cache_set *out, struct sleeb_error *err);

/*
 * A reader for a program that takes a snapshot every few seconds for as
 * long as it runs (sleebd).  It keeps what does not change from one
 * snapshot to the next: which caches have a sysfs directory and queue
 * attributes, their merged aliases (the /sys/kernel/slab listing is read
 * again only when /proc/slabinfo names a cache it does not know, or after
 * sleeb_reader_forget()), and /proc/slabinfo open on the real procfs (read
 * with pread(); a fake tree's plain file is opened each time, so that a
 * test may replace it).  sysfs files are opened for each read and closed:
 * a kept one pins a page of kernel memory.  And it reads
 * from sysfs only what the caller asks for, cache by cache: /proc/slabinfo
 * already has everything else, tunables included (where its columns
 * have not changed since sysfs was last read, what sysfs said then).
 */
struct sleeb_reader;

/* What a load reads from sysfs for one cache, on top of /proc/slabinfo. */
enum {
	SLEEB_READ_TUNABLES = 1u << 0,  /* the three attributes rather than
					 * slabinfo's tunables columns (the same
					 * numbers on a SLEEB kernel; a fake
					 * tree's slabinfo is never rewritten) */
	SLEEB_READ_STATS = 1u << 1,     /* queue_stats */
	SLEEB_READ_ALL = SLEEB_READ_TUNABLES | SLEEB_READ_STATS,
};

/*
 * sleeb_cache_set_load() reading only @what (SLEEB_READ_*) from sysfs for
 * every cache: a caller that shows no counters asks for no queue_stats
 * (a kernel's queue_stats sums every cpu's counters at each read).
 */
int sleeb_cache_set_load_only(struct sleeb_cache_set *out, unsigned what, struct sleeb_error *err);

/*
 * Asked once per cache and load, after /proc/slabinfo was read (@c holds
 * its line, has_sysfs, has_queues, aliases and slabinfo's tunables):
 * which of SLEEB_READ_* to read for it.
 */
typedef unsigned (*sleeb_reader_want_fn)(const struct sleeb_cache *c, void *userdata);

int sleeb_reader_new(struct sleeb_reader **ret);
struct sleeb_reader *sleeb_reader_free(struct sleeb_reader *rd);

/*
 * A cache was created or destroyed (uevent), or the caller wants a fresh
 * view anyway: forget what is known about @name (NULL: about every cache),
 * so that the next load lists /sys/kernel/slab again.
 */
void sleeb_reader_forget(struct sleeb_reader *rd, const char *name);

/*
 * Load a snapshot into @out as sleeb_cache_set_load() does, reading from
 * sysfs what @want asks for (NULL: SLEEB_READ_ALL for every cache).
 * @out's memory is reused: zero it before the first load, free it with
 * sleeb_cache_set_free() after the last.  Returns as
 * sleeb_cache_set_load(); on error @out is empty (n == 0).
 */
int sleeb_reader_load(struct sleeb_reader *rd, sleeb_reader_want_fn want, void *userdata,
		      struct sleeb_cache_set *out, struct sleeb_error *err);

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
