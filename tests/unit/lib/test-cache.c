/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/cache.c: slabinfo joined with sysfs. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_load_sleeb);
	tcase_add_test(tc, test_load_vanilla_and_missing);
}

int main(void)
{
	return test_main("cache", add_tests);
}
