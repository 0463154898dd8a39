/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The auto-tuning driver: measures each AutoTune cache's counters, fills
 * struct sleeb_autotune_cache for the pure decision (lib/autotune.c) and
 * writes what it decided.
 */

#include <errno.h>
#include <stdlib.h>

#include "log.h"
#include "manager-internal.h"
#include "sleeb/meminfo.h"

static void refresh_memtotal(Manager *m)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };

	if (sleeb_meminfo_read(&mi, &err) == 0 && (mi.present & (1u << SLEEB_MEMINFO_MEM_TOTAL)))
		m->memtotal = mi.value[SLEEB_MEMINFO_MEM_TOTAL];
}

/*
 * Kept at its floor, and its queues neither ran empty nor overflowed
 * since the last read (queue_stats counts that; without it there is no
 * such signal): see SLEEB_QUIET_READ_EVERY.
 */
static bool autotune_quiet(const struct sleeb_autotune_cache *a)
{
	return a->action == SLEEB_AUTOTUNE_KEEP && !a->rate_is_flow && a->rate == 0 &&
	       a->cur.v[SLEEB_TUNABLE_QUEUE] <= a->min;
}

int manager_autotune(Manager *m)
{
	const struct sleeb_cache_set *set = &m->snap;
	struct sleeb_autotune_params p;
	struct sleeb_autotune_cache *in;
	struct cache **who;
	size_t n = 0;

	if (m->monitor_only)
		return 0;
	for (size_t i = 0; i < m->n_caches; i++)
		n += m->caches[i].autotune && m->caches[i].has_target;
	if (n == 0)
		return 0;

	refresh_memtotal(m);
	/* The marks from sleebd.conf; a reload takes effect at the next interval. */
	sleeb_autotune_params_init(&p);
	p.grow_rate = (double) m->config.autotune_grow_rate;
	p.idle_flow = (double) m->config.autotune_idle_flow;
	p.grow_after = (unsigned) m->config.autotune_grow_after;
	p.shrink_after = (unsigned) m->config.autotune_shrink_after;
	p.cooldown = (unsigned) m->config.autotune_cooldown;
	p.ncpus = m->ncpus;
	p.nnodes = m->nnodes;
	p.budget_bytes = sleeb_daemon_config_budget(&m->config, m->memtotal);

	in = calloc(n, sizeof(*in));
	who = calloc(n, sizeof(*who));
	if (!in || !who) {
		free(in);
		free(who);
		return log_error_errno(-ENOMEM, "out of memory");
	}

	n = 0;
	for (size_t i = 0; i < set->n; i++) {
		const struct sleeb_cache *sc = &set->caches[i];
		struct cache *c = cache_find(m, sc->id);
		uint64_t events, now_usec;

		if (!sc->has_queues)
			continue;
		if (!c || !c->autotune || !c->has_target || c->stats_skipped) {
			/* Everything not auto-tuned (or not read this time:
			 * no decision, its state waits for the next read)
			 * still uses the budget. */
			p.other_bytes += sleeb_autotune_queued_bytes(&p, sc->si.objsize, &sc->tunables);
			continue;
		}
		c->cur = sc->tunables;
		in[n] = (struct sleeb_autotune_cache) {
			.object_size = c->object_size,
			.cur = c->cur,
			.min = c->at_min,
			.max = c->at_max,
			.rate = -1,
			.state = c->at,
		};
		/* Rates divide by the time between two reads of the counters,
		 * whenever the timer fired and however long reading took. */
		now_usec = sc->has_stats ? sc->stats_usec : set->timestamp_usec;
		if (sc->has_stats) {
			/* The real signal: how often the queues ran empty or full. */
			events = sc->stats.value[SLEEB_QSTAT_ALLOC_REFILL] + sc->stats.value[SLEEB_QSTAT_FREE_DRAIN];
			if (c->have_prev && c->prev_from_stats) {
				in[n].rate = sleeb_autotune_rate(c->prev_events, events, now_usec - c->prev_usec,
								 m->ncpus);
				in[n].reaped = sleeb_autotune_rate(c->prev_reaped,
								   sc->stats.value[SLEEB_QSTAT_REAP_DRAINED],
								   now_usec - c->prev_usec, m->ncpus);
				in[n].has_ops = sc->stats.present & (1u << SLEEB_QSTAT_FASTPATH_OPS);
				if (in[n].has_ops)
					in[n].ops = sleeb_autotune_rate(c->prev_ops,
									sc->stats.value[SLEEB_QSTAT_FASTPATH_OPS],
									now_usec - c->prev_usec, m->ncpus);
			}
			c->prev_reaped = sc->stats.value[SLEEB_QSTAT_REAP_DRAINED];
			c->prev_ops = sc->stats.value[SLEEB_QSTAT_FASTPATH_OPS];
		} else {
			/* No queue_stats: slabinfo churn (change in active
			 * objects) is the best proxy left, for both the rate
			 * and, already counted in objects, the flow. */
			events = sc->si.active_objs;
			in[n].rate_is_flow = true;
			if (c->have_prev && !c->prev_from_stats)
				in[n].rate = sleeb_autotune_churn_rate(c->prev_events, events,
								       now_usec - c->prev_usec, m->ncpus);
		}
		c->prev_events = events;
		c->prev_usec = now_usec;
		c->prev_from_stats = sc->has_stats;
		c->have_prev = true;
		who[n++] = c;
	}

	sleeb_autotune_decide(&p, in, n);

	for (size_t i = 0; i < n; i++) {
		struct cache *c = who[i];
		bool grow = in[i].action == SLEEB_AUTOTUNE_GROW;

		c->at = in[i].state;
		c->quiet_skips = autotune_quiet(&in[i]) ? SLEEB_QUIET_READ_EVERY - 1 : 0;
		if (in[i].action == SLEEB_AUTOTUNE_KEEP) {
			set_reason(&c->last_reason, "auto-tune: keep: %s", in[i].reason);
			continue;
		}
		c->target = in[i].next;
		(void) cache_write(m, c, &in[i].next, grow ? DECISION_AUTOTUNE_GROW : DECISION_AUTOTUNE_SHRINK,
				   in[i].reason);
		set_reason(&c->last_reason, "auto-tune: %s: %s", grow ? "grow" : "shrink",
			 in[i].reason);
	}

	free(in);
	free(who);
	return 0;
}
