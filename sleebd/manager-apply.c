/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Applying policy and auto-tuning decisions to caches: the only place
 * sleebd writes tunables. Originals are recorded in the state file when a
 * policy first takes a cache, before any write, so a SIGKILL never loses
 * them.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "log.h"
#include "manager.h"
#include "sleeb/match.h"
#include "sleeb/meminfo.h"
#include "sleeb/parse.h"
#include "sleeb/plan.h"
#include "sleeb/util.h"

static const char *const decision_reasons[_DECISION_MAX] = {
	[DECISION_POLICY] = "policy",
	[DECISION_UNMATCHED] = "unmatched",
	[DECISION_AUTOTUNE_GROW] = "autotune-grow",
	[DECISION_AUTOTUNE_SHRINK] = "autotune-shrink",
	[DECISION_DRIFT] = "drift",
};

const char *decision_reason_to_string(enum decision_reason r)
{
	if ((unsigned) r >= _DECISION_MAX)
		return NULL;
	return decision_reasons[r];
}

static bool tunables_equal(const struct sleeb_tunables *a, const struct sleeb_tunables *b)
{
	return memcmp(a->v, b->v, sizeof(a->v)) == 0;
}

/*
 * Every decision to change a cache while sleebd runs goes through here:
 * one journal entry with REASON=, one count in
 * sleeb_decisions_total{reason=...}.
 */
static void decision(Manager *m, const char *cache, const struct sleeb_tunables *old,
		     const struct sleeb_tunables *new, enum decision_reason kind, const char *reason)
{
	m->n_decisions[kind]++;
	log_change(cache, old, new, decision_reason_to_string(kind), reason, m->opts.dry_run);
}

/*
 * Caches are known by their sysfs id, not by a name: a merged cache has
 * several names, and the uevent (the directory) and the rescan (the
 * /proc/slabinfo name) would otherwise make two entries of one kmem_cache,
 * one of which the next rescan drops with its recorded original.
 * Snapshots come in /proc/slabinfo order, the order caches were added in:
 * looking right after the last match first makes a pass over a snapshot
 * linear rather than quadratic in the number of caches.
 */
static struct cache *cache_find(Manager *m, const char *id)
{
	size_t h = m->find_hint;

	if (h < m->n_caches && strcmp(m->caches[h].id, id) == 0) {
		m->find_hint = h + 1;
		return &m->caches[h];
	}
	for (size_t i = 0; i < m->n_caches; i++)
		if (strcmp(m->caches[i].id, id) == 0) {
			m->find_hint = i + 1;
			return &m->caches[i];
		}
	return NULL;
}

/* The entry for id, made (named name) if new. */
static struct cache *cache_add(Manager *m, const char *id, const char *name, bool *is_new)
{
	struct cache *c = cache_find(m, id), *t;

	*is_new = false;
	if (c)
		return c;
	t = realloc(m->caches, (m->n_caches + 1) * sizeof(*t));
	if (!t)
		return NULL;
	m->caches = t;
	c = &m->caches[m->n_caches++];
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	snprintf(c->name, sizeof(c->name), "%s", name);
	*is_new = true;
	return c;
}

/* Sets *where to a new string (NULL when empty or out of memory: the
 * status then says "-"; nothing else depends on it). */
static void set_reason(char **where, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s && !*s) {
		free(s);
		s = NULL;       /* "" is no reason, as before */
	}
	free(*where);
	*where = s;
}

void cache_done(struct cache *c)
{
	free(c->last_reason);
	free(c->drift_reason);
	c->last_reason = c->drift_reason = NULL;
}

static void cache_remove(Manager *m, struct cache *c)
{
	size_t i = (size_t) (c - m->caches);

	cache_done(c);

	memmove(c, c + 1, (m->n_caches - i - 1) * sizeof(*c));
	m->n_caches--;
}

/* Saves the rollback state; a failure is reported once, never fatal. */
static void state_commit(Manager *m)
{
	struct sleeb_error err = { 0 };
	int r;

	if (m->opts.dry_run)
		return;
	r = sleeb_state_save(&m->state, &err);
	if (r < 0 && !m->state_error_logged) {
		log_error_errno(r, "%s; originals are kept in memory only and are lost if sleebd is killed", err.msg);
		m->state_error_logged = true;
	} else if (r == 0)
		m->state_error_logged = false;
}

/*
 * Takes a cache from c->cur to target. Returns 0 (also when the cache
 * vanished: that is not an error), or the kernel's -errno after logging
 * it once per cache.
 */
static int cache_write(Manager *m, struct cache *c, const struct sleeb_tunables *target,
		       enum decision_reason kind, const char *reason)
{
	struct sleeb_error err = { 0 };
	int r;

	set_reason(&c->last_reason, "%s%s", m->opts.dry_run ? "dry run: " : "", reason);
	if (tunables_equal(&c->cur, target))
		return 0;

	if (m->opts.dry_run) {
		decision(m, c->name, &c->cur, target, kind, reason);
		return 0;
	}

	/* Originals first: if we die right after the write, the next start
	 * must still know what the kernel had. */
	if (sleeb_state_remember(&m->state, c->id, &c->cur) > 0)
		state_commit(m);

	r = sleeb_tunables_apply(c->name, &c->cur, target, NULL, NULL, &err);
	if (r == -ENOENT) {
		log_debug("%s vanished before it could be tuned", c->name);
		if (sleeb_state_forget(&m->state, c->id) > 0)
			state_commit(m);
		return 0;
	}
	if (r < 0) {
		if (!c->warned)
			log_error_errno(r, "%s", err.msg);
		c->warned = true;
		m->n_failures++;
		c->write_failed = true;
		set_reason(&c->last_reason, "write failed: %s", err.msg);
		return r;
	}
	/* A restore after drift is logged with its reason once per cache
	 * (manager_verify()); later ones are counted, and debug only. */
	if (kind == DECISION_DRIFT && c->drift_logged) {
		m->n_decisions[kind]++;
		log_debug("%s: drift: target %u/%u/%u restored (%s)", c->name, target->v[0], target->v[1],
			  target->v[2], reason);
	} else
		decision(m, c->name, &c->cur, target, kind, reason);
	c->cur = *target;
	c->warned = false;
	c->write_failed = false;
	m->n_changes++;
	return 0;
}

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
static int cache_apply_policy(Manager *m, struct cache *c, const struct sleeb_cache *sc, const char *why)
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
	c->autotune = plan.autotune;
	if (c->autotune) {
		c->at_min = plan.autotune_min;
		c->at_max = plan.autotune_max;
		memset(&c->at, 0, sizeof(c->at));
		c->have_prev = false;
	}
	c->target = c->planned = plan.target;
	c->has_target = true;
	/* A new target: drift is measured, and reported, from here. */
	c->drift_streak = 0;
	c->drift_next_usec = 0;
	c->drift_logged = false;

	o = first_origin(&plan.effective);
	if (o && o->file)
		snprintf(reason, sizeof(reason), "%s, policy %s:%u", why, o->file, o->line);
	else
		snprintf(reason, sizeof(reason), "%s, policy", why);
	return cache_write(m, c, &plan.target, DECISION_POLICY, reason);
}

static void refresh_tunables(struct cache *c, const struct sleeb_cache *sc)
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
	 * may have changed without a uevent) and every target verified. */
	sleeb_reader_forget(m->reader, NULL);
	for (size_t i = 0; i < m->n_caches; i++)
		m->caches[i].quiet_skips = 0;
	r = manager_snapshot(m, true);
	if (r < 0)
		return r;
	return apply_policy_snap(m, all, reason);
}

int manager_rescan(Manager *m)
{
	return apply_policy_snap(m, false, "rescan");
}

/*
 * A cache others may merge with gets its sysfs directory, and so its
 * KOBJ_ADD, under a unique id such as ":0000128"; the policies know it by
 * its names, symlinks to the id that the kernel creates right after
 * sending the uevent. Finds them (the first as the name, the others as
 * aliases; the plan tries all of them in one order, so the section is the
 * one a rescan would choose) in one listing. Returns 0, or -ENOENT (no
 * link yet).
 */
static int names_for_sysfs_id(const char *id, struct sleeb_cache *ret, char *aliases, size_t size)
{
	struct sleeb_sysfs_list list;
	struct sleeb_error err = { 0 };
	bool found = false;

	if (sleeb_sysfs_list_caches(&list, &err) < 0)
		return -ENOENT;
	for (size_t i = 0; i < list.n && !found; i++) {
		const struct sleeb_sysfs_entry *e = &list.entries[i];

		if (e->is_link && e->name[0] != ':' && strcmp(e->id, id) == 0) {
			snprintf(ret->si.name, sizeof(ret->si.name), "%s", e->name);
			ret->naliases = sleeb_sysfs_list_aliases(&list, e->name, aliases, size);
			ret->aliases = aliases;
			found = true;
		}
	}
	sleeb_sysfs_list_free(&list);
	return found ? 0 : -ENOENT;
}

/*
 * A merged cache whose names are not linked yet is looked for again from
 * a timer, never by sleeping in the event loop (which once listed the
 * whole slab directory up to 20 times, a millisecond apart, per uevent):
 * after 1, 2, 4 ... 512 ms, about a second in all, then the rescan finds
 * it by its /proc/slabinfo name.
 */
#define NAME_RETRY_FIRST_USEC 1000
#define NAME_RETRY_MAX 10

struct name_retry {
	Manager *m;
	struct name_retry *next;
	sd_event_source *timer;
	unsigned attempt;
	char id[SLEEB_CACHE_NAME_MAX];
};

static void name_retry_free(struct name_retry *nr)
{
	struct name_retry **p = &nr->m->name_retries;

	while (*p != nr)
		p = &(*p)->next;
	*p = nr->next;
	sd_event_source_disable_unref(nr->timer);
	free(nr);
}

void manager_name_retries_free(Manager *m)
{
	while (m->name_retries)
		name_retry_free(m->name_retries);
}

static int apply_from_sysfs(Manager *m, const char *id, const char *reason);

static int on_name_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct name_retry *nr = userdata;

	(void) usec;
	if (apply_from_sysfs(nr->m, nr->id, "new cache (uevent)") != 1) {
		name_retry_free(nr);
		return 0;
	}
	if (++nr->attempt >= NAME_RETRY_MAX) {
		log_debug("%s: no cache name links to it yet; leaving it to the rescan", nr->id);
		name_retry_free(nr);
		return 0;
	}
	if (sd_event_source_set_time_relative(s, (uint64_t) NAME_RETRY_FIRST_USEC << nr->attempt) < 0 ||
	    sd_event_source_set_enabled(s, SD_EVENT_ONESHOT) < 0)
		name_retry_free(nr);
	return 0;
}

/* Looks for @id's names again later (once per id); 0 or -errno. */
static int name_retry_add(Manager *m, const char *id)
{
	struct name_retry *nr;
	int r;

	for (nr = m->name_retries; nr; nr = nr->next)
		if (strcmp(nr->id, id) == 0)
			return 0;
	nr = calloc(1, sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	nr->m = m;
	snprintf(nr->id, sizeof(nr->id), "%s", id);
	r = sd_event_add_time_relative(m->event, &nr->timer, CLOCK_MONOTONIC, NAME_RETRY_FIRST_USEC, 0,
				       on_name_retry, nr);
	if (r < 0) {
		free(nr);
		return r;
	}
	(void) sd_event_source_set_description(nr->timer, "uevent-names");
	nr->next = m->name_retries;
	m->name_retries = nr;
	return 0;
}

/* The policy for one cache, from sysfs alone. 1: a merged cache whose
 * names are not linked yet. */
static int apply_from_sysfs(Manager *m, const char *id, const char *reason)
{
	struct sleeb_error err = { 0 };
	struct sleeb_cache one;
	char aliases[SLEEB_ALIASES_MAX];
	struct cache *c;
	uint64_t size;
	bool is_new;
	int r;

	/* From sysfs alone, which is all a KOBJ_ADD promises (the cache may
	 * not be in /proc/slabinfo yet), and only this cache: a full scan
	 * of every cache costs tens of milliseconds in a slow VM, and new
	 * caches must be tuned within 100 ms. The directory is the id the
	 * rescan knows the cache by too; its name is one that links to it. */
	memset(&one, 0, sizeof(one));
	one.aliases = "";
	snprintf(one.id, sizeof(one.id), "%s", id);
	if (id[0] == ':') {
		if (names_for_sysfs_id(id, &one, aliases, sizeof(aliases)) < 0)
			return 1;
		log_debug("uevent for %s: the cache is %s", id, one.si.name);
	} else
		snprintf(one.si.name, sizeof(one.si.name), "%s", id);
	if (one.naliases < 0)
		one.naliases = 0;       /* cut short: the names that fit still match */
	r = sleeb_sysfs_read_u64(id, "object_size", &size, &err);
	if (r == 0 && size > UINT32_MAX)
		r = -ERANGE;
	if (r == 0) {
		one.si.objsize = (uint32_t) size;
		r = sleeb_tunables_read(id, &one.tunables, &err);
		one.has_queues = r == 0;
	}
	if (r < 0 && r != -EOPNOTSUPP) {
		log_debug("%s: gone before it could be read", one.si.name);
		return 0;
	}
	one.has_sysfs = true;
	c = cache_add(m, id, one.si.name, &is_new);
	if (!c)
		return log_error_errno(-ENOMEM, "out of memory");
	c->seen = true;
	/* Tunables only: the slabinfo numbers come with the next rescan. */
	refresh_tunables(c, &one);
	if (m->monitor_only || !one.has_queues)
		return 0;
	return cache_apply_policy(m, c, &one, reason);
}

int manager_apply_cache(Manager *m, const char *id, const char *reason)
{
	int r = apply_from_sysfs(m, id, reason);

	if (r != 1)
		return r;
	log_debug("%s: no cache name links to it yet; looking again from a timer", id);
	r = name_retry_add(m, id);
	return r < 0 ? log_error_errno(r, "%s: cannot look for its names later: %m", id) : 0;
}

void manager_drop_cache(Manager *m, const char *id)
{
	struct cache *c = cache_find(m, id);

	/* Removed before its names came: nothing to look for. */
	for (struct name_retry *nr = m->name_retries; nr; nr = nr->next)
		if (strcmp(nr->id, id) == 0) {
			name_retry_free(nr);
			break;
		}

	if (!m->opts.dry_run && sleeb_state_forget(&m->state, id) > 0)
		state_commit(m);
	if (c)
		cache_remove(m, c);
}

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

int manager_restore_all(Manager *m)
{
	struct sleeb_error err = { 0 };
	int ret = 0;

	if (m->opts.dry_run)
		return 0;

	for (size_t i = m->state.n; i > 0; i--) {
		const struct sleeb_state_entry *e = &m->state.entries[i - 1];
		const struct cache *c = cache_find(m, e->cache);
		struct sleeb_tunables cur;
		char name[SLEEB_CACHE_NAME_MAX], who[2 * SLEEB_CACHE_NAME_MAX + 4];
		int r;

		/* Keyed by the sysfs id, which is a directory: read and write
		 * through it, and say the cache's name where it is known. */
		snprintf(name, sizeof(name), "%s", e->cache);
		if (c && strcmp(c->name, name) != 0)
			snprintf(who, sizeof(who), "%s (%s)", c->name, name);
		else
			snprintf(who, sizeof(who), "%s", name);
		r = sleeb_tunables_read(name, &cur, &err);
		if (r == -ENOENT) {
			sleeb_state_forget(&m->state, name);
			continue;
		}
		if (r < 0) {
			ret = log_error_errno(r, "%s: cannot read for rollback: %s", who, err.msg);
			continue;
		}
		if (!tunables_equal(&cur, &e->orig)) {
			struct sleeb_tunables orig = e->orig;

			r = sleeb_tunables_apply(name, &cur, &orig, NULL, NULL, &err);
			if (r < 0 && r != -ENOENT) {
				ret = log_error_errno(r, "rollback failed: %s", err.msg);
				continue;
			}
			/* Logged, not counted: the textfile goes away on stop. */
			if (r == 0)
				log_change(who, &cur, &orig, "rollback", "rollback to original", false);
		}
		sleeb_state_forget(&m->state, name);
	}
	state_commit(m);
	/* What failed stays in the state file, for the unit's
	 * ExecStopPost= (sleebd --restore-only) or the next start. */
	if (ret < 0)
		log_error("%zu original%s not restored, kept in %s", m->state.n, m->state.n == 1 ? "" : "s",
			  m->state_path);
	return ret;
}
