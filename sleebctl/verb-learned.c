/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebctl learned: the sizes sleebd learned (its state file), as text or
 * JSON, and --forget to drop them. A running sleebd keeps the learned
 * sizes in memory and rewrites the whole file at each change, so a forget
 * made in the file under it would come back at its next save: with the
 * daemon running, the forget goes through its control socket; without it,
 * sleebctl edits the file itself, holding the writers' lock so that a
 * sleebd starting meanwhile waits and then reads the edited file.
 */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "control-client.h"
#include "sleeb/control.h"
#include "sleeb/ini.h"
#include "sleeb/learned-forget.h"
#include "sleeb/lock.h"
#include "sleeb/root.h"
#include "sleeb/state.h"
#include "sleeb/sysfs.h"
#include "sleeb/util.h"
#include "verbs.h"

/* A `sleebd --once` or `sleebctl set` holds the lock for one pass. */
#define LEARNED_LOCK_WAIT_SEC 10

/* The learned sizes' file under config_root into path. */
static int learned_path(char *path, size_t len, const char *config_root)
{
	if (sleeb_prefix_path(path, len, config_root, SLEEB_LEARNED_PATH) < 0) {
		sleeb_log("--config-root %s: path too long", config_root);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* Loads the file, each skipped line said as "path:line: ...". Returns
 * the number of lines skipped or -errno (said). */
static int load(struct sleeb_state *s, const char *path)
{
	struct sleeb_diag warnings = { 0 };
	struct sleeb_error err = { 0 };
	int r = sleeb_state_load(s, path, &warnings, &err);

	for (size_t i = 0; i < warnings.n; i++)
		sleeb_log("%s", warnings.msgs[i]);
	sleeb_diag_done(&warnings);
	if (r < 0)
		sleeb_log_error(&err);
	s->header = SLEEB_LEARNED_HEADER;
	return r;
}

/* Every name of the kmem_cache whose sysfs id is key, comma-separated
 * (as sleeb_json_print_list() takes them); "" when this system has none
 * now (a module's cache, unloaded). */
static void names_of(const struct sleeb_sysfs_list *l, const char *key, char *buf, size_t len)
{
	const char *id = sleeb_sysfs_list_id(l, key);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; id && i < l->n && used + 1 < len; i++)
		if (strcmp(l->entries[i].id, id) == 0 && l->entries[i].name[0] != ':')
			used += (size_t) snprintf(buf + used, len - used, "%s%s", used ? "," : "", l->entries[i].name);
}

/* What both listings show: the file, whether it is there and when it was
 * last saved, its sizes, and the caches' current names. */
struct listing {
	const char *path;
	bool exists;
	const struct stat *st;          /* NULL: when it was saved is unknown */
	const struct sleeb_state *s;    /* NULL when the file does not exist */
	const struct sleeb_sysfs_list *l;
};

static void print_text(const struct listing *li)
{
	char when[64];

	/* Nothing learned yet is an answer, not an error. */
	if (!li->exists) {
		printf("no learned sizes yet: %s does not exist (sleebd saves a cache's size there when auto-tuning "
		       "changes it)\n", li->path);
		return;
	}
	if (li->s->n == 0) {
		printf("no learned sizes in %s\n", li->path);
		return;
	}
	/* The file keeps no time per line: when it was last saved is the
	 * latest any of them was learned. */
	if (!li->st || !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", gmtime(&li->st->st_mtime)))
		snprintf(when, sizeof(when), "at an unknown time");
	printf("learned sizes in %s (last saved %s):\n", li->path, when);
	printf("%-24s %6s %6s %6s  %s\n", "CACHE", "QUEUE", "BATCH", "SHARED", "NAMES");
	for (size_t i = 0; i < li->s->n; i++) {
		const struct sleeb_tunables *v = &li->s->entries[i].orig;
		char names[1024];

		names_of(li->l, li->s->entries[i].cache, names, sizeof(names));
		printf("%-24s %6u %6u %6u  %s\n", li->s->entries[i].cache, v->v[SLEEB_TUNABLE_QUEUE],
		       v->v[SLEEB_TUNABLE_BATCH], v->v[SLEEB_TUNABLE_SHARED], names[0] ? names : "-");
	}
}

/* learned --json (sleebctl(8), JSON OUTPUT). */
static void print_json(const struct listing *li)
{
	char when[32];

	printf("{\"version\":1,\"path\":");
	sleeb_json_print_string(stdout, li->path);
	printf(",\"exists\":%s,\"last_saved\":", li->exists ? "true" : "false");
	if (li->st && strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", gmtime(&li->st->st_mtime)))
		printf("\"%s\"", when);
	else
		printf("null");
	printf(",\"caches\":[");
	for (size_t i = 0; li->s && i < li->s->n; i++) {
		const struct sleeb_tunables *v = &li->s->entries[i].orig;
		char names[1024];

		printf("%s{\"cache\":", i ? "," : "");
		sleeb_json_print_string(stdout, li->s->entries[i].cache);
		printf(",\"queue\":%u,\"batch\":%u,\"shared\":%u,\"names\":", v->v[SLEEB_TUNABLE_QUEUE],
		       v->v[SLEEB_TUNABLE_BATCH], v->v[SLEEB_TUNABLE_SHARED]);
		names_of(li->l, li->s->entries[i].cache, names, sizeof(names));
		sleeb_json_print_list(stdout, names);
		putchar('}');
	}
	printf("]}\n");
}

static int list(const char *config_root, bool json)
{
	struct sleeb_sysfs_list l = { 0 };
	struct sleeb_state s = { 0 };
	struct listing li = { .l = &l };
	char path[4096];
	struct stat st;
	int r = 0;

	if (learned_path(path, sizeof(path), config_root) < 0)
		return SLEEBCTL_EXIT_FAILURE;
	li.path = path;
	if (stat(path, &st) == 0)
		li.st = &st;
	/* Only its absence is "nothing learned yet": the load says any other failure. */
	li.exists = li.st || errno != ENOENT;
	if (li.exists) {
		r = load(&s, path);
		if (r < 0) {
			sleeb_state_done(&s);
			return SLEEBCTL_EXIT_FAILURE;
		}
		li.s = &s;
		if (s.n > 0)
			(void) sleeb_sysfs_list_caches(&l, NULL);
	}
	if (json)
		print_json(&li);
	else
		print_text(&li);
	sleeb_sysfs_list_free(&l);
	sleeb_state_done(&s);
	/* A skipped line is a size sleebd will not apply: say so in the status. */
	return r > 0 ? SLEEBCTL_EXIT_FAILURE : SLEEBCTL_EXIT_OK;
}

/* No daemon runs and we hold the lock: edit the file as sleebd would. */
static int forget_in_file(const char *config_root, char *const *names, size_t n)
{
	struct sleeb_sysfs_list l = { 0 };
	struct sleeb_state s, dropped = { 0 };
	struct sleeb_error err = { 0 };
	char path[4096], *aside = NULL, *text;
	int r;

	if (learned_path(path, sizeof(path), config_root) < 0)
		return SLEEBCTL_EXIT_FAILURE;
	r = load(&s, path);
	/* The save rewrites the file without the lines the load skipped:
	 * keep them under a second name first, as sleebd does. */
	if (r > 0 && sleeb_state_keep_aside(path, &aside, &err) < 0) {
		sleeb_log("%s; nothing forgotten", err.msg);
		r = -err.code;
	} else if (r > 0)
		sleeb_log("%s: %d bad line%s skipped, the file kept as %s", path, r, r == 1 ? "" : "s", aside);
	free(aside);
	if (r < 0) {
		sleeb_state_done(&s);
		return SLEEBCTL_EXIT_FAILURE;
	}
	(void) sleeb_sysfs_list_caches(&l, NULL);
	r = sleeb_learned_forget(&s, l.n ? &l : NULL, names, n, &dropped, &err);
	sleeb_sysfs_list_free(&l);
	sleeb_state_done(&s);
	if (r < 0) {
		sleeb_log_error(&err);
		return SLEEBCTL_EXIT_FAILURE;
	}
	text = sleeb_learned_forgot_text(&dropped);
	sleeb_state_done(&dropped);
	if (!text) {
		sleeb_log("out of memory");
		return SLEEBCTL_EXIT_FAILURE;
	}
	fputs(text, stdout);
	free(text);
	return SLEEBCTL_EXIT_OK;
}

/* A running sleebd forgets in memory and rewrites the file itself. */
static int forget_through_daemon(const char *config_root, char *const *names, size_t n)
{
	size_t len = strlen(SLEEB_CONTROL_FORGET_LEARNED) + 1;
	char *cmd;
	int r;

	for (size_t i = 0; i < n; i++)
		len += 1 + strlen(names[i]);
	cmd = malloc(len);
	if (!cmd) {
		sleeb_log("out of memory");
		return SLEEBCTL_EXIT_FAILURE;
	}
	strcpy(cmd, SLEEB_CONTROL_FORGET_LEARNED);
	for (size_t i = 0; i < n; i++)
		strcat(strcat(cmd, " "), names[i]);
	r = sleebctl_control_call(config_root, cmd);
	free(cmd);
	return r;
}

static int forget(const char *config_root, char *const *names, size_t n)
{
	struct sleeb_lock_holder holder = { 0 };
	struct sleeb_error err = { 0 };
	char path[4096];
	int fd, r;

	/* Names travel on the daemon's one-line protocol: none of them may
	 * break it, and none is a cache name anyway. */
	for (size_t i = 0; i < n; i++)
		if (!sleeb_state_key_ok(names[i])) {
			sleeb_log("'%s': not a cache name (empty, \"#\", a blank, a control character or '/'); nothing "
				  "forgotten", names[i]);
			return SLEEBCTL_EXIT_FAILURE;
		}
	if (sleeb_prefix_path(path, sizeof(path), config_root, SLEEB_LOCK_PATH) < 0) {
		sleeb_log("--config-root %s: path too long", config_root);
		return SLEEBCTL_EXIT_FAILURE;
	}
	/* sleebd holds the lock for its whole life: holding it is knowing
	 * that no daemon runs, and that none starts before we are done. */
	r = sleeb_mkdir_parents(path);
	if (r < 0) {
		sleeb_log("%s: cannot create its directory: %s; nothing forgotten", path, strerror(-r));
		return SLEEBCTL_EXIT_FAILURE;
	}
	fd = sleeb_lock_take(path, SLEEB_LOCK_LEARNED, LEARNED_LOCK_WAIT_SEC * UINT64_C(1000000), &holder, &err);
	if (fd >= 0) {
		r = forget_in_file(config_root, names, n);
		close(fd);
		return r;
	}
	if (fd == -EBUSY && sleeb_lock_holder_is_daemon(&holder))
		return forget_through_daemon(config_root, names, n);
	if (fd == -EBUSY)
		sleeb_log("%s, still after %d s; nothing forgotten", err.msg, LEARNED_LOCK_WAIT_SEC);
	else
		sleeb_log("%s; nothing forgotten", err.msg);
	return SLEEBCTL_EXIT_FAILURE;
}

int verb_learned(int argc, char *argv[])
{
	static const struct option options[] = {
		{ "config-root", required_argument, NULL, 'C' },
		{ "forget", no_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	const char *config_root = NULL;
	bool do_forget = false, json = false;
	int c;

	while ((c = getopt_long(argc, argv, "jh", options, NULL)) >= 0) {
		switch (c) {
		case 'C':
			config_root = optarg;
			break;
		case 'f':
			do_forget = true;
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			printf("Usage: sleebctl learned [--config-root DIR] [--json]\n"
			       "       sleebctl learned --forget [--config-root DIR] [CACHE...]\n"
			       "List the queue sizes sleebd learned (where it starts each auto-tuned\n"
			       "cache; --json: as JSON), or forget them: every one, or the named\n"
			       "caches'. Forgetting leaves the current sizes alone; sleebd starts\n"
			       "those caches from the policy from then on (through sleebd when it\n"
			       "runs).\n");
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	/* What --forget prints is a few lines for people; a script that wants
	 * to know what is left lists again with --json. */
	if (do_forget && json)
		return sleebctl_usage_error("learned: --json is for the listing only, not with --forget");
	if (do_forget)
		return forget(config_root, argv + optind, (size_t) (argc - optind));
	if (optind < argc)
		return sleebctl_usage_error("learned takes cache names only with --forget");
	return list(config_root, json);
}
