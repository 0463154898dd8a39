/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl get: one cache's sysfs attributes, tunables and queue counters. */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "sleeb/cache.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"
#include "sleeb/util.h"
#include "verbs.h"

/* Attributes shown when present (a vanilla kernel has all of these). */
static const char *const plain_attrs[] = {
	"object_size", "objects", "total_objects", "slabs", "aliases",
};

struct get_state {
	const char *cache;
	uint64_t attr[SLEEB_ELEMENTSOF(plain_attrs)];
	bool have_attr[SLEEB_ELEMENTSOF(plain_attrs)];
	struct sleeb_tunables tunables;
	bool has_queues;
	struct sleeb_queue_stats stats;
	bool has_stats;
	char aliases[SLEEB_ALIASES_MAX];
	int naliases;
};

static int get_load(struct get_state *s, struct sleeb_error *err)
{
	struct sleeb_sysfs_list list;
	size_t i;
	int r;

	for (i = 0; i < SLEEB_ELEMENTSOF(plain_attrs); i++) {
		r = sleeb_sysfs_read_u64(s->cache, plain_attrs[i], &s->attr[i], err);
		if (r == -ENOENT)
			continue;
		if (r < 0)
			return r;
		s->have_attr[i] = true;
	}
	if (sleeb_sysfs_list_caches(&list, NULL) >= 0) {
		s->naliases = sleeb_sysfs_list_aliases(&list, s->cache, s->aliases,
						       sizeof(s->aliases));
		sleeb_sysfs_list_free(&list);
	}
	/* -ENOENT: no such cache; -EOPNOTSUPP: no SLEEB, which the caller
	 * reports after showing what there is. */
	r = sleeb_tunables_read(s->cache, &s->tunables, err);
	if (r < 0)
		return r;
	s->has_queues = true;
	r = sleeb_sysfs_read_queue_stats(s->cache, &s->stats, err);
	if (r < 0 && r != -ENOENT)
		return r;
	s->has_stats = r == 0;
	return 0;
}

static void get_print_text(const struct get_state *s)
{
	size_t i;

	printf("%s\n", s->cache);
	for (i = 0; i < SLEEB_ELEMENTSOF(plain_attrs); i++)
		if (s->have_attr[i])
			printf("  %-18s %llu\n", plain_attrs[i], (unsigned long long)s->attr[i]);
	for (i = 0; i < _SLEEB_TUNABLE_MAX; i++)
		if (s->has_queues)
			printf("  %-18s %u\n", sleeb_tunable_attr(i), s->tunables.v[i]);
		else
			printf("  %-18s n/a\n", sleeb_tunable_attr(i));
	if (s->naliases > 0 || s->naliases == -ENOBUFS)
		printf("  %-18s %s%s\n", "alias names", s->aliases, s->naliases < 0 ? ",..." : "");
	if (!s->has_stats)
		return;
	printf("  queue_stats:\n");
	for (i = 0; i < _SLEEB_QSTAT_MAX; i++)
		if (s->stats.present & (1u << i))
			printf("    %-18s %llu\n", sleeb_queue_stat_name(i),
			       (unsigned long long)s->stats.value[i]);
}

static void get_print_json(const struct get_state *s)
{
	size_t i;

	printf("{\"version\":1,\"name\":");
	sleeb_json_print_string(stdout, s->cache);
	for (i = 0; i < SLEEB_ELEMENTSOF(plain_attrs); i++)
		if (s->have_attr[i])
			printf(",\"%s\":%llu", plain_attrs[i], (unsigned long long)s->attr[i]);
	for (i = 0; i < _SLEEB_TUNABLE_MAX; i++)
		if (s->has_queues)
			printf(",\"%s\":%u", sleeb_tunable_attr(i), s->tunables.v[i]);
		else
			printf(",\"%s\":null", sleeb_tunable_attr(i));
	printf(",\"alias_names\":");
	sleeb_json_print_list(stdout, s->naliases > 0 ? s->aliases : "");
	printf(",\"queue_stats\":");
	if (s->has_stats) {
		bool first = true;

		putchar('{');
		for (i = 0; i < _SLEEB_QSTAT_MAX; i++) {
			if (!(s->stats.present & (1u << i)))
				continue;
			printf("%s\"%s\":%llu", first ? "" : ",", sleeb_queue_stat_name(i),
			       (unsigned long long)s->stats.value[i]);
			first = false;
		}
		putchar('}');
	} else {
		printf("null");
	}
	printf("}\n");
}

int verb_get(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct sleeb_error err = { 0 };
	struct get_state s = { 0 };
	bool json = false;
	int c, r;

	while ((c = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'h':
			printf("Usage: sleebctl get [--json] CACHE\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (argc - optind != 1)
		return sleebctl_usage_error("get: exactly one CACHE expected");
	s.cache = argv[optind];
	r = get_load(&s, &err);
	if (r < 0 && r != -EOPNOTSUPP) {
		sleeb_log_error(&err);
		return SLEEBCTL_EXIT_FAILURE;
	}
	if (json)
		get_print_json(&s);
	else
		get_print_text(&s);
	if (r < 0) {
		sleeb_log_error(&err);
		return SLEEBCTL_EXIT_FAILURE;
	}
	return SLEEBCTL_EXIT_OK;
}
