/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The static policy applied to caches: at start and reload (every cache),
 * at each interval's rescan (caches not seen before).
 */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "log.h"
#include "manager-internal.h"
#include "sleeb/plan.h"
#include "sleeb/util.h"


/*
 * The plan of an auto-tuned cache is where tuning starts, not where it
 * must go back to: a reload that plans the cache as before (the same
 * target and bounds; its policy unchanged) keeps the size it reached.
 */
static bool autotune_plan_unchanged(const struct cache *c, const struct sleeb_plan *plan)
{
	return c->has_target && c->autotune && plan->autotune && tunables_equal(&c->planned, &plan->target) &&
	       c->at_min == plan->autotune_min && c->at_max == plan->autotune_max;
}

static const struct sleeb_origin *first_origin(const struct sleeb_effective *e)
{
	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		if (e->tunable[t].value != SLEEB_VALUE_UNSET)
			return &e->tunable[t].origin;
	if (e->autotune.value != SLEEB_VALUE_UNSET)
		return &e->autotune.origin;
	return NULL;
}

/*
 * Applies the static policy to one cache already refreshed from sc: the
 * plan is sleeb_plan_cache(), the one `sleebctl policy show` prints.
 */
int cache_apply_policy(Manager *m, struct cache *c, const struct sleeb_cache *sc, const char *why)
{
	const struct sleeb_state_entry *orig = sleeb_state_find(&m->state, c->id);
	const struct sleeb_origin *o;
	struct sleeb_plan_input in = {
		.name = sc->si.name,
		.aliases = sc->naliases > 0 ? sc->aliases : NULL,
		.object_size = c->object_size,
		.has_queues = true,
		.current = c->cur,
		.original = orig ? &orig->orig : NULL,
	};
	struct sleeb_plan plan;
	struct sleeb_error err = { 0 };
	char reason[192];
	bool was_autotuned, learned = false;
	int r;

	sleeb_plan_cache(&m->policy, &in, m->page_size, &plan, &err);
	switch (plan.action) {
	case SLEEB_PLAN_NONE:
	case SLEEB_PLAN_RESTORE:
		c->has_target = c->autotune = false;
		if (plan.action == SLEEB_PLAN_NONE)
			return 0;
		r = cache_write(m, c, &plan.target, DECISION_UNMATCHED,
				"no longer matched by any policy: original restored");
		if (r == 0 && !m->opts.dry_run && sleeb_state_forget(&m->state, c->id) > 0)
			state_commit(m);
		return r;
	case SLEEB_PLAN_INVALID:
		if (!c->warned)
			log_error("%s: the matching policy gives values the kernel would reject: %s", c->name, err.msg);
		c->warned = true;
		m->n_failures++;
		c->has_target = false;
		set_reason(&c->last_reason, "policy invalid here: %s", err.msg);
		return -EINVAL;
	case SLEEB_PLAN_POLICY:
		break;
	}

	/* The original is what the cache had when a policy first took it,
	 * written to or not: were it recorded at the first write, a restore
	 * after drift would record the outside value as the original. */
	if (!m->opts.dry_run && sleeb_state_remember(&m->state, c->id, &c->cur) > 0)
		state_commit(m);
	if (autotune_plan_unchanged(c, &plan)) {
		/* Off its target meanwhile: manager_verify() puts it back. */
		set_reason(&c->last_reason, "%s: policy unchanged, auto-tuned size %u/%u/%u kept", why,
			   c->target.v[0], c->target.v[1], c->target.v[2]);
		return 0;
	}
	was_autotuned = c->autotune && c->has_target;
	c->autotune = plan.autotune;
	if (c->autotune) {
		c->at_min = plan.autotune_min;
		c->at_max = plan.autotune_max;
		memset(&c->at, 0, sizeof(c->at));
		c->have_prev = false;
	}
	c->target = c->planned = plan.target;
	c->has_target = true;
	/* Taken for auto-tuning now (start, a new cache, a reload that made
	 * it auto-tuned): it starts where it ended last time. A reload that
	 * changed its auto-tuned policy starts it again from the plan. */
	if (c->autotune && !was_autotuned && learned_start(m, c, &plan.target, &c->target))
		learned = true;
	/* A new target: drift is measured, and reported, from here. */
	c->drift_streak = 0;
	c->drift_next_usec = 0;
	c->drift_logged = false;

	o = first_origin(&plan.effective);
	if (o && o->file)
		snprintf(reason, sizeof(reason), "%s, policy %s:%u%s", why, o->file, o->line,
			 learned ? ", learned size" : "");
	else
		snprintf(reason, sizeof(reason), "%s, policy%s", why, learned ? ", learned size" : "");
	return cache_write(m, c, &c->target, DECISION_POLICY, reason);
}

void refresh_tunables(struct cache *c, const struct sleeb_cache *sc)
{
	c->object_size = sc->si.objsize;
	c->has_queues = sc->has_queues;
	c->cur = sc->tunables;
}

/* The same from a full scan, which also has slabinfo and queue_stats. */
static void refresh_from(struct cache *c, const struct sleeb_cache *sc)
{
	refresh_tunables(c, sc);
	c->has_slabinfo = true;
	c->active_objs = sc->si.active_objs;
	c->num_objs = sc->si.num_objs;
	c->slab_bytes = sleeb_cache_memory(sc);
	/* A skipped read keeps the last counters (status shows them). */
	if (!c->stats_skipped) {
		c->has_stats = sc->has_stats;
		c->stats = sc->stats;
	}
}

static uint64_t now_realtime_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t) ts.tv_sec * SLEEB_USEC_PER_SEC + (uint64_t) ts.tv_nsec / 1000;
}

static void set_monitor_only(Manager *m, bool on)
{
	if (on == m->monitor_only)
		return;
	m->monitor_only = on;
	if (on)
		log_warning("this kernel has no SLEEB queue attributes (cpu_queue_size): monitor-only mode, nothing is written");
	else
		log_notice("SLEEB queue attributes present: tuning enabled");
}

/*
 * A cache a uevent found (KOBJ_ADD) may not be in /proc/slabinfo yet: it
 * is not gone, nor its original, while its sysfs directory is there (its
 * KOBJ_REMOVE, or a rescan without the directory, drops it).
 */
static bool still_in_sysfs(const struct cache *c)
{
	struct stat st;

	return c->has_queues && sleeb_sysfs_stat(c->id, NULL, &st) == 0;
}

/* The static policy for every cache of m->snap (all) or the new ones. */
static int apply_policy_snap(Manager *m, bool all, const char *reason)
{
	const struct sleeb_cache_set *snap = &m->snap;
	unsigned failures = m->n_failures;
	int r, ret = 0;

	set_monitor_only(m, !snap->sleeb_kernel);

	for (size_t i = 0; i < m->n_caches; i++)
		m->caches[i].seen = false;

	for (size_t i = 0; i < snap->n; i++) {
		const struct sleeb_cache *sc = &snap->caches[i];
		bool is_new;
		struct cache *c = cache_add(m, sc->id, sc->si.name, &is_new);

		if (!c) {
			ret = log_error_errno(-ENOMEM, "out of memory");
			break;
		}
		c->seen = true;
		/* The name /proc/slabinfo shows, over the one a uevent found. */
		sleeb_strscpy(c->name, sc->si.name, sizeof(c->name));
		/* Always refresh: sleebctl status shows current values, which
		 * someone else (sleebctl set) may have changed. */
		refresh_from(c, sc);
		if (!all && !is_new)
			continue;
		if (m->monitor_only || !sc->has_queues)
			continue;
		r = cache_apply_policy(m, c, sc, is_new && !all ? "new cache (rescan)" : reason);
		if (r == -ENOMEM)
			ret = r;
	}

	/* Caches that are gone: their originals no longer matter. */
	for (size_t i = m->n_caches; i > 0; i--) {
		struct cache *c = &m->caches[i - 1];

		if (c->seen || still_in_sysfs(c))
			continue;
		log_debug("%s: cache destroyed", c->name);
		if (!m->opts.dry_run && sleeb_state_forget(&m->state, c->id) > 0)
			state_commit(m);
		cache_remove(m, c);
	}
	if (ret == 0 && m->n_failures == failures && !m->monitor_only && !m->opts.dry_run)
		m->last_apply_usec = now_realtime_usec();
	return ret;
}

int manager_apply_policy(Manager *m, bool all, const char *reason)
{
	int r;

	/* Start and reload: a fresh listing of /sys/kernel/slab (aliases
	 * may have changed without a uevent), every target verified and
	 * every auto-tuned cache read once, moved or not. */
	sleeb_reader_forget(m->reader, NULL);
	for (size_t i = 0; i < m->n_caches; i++)
		m->caches[i].stats_due = true;
	r = manager_snapshot(m, true);
	if (r < 0)
		return r;
	return apply_policy_snap(m, all, reason);
}

int manager_rescan(Manager *m)
{
	return apply_policy_snap(m, false, "rescan");
}
