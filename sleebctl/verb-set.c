/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebctl set: change queue tunables of matching caches, with rollback. */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/parse.h"
#include "sleeb/sysfs.h"
#include "sleeb/tunables.h"
#include "sleeb/util.h"
#include "set-lock.h"
#include "verbs.h"

struct set_request {
	bool has[_SLEEB_TUNABLE_MAX];
	uint32_t value[_SLEEB_TUNABLE_MAX];
	bool dry_run;
	const char *config_root;        /* where sleebd's lock and state are */
};

#ifdef SLEEBCTL_TEST_HOOKS
/*
 * Test builds only (sleebctl-test, never installed): fail writes listed in
 * $SLEEBCTL_TEST_FAIL_WRITE as "attr:value:errno[,...]", so the CLI tests
 * can exercise rollback on a fake tree where root can write every file.
 */
static int set_write(const char *cache, enum sleeb_tunable which, uint32_t value,
		     void *userdata, struct sleeb_error *err)
{
	const char *spec = getenv("SLEEBCTL_TEST_FAIL_WRITE");
	char copy[256], *save = NULL, *tok;

	if (spec && strlen(spec) < sizeof(copy)) {
		strcpy(copy, spec);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char attr[64];
			unsigned v;
			int e;

			if (sscanf(tok, "%63[^:]:%u:%d", attr, &v, &e) == 3 &&
			    strcmp(attr, sleeb_tunable_attr(which)) == 0 && v == value)
				return sleeb_error_set(err, e, "%s: %s: %u: %s", cache, attr, value,
						       strerror(e));
		}
	}
	return sleeb_tunables_write_sysfs(cache, which, value, userdata, err);
}
/* The hooks fake single writes; with none asked for, the library's own
 * writer runs, so the tests see what sleebctl does (queue_sizes too). */
#define set_writer() (getenv("SLEEBCTL_TEST_FAIL_WRITE") ? set_write : NULL)
#else
#define set_writer() NULL
#endif

static void format_tunables(const struct sleeb_tunables *t, char *buf, size_t len)
{
	snprintf(buf, len, "queue=%u batch=%u shared=%u", t->v[SLEEB_TUNABLE_QUEUE],
		 t->v[SLEEB_TUNABLE_BATCH], t->v[SLEEB_TUNABLE_SHARED]);
}

/* Set one cache.  Returns 0 or a negative errno (already reported). */
static int set_one(const char *cache, const struct set_request *req)
{
	struct sleeb_tunables_step steps[SLEEB_TUNABLES_STEPS_MAX];
	struct sleeb_tunables cur, target;
	struct sleeb_error err = { 0 };
	char was[64], now[64];
	int r, n, i, t;

	r = sleeb_tunables_read(cache, &cur, &err);
	if (r < 0) {
		sleeb_log_error(&err);
		return r;
	}
	target = cur;
	for (t = 0; t < _SLEEB_TUNABLE_MAX; t++)
		if (req->has[t])
			target.v[t] = req->value[t];
	format_tunables(&cur, was, sizeof(was));
	format_tunables(&target, now, sizeof(now));
	n = sleeb_tunables_plan(&cur, &target, steps, &err);
	if (n < 0) {
		sleeb_error_prefix(&err, "%s", cache);
		sleeb_log_error(&err);
		return n;
	}
	if (n == 0) {
		printf("%s: unchanged (%s)\n", cache, was);
		return 0;
	}
	if (req->dry_run) {
		printf("%s: would write", cache);
		if (sleeb_tunables_one_write(cache)) {
			char line[SLEEB_TUNABLES_LINE_MAX];

			sleeb_tunables_format_line(&target, line, sizeof(line));
			printf(" %s=%s", SLEEB_TUNABLES_ATTR_ALL, line);
		} else {
			for (i = 0; i < n; i++)
				printf("%s %s=%u", i ? "," : "",
				       sleeb_tunable_attr(steps[i].which), steps[i].value);
		}
		printf(" (%s -> %s)\n", was, now);
		return 0;
	}
	r = sleeb_tunables_apply(cache, &cur, &target, set_writer(), NULL, &err);
	if (r < 0) {
		sleeb_log_error(&err);
		return r;
	}
	printf("%s: %s (was %s)\n", cache, now, was);
	return 0;
}

/*
 * Resolve GLOBs against the sysfs names (slabinfo shows only one name of
 * a merged cache, sysfs has them all) and set each kmem_cache once.
 */
static int set_all(char **globs, size_t nglobs, const struct set_request *req,
		   const struct set_lock *lock)
{
	struct sleeb_sysfs_list list;
	struct sleeb_error err = { 0 };
	bool *done = NULL, managed;
	size_t g, i, j;
	int r, failed = 0;

	r = sleeb_sysfs_list_caches(&list, &err);
	if (r < 0) {
		sleeb_log_error(&err);
		return SLEEBCTL_EXIT_FAILURE;
	}
	if (!sleeb_sysfs_kernel_has_queues()) {
		sleeb_log("this kernel has no SLEEB queues (no cpu_queue_size attribute in %s); nothing changed",
			  SLEEB_SYSFS_SLAB_DIR);
		sleeb_sysfs_list_free(&list);
		return SLEEBCTL_EXIT_FAILURE;
	}
	done = calloc(list.n ? list.n : 1, sizeof(*done));
	if (!done) {
		sleeb_sysfs_list_free(&list);
		sleeb_log("out of memory");
		return SLEEBCTL_EXIT_FAILURE;
	}
	for (g = 0; g < nglobs; g++) {
		bool matched = false;

		for (i = 0; i < list.n; i++) {
			const struct sleeb_sysfs_entry *e = &list.entries[i];

			/* ":a-0000104" ids only when asked for explicitly. */
			if (e->name[0] == ':' && globs[g][0] != ':')
				continue;
			if (!sleeb_glob_match(globs[g], e->name))
				continue;
			matched = true;
			if (done[i])
				continue;
			/* Mark every name of this kmem_cache: one write
			 * through any of them changes them all. */
			for (j = 0; j < list.n; j++)
				if (strcmp(list.entries[j].id, e->id) == 0)
					done[j] = true;
			/* Asked before the write: what sleebd plans from. */
			managed = set_lock_daemon_manages(lock, &list, e->id);
			if (set_one(e->name, req) < 0)
				failed++;
			else if (managed && !req->dry_run)
				set_lock_warn(lock, e->name);
		}
		if (!matched) {
			sleeb_log("%s: no such cache", globs[g]);
			failed++;
		}
	}
	free(done);
	sleeb_sysfs_list_free(&list);
	return failed ? SLEEBCTL_EXIT_FAILURE : SLEEBCTL_EXIT_OK;
}

int verb_set(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "queue", required_argument, NULL, 'q' },
		{ "batch", required_argument, NULL, 'b' },
		{ "shared", required_argument, NULL, 's' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "config-root", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	struct set_request req = { 0 };
	struct set_lock lock;
	enum sleeb_tunable t;
	int c, r;

	while ((c = getopt_long(argc, argv, "q:b:s:nh", options, NULL)) >= 0) {
		switch (c) {
		case 'q':
		case 'b':
		case 's':
			t = c == 'q' ? SLEEB_TUNABLE_QUEUE : c == 'b' ? SLEEB_TUNABLE_BATCH
								  : SLEEB_TUNABLE_SHARED;
			r = sleeb_parse_u32(optarg, &req.value[t]);
			if (r < 0)
				return sleebctl_usage_error("set: --%s: '%s' %s",
							    sleeb_tunable_name(t), optarg,
							    r == -ERANGE ? "is out of range"
									 : "is not a number");
			req.has[t] = true;
			break;
		case 'n':
			req.dry_run = true;
			break;
		case 'C':
			req.config_root = optarg;
			break;
		case 'h':
			printf("Usage: sleebctl set GLOB... [--queue N] [--batch N] [--shared N] [--dry-run]\n"
			       "                   [--config-root DIR]\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (!req.has[SLEEB_TUNABLE_QUEUE] && !req.has[SLEEB_TUNABLE_BATCH] &&
	    !req.has[SLEEB_TUNABLE_SHARED])
		return sleebctl_usage_error("set: nothing to set (use --queue, --batch or --shared)");
	if (optind >= argc)
		return sleebctl_usage_error("set: no cache given");
	/* A dry run writes nothing: nobody to keep out, nothing to warn of. */
	lock = (struct set_lock) { .fd = -1 };
	if (!req.dry_run && set_lock_take(&lock, req.config_root) < 0)
		return SLEEBCTL_EXIT_FAILURE;
	r = set_all(argv + optind, (size_t)(argc - optind), &req, &lock);
	set_lock_release(&lock);
	return r;
}
