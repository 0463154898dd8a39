/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * What the manager-*.c files share and nothing else uses: the table of
 * caches (manager-cache.c), the one function that writes tunables, and the
 * policy step the rescan and the uevent path both take (manager-policy.c).
 */

#include <stdbool.h>
#include <string.h>

#include "manager.h"

static inline bool tunables_equal(const struct sleeb_tunables *a, const struct sleeb_tunables *b)
{
	return memcmp(a->v, b->v, sizeof(a->v)) == 0;
}

/* ---- manager-cache.c ---- */

/*
 * The entry for a sysfs id, or NULL. Looks right after the last match
 * first: a pass over a snapshot in /proc/slabinfo order is linear.
 */
struct cache *cache_find(Manager *m, const char *id);

/* The entry for id, made (named name, *is_new set) if new; NULL: no memory. */
struct cache *cache_add(Manager *m, const char *id, const char *name, bool *is_new);

/* Forgets c (its entry moves; pointers into m->caches are stale after). */
void cache_remove(Manager *m, struct cache *c);

/* Sets *where to a new string (NULL when empty or out of memory). */
void set_reason(char **where, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Saves the rollback state; a failure is reported once, never fatal. */
void state_commit(Manager *m);

/*
 * Takes a cache from c->cur to target, recording its original first; one
 * decision of kind. Returns 0 (also when the cache vanished), or the
 * kernel's -errno after logging it once per cache.
 */
int cache_write(Manager *m, struct cache *c, const struct sleeb_tunables *target,
		enum decision_reason kind, const char *reason);

/* ---- manager-policy.c ---- */

/* The static policy for one cache already refreshed from sc. */
int cache_apply_policy(Manager *m, struct cache *c, const struct sleeb_cache *sc, const char *why);

/* c's size and tunables from sc (sysfs alone: no slabinfo numbers). */
void refresh_tunables(struct cache *c, const struct sleeb_cache *sc);

/* ---- manager-learned.c ---- */

/* Records v as c's learned size and saves the file when it changed. */
void learned_note(Manager *m, const struct cache *c, const struct sleeb_tunables *v);

/*
 * Where the auto-tuned c (its bounds set) starts instead of plan: true
 * with its learned size, clamped to its bounds and the budget, in *ret.
 */
bool learned_start(Manager *m, const struct cache *c, const struct sleeb_tunables *plan, struct sleeb_tunables *ret);
