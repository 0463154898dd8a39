/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The auto-tuning driver: measures each AutoTune cache's counters, fills
 * struct sleeb_autotune_cache for the pure decision (lib/autotune.c) and
 * writes what it decided.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager-internal.h"
#include "sleeb/meminfo.h"
#include "sleeb/psi.h"

/* MemTotal for the budget, and whether memory is short, into p. */
static void read_memory(Manager *m, struct sleeb_autotune_params *p)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };
	uint64_t avail = 0;
	double psi = -1;

	if (sleeb_meminfo_read(&mi, &err) == 0 && (mi.present & (1u << SLEEB_MEMINFO_MEM_TOTAL))) {
		m->memtotal = mi.value[SLEEB_MEMINFO_MEM_TOTAL];
		if (mi.present & (1u << SLEEB_MEMINFO_MEM_AVAILABLE))
			avail = mi.value[SLEEB_MEMINFO_MEM_AVAILABLE];
	}
	/* Without MemAvailable (or PSI) memory counts as not short. */
	if (!(mi.present & (1u << SLEEB_MEMINFO_MEM_AVAILABLE)))
		avail = m->memtotal;
	if (m->config.autotune_memory_pressure && sleeb_psi_read_memory(&psi, &err) < 0)
		psi = -1;
	p->memory_short = sleeb_autotune_memory_short(m->memtotal, avail, (unsigned) m->config.autotune_memory_low,
						      psi, (unsigned) m->config.autotune_memory_pressure,
						      p->memory_reason, sizeof(p->memory_reason));
}

/*
 * The members of a group that changed but were not read this interval
 * (a quiet copy whose reads are spaced out, one whose read failed) take
 * the same size, so that the copies never drift apart.
 */
static void apply_to_unread_members(Manager *m, const struct sleeb_autotune_cache *lead, const struct cache *who)
{
	char key[SLEEB_CACHE_NAME_MAX], other[SLEEB_CACHE_NAME_MAX];
	uint32_t q = lead->next.v[SLEEB_TUNABLE_QUEUE];

	sleeb_autotune_group_key(who->name, key, sizeof(key));
	if (strcmp(key, who->name) == 0 && strncmp(key, "kmalloc-", 8) != 0)
		return;         /* not a kmalloc size class: a group of one */
	for (size_t i = 0; i < m->n_caches; i++) {
		struct cache *c = &m->caches[i];
		struct sleeb_tunables next;
		uint32_t cq = q;

		if (c->in_decision || !c->autotune || !c->has_target || !c->has_queues)
			continue;
		sleeb_autotune_group_key(c->name, other, sizeof(other));
		if (strcmp(other, key) != 0)
			continue;
		cq = cq < c->at_min ? c->at_min : cq > c->at_max ? c->at_max : cq;
		sleeb_autotune_resize(&c->cur, cq, &next);
		if (tunables_equal(&next, &c->cur))
			continue;
		c->target = next;
		c->at = lead->state;     /* restarted averages, the group's floor */
		(void) cache_write(m, c, &next,
				   lead->action == SLEEB_AUTOTUNE_GROW ? DECISION_AUTOTUNE_GROW : DECISION_AUTOTUNE_SHRINK,
				   lead->reason);
		set_reason(&c->last_reason, "auto-tune: %s with its group %s: %s",
			   lead->action == SLEEB_AUTOTUNE_GROW ? "grow" : "shrink", key, lead->reason);
	}
}

struct group_entry {
	char key[SLEEB_CACHE_NAME_MAX];
	size_t index;
};

static int group_entry_cmp(const void *a, const void *b)
{
	const struct group_entry *x = a, *y = b;
	int r = strcmp(x->key, y->key);

	return r ? r : (x->index > y->index) - (x->index < y->index);
}

/*
 * The copies of a kmalloc size class decide as one group: each entry's
 * group is the lowest index with the same key. Sorted once, so n log n
 * compares however many copies there are.
 */
static int assign_groups(struct sleeb_autotune_cache *in, struct cache *const *who, size_t n)
{
	struct group_entry *e;

	if (n == 0)
		return 0;
	e = calloc(n, sizeof(*e));
	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		sleeb_autotune_group_key(who[i]->name, e[i].key, sizeof(e[i].key));
		e[i].index = i;
	}
	qsort(e, n, sizeof(*e), group_entry_cmp);
	for (size_t i = 0, lead = 0; i < n; i++) {
		if (i == 0 || strcmp(e[i].key, e[i - 1].key) != 0)
			lead = e[i].index;
		in[e[i].index].group = lead;
	}
	free(e);
	return 0;
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

	/* The marks from sleebd.conf; a reload takes effect at the next interval. */
	sleeb_autotune_params_init(&p);
	p.target_ratio = (double) m->config.autotune_target_trips / 1000.0;
	p.min_trip_rate = (double) m->config.autotune_min_trip_rate;
	p.trips_per_mib = (double) m->config.autotune_trips_per_mib;
	p.smoothing = (double) m->config.autotune_smoothing / 100.0;
	p.reap_shrink = (double) m->config.autotune_reap_shrink / 100.0;
	p.ncpus = m->ncpus;
	p.nnodes = m->nnodes;
	read_memory(m, &p);
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
			.state = c->at,
		};
		/* Deltas over the time between two reads of the counters,
		 * whenever the timer fired and however long reading took.
		 * Without queue_stats there is no trip count: no decision
		 * but the bounds and memory. */
		if (sc->has_stats) {
			if (c->have_prev)
				in[n].has_sample = sleeb_autotune_sample_delta(&c->prev_stats, &sc->stats,
									       sc->stats_usec - c->prev_usec,
									       &in[n].sample) == 0;
			c->prev_stats = sc->stats;
			c->prev_usec = sc->stats_usec;
			sleeb_slabinfo_numbers_get(&sc->si, &c->prev_si);
			c->have_prev = true;
			c->stats_due = false;
		} else {
			c->have_prev = false;
		}
		c->in_decision = true;
		who[n++] = c;
	}

	if (assign_groups(in, who, n) < 0) {
		for (size_t i = 0; i < n; i++)
			who[i]->in_decision = false;
		free(in);
		free(who);
		return log_error_errno(-ENOMEM, "out of memory");
	}
	sleeb_autotune_decide(&p, in, n);

	for (size_t i = 0; i < n; i++) {
		struct cache *c = who[i];
		bool grow = in[i].action == SLEEB_AUTOTUNE_GROW;

		c->at = in[i].state;
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
	for (size_t i = 0; i < n; i++)
		if (in[i].group == i && in[i].action != SLEEB_AUTOTUNE_KEEP)
			apply_to_unread_members(m, &in[i], who[i]);
	for (size_t i = 0; i < n; i++)
		who[i]->in_decision = false;

	free(in);
	free(who);
	return 0;
}
