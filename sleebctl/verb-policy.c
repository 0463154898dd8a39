/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebctl policy verify [FILE...] / policy show [GLOB...]: check policy
 * files with file:line errors, and print the effective settings per cache
 * with the file:line each value came from.
 */

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/cache.h"
#include "sleeb/daemon-config.h"
#include "sleeb/plan.h"
#include "sleeb/policy.h"
#include "sleeb/root.h"
#include "sleeb/state.h"
#include "sleeb/util.h"
#include "verbs.h"

static bool is_daemon_config(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t l = strlen(path);

	base = base ? base + 1 : path;
	if (strcmp(base, "sleebd.conf") == 0)
		return true;
	/* "[.../]sleebd.conf.d/NAME.conf" */
	return l >= strlen(base) + 14 && strncmp(base - 14, "sleebd.conf.d/", 14) == 0 &&
	       (base - 14 == path || base[-15] == '/');
}

static int verify(const char *config_root, char **files, int n)
{
	struct sleeb_diag diag = { 0 };
	struct sleeb_policy pol = { 0 };
	struct sleeb_daemon_config cfg;
	size_t nfiles;
	int r = 0;

	sleeb_daemon_config_init(&cfg);
	if (n == 0) {
		int k;

		r = sleeb_daemon_config_load(&cfg, config_root, &diag);
		k = sleeb_policy_load(&pol, config_root, &diag);
		if (r == 0)
			r = k;
	} else
		for (int i = 0; i < n; i++) {
			int k = is_daemon_config(files[i]) ? sleeb_daemon_config_load_file(&cfg, files[i], &diag)
							   : sleeb_policy_load_file(&pol, files[i], &diag);
			if (k < 0)
				r = k;
		}

	for (size_t i = 0; i < diag.n; i++)
		fprintf(stderr, "%s\n", diag.msgs[i]);
	nfiles = pol.n_files + cfg.n_files;
	if (r < 0)
		printf("policy verify: FAILED: %zu error%s in %zu file%s\n", diag.n, diag.n == 1 ? "" : "s", nfiles,
		       nfiles == 1 ? "" : "s");
	else
		printf("policy verify: OK: %zu file%s, %zu [Cache] section%s\n", nfiles, nfiles == 1 ? "" : "s",
		       pol.n_sections, pol.n_sections == 1 ? "" : "s");
	sleeb_diag_done(&diag);
	sleeb_policy_done(&pol);
	sleeb_daemon_config_done(&cfg);
	return r < 0 ? SLEEBCTL_EXIT_FAILURE : SLEEBCTL_EXIT_OK;
}

static void show_setting(const char *key, const struct sleeb_setting *s, bool boolean)
{
	char kv[80];

	if (s->value == SLEEB_VALUE_UNSET)
		return;
	if (s->value == SLEEB_VALUE_DEFAULT)
		snprintf(kv, sizeof(kv), "%s=default", key);
	else if (boolean)
		snprintf(kv, sizeof(kv), "%s=%s", key, s->value ? "yes" : "no");
	else
		snprintf(kv, sizeof(kv), "%s=%lld", key, (long long) s->value);
	printf("  %-28s %s:%u\n", kv, s->origin.file, s->origin.line);
}

/* A merged cache appears once in slabinfo under one name: let its other
 * names find it too, as in show. */
static bool globs_match(const struct sleeb_cache *c, char **globs, int n)
{
	const char *a = c->aliases;

	if (sleeb_glob_match_any(globs, (size_t) n, c->si.name))
		return true;
	while (c->naliases > 0 && *a) {
		size_t len = strcspn(a, ",");
		char alias[SLEEB_CACHE_NAME_MAX];

		if (len < sizeof(alias)) {
			memcpy(alias, a, len);
			alias[len] = '\0';
			if (sleeb_glob_match_any(globs, (size_t) n, alias))
				return true;
		}
		a += len + (a[len] == ',');
	}
	return false;
}

/*
 * The originals sleebd recorded: without them, unset keys would be shown
 * from the current values, which sleebd does not use. Returns 0 (an empty
 * state when there is no file, or one that cannot be read: said on
 * stderr) or -ENAMETOOLONG, -ENOMEM.
 */
static int load_originals(const char *config_root, struct sleeb_state *state)
{
	struct sleeb_diag warnings = { 0 };
	struct sleeb_sysfs_list list;
	struct sleeb_error err = { 0 };
	char path[PATH_MAX];
	int r;

	r = sleeb_prefix_path(path, sizeof(path), config_root, SLEEB_STATE_PATH);
	if (r < 0) {
		fprintf(stderr, "sleebctl: --config-root %s: the state file's path is too long\n", config_root);
		return r;
	}
	r = sleeb_state_load(state, path, &warnings, &err);
	for (size_t i = 0; i < warnings.n; i++)
		fprintf(stderr, "sleebctl: warning: %s\n", warnings.msgs[i]);
	sleeb_diag_done(&warnings);
	if (r < 0) {
		/* As sleebd does with a state file it cannot read. */
		fprintf(stderr, "sleebctl: %s; showing the plan without recorded originals, as sleebd would start\n",
			err.msg);
		sleeb_state_done(state);
		return 0;
	}
	/* Keyed by sysfs id, as sleebd reads it (names from older files too). */
	if (state->n > 0 && sleeb_sysfs_list_caches(&list, &err) >= 0) {
		r = sleeb_state_rekey(state, &list);
		sleeb_sysfs_list_free(&list);
		if (r < 0) {
			fprintf(stderr, "sleebctl: out of memory\n");
			return r;
		}
	}
	return 0;
}

static void show_plan(const struct sleeb_cache *c, const struct sleeb_plan *plan, const char *err)
{
	const struct sleeb_effective *e = &plan->effective;
	const struct sleeb_tunables *now = &c->tunables;

	if (!e->matched) {
		if (plan->action == SLEEB_PLAN_RESTORE)
			printf("  no matching [Cache] section any more\n"
			       "  restores the original: queue %u batch %u shared %u (now %u/%u/%u)\n",
			       plan->target.v[0], plan->target.v[1], plan->target.v[2], now->v[0], now->v[1], now->v[2]);
		else if (c->has_queues)
			printf("  no matching [Cache] section: left alone (now %u/%u/%u)\n", now->v[0], now->v[1],
			       now->v[2]);
		else
			printf("  no matching [Cache] section\n");
		return;
	}
	if (strcmp(plan->matched_as, c->si.name) != 0)
		printf("  matched as %s (merged with this cache)\n", plan->matched_as);
	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		show_setting(sleeb_tunable_key(t), &e->tunable[t], false);
	show_setting("AutoTune", &e->autotune, true);
	show_setting("AutoTuneMin", &e->autotune_min, false);
	show_setting("AutoTuneMax", &e->autotune_max, false);
	switch (plan->action) {
	case SLEEB_PLAN_NONE:
		printf("  effective: (this kernel has no SLEEB queues)\n");
		return;
	case SLEEB_PLAN_INVALID:
		printf("  effective: INVALID for this cache: %s\n", err);
		return;
	case SLEEB_PLAN_RESTORE:
	case SLEEB_PLAN_POLICY:
		break;
	}
	if (plan->from_original)
		printf("  unset keys: from the original sleebd recorded\n");
	if (plan->autotune)
		printf("  auto-tuned between queue %u and %u%s\n", plan->autotune_min, plan->autotune_max,
		       plan->clamped ? ", starting at the bound" : "");
	printf("  effective: queue %u batch %u shared %u (now %u/%u/%u)\n", plan->target.v[0], plan->target.v[1],
	       plan->target.v[2], now->v[0], now->v[1], now->v[2]);
}

static void json_tunables(const struct sleeb_tunables *t)
{
	printf("{\"cpu_queue_size\":%u,\"cpu_batch_size\":%u,\"shared_queue_size\":%u}", t->v[0], t->v[1], t->v[2]);
}

static void json_setting(bool *first, const char *key, const struct sleeb_setting *s, bool boolean)
{
	if (s->value == SLEEB_VALUE_UNSET)
		return;
	printf("%s", *first ? "" : ",");
	*first = false;
	sleeb_json_print_string(stdout, key);
	printf(":{\"value\":");
	if (s->value == SLEEB_VALUE_DEFAULT)
		printf("\"default\"");
	else if (boolean)
		printf("%s", s->value ? "true" : "false");
	else
		printf("%lld", (long long) s->value);
	printf(",\"file\":");
	sleeb_json_print_string(stdout, s->origin.file ? s->origin.file : "");
	printf(",\"line\":%u}", s->origin.line);
}

/* One cache of `policy show --json` (see sleebctl(8), JSON OUTPUT). */
static void json_plan(const struct sleeb_cache *c, const struct sleeb_plan *plan, const char *err, bool first)
{
	const struct sleeb_effective *e = &plan->effective;
	bool none = true;

	printf("%s{\"name\":", first ? "" : ",");
	sleeb_json_print_string(stdout, c->si.name);
	printf(",\"id\":");
	sleeb_json_print_string(stdout, c->id);
	printf(",\"object_size\":%u,\"aliases\":", c->si.objsize);
	sleeb_json_print_list(stdout, c->naliases > 0 ? c->aliases : "");
	printf(",\"matched\":%s,\"matched_as\":", e->matched ? "true" : "false");
	if (e->matched)
		sleeb_json_print_string(stdout, plan->matched_as);
	else
		printf("null");
	printf(",\"settings\":{");
	for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		json_setting(&none, sleeb_tunable_key(t), &e->tunable[t], false);
	json_setting(&none, "AutoTune", &e->autotune, true);
	json_setting(&none, "AutoTuneMin", &e->autotune_min, false);
	json_setting(&none, "AutoTuneMax", &e->autotune_max, false);
	printf("},\"action\":\"%s\",\"current\":", sleeb_plan_action_to_string(plan->action));
	if (c->has_queues)
		json_tunables(&c->tunables);
	else
		printf("null");
	printf(",\"target\":");
	if (plan->action == SLEEB_PLAN_POLICY || plan->action == SLEEB_PLAN_RESTORE)
		json_tunables(&plan->target);
	else
		printf("null");
	printf(",\"from_original\":%s,\"autotune\":", plan->from_original ? "true" : "false");
	if (plan->autotune)
		printf("{\"min\":%u,\"max\":%u,\"clamped\":%s}", plan->autotune_min, plan->autotune_max,
		       plan->clamped ? "true" : "false");
	else
		printf("null");
	printf(",\"error\":");
	if (plan->action == SLEEB_PLAN_INVALID)
		sleeb_json_print_string(stdout, err);
	else
		printf("null");
	putchar('}');
}

static int show(const char *config_root, char **globs, int n, bool all, bool json)
{
	struct sleeb_diag diag = { 0 };
	struct sleeb_policy pol = { 0 };
	struct sleeb_state state = { 0 };
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	long ps = sysconf(_SC_PAGESIZE);
	size_t shown = 0;
	int r;

	r = sleeb_policy_load(&pol, config_root, &diag);
	for (size_t i = 0; i < diag.n; i++)
		fprintf(stderr, "%s\n", diag.msgs[i]);
	sleeb_diag_done(&diag);
	if (r < 0) {
		fprintf(stderr, "sleebctl: the policy has errors (see above); sleebd would refuse it\n");
		sleeb_policy_done(&pol);
		return SLEEBCTL_EXIT_FAILURE;
	}
	if (load_originals(config_root, &state) < 0) {
		sleeb_policy_done(&pol);
		sleeb_state_done(&state);
		return SLEEBCTL_EXIT_FAILURE;
	}

	/* Plans need the sizes, not the counters. */
	r = sleeb_cache_set_load_only(&set, SLEEB_READ_TUNABLES, &err);
	if (r < 0) {
		fprintf(stderr, "sleebctl: %s\n", err.msg);
		sleeb_policy_done(&pol);
		sleeb_state_done(&state);
		return SLEEBCTL_EXIT_FAILURE;
	}

	if (json) {
		printf("{\"version\":1,\"sleeb_kernel\":%s,\"policy_files\":[", set.sleeb_kernel ? "true" : "false");
		for (size_t i = 0; i < pol.n_files; i++) {
			printf("%s", i ? "," : "");
			sleeb_json_print_string(stdout, pol.files[i]);
		}
		printf("],\"caches\":[");
	} else {
		printf("Policy files (in apply order):\n");
		for (size_t i = 0; i < pol.n_files; i++)
			printf("  %s\n", pol.files[i]);
		if (pol.n_files == 0)
			printf("  (none)\n");
	}
	for (size_t i = 0; i < set.n; i++) {
		const struct sleeb_cache *c = &set.caches[i];
		const struct sleeb_state_entry *orig = sleeb_state_find(&state, c->id);
		struct sleeb_plan_input in = {
			.name = c->si.name,
			.aliases = c->naliases > 0 ? c->aliases : NULL,
			.object_size = c->si.objsize,
			.has_queues = c->has_queues && set.sleeb_kernel,
			.current = c->tunables,
			.original = orig ? &orig->orig : NULL,
		};
		struct sleeb_plan plan;

		if (!globs_match(c, globs, n))
			continue;
		sleeb_error_clear(&err);
		sleeb_plan_cache(&pol, &in, ps > 0 ? (uint64_t) ps : 4096, &plan, &err);
		if (!plan.effective.matched && plan.action == SLEEB_PLAN_NONE && !all)
			continue;
		if (json)
			json_plan(c, &plan, err.msg, shown == 0);
		else {
			printf("\n%s (object size %u)\n", c->si.name, c->si.objsize);
			show_plan(c, &plan, err.msg);
		}
		shown++;
	}
	if (json)
		printf("]}\n");
	else if (shown == 0)
		printf("\nNo cache matches the policy%s.\n", n ? " and the given globs" : "");
	sleeb_cache_set_free(&set);
	sleeb_policy_done(&pol);
	sleeb_state_done(&state);
	return SLEEBCTL_EXIT_OK;
}

int verb_policy(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "all", no_argument, NULL, 'a' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *config_root = NULL, *sub;
	bool all = false, json = false;
	int c;

	while ((c = getopt_long(argc, argv, "ajh", options, NULL)) >= 0) {
		switch (c) {
		case 'C':
			config_root = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			printf("Usage: sleebctl policy verify [--config-root DIR] [FILE...]\n"
			       "       sleebctl policy show [--config-root DIR] [--all] [--json] [GLOB...]\n"
			       "verify: check policy files (or the installed set and sleebd.conf);\n"
			       "        every error is printed as FILE:LINE: what is wrong; exit 0/1.\n"
			       "show:   the effective settings per cache with the FILE:LINE each\n"
			       "        value came from, and what sleebd writes (--json: as JSON).\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (optind >= argc)
		return sleebctl_usage_error("policy needs 'verify' or 'show'");
	sub = argv[optind++];
	if (strcmp(sub, "verify") == 0)
		return verify(config_root, argv + optind, argc - optind);
	if (strcmp(sub, "show") == 0)
		return show(config_root, argv + optind, argc - optind, all, json);
	return sleebctl_usage_error("unknown policy command '%s' (verify or show)", sub);
}
