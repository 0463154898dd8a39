/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl show: one row per cache, sortable like slabtop, or JSON. */

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/cache.h"
#include "sleeb/parse.h"
#include "sleeb/util.h"
#include "verbs.h"

enum sort_key {
	SORT_NAME, SORT_OBJECTS, SORT_ACTIVE, SORT_USE, SORT_SIZE, SORT_SLABS,
	SORT_ACTIVE_SLABS, SORT_OBJ_PER_SLAB, SORT_PAGES_PER_SLAB, SORT_MEMORY,
	SORT_QUEUE, SORT_BATCH, SORT_SHARED,
};

/* slabtop's one-letter keys plus words. */
static const struct {
	const char *letter, *word;
	enum sort_key key;
} sort_keys[] = {
	{ "n", "name", SORT_NAME },
	{ "o", "objects", SORT_OBJECTS },
	{ "a", "active", SORT_ACTIVE },
	{ "u", "use", SORT_USE },
	{ "s", "size", SORT_SIZE },
	{ "l", "slabs", SORT_SLABS },
	{ "v", "active-slabs", SORT_ACTIVE_SLABS },
	{ "b", "objs-per-slab", SORT_OBJ_PER_SLAB },
	{ "p", "pages-per-slab", SORT_PAGES_PER_SLAB },
	{ "c", "memory", SORT_MEMORY },
	{ "q", "queue", SORT_QUEUE },
	{ "B", "batch", SORT_BATCH },
	{ "S", "shared", SORT_SHARED },
};

static int parse_sort_key(const char *s, enum sort_key *ret)
{
	size_t i;

	for (i = 0; i < SLEEB_ELEMENTSOF(sort_keys); i++) {
		if (strcmp(s, sort_keys[i].letter) == 0 || strcmp(s, sort_keys[i].word) == 0) {
			*ret = sort_keys[i].key;
			return 0;
		}
	}
	return -1;
}

static uint64_t sort_value(const struct sleeb_cache *c, enum sort_key k)
{
	switch (k) {
	case SORT_OBJECTS: return c->si.num_objs;
	case SORT_ACTIVE: return c->si.active_objs;
	case SORT_USE: return sleeb_cache_use_percent(c);
	case SORT_SIZE: return c->si.objsize;
	case SORT_SLABS: return c->si.num_slabs;
	case SORT_ACTIVE_SLABS: return c->si.active_slabs;
	case SORT_OBJ_PER_SLAB: return c->si.objperslab;
	case SORT_PAGES_PER_SLAB: return c->si.pagesperslab;
	case SORT_MEMORY: return sleeb_cache_memory(c);
	case SORT_QUEUE: return c->tunables.v[SLEEB_TUNABLE_QUEUE];
	case SORT_BATCH: return c->tunables.v[SLEEB_TUNABLE_BATCH];
	case SORT_SHARED: return c->tunables.v[SLEEB_TUNABLE_SHARED];
	case SORT_NAME: break;
	}
	return 0;
}

/* qsort has no context argument; qsort_r (glibc) does. */
static int compare(const void *a, const void *b, void *arg)
{
	const struct sleeb_cache *x = *(const struct sleeb_cache *const *)a;
	const struct sleeb_cache *y = *(const struct sleeb_cache *const *)b;
	enum sort_key k = *(enum sort_key *)arg;
	uint64_t vx, vy;

	if (k != SORT_NAME) {
		/* Numbers sort largest first, like slabtop. */
		vx = sort_value(x, k);
		vy = sort_value(y, k);
		if (vx != vy)
			return vx < vy ? 1 : -1;
	}
	return strcmp(x->si.name, y->si.name);
}

static void print_tunable(const struct sleeb_cache *c, enum sleeb_tunable t)
{
	if (sleeb_cache_has_tunables(c))
		printf(" %6u", c->tunables.v[t]);
	else
		printf(" %6s", "n/a");
}

static void print_table(const struct sleeb_cache_set *set, struct sleeb_cache **rows, size_t n)
{
	int w = 4;
	size_t i;

	for (i = 0; i < n; i++)
		if ((int)strlen(rows[i]->si.name) > w)
			w = (int)strlen(rows[i]->si.name);
	printf("%-*s %8s %9s %9s %4s %7s %9s %6s %6s %6s  %s\n", w, "NAME", "OBJ-SIZE", "ACTIVE",
	       "OBJS", "USE", "SLABS", "MEMORY", "QUEUE", "BATCH", "SHARED", "ALIASES");
	for (i = 0; i < n; i++) {
		const struct sleeb_cache *c = rows[i];
		char mem[32];

		printf("%-*s %8u %9llu %9llu %3u%% %7llu %9s", w, c->si.name, c->si.objsize,
		       (unsigned long long)c->si.active_objs, (unsigned long long)c->si.num_objs,
		       sleeb_cache_use_percent(c), (unsigned long long)c->si.num_slabs,
		       sleeb_format_size(sleeb_cache_memory(c), mem, sizeof(mem)));
		print_tunable(c, SLEEB_TUNABLE_QUEUE);
		print_tunable(c, SLEEB_TUNABLE_BATCH);
		print_tunable(c, SLEEB_TUNABLE_SHARED);
		printf("  %s\n", c->naliases ? c->aliases : "-");
	}
	if (!set->sleeb_kernel)
		printf("# this kernel has no SLEEB queues (no cpu_queue_size in sysfs): queue columns n/a\n");
}

static void print_json(const struct sleeb_cache_set *set, struct sleeb_cache **rows, size_t n)
{
	size_t i;

	printf("{\"version\":1,\"sleeb_kernel\":%s,\"caches\":[", set->sleeb_kernel ? "true" : "false");
	for (i = 0; i < n; i++) {
		const struct sleeb_cache *c = rows[i];

		printf("%s{\"name\":", i ? "," : "");
		sleeb_json_print_string(stdout, c->si.name);
		printf(",\"object_size\":%u,\"active_objects\":%llu,\"total_objects\":%llu,"
		       "\"use_percent\":%u,\"objects_per_slab\":%u,\"pages_per_slab\":%u,"
		       "\"active_slabs\":%llu,\"slabs\":%llu,\"memory_bytes\":%llu,\"queue\":",
		       c->si.objsize, (unsigned long long)c->si.active_objs,
		       (unsigned long long)c->si.num_objs, sleeb_cache_use_percent(c),
		       c->si.objperslab, c->si.pagesperslab,
		       (unsigned long long)c->si.active_slabs, (unsigned long long)c->si.num_slabs,
		       (unsigned long long)sleeb_cache_memory(c));
		if (sleeb_cache_has_tunables(c))
			printf("{\"cpu_queue_size\":%u,\"cpu_batch_size\":%u,\"shared_queue_size\":%u,"
			       "\"shared_available\":%llu}",
			       c->tunables.v[SLEEB_TUNABLE_QUEUE], c->tunables.v[SLEEB_TUNABLE_BATCH],
			       c->tunables.v[SLEEB_TUNABLE_SHARED],
			       (unsigned long long)c->si.sharedavail);
		else
			printf("null");
		printf(",\"aliases\":");
		sleeb_json_print_list(stdout, c->naliases ? c->aliases : "");
		putchar('}');
	}
	printf("]}\n");
}

/* A merged cache appears once in slabinfo under one name: let its other
 * names find it too. */
static bool show_matches(const struct sleeb_cache *c, char **globs, size_t n)
{
	char copy[SLEEB_ALIASES_MAX], *save = NULL, *alias;

	if (sleeb_glob_match_any(globs, n, c->si.name))
		return true;
	if (c->naliases <= 0)
		return false;
	snprintf(copy, sizeof(copy), "%s", c->aliases);
	for (alias = strtok_r(copy, ",", &save); alias; alias = strtok_r(NULL, ",", &save))
		if (sleeb_glob_match_any(globs, n, alias))
			return true;
	return false;
}

int verb_show(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "sort", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	struct sleeb_cache **rows;
	enum sort_key key = SORT_OBJECTS;
	bool json = false;
	size_t i, n = 0;
	int c, r;

	while ((c = getopt_long(argc, argv, "s:jh", options, NULL)) >= 0) {
		switch (c) {
		case 's':
			if (parse_sort_key(optarg, &key) < 0)
				return sleebctl_usage_error("show: unknown sort key '%s'", optarg);
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			printf("Usage: sleebctl show [--sort KEY] [--json] [GLOB...]\n"
			       "Sort keys: n|name o|objects a|active u|use s|size l|slabs v|active-slabs\n"
			       "  b|objs-per-slab p|pages-per-slab c|memory q|queue B|batch S|shared\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	/* No counters in the table: no queue_stats read. */
	r = sleeb_cache_set_load_only(&set, SLEEB_READ_TUNABLES, &err);
	if (r < 0) {
		sleeb_log_error(&err);
		return SLEEBCTL_EXIT_FAILURE;
	}
	rows = calloc(set.n ? set.n : 1, sizeof(*rows));
	if (!rows) {
		sleeb_cache_set_free(&set);
		sleeb_log("out of memory");
		return SLEEBCTL_EXIT_FAILURE;
	}
	for (i = 0; i < set.n; i++)
		if (show_matches(&set.caches[i], argv + optind, (size_t)(argc - optind)))
			rows[n++] = &set.caches[i];
	qsort_r(rows, n, sizeof(*rows), compare, &key);
	if (json)
		print_json(&set, rows, n);
	else
		print_table(&set, rows, n);
	r = SLEEBCTL_EXIT_OK;
	if (n == 0 && optind < argc) {
		sleeb_log("no cache matches the given pattern(s)");
		r = SLEEBCTL_EXIT_FAILURE;
	}
	free(rows);
	sleeb_cache_set_free(&set);
	return r;
}
