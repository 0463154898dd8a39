/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sleebd's Prometheus textfile (PrometheusTextfile=) against fake trees:
 * <tmp>/proc/slabinfo and <tmp>/sys/kernel/slab/<cache>/ with plain files,
 * sleebd.conf and policies under <tmp>/etc (--root and --config-root both
 * point at <tmp>). Needs no root.
 *
 * Usage: test-sleebd-prometheus SLEEBD
 *        test-sleebd-prometheus --promtool SLEEBD [PROMTOOL]
 *
 * The second form runs `promtool check metrics` on the files sleebd
 * writes; $SLEEB_PROMTOOL overrides PROMTOOL, and with neither it exits
 * 77 (meson: SKIP).
 */

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "helpers.h"

static const char *sleebd, *promtool;
static char *root, *prom, *logpath;

/* printf into a file of the fake tree. */
#define writef(...) test_writef_at(root, __VA_ARGS__)

struct fake_cache {
	const char *name;
	bool queues;                    /* has cpu_queue_size etc. */
	const char *queue_stats;        /* NULL: no queue_stats file */
	unsigned q, b, s;
	unsigned active, total, objsize, perslab, pages, slabs;
};

static const struct fake_cache caches[] = {
	{ "kmalloc-64", true,
	  "alloc_refill 11\nfree_drain 12\nshared_alloc_hit 13\nshared_alloc_miss 14\nshared_free 15\n"
	  "shared_overflow 16\nremote_free 17\nremote_alloc 18\nreap_drained 19\nresize 20\nfuture_counter 99\n",
	  120, 60, 480, 100, 128, 64, 64, 1, 2 },
	/* an older kernel: fewer counters */
	{ "dentry", true, "alloc_refill 3\nfree_drain 4\n", 120, 60, 480, 300, 336, 192, 21, 1, 16 },
	{ "big-cache", true, NULL, 8, 4, 0, 5, 8, 16384, 2, 8, 4 },
	/* cannot queue; its name needs escaping in a label */
	{ "odd\"na\\me", false, NULL, 0, 0, 0, 10, 20, 100, 20, 2, 1 },
};
#define N_CACHES (sizeof(caches) / sizeof(caches[0]))

static void make_tree(bool sleeb)
{
	char buf[4096];
	size_t len = 0;

	root = test_mkdtemp();
	prom = test_path(root, "prom/sleeb.prom");
	logpath = test_path(root, "sleebd.log");
	len += (size_t) snprintf(buf + len, sizeof(buf) - len,
				 "slabinfo - version: 2.1\n# name            <active_objs> <num_objs> <objsize> "
				 "<objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : "
				 "slabdata <active_slabs> <num_slabs> <sharedavail>\n");
	for (size_t i = 0; i < N_CACHES; i++) {
		const struct fake_cache *c = &caches[i];
		bool q = sleeb && c->queues;
		char rel[256];

		len += (size_t) snprintf(buf + len, sizeof(buf) - len,
					 "%-17s %6u %6u %6u %4u %4u : tunables %4u %4u %4u : slabdata %6u %6u %6u\n",
					 c->name, c->active, c->total, c->objsize, c->perslab, c->pages, q ? c->q : 0,
					 q ? c->b : 0, q ? c->s : 0, c->slabs, c->slabs, 0u);
		test_fake_slab_dir(root, c->name, c->objsize, q ? (const unsigned[3]) { c->q, c->b, c->s } : NULL);
		if (!q)
			continue;
		if (c->queue_stats) {
			snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/queue_stats", c->name);
			writef(rel, "%s", c->queue_stats);
		}
	}
	writef("proc/slabinfo", "%s", buf);
	writef("proc/meminfo", "MemTotal:       16384000 kB\nMemFree:         8000000 kB\n");
	writef("prom/.keep", "\n");
	writef("etc/sleeb/sleebd.conf", "[Daemon]\nInterval=50ms\nPrometheusTextfile=%s\n", prom);
	writef("etc/sleeb/policy.d/10-kmalloc.conf",
	       "[Cache]\nMatch=kmalloc-*\nCpuQueueSize=256\nCpuBatchSize=64\nSharedQueueSize=512\n");
}

static void teardown(void)
{
	if (root)
		test_rm_tree(root);
	free(root);
	free(prom);
	free(logpath);
	root = prom = logpath = NULL;
}

/* Starts sleebd on the tree with up to two more options (NULL: none),
 * output to logpath, under umask 077 (the file must still be 0644). */
static pid_t spawn_sleebd(const char *opt1, const char *opt2)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		test_child_setup(logpath);
		umask(077);
		execl(sleebd, sleebd, "--root", root, "--config-root", root, opt1, opt2, (char *) NULL);
		_exit(127);
	}
	return pid;
}

static char *log_text(void)
{
	char *s = test_read_file(logpath);

	return s ? s : strdup("(no log)");
}

/* Runs sleebd --once [opt]; returns the textfile (asserts it exists). */
static char *run_once(const char *opt, int want_exit, double *t0, double *t1)
{
	struct timespec ts;
	char *text, *log;
	int r;

	clock_gettime(CLOCK_REALTIME, &ts);
	*t0 = (double) ts.tv_sec;
	r = test_wait_exit(spawn_sleebd("--once", opt));
	clock_gettime(CLOCK_REALTIME, &ts);
	*t1 = (double) ts.tv_sec + 1;
	log = log_text();
	ck_assert_msg(r == want_exit, "sleebd --once exited %d, want %d: %s", r, want_exit, log);
	text = test_read_file(prom);
	ck_assert_msg(text, "no %s: %s", prom, log);
	free(log);
	return text;
}

/* Replaces the value of the timestamp line with "T" after checking it. */
static void mask_timestamp(char *text, double t0, double t1, bool want_zero)
{
	static const char key[] = "\nsleeb_last_apply_timestamp_seconds ";
	char *p = strstr(text, key), *end, *nl;
	double v;

	ck_assert_msg(p, "no timestamp in:\n%s", text);
	p += strlen(key);
	v = strtod(p, &end);
	ck_assert_msg(end > p && *end == '\n', "bad timestamp in:\n%s", text);
	if (want_zero)
		ck_assert_msg(strncmp(p, "0.000\n", 6) == 0, "timestamp %.3f, want 0", v);
	else
		ck_assert_msg(v >= t0 && v <= t1, "timestamp %.3f not in [%.0f, %.0f]", v, t0, t1);
	nl = strchr(p, '\n');
	ck_assert_msg(memchr(p, '.', (size_t) (nl - p)) == nl - 4, "not seconds.millis in:\n%s", text);
	*p = 'T';
	memmove(p + 1, nl, strlen(nl) + 1);
}

/* "\nname{cache="cache"} ", the label escaped. */
static void series(char *buf, size_t len, const char *name, const char *cache)
{
	char esc[300], *e = esc;

	for (const char *s = cache; *s && e < esc + sizeof(esc) - 3; s++) {
		if (*s == '"' || *s == '\\')
			*e++ = '\\';
		*e++ = *s;
	}
	*e = '\0';
	snprintf(buf, len, "\n%s{cache=\"%s\"} ", name, esc);
}

static bool has_series(const char *text, const char *name, const char *cache)
{
	char line[512];

	series(line, sizeof(line), name, cache);
	return strstr(text, line) != NULL;
}

/* The line "name{cache="cache"} value\n" is in text. */
static bool has_sample(const char *text, const char *name, const char *cache, unsigned long long value)
{
	char line[512];
	size_t n;

	series(line, sizeof(line), name, cache);
	n = strlen(line);
	snprintf(line + n, sizeof(line) - n, "%llu\n", value);
	return strstr(text, line) != NULL;
}

/* Every tunable and queue_stats line of the fake sysfs is in the textfile. */
static void assert_matches_sysfs(const char *text)
{
	static const char *const tunables[] = { "cpu_queue_size", "cpu_batch_size", "shared_queue_size" };

	for (size_t i = 0; i < N_CACHES; i++) {
		const char *name = caches[i].name;
		char *dir, *path, *s, *save = NULL;

		ck_assert_int_ge(asprintf(&dir, "%s/sys/kernel/slab/%s", root, name), 0);
		for (size_t t = 0; t < 3; t++) {
			char metric[64];

			path = test_path(dir, tunables[t]);
			s = test_read_file(path);
			free(path);
			snprintf(metric, sizeof(metric), "sleeb_%s", tunables[t]);
			if (!s) {
				ck_assert_msg(!has_series(text, metric, name), "%s: no sysfs %s but exported", name,
					      tunables[t]);
				continue;
			}
			ck_assert_msg(has_sample(text, metric, name, strtoull(s, NULL, 10)),
				      "%s: %s is %s in sysfs, not in:\n%s", name, tunables[t], s, text);
			free(s);
		}
		path = test_path(dir, "queue_stats");
		s = test_read_file(path);
		free(path);
		for (char *l = s ? strtok_r(s, "\n", &save) : NULL; l; l = strtok_r(NULL, "\n", &save)) {
			char metric[96], counter[64];
			unsigned long long v;

			ck_assert_int_eq(sscanf(l, "%63s %llu", counter, &v), 2);
			snprintf(metric, sizeof(metric), "sleeb_queue_%s_total", counter);
			if (strcmp(counter, "future_counter") == 0)
				ck_assert_msg(!strstr(text, metric), "unknown counter exported");
			else
				ck_assert_msg(has_sample(text, metric, name, v), "%s: %s %llu not in:\n%s", name,
					      counter, v, text);
		}
		free(s);
		free(dir);
	}
}

static void assert_mode_0644(void)
{
	struct stat st;

	ck_assert_int_eq(lstat(prom, &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_msg((st.st_mode & 07777) == 0644, "mode %o", st.st_mode & 07777);
}

/* The whole file for the SLEEB tree after --once with the kmalloc policy. */
static char *expected_once(void)
{
	unsigned long long ps = (unsigned long long) sysconf(_SC_PAGESIZE);
	char *s;

	ck_assert_int_ge(asprintf(&s,
		"# HELP sleeb_cpu_queue_size Per-cpu object queue size in objects (sysfs cpu_queue_size).\n"
		"# TYPE sleeb_cpu_queue_size gauge\n"
		"sleeb_cpu_queue_size{cache=\"kmalloc-64\"} 256\n"
		"sleeb_cpu_queue_size{cache=\"dentry\"} 120\n"
		"sleeb_cpu_queue_size{cache=\"big-cache\"} 8\n"
		"# HELP sleeb_cpu_batch_size Objects moved per refill or drain of a per-cpu queue (sysfs cpu_batch_size).\n"
		"# TYPE sleeb_cpu_batch_size gauge\n"
		"sleeb_cpu_batch_size{cache=\"kmalloc-64\"} 64\n"
		"sleeb_cpu_batch_size{cache=\"dentry\"} 60\n"
		"sleeb_cpu_batch_size{cache=\"big-cache\"} 4\n"
		"# HELP sleeb_shared_queue_size Per-node shared queue size in objects, 0 for none (sysfs shared_queue_size).\n"
		"# TYPE sleeb_shared_queue_size gauge\n"
		"sleeb_shared_queue_size{cache=\"kmalloc-64\"} 512\n"
		"sleeb_shared_queue_size{cache=\"dentry\"} 480\n"
		"sleeb_shared_queue_size{cache=\"big-cache\"} 0\n"
		"# HELP sleeb_active_objects Objects in use or waiting in the object queues (/proc/slabinfo active_objs).\n"
		"# TYPE sleeb_active_objects gauge\n"
		"sleeb_active_objects{cache=\"kmalloc-64\"} 100\n"
		"sleeb_active_objects{cache=\"dentry\"} 300\n"
		"sleeb_active_objects{cache=\"big-cache\"} 5\n"
		"sleeb_active_objects{cache=\"odd\\\"na\\\\me\"} 10\n"
		"# HELP sleeb_total_objects Objects the cache's slabs hold, used or free (/proc/slabinfo num_objs).\n"
		"# TYPE sleeb_total_objects gauge\n"
		"sleeb_total_objects{cache=\"kmalloc-64\"} 128\n"
		"sleeb_total_objects{cache=\"dentry\"} 336\n"
		"sleeb_total_objects{cache=\"big-cache\"} 8\n"
		"sleeb_total_objects{cache=\"odd\\\"na\\\\me\"} 20\n"
		"# HELP sleeb_slab_memory_bytes Memory in the cache's slabs: num_slabs x pagesperslab x page size (/proc/slabinfo).\n"
		"# TYPE sleeb_slab_memory_bytes gauge\n"
		"sleeb_slab_memory_bytes{cache=\"kmalloc-64\"} %llu\n"
		"sleeb_slab_memory_bytes{cache=\"dentry\"} %llu\n"
		"sleeb_slab_memory_bytes{cache=\"big-cache\"} %llu\n"
		"sleeb_slab_memory_bytes{cache=\"odd\\\"na\\\\me\"} %llu\n"
		"# HELP sleeb_queue_alloc_refill_total Refills of a per-cpu queue (queue_stats alloc_refill).\n"
		"# TYPE sleeb_queue_alloc_refill_total counter\n"
		"sleeb_queue_alloc_refill_total{cache=\"kmalloc-64\"} 11\n"
		"sleeb_queue_alloc_refill_total{cache=\"dentry\"} 3\n"
		"# HELP sleeb_queue_free_drain_total Drains of a full per-cpu queue (queue_stats free_drain).\n"
		"# TYPE sleeb_queue_free_drain_total counter\n"
		"sleeb_queue_free_drain_total{cache=\"kmalloc-64\"} 12\n"
		"sleeb_queue_free_drain_total{cache=\"dentry\"} 4\n"
		"# HELP sleeb_queue_shared_alloc_hit_total Refills that found objects in the shared queue (queue_stats shared_alloc_hit).\n"
		"# TYPE sleeb_queue_shared_alloc_hit_total counter\n"
		"sleeb_queue_shared_alloc_hit_total{cache=\"kmalloc-64\"} 13\n"
		"# HELP sleeb_queue_shared_alloc_miss_total Refills that found the shared queue empty (queue_stats shared_alloc_miss).\n"
		"# TYPE sleeb_queue_shared_alloc_miss_total counter\n"
		"sleeb_queue_shared_alloc_miss_total{cache=\"kmalloc-64\"} 14\n"
		"# HELP sleeb_queue_shared_free_total Objects drained into a shared queue (queue_stats shared_free).\n"
		"# TYPE sleeb_queue_shared_free_total counter\n"
		"sleeb_queue_shared_free_total{cache=\"kmalloc-64\"} 15\n"
		"# HELP sleeb_queue_shared_overflow_total Drains that found the shared queue full (queue_stats shared_overflow).\n"
		"# TYPE sleeb_queue_shared_overflow_total counter\n"
		"sleeb_queue_shared_overflow_total{cache=\"kmalloc-64\"} 16\n"
		"# HELP sleeb_queue_remote_free_total Objects of another node freed here, batched to that node's shared queue (queue_stats remote_free).\n"
		"# TYPE sleeb_queue_remote_free_total counter\n"
		"sleeb_queue_remote_free_total{cache=\"kmalloc-64\"} 17\n"
		"# HELP sleeb_queue_remote_alloc_total Allocations for another node served from its shared queue (queue_stats remote_alloc).\n"
		"# TYPE sleeb_queue_remote_alloc_total counter\n"
		"sleeb_queue_remote_alloc_total{cache=\"kmalloc-64\"} 18\n"
		"# HELP sleeb_queue_reap_drained_total Objects the periodic reaper gave back to the slabs (queue_stats reap_drained).\n"
		"# TYPE sleeb_queue_reap_drained_total counter\n"
		"sleeb_queue_reap_drained_total{cache=\"kmalloc-64\"} 19\n"
		"# HELP sleeb_queue_resize_total Changes of the queue sizes (queue_stats resize).\n"
		"# TYPE sleeb_queue_resize_total counter\n"
		"sleeb_queue_resize_total{cache=\"kmalloc-64\"} 20\n"
		"# HELP sleeb_decisions_total Tunable changes sleebd decided (each a journal entry with REASON=), by reason.\n"
		"# TYPE sleeb_decisions_total counter\n"
		"sleeb_decisions_total{reason=\"policy\"} 1\n"
		"sleeb_decisions_total{reason=\"unmatched\"} 0\n"
		"sleeb_decisions_total{reason=\"autotune-grow\"} 0\n"
		"sleeb_decisions_total{reason=\"autotune-shrink\"} 0\n"
		"sleeb_decisions_total{reason=\"drift\"} 0\n"
		"# HELP sleeb_apply_failures_total Tunable writes the kernel refused and policies that give a cache invalid values.\n"
		"# TYPE sleeb_apply_failures_total counter\n"
		"sleeb_apply_failures_total 0\n"
		"# HELP sleeb_policy_load_errors_total Loads of sleebd.conf and the policy refused because of errors (the old ones stay in force).\n"
		"# TYPE sleeb_policy_load_errors_total counter\n"
		"sleeb_policy_load_errors_total 0\n"
		"# HELP sleeb_last_apply_timestamp_seconds Unix time of the last pass over the caches in which nothing failed, 0 if none.\n"
		"# TYPE sleeb_last_apply_timestamp_seconds gauge\n"
		"sleeb_last_apply_timestamp_seconds T\n"
		"# HELP sleeb_monitor_only 1 if the kernel has no SLEEB queues and sleebd only watches.\n"
		"# TYPE sleeb_monitor_only gauge\n"
		"sleeb_monitor_only 0\n",
		2 * ps, 16 * ps, 32 * ps, 2 * ps), 0);
	return s;
}

START_TEST(test_once_exact)
{
	char *text, *want, *victim, *tmp;
	double t0, t1;

	make_tree(true);
	/* a planted link must not make sleebd write through it */
	victim = test_path(root, "victim");
	tmp = test_path(root, "prom/.sleeb.prom.tmp");
	test_write_file(victim, "precious\n");
	ck_assert_int_eq(symlink(victim, tmp), 0);

	text = run_once(NULL, 0, &t0, &t1);
	mask_timestamp(text, t0, t1, false);
	want = expected_once();
	ck_assert_msg(strcmp(text, want) == 0, "got:\n%s\nwant:\n%s", text, want);
	assert_matches_sysfs(text);
	assert_mode_0644();
	test_assert_file_eq(victim, "precious\n");
	ck_assert_int_eq(access(tmp, F_OK), -1);
	free(text);
	free(want);
	free(victim);
	free(tmp);
}
END_TEST

START_TEST(test_once_failure)
{
	char *text;
	double t0, t1;

	make_tree(true);
	/* valid as a file, but batch 200 > queue 120 for dentry */
	writef("etc/sleeb/policy.d/20-dentry.conf", "[Cache]\nMatch=dentry\nCpuBatchSize=200\n");
	text = run_once(NULL, 1, &t0, &t1);
	mask_timestamp(text, t0, t1, true);
	ck_assert_msg(strstr(text, "\nsleeb_apply_failures_total 1\n"), "%s", text);
	ck_assert_msg(strstr(text, "\nsleeb_decisions_total{reason=\"policy\"} 1\n"), "%s", text);
	assert_matches_sysfs(text);
	free(text);
}
END_TEST

START_TEST(test_once_dry_run)
{
	char *text;
	double t0, t1;

	make_tree(true);
	text = run_once("--dry-run", 0, &t0, &t1);
	/* decided, so counted; nothing written, so no apply and sysfs values */
	mask_timestamp(text, t0, t1, true);
	ck_assert_msg(strstr(text, "\nsleeb_decisions_total{reason=\"policy\"} 1\n"), "%s", text);
	ck_assert(has_sample(text, "sleeb_cpu_queue_size", "kmalloc-64", 120));
	assert_matches_sysfs(text);
	free(text);
}
END_TEST

START_TEST(test_once_monitor_only)
{
	unsigned long long ps = (unsigned long long) sysconf(_SC_PAGESIZE);
	char *text;
	double t0, t1;

	make_tree(false);
	text = run_once(NULL, 0, &t0, &t1);
	mask_timestamp(text, t0, t1, true);
	ck_assert_msg(!strstr(text, "sleeb_cpu_queue_size") && !strstr(text, "sleeb_queue_"), "%s", text);
	ck_assert(has_sample(text, "sleeb_active_objects", "dentry", 300));
	ck_assert(has_sample(text, "sleeb_total_objects", "odd\"na\\me", 20));
	ck_assert(has_sample(text, "sleeb_slab_memory_bytes", "big-cache", 32 * ps));
	ck_assert_msg(strstr(text, "\nsleeb_monitor_only 1\n"), "%s", text);
	ck_assert_msg(strstr(text, "\nsleeb_decisions_total{reason=\"policy\"} 0\n"), "%s", text);
	free(text);
}
END_TEST

/* Polls the textfile until it contains want; NULL after 5 s. */
static char *wait_for(const char *want)
{
	for (int i = 0; i < 500; i++) {
		char *text = test_read_file(prom);

		if (text && strstr(text, want))
			return text;
		free(text);
		usleep(10000);
	}
	return NULL;
}

/* Replaces a file atomically, as sysfs would show a new value. */
#define replace(rel, text) test_replace_at(root, rel, text)

/* The kernel shows a tunable written to sysfs in /proc/slabinfo's
 * tunables columns too (sleebd reads sysfs only when they disagree with
 * what it knows): the same in the fake tree. */
static void slabinfo_set_queue(const char *cache, unsigned q)
{
	char *text = test_slabinfo_with_queue(root, cache, q);

	replace("proc/slabinfo", text);
	free(text);
}

START_TEST(test_daemon)
{
	static const char last[] = "\nsleeb_monitor_only 0\n";
	struct stat st;
	struct timespec mtime;
	ino_t ino;
	unsigned rewrites = 0;
	char *text;
	pid_t pid;

	make_tree(true);
	pid = spawn_sleebd(NULL, NULL);
	text = wait_for(last);
	ck_assert_msg(text, "no textfile: %s", log_text());
	free(text);
	assert_mode_0644();
	ck_assert_int_eq(stat(prom, &st), 0);
	ino = st.st_ino;
	mtime = st.st_mtim;

	/* Rewritten every interval, and every read sees a whole file. */
	for (int i = 0; i < 1000 && rewrites < 3; i++) {
		size_t len;

		text = test_read_file(prom);
		ck_assert_ptr_nonnull(text);
		len = strlen(text);
		ck_assert_msg(len > sizeof(last) && strcmp(text + len - strlen(last), last) == 0,
			      "partial file:\n%s", text);
		free(text);
		/* (a freed inode number may come back: look at the mtime too) */
		if (stat(prom, &st) == 0 && (st.st_ino != ino || st.st_mtim.tv_sec != mtime.tv_sec ||
					     st.st_mtim.tv_nsec != mtime.tv_nsec)) {
			rewrites++;
			ino = st.st_ino;
			mtime = st.st_mtim;
		}
		usleep(5000);
	}
	ck_assert_uint_ge(rewrites, 3);

	/* Values follow sysfs: counters and a value someone else set. */
	replace("sys/kernel/slab/dentry/queue_stats", "alloc_refill 1000\nfree_drain 2000\n");
	replace("sys/kernel/slab/big-cache/cpu_queue_size", "16\n");
	slabinfo_set_queue("big-cache", 16);
	text = wait_for("sleeb_queue_free_drain_total{cache=\"dentry\"} 2000\n");
	ck_assert_ptr_nonnull(text);
	free(text);
	text = wait_for("sleeb_cpu_queue_size{cache=\"big-cache\"} 16\n");
	ck_assert_ptr_nonnull(text);
	assert_matches_sysfs(text);
	free(text);

	/* A refused reload is counted; the policy in force stays. */
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "[Cache]\nMatch=kmalloc-*\nCpuQueueSize=lots\n");
	kill(pid, SIGHUP);
	text = wait_for("\nsleeb_policy_load_errors_total 1\n");
	ck_assert_msg(text, "%s", log_text());
	ck_assert(has_sample(text, "sleeb_cpu_queue_size", "kmalloc-64", 256));
	free(text);

	/* A good one that no longer matches kmalloc-64 puts its original back. */
	writef("etc/sleeb/policy.d/10-kmalloc.conf", "[Cache]\nMatch=dentry\nCpuQueueSize=200\n");
	kill(pid, SIGHUP);
	text = wait_for("sleeb_decisions_total{reason=\"unmatched\"} 1\n");
	ck_assert_msg(text, "%s", log_text());
	ck_assert(has_sample(text, "sleeb_cpu_queue_size", "kmalloc-64", 120));
	ck_assert(has_sample(text, "sleeb_cpu_queue_size", "dentry", 200));
	ck_assert_msg(strstr(text, "sleeb_decisions_total{reason=\"policy\"} 2\n"), "%s", text);
	assert_matches_sysfs(text);
	free(text);

	/* Stopped: no file claiming values nobody keeps up to date. */
	kill(pid, SIGTERM);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_int_eq(access(prom, F_OK), -1);
	text = test_path(root, "prom/.sleeb.prom.tmp");
	ck_assert_int_eq(access(text, F_OK), -1);
	free(text);
}
END_TEST

/* promtool check metrics < file; its output goes to our stderr. */
static int promtool_check(const char *file)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(file, O_RDONLY);

		if (fd < 0 || dup2(fd, 0) < 0)
			_exit(126);
		dup2(2, 1);
		execl(promtool, promtool, "check", "metrics", (char *) NULL);
		_exit(127);
	}
	return test_wait_exit(pid);
}

static void check_with_promtool(bool sleeb, const char *extra_policy, int want_exit)
{
	char *text;
	double t0, t1;
	int r;

	make_tree(sleeb);
	if (extra_policy)
		writef("etc/sleeb/policy.d/20-extra.conf", "%s", extra_policy);
	text = run_once(NULL, want_exit, &t0, &t1);
	free(text);
	r = promtool_check(prom);
	ck_assert_msg(r == 0, "%s check metrics < %s exited %d", promtool, prom, r);
}

START_TEST(test_promtool_sleeb)
{
	check_with_promtool(true, NULL, 0);
}
END_TEST

START_TEST(test_promtool_failure)
{
	check_with_promtool(true, "[Cache]\nMatch=dentry\nCpuBatchSize=200\n", 1);
}
END_TEST

START_TEST(test_promtool_monitor_only)
{
	check_with_promtool(false, NULL, 0);
}
END_TEST

static void add_promtool_tests(TCase *tc)
{
	tcase_add_test(tc, test_promtool_sleeb);
	tcase_add_test(tc, test_promtool_failure);
	tcase_add_test(tc, test_promtool_monitor_only);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 30);
}

static void add_textfile_tests(TCase *tc)
{
	tcase_add_test(tc, test_once_exact);
	tcase_add_test(tc, test_once_failure);
	tcase_add_test(tc, test_once_dry_run);
	tcase_add_test(tc, test_once_monitor_only);
	tcase_add_test(tc, test_daemon);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 30);
}

int main(int argc, char *argv[])
{
	bool promtool_mode = argc > 1 && strcmp(argv[1], "--promtool") == 0;

	if (argc < 2 + promtool_mode) {
		fprintf(stderr, "usage: %s [--promtool] SLEEBD [PROMTOOL]\n", argv[0]);
		return EXIT_FAILURE;
	}
	sleebd = argv[1 + promtool_mode];
	if (promtool_mode) {
		const char *env = getenv("SLEEB_PROMTOOL");

		promtool = env && *env ? env : argc > 3 && *argv[3] ? argv[3] : NULL;
		if (!promtool) {
			/* 77: meson reports SKIP, visibly. */
			printf("SKIP: no promtool: set SLEEB_PROMTOOL=/path/to/promtool, or put it in PATH and "
			       "reconfigure (it is in Debian's prometheus package)\n");
			return 77;
		}
		printf("using %s\n", promtool);
		return test_main("sleebd-promtool", add_promtool_tests);
	}
	return test_main("sleebd-prometheus", add_textfile_tests);
}
