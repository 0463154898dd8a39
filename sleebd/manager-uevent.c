/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A cache that appears or goes between rescans (uevent KOBJ_ADD and
 * KOBJ_REMOVE): its policy from sysfs alone, and the names of merged
 * caches looked for again from a timer.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "manager-internal.h"

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
