/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One plan, two answers: `sleebctl policy show --all` must say, cache by
 * cache, what `sleebd --once --dry-run` would write, on the real snapshot
 * of a SLEEB guest in tests/data (guest-sleeb-6.12: merged caches with
 * their alias links) and on the build host's vanilla snapshot (no
 * queues: neither may plan anything).
 *
 * The policy is the shipped one plus the three cases where the two used
 * to part: a cache matched only through a merged alias, a key left unset
 * on a cache whose original is recorded in the state file, and an
 * AutoTune= cache whose static value lies outside AutoTuneMin..Max; and a
 * cache no policy matches any more whose original is recorded.
 *
 * Usage: test-sleebd-plan-agree SLEEBD SLEEBCTL POLICY_DIR
 */

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static const char *sleebd, *sleebctl, *policy_dir;

#define MAX_CACHES 512

struct row {
	char name[64];
	unsigned cur[3];
	bool have_target;       /* a plan says something will be written */
	unsigned target[3];
};

struct table {
	struct row rows[MAX_CACHES];
	size_t n;
};

static struct row *row_find(struct table *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (strcmp(t->rows[i].name, name) == 0)
			return &t->rows[i];
	return NULL;
}

static struct row *row_get(struct table *t, const char *name)
{
	struct row *r = row_find(t, name);

	if (r)
		return r;
	ck_assert_uint_lt(t->n, MAX_CACHES);
	snprintf(t->rows[t->n].name, sizeof(t->rows[t->n].name), "%s", name);
	return &t->rows[t->n++];
}

/* Runs argv with stdout+stderr into a fresh file; returns its contents. */
static char *run(char *const argv[], int want_exit)
{
	char *dir = test_mkdtemp(), *log = test_path(dir, "out"), *text;
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		test_child_setup(log);
		execv(argv[0], argv);
		_exit(127);
	}
	ck_assert_int_eq(test_wait_exit(pid), want_exit);
	text = test_read_file(log);
	ck_assert_ptr_nonnull(text);
	test_rm_tree(dir);
	free(log);
	free(dir);
	return text;
}

/* "sleebd: dry run: NAME: queue/batch/shared a/b/c -> x/y/z (...)" */
static void parse_sleebd(const char *log, struct table *t)
{
	for (const char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[64];
		unsigned o[3], n[3];
		struct row *r;

		if (sscanf(l, "sleebd: dry run: %63[^:]: queue/batch/shared %u/%u/%u -> %u/%u/%u", name, &o[0], &o[1],
			   &o[2], &n[0], &n[1], &n[2]) != 7)
			continue;
		r = row_get(t, name);
		ck_assert_msg(!r->have_target, "sleebd planned %s twice", name);
		memcpy(r->cur, o, sizeof(o));
		memcpy(r->target, n, sizeof(n));
		r->have_target = true;
	}
}

/*
 * "NAME (object size N)" starts a cache; "  effective: queue X batch Y
 * shared Z (now a/b/c)" is its plan, "  restores the original: ..." too;
 * any "(now a/b/c)" says what the cache has.
 */
static void parse_show(const char *out, struct table *t)
{
	struct row *cur = NULL;

	for (const char *l = out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char name[64];
		unsigned size, v[6];

		if (l[0] != ' ' && sscanf(l, "%63s (object size %u)", name, &size) == 2) {
			cur = row_get(t, name);
			continue;
		}
		if (!cur)
			continue;
		/* What the cache has now, on whichever line says it. */
		if (strstr(l, "(now ") && sscanf(strstr(l, "(now "), "(now %u/%u/%u)", &v[3], &v[4], &v[5]) == 3)
			memcpy(cur->cur, v + 3, sizeof(cur->cur));
		if (sscanf(l, "  effective: queue %u batch %u shared %u (now %u/%u/%u)", &v[0], &v[1], &v[2], &v[3],
			   &v[4], &v[5]) == 6 ||
		    sscanf(l, "  restores the original: queue %u batch %u shared %u (now %u/%u/%u)", &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5]) == 6) {
			ck_assert_msg(!cur->have_target, "policy show planned %s twice", cur->name);
			memcpy(cur->target, v, sizeof(cur->target));
			memcpy(cur->cur, v + 3, sizeof(cur->cur));
			cur->have_target = true;
		}
	}
}

/* What a table says will be in the cache afterwards. */
static void after(const struct row *r, unsigned ret[3])
{
	memcpy(ret, r->have_target ? r->target : r->cur, 3 * sizeof(unsigned));
}

static char *config_root(void)
{
	char *dir = test_mkdtemp(), cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/usr/lib/sleeb/policy.d' && cp '%s'/*.conf '%s/usr/lib/sleeb/policy.d/'",
		 dir, policy_dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	/* proc_dir_entry is merged with uid_cache: only the alias matches. */
	test_writef_at(dir, "etc/sleeb/policy.d/70-alias.conf", "[Cache]\nMatch=uid_cache\nCpuQueueSize=200\n");
	/* Batch and shared unset: from the recorded original, not from now. */
	test_writef_at(dir, "etc/sleeb/policy.d/71-unset.conf", "[Cache]\nMatch=sigqueue\nCpuQueueSize=240\n");
	/* Static 200 under AutoTuneMax=64: sleebd starts at the bound. */
	test_writef_at(dir, "etc/sleeb/policy.d/72-clamp.conf",
		       "[Cache]\nMatch=seq_file\nCpuQueueSize=200\nAutoTune=yes\nAutoTuneMin=16\nAutoTuneMax=64\n");
	/* sigqueue's original keyed by its sysfs directory (v2), nsproxy's
	 * by name (v1), recorded under a policy no policy has now. */
	test_writef_at(dir, "run/sleeb/state", "# sleebd state v2\n:A-0000080 100 50 400\nnsproxy 60 30 240\n");
	return dir;
}

/*
 * `policy show --json` turned into the text's lines by python3 (which
 * also checks that it is JSON), so that the same comparison checks it.
 */
static char *json_as_text(const char *json)
{
	static const char script[] =
		"import json, sys\n"
		"d = json.load(open(sys.argv[1]))\n"
		"assert d['version'] == 1 and isinstance(d['policy_files'], list)\n"
		"for c in d['caches']:\n"
		"    print('%s (object size %d)' % (c['name'], c['object_size']))\n"
		"    n, t = c['current'], c['target']\n"
		"    if n is None: continue\n"
		"    now = '(now %d/%d/%d)' % (n['cpu_queue_size'], n['cpu_batch_size'], n['shared_queue_size'])\n"
		"    if t is None: print('  ' + now); continue\n"
		"    print('  effective: queue %d batch %d shared %d %s' % (t['cpu_queue_size'], t['cpu_batch_size'],\n"
		"          t['shared_queue_size'], now))\n";
	char *dir = test_mkdtemp(), *in = test_path(dir, "show.json"), *py = test_path(dir, "conv.py");
	char *argv[] = { "/usr/bin/python3", py, in, NULL };
	char *text;

	test_write_file(in, json);
	test_write_file(py, script);
	text = run(argv, 0);
	test_rm_tree(dir);
	free(in);
	free(py);
	free(dir);
	return text;
}

static void compare(const char *tree, size_t want_planned, bool json)
{
	char *cfg = config_root(), *data = test_path(SLEEB_TEST_DATA, tree), *show, *log;
	char *show_argv[] = { (char *) sleebctl, "--root", data, "policy", "show", "--all", "--config-root", cfg,
			      json ? "--json" : NULL, NULL };
	char *sleebd_argv[] = { (char *) sleebd, "--root", data, "--config-root", cfg, "--once", "--dry-run", NULL };
	struct table *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	char diff[4096] = "";
	size_t planned = 0;

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(b);
	show = run(show_argv, 0);
	if (json) {
		char *text = json_as_text(show);

		free(show);
		show = text;
	}
	log = run(sleebd_argv, 0);
	parse_show(show, a);
	parse_sleebd(log, b);
	ck_assert_msg(a->n > 0, "policy show listed no cache:\n%s", show);

	/* Every cache policy show lists, and every cache sleebd touches. */
	for (size_t i = 0; i < b->n; i++)
		ck_assert_msg(row_find(a, b->rows[i].name), "sleebd plans %s, which policy show does not list",
			      b->rows[i].name);
	for (size_t i = 0; i < a->n; i++) {
		const struct row *x = &a->rows[i];
		struct row *y = row_get(b, x->name);
		unsigned ax[3], by[3];

		if (!y->have_target)
			memcpy(y->cur, x->cur, sizeof(x->cur));   /* sleebd leaves it */
		after(x, ax);
		after(y, by);
		planned += x->have_target && memcmp(x->target, x->cur, sizeof(ax)) != 0;
		if (memcmp(ax, by, sizeof(ax)) != 0 && strlen(diff) < sizeof(diff) - 128)
			snprintf(diff + strlen(diff), sizeof(diff) - strlen(diff),
				 "  %s: policy show %u/%u/%u, sleebd --once --dry-run %u/%u/%u\n", x->name, ax[0], ax[1],
				 ax[2], by[0], by[1], by[2]);
	}
	ck_assert_msg(diff[0] == '\0', "%s: the two plans differ:\n%s", tree, diff);
	ck_assert_msg(planned == want_planned, "%s: %zu caches change, expected %zu:\n%s", tree, planned,
		      want_planned, show);

	test_rm_tree(cfg);
	free(cfg);
	free(data);
	free(show);
	free(log);
	free(a);
	free(b);
}

START_TEST(test_guest_sleeb)
{
	/* seq_file (clamped to its AutoTuneMax). The shipped policy
	 * auto-tunes every cache up to 4 KiB from its default: it matches
	 * every name, so a merged cache takes the policy of its first name in
	 * byte order (proc_dir_entry before uid_cache, inotify_inode_mark
	 * before sigqueue) and nsproxy, matched now, starts at its default
	 * rather than going back to its recorded original; both plans must
	 * still agree on each. */
	compare("guest-sleeb-6.12", 1, false);
}
END_TEST

/* The same plan as JSON. */
START_TEST(test_guest_sleeb_json)
{
	compare("guest-sleeb-6.12", 1, true);
}
END_TEST

START_TEST(test_host_vanilla)
{
	/* No queues: neither plans a write. */
	compare("host-vanilla-6.18", 0, false);
	compare("host-vanilla-6.18", 0, true);
}
END_TEST

int main(int argc, char *argv[])
{
	Suite *s = suite_create("sleebd-plan-agree");
	TCase *tc = tcase_create("plan");

	if (argc < 4) {
		fprintf(stderr, "usage: %s SLEEBD SLEEBCTL POLICY_DIR\n", argv[0]);
		return 2;
	}
	sleebd = argv[1];
	sleebctl = argv[2];
	policy_dir = argv[3];
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_guest_sleeb);
	tcase_add_test(tc, test_guest_sleeb_json);
	tcase_add_test(tc, test_host_vanilla);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
