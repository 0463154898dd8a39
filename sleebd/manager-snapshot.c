/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading the kernel once per interval: what each cache needs from sysfs. */

#include <time.h>

#include "log.h"
#include "manager-internal.h"


/*
 * Whether an auto-tuned cache's queue_stats can have moved since they
 * were last read, as far as /proc/slabinfo shows. A refill takes objects
 * from the shared queue (sharedavail moves) or from slabs; a drain gives
 * them to the shared queue or to slabs; slabs taken from or given back
 * to a node's partial list move active_objs (the partial slabs' free
 * objects are what slabinfo counts as not active), new or freed slabs
 * move num_objs and the slab counts, a resize the tunables columns (and
 * sizes other than those sleebd last read or wrote, sysfs). What
 * it cannot show: trips that only move objects between a cpu's queue and
 * the slabs that cpu holds itself (its cpu slab and per-cpu partial
 * slabs, a few slabs' worth), or that fill the shared queue exactly as
 * much as they empty it. Those are the cheapest trips, none takes a
 * list_lock, and none is lost: the counters only grow, so the next read
 * after the line moves has them all, over the time since the last read.
 * A cache whose line stands still is thus never decided on (no rate, no
 * change): it has nothing to shrink either, as the reaper's return of an
 * idle queue's objects moves the line, and is read then.
 */
static bool stats_may_have_moved(const struct cache *c, const struct sleeb_cache *sc)
{
	return c->stats_due || !c->have_prev || !sleeb_slabinfo_numbers_same(&c->prev_si, &sc->si) ||
	       !tunables_equal(&sc->tunables, &c->cur);
}

/*
 * What the snapshot reads from sysfs for one cache (see manager_snapshot()
 * in manager.h); /proc/slabinfo has the rest.
 */
static unsigned want_from_sysfs(const struct sleeb_cache *sc, void *userdata)
{
	Manager *m = userdata;
	struct cache *c = cache_find(m, sc->id);  /* keyed by the sysfs id */
	unsigned what = 0;

	if (!c)
		return SLEEB_READ_ALL;  /* new: its policy is resolved now */
	c->stats_skipped = false;
	if (m->config.prometheus_textfile)
		what |= SLEEB_READ_STATS;  /* the textfile has every cache's counters */
	if (c->autotune && c->has_target) {
		if (what & SLEEB_READ_STATS || stats_may_have_moved(c, sc))
			what |= SLEEB_READ_STATS;
		else
			c->stats_skipped = true;
	}
	/* On a SLEEB kernel slabinfo's columns are sysfs' values; when they
	 * are not what sleebd last read or wrote (someone else wrote), sysfs
	 * says which. (The reader hands out what sysfs said last while a
	 * fake tree's slabinfo, which nothing rewrites, stays as it was.) */
	if (!tunables_equal(&sc->tunables, &c->cur))
		what |= SLEEB_READ_TUNABLES;
	/* The slower pace: every target against sysfs itself. Drift of a
	 * static target is seen here at the latest. */
	if (m->snap_verify && c->has_target)
		what |= SLEEB_READ_TUNABLES;
	return what;
}

int manager_snapshot(Manager *m, bool verify)
{
	struct sleeb_error err = { 0 };
	int r;

	m->snap_verify = verify;
	r = sleeb_reader_load(m->reader, want_from_sysfs, m, &m->snap, &err);
	if (r < 0) {
		/* Once per failure streak: this runs every interval. */
		if (!m->scan_error_logged)
			log_error_errno(r, "cannot read caches: %s", err.msg);
		m->scan_error_logged = true;
		return r;
	}
	m->scan_error_logged = false;
	if (verify) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		m->last_verify_usec = (uint64_t) ts.tv_sec * SLEEB_USEC_PER_SEC + (uint64_t) ts.tv_nsec / 1000;
	}
	return 0;
}
