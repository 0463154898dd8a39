/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebd's table of caches, and the one place sleebd writes tunables
 * (cache_write()). Originals are recorded in the state file when a policy
 * first takes a cache, before any write, so a SIGKILL never loses them.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager-internal.h"

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
struct cache *cache_find(Manager *m, const char *id)
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
struct cache *cache_add(Manager *m, const char *id, const char *name, bool *is_new)
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
void set_reason(char **where, const char *fmt, ...)
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

void cache_remove(Manager *m, struct cache *c)
{
	size_t i = (size_t) (c - m->caches);

	cache_done(c);

	memmove(c, c + 1, (m->n_caches - i - 1) * sizeof(*c));
	m->n_caches--;
}

/* Saves the rollback state; a failure is reported once, never fatal. */
void state_commit(Manager *m)
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
int cache_write(Manager *m, struct cache *c, const struct sleeb_tunables *target,
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
	/* Every decision but the policy's and the drift's own is
	 * auto-tuning's: the next start begins there. */
	if (c->autotune && kind != DECISION_POLICY && kind != DECISION_UNMATCHED && kind != DECISION_DRIFT)
		learned_note(m, c, target);
	c->cur = *target;
	c->warned = false;
	c->write_failed = false;
	m->n_changes++;
	return 0;
}
