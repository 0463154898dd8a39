/* SPDX-License-Identifier: GPL-2.0-only */
/* Reading the kernel once per interval: what each cache needs from sysfs. */

#include <time.h>

#include "log.h"
#include "manager-internal.h"


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
		/* Quiet and nothing moved in slabinfo: not this time. */
		if (!(what & SLEEB_READ_STATS) && c->quiet_skips > 0 && c->has_slabinfo &&
		    sc->si.active_objs == c->active_objs && sc->si.num_objs == c->num_objs &&
		    tunables_equal(&sc->tunables, &c->cur)) {
			c->quiet_skips--;
			c->stats_skipped = true;
		} else {
			c->quiet_skips = 0;
			what |= SLEEB_READ_STATS;
		}
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
