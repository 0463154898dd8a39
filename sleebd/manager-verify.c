/* SPDX-License-Identifier: GPL-2.0-only */
/* Drift: targets found changed outside sleebd (or never written) put back. */

#include <stdio.h>

#include "log.h"
#include "manager-internal.h"

/* Back-off for restoring a cache that keeps drifting: 1, 2, 4 ... 64 intervals. */
#define DRIFT_BACKOFF_SHIFT_MAX 6

void manager_verify(Manager *m, uint64_t now_usec)
{
	if (m->monitor_only || m->opts.dry_run)
		return;
	for (size_t i = 0; i < m->n_caches; i++) {
		struct cache *c = &m->caches[i];
		const char *why = c->write_failed ? "an earlier write failed" : "changed outside sleebd";
		struct sleeb_tunables had = c->cur, target = c->target;
		char reason[96];
		unsigned shift;

		if (!c->has_target || !c->has_queues)
			continue;
		if (tunables_equal(&c->cur, &c->target)) {
			c->drift_streak = 0;
			continue;
		}
		if (now_usec < c->drift_next_usec)
			continue;

		snprintf(reason, sizeof(reason), "had %u/%u/%u (%s)", had.v[0], had.v[1], had.v[2], why);
		if (!c->drift_logged)
			log_warning("%s: drifted from its target %u/%u/%u to %u/%u/%u (%s); target restored "
				    "(sleebd puts back its targets every interval; to change this cache for good, "
				    "change the policy and run 'sleebctl reload'. Logged once per cache.)",
				    c->name, target.v[0], target.v[1], target.v[2], had.v[0], had.v[1], had.v[2], why);
		if (cache_write(m, c, &target, DECISION_DRIFT, reason) == 0)
			set_reason(&c->drift_reason, "drift: %s, target restored", reason);
		else
			set_reason(&c->drift_reason, "drift: %s, restore failed", reason);
		set_reason(&c->last_reason, "%s", c->drift_reason ? c->drift_reason : "");
		c->drift_logged = true;
		c->n_drift++;
		shift = c->drift_streak < DRIFT_BACKOFF_SHIFT_MAX ? c->drift_streak : DRIFT_BACKOFF_SHIFT_MAX;
		c->drift_next_usec = now_usec + (m->config.interval_usec << shift);
		c->drift_streak++;
	}
}
