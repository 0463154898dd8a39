/* SPDX-License-Identifier: GPL-2.0-only */
/* Snapshot of every cache: slabinfo joined with sysfs (see sleeb/cache.h). */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sleeb/cache.h"

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

static int cache_append(const struct sleeb_slabinfo_entry *e, void *userdata)
{
	struct sleeb_cache_set *set = userdata;
	struct sleeb_cache *n;

	/* Grow by doubling; set->n is also the capacity marker since we
	 * only ever append here. */
	if ((set->n & (set->n - 1)) == 0) {
		n = reallocarray(set->caches, set->n ? set->n * 2 : 1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		set->caches = n;
	}
	n = &set->caches[set->n++];
	memset(n, 0, sizeof(*n));
	n->si = *e;
	snprintf(n->id, sizeof(n->id), "%s", e->name);
	n->tunables.v[SLEEB_TUNABLE_QUEUE] = e->limit;
	n->tunables.v[SLEEB_TUNABLE_BATCH] = e->batchcount;
	n->tunables.v[SLEEB_TUNABLE_SHARED] = e->sharedfactor;
	return 0;
}

static int cache_load_sysfs(struct sleeb_cache *c, const struct sleeb_sysfs_list *list,
			    struct sleeb_error *err)
{
	const char *id = sleeb_sysfs_list_id(list, c->si.name);
	int r;

	if (!id)
		return 0;
	c->has_sysfs = true;
	snprintf(c->id, sizeof(c->id), "%s", id);
	r = sleeb_sysfs_list_aliases(list, c->si.name, c->aliases, sizeof(c->aliases));
	c->naliases = r == -ENOBUFS ? 0 : r;
	if (r == -ENOBUFS) {
		/* Still count them: the list was only cut short for display. */
		size_t i;

		for (i = 0; i < list->n; i++)
			if (strcmp(list->entries[i].id, id) == 0 &&
			    strcmp(list->entries[i].name, c->si.name) != 0 &&
			    list->entries[i].name[0] != ':')
				c->naliases++;
	}
	r = sleeb_tunables_read(c->si.name, &c->tunables, err);
	if (r == -EOPNOTSUPP)
		return 0;
	if (r < 0)
		return r;
	c->has_queues = true;
	r = sleeb_sysfs_read_queue_stats(c->si.name, &c->stats, err);
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	c->has_stats = true;
	return 0;
}

int sleeb_cache_set_load(struct sleeb_cache_set *out, struct sleeb_error *err)
{
	struct sleeb_sysfs_list list = { 0 };
	size_t i;
	int r;

	memset(out, 0, sizeof(*out));
	out->timestamp_usec = now_usec();
	r = sleeb_slabinfo_read(cache_append, out, err);
	if (r == -ENOMEM)
		sleeb_error_set(err, ENOMEM, "slabinfo: out of memory");
	if (r < 0)
		goto fail;
	/* Without sysfs, non-zero tunables in slabinfo still prove SLEEB. */
	for (i = 0; i < out->n; i++)
		if (out->caches[i].si.limit)
			out->sleeb_kernel = true;
	r = sleeb_sysfs_list_caches(&list, err);
	if (r == -ENOENT) {
		sleeb_error_clear(err);
		return (int)out->n;
	}
	if (r < 0)
		goto fail;
	for (i = 0; i < out->n; i++) {
		r = cache_load_sysfs(&out->caches[i], &list, err);
		if (r < 0)
			goto fail;
		if (out->caches[i].has_queues)
			out->sleeb_kernel = true;
	}
	sleeb_sysfs_list_free(&list);
	sleeb_error_clear(err);
	return (int)out->n;
fail:
	sleeb_sysfs_list_free(&list);
	sleeb_cache_set_free(out);
	return r;
}

void sleeb_cache_set_free(struct sleeb_cache_set *set)
{
	free(set->caches);
	set->caches = NULL;
	set->n = 0;
}

const struct sleeb_cache *sleeb_cache_set_find(const struct sleeb_cache_set *set,
					       const char *name)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->caches[i].si.name, name) == 0)
			return &set->caches[i];
	return NULL;
}

bool sleeb_cache_has_tunables(const struct sleeb_cache *c)
{
	return c->has_queues || c->si.limit || c->si.batchcount || c->si.sharedfactor;
}

uint64_t sleeb_cache_memory(const struct sleeb_cache *c)
{
	uint64_t pages, bytes;
	long ps = sysconf(_SC_PAGESIZE);

	if (__builtin_mul_overflow(c->si.num_slabs, (uint64_t)c->si.pagesperslab, &pages) ||
	    __builtin_mul_overflow(pages, (uint64_t)(ps > 0 ? ps : 4096), &bytes))
		return UINT64_MAX;
	return bytes;
}

uint64_t sleeb_cache_waste(const struct sleeb_cache *c)
{
	uint64_t unused, bytes;

	if (c->si.active_objs >= c->si.num_objs)
		return 0;
	unused = c->si.num_objs - c->si.active_objs;
	if (__builtin_mul_overflow(unused, (uint64_t)c->si.objsize, &bytes))
		return UINT64_MAX;
	return bytes;
}

unsigned sleeb_cache_use_percent(const struct sleeb_cache *c)
{
	if (c->si.num_objs == 0)
		return 0;
	if (c->si.active_objs >= c->si.num_objs)
		return 100;
	return (unsigned)((c->si.active_objs * 100.0) / (double)c->si.num_objs);
}
