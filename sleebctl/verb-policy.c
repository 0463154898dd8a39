/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebctl policy verify [FILE...] / policy show [GLOB...]: check policy
 * files with file:line errors, and print the effective settings per cache
 * with the file:line each value came from.
 */

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/cache.h"
#include "sleeb/daemon-config.h"
#include "sleeb/policy.h"
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

static int show(const char *config_root, char **globs, int n, bool all)
{
	struct sleeb_diag diag = { 0 };
	struct sleeb_policy pol = { 0 };
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

	printf("Policy files (in apply order):\n");
	for (size_t i = 0; i < pol.n_files; i++)
		printf("  %s\n", pol.files[i]);
	if (pol.n_files == 0)
		printf("  (none)\n");

	r = sleeb_cache_set_load(&set, &err);
	if (r < 0) {
		fprintf(stderr, "sleebctl: %s\n", err.msg);
		sleeb_policy_done(&pol);
		return SLEEBCTL_EXIT_FAILURE;
	}
	for (size_t i = 0; i < set.n; i++) {
		const struct sleeb_cache *c = &set.caches[i];
		struct sleeb_effective e;
		struct sleeb_tunables target;

		if (!sleeb_glob_match_any(globs, (size_t) n, c->si.name))
			continue;
		sleeb_policy_effective(&pol, c->si.name, c->si.objsize, &e);
		if (!e.matched && !all)
			continue;
		shown++;
		printf("\n%s (object size %u)\n", c->si.name, c->si.objsize);
		if (!e.matched) {
			printf("  no matching [Cache] section\n");
			continue;
		}
		for (int t = 0; t < _SLEEB_TUNABLE_MAX; t++)
			show_setting(sleeb_tunable_key(t), &e.tunable[t], false);
		show_setting("AutoTune", &e.autotune, true);
		show_setting("AutoTuneMin", &e.autotune_min, false);
		show_setting("AutoTuneMax", &e.autotune_max, false);
		if (!c->has_queues) {
			printf("  effective: (this kernel has no SLEEB queues)\n");
			continue;
		}
		sleeb_error_clear(&err);
		if (sleeb_effective_resolve(&e, &c->tunables, c->si.objsize, ps > 0 ? (uint64_t) ps : 4096, &target,
					    &err) < 0)
			printf("  effective: INVALID for this cache: %s\n", err.msg);
		else
			printf("  effective: queue %u batch %u shared %u (now %u/%u/%u)\n", target.v[0], target.v[1],
			       target.v[2], c->tunables.v[0], c->tunables.v[1], c->tunables.v[2]);
	}
	if (shown == 0)
		printf("\nNo cache matches the policy%s.\n", n ? " and the given globs" : "");
	sleeb_cache_set_free(&set);
	sleeb_policy_done(&pol);
	return SLEEBCTL_EXIT_OK;
}

int verb_policy(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *config_root = NULL, *sub;
	bool all = false;
	int c;

	while ((c = getopt_long(argc, argv, "ah", options, NULL)) >= 0) {
		switch (c) {
		case 'C':
			config_root = optarg;
			break;
		case 'a':
			all = true;
			break;
		case 'h':
			printf("Usage: sleebctl policy verify [--config-root DIR] [FILE...]\n"
			       "       sleebctl policy show [--config-root DIR] [--all] [GLOB...]\n"
			       "verify: check policy files (or the installed set and sleebd.conf);\n"
			       "        every error is printed as FILE:LINE: what is wrong; exit 0/1.\n"
			       "show:   the effective settings per cache with the FILE:LINE each\n"
			       "        value came from.\n");
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
		return show(config_root, argv + optind, argc - optind, all);
	return sleebctl_usage_error("unknown policy command '%s' (verify or show)", sub);
}
