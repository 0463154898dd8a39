/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/cache.c: slabinfo joined with sysfs. */

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"
#include "sleeb/cache.h"
#include "sleeb/root.h"

START_TEST(test_load_sleeb)
{
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	const struct sleeb_cache *c;

	sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb");
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), 9);
	ck_assert(set.sleeb_kernel);
	c = sleeb_cache_set_find(&set, "kmalloc-64");
	ck_assert_ptr_nonnull(c);
	ck_assert(c->has_sysfs && c->has_queues && c->has_stats);
	ck_assert_int_eq(c->naliases, 2);
	ck_assert_str_eq(c->aliases, "dmaengine-unmap-2,ip_mrt_cache");
	ck_assert_uint_eq(c->tunables.v[SLEEB_TUNABLE_SHARED], 480);
	ck_assert_uint_eq(c->stats.value[SLEEB_QSTAT_FREE_DRAIN], 900);
	ck_assert_uint_eq(sleeb_cache_use_percent(c), 97);
	ck_assert_uint_eq(sleeb_cache_waste(c), 72 * 64);
	ck_assert_uint_eq(sleeb_cache_memory(c), 48ULL * (uint64_t)sysconf(_SC_PAGESIZE));
	c = sleeb_cache_set_find(&set, "sleeb-debug");
	ck_assert_uint_eq(sleeb_cache_use_percent(c), 0);
	ck_assert_uint_eq(sleeb_cache_waste(c), 0);
	ck_assert_ptr_null(sleeb_cache_set_find(&set, "nope"));
	sleeb_cache_set_free(&set);
	sleeb_root_set(NULL);
}
END_TEST

/*
 * The aliases live in the set's pool, reused from load to load: a kept
 * snapshot (sleebd's) still has every cache's own list after later loads,
 * the listing forgotten or not, and caches without aliases have "".
 */
START_TEST(test_aliases_across_loads)
{
	struct sleeb_cache_set set = { 0 };
	struct sleeb_error err = { 0 };
	struct sleeb_reader *rd;

	sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb");
	ck_assert_int_eq(sleeb_reader_new(&rd), 0);
	for (int i = 0; i < 3; i++) {
		const struct sleeb_cache *c;

		if (i == 2)
			sleeb_reader_forget(rd, NULL);
		ck_assert_int_eq(sleeb_reader_load(rd, NULL, NULL, &set, &err), 9);
		c = sleeb_cache_set_find(&set, "kmalloc-64");
		ck_assert_int_eq(c->naliases, 2);
		ck_assert_str_eq(c->aliases, "dmaengine-unmap-2,ip_mrt_cache");
		c = sleeb_cache_set_find(&set, "sleeb-debug");
		ck_assert_int_eq(c->naliases, 0);
		ck_assert_str_eq(c->aliases, "");
	}
	sleeb_reader_free(rd);
	sleeb_cache_set_free(&set);
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_load_vanilla_and_missing)
{
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	char *root;

	sleeb_root_set(SLEEB_TEST_DATA "/fake-vanilla");
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), 9);
	ck_assert(!set.sleeb_kernel);
	ck_assert(!set.caches[0].has_queues);
	ck_assert(set.caches[0].has_sysfs);
	sleeb_cache_set_free(&set);

	/* No sysfs at all: slabinfo alone is enough. */
	root = test_mkdtemp();
	test_write_file_at(root, "proc/slabinfo",
			"slabinfo - version: 2.1\nx 1 2 3 4 5 : tunables 8 4 0 : slabdata 1 1 0\n");
	sleeb_root_set(root);
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), 1);
	ck_assert(set.sleeb_kernel);  /* non-zero slabinfo tunables */
	ck_assert(!set.caches[0].has_sysfs);
	sleeb_cache_set_free(&set);

	/* A broken queue_stats is an error, not silently skipped. */
	test_rm_tree(root);
	free(root);
	root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	test_write_file_at(root, "sys/kernel/slab/dentry/queue_stats", "resize x\n");
	sleeb_root_set(root);
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "dentry/queue_stats:1: expected 'name value'"), "%s", err.msg);
	ck_assert_uint_eq(set.n, 0);
	test_rm_tree(root);
	free(root);

	sleeb_root_set("/nonexistent");
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), -ENOENT);
	sleeb_root_set(NULL);
}
END_TEST

/*
 * Every directory the library walks goes through fdopendir() (it opens
 * them inside the root, sleeb_root_opendir()): count them. libsleeb is
 * linked statically, so this definition is the one it calls.
 */
static unsigned opendir_calls;

DIR *fdopendir(int fd)
{
	static DIR *(*real)(int);

	if (!real)
		real = (DIR * (*)(int)) dlsym(RTLD_NEXT, "fdopendir");
	opendir_calls++;
	return real(fd);
}

/*
 * A cache destroyed between /proc/slabinfo and its sysfs directory.  The
 * hook is in the fake tree: one attribute the snapshot reads before it
 * gets to @victim is a FIFO, whose open() blocks until a child opens the
 * other end.  The child then removes @victim's directory (or, with
 * @victim == @fifo_cache, the directory the reader is in the middle of)
 * and only then hands over the attribute's content: the reader always
 * finds the directory listed and then gone, never by chance.
 */
static pid_t vanish_during_read(const char *root, const char *fifo_cache, const char *attr,
				const char *content, const char *victim, bool recreate)
{
	char *fifo, *dir, rel[256];
	pid_t pid;

	snprintf(rel, sizeof(rel), "sys/kernel/slab/%s/%s", fifo_cache, attr);
	fifo = test_path(root, rel);
	ck_assert_int_eq(unlink(fifo), 0);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* The FIFO stands in for a slow attribute; the library refuses
	 * FIFOs unless a test says so (test-sysfs.c). */
	sleeb_root_allow_fifos = true;
	snprintf(rel, sizeof(rel), "sys/kernel/slab/%s", victim);
	dir = test_path(root, rel);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(fifo, O_WRONLY);

		if (fd < 0)
			_exit(1);
		test_rm_tree(dir);
		/* A new cache of the same name: not the one being read. */
		if (recreate && mkdir(dir, 0755) < 0)
			_exit(4);
		if (write(fd, content, strlen(content)) != (ssize_t) strlen(content))
			_exit(2);
		_exit(close(fd) < 0 ? 3 : 0);
	}
	free(fifo);
	free(dir);
	return pid;
}

START_TEST(test_cache_vanishes_between_reads)
{
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	char *root;
	pid_t pid;

	/* dentry's directory goes while kmalloc-1k (before it in
	 * /proc/slabinfo) is read: dentry is dropped, the rest stays. */
	root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	sleeb_root_set(root);
	pid = vanish_during_read(root, "kmalloc-1k", "queue_stats", "alloc_refill 5\n", "dentry", false);
	ck_assert_msg(sleeb_cache_set_load(&set, &err) == 8, "snapshot failed: %s", err.msg);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_ptr_null(sleeb_cache_set_find(&set, "dentry"));
	ck_assert_ptr_nonnull(sleeb_cache_set_find(&set, "inode_cache"));
	ck_assert_uint_eq(sleeb_cache_set_find(&set, "kmalloc-1k")->stats.value[SLEEB_QSTAT_ALLOC_REFILL], 5);
	sleeb_cache_set_free(&set);
	test_rm_tree(root);
	free(root);

	/* dentry's directory goes while dentry itself is being read. */
	root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	sleeb_root_set(root);
	pid = vanish_during_read(root, "dentry", "cpu_queue_size", "120\n", "dentry", false);
	ck_assert_msg(sleeb_cache_set_load(&set, &err) == 8, "snapshot failed: %s", err.msg);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_ptr_null(sleeb_cache_set_find(&set, "dentry"));
	ck_assert_uint_eq(set.n, 8);
	sleeb_cache_set_free(&set);
	test_rm_tree(root);
	free(root);

	/* ... and a new dentry cache (an empty directory yet) takes its
	 * name meanwhile: the one being read is gone all the same. */
	root = test_copy_tree(SLEEB_TEST_DATA "/fake-sleeb");
	sleeb_root_set(root);
	pid = vanish_during_read(root, "dentry", "cpu_queue_size", "120\n", "dentry", true);
	ck_assert_msg(sleeb_cache_set_load(&set, &err) == 8, "snapshot failed: %s", err.msg);
	ck_assert_int_eq(test_wait_exit(pid), 0);
	ck_assert_ptr_null(sleeb_cache_set_find(&set, "dentry"));
	sleeb_cache_set_free(&set);
	test_rm_tree(root);
	free(root);
	sleeb_root_set(NULL);
}
END_TEST

/* On a kernel without queues, no cache has cpu_queue_size: the snapshot
 * must not walk /sys/kernel/slab once per cache to say so. */
START_TEST(test_no_queues_one_walk)
{
	struct sleeb_cache_set set;
	struct sleeb_error err = { 0 };
	char *root;
	char name[32];

	root = test_copy_tree(SLEEB_TEST_DATA "/fake-vanilla");
	/* 9 caches in the tree; 50 more make a quadratic walk obvious. */
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "extra-%02d", i);
		test_fake_slab_dir(root, name, 64, NULL);
	}
	sleeb_root_set(root);
	opendir_calls = 0;
	ck_assert_int_eq(sleeb_cache_set_load(&set, &err), 9);
	ck_assert(!set.sleeb_kernel);
	ck_assert_msg(opendir_calls <= 1, "%u walks of /sys/kernel/slab for one snapshot", opendir_calls);
	sleeb_cache_set_free(&set);
	test_rm_tree(root);
	free(root);
	sleeb_root_set(NULL);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_load_sleeb);
	tcase_add_test(tc, test_aliases_across_loads);
	tcase_add_test(tc, test_load_vanilla_and_missing);
	tcase_add_test(tc, test_cache_vanishes_between_reads);
	tcase_add_test(tc, test_no_queues_one_walk);
}

int main(void)
{
	return test_main("cache", add_tests);
}
