/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/plan.c: one cache's plan, the same for sleebd and sleebctl. */

#include <string.h>

#include "helpers.h"
#include "sleeb/plan.h"

static struct sleeb_policy pol;

static void load(const char *text)
{
	struct sleeb_diag diag = { 0 };

	memset(&pol, 0, sizeof(pol));
	ck_assert_int_eq(sleeb_policy_load_buffer(&pol, "t.conf", text, strlen(text), &diag), 0);
	sleeb_diag_done(&diag);
}

static void plan_sized(const char *name, const char *aliases, uint64_t object_size, struct sleeb_plan *ret)
{
	struct sleeb_plan_input in = {
		.name = name,
		.aliases = aliases,
		.object_size = object_size,
		.has_queues = true,
		.current = { .v = { 120, 60, 480 } },
	};
	struct sleeb_error err = { 0 };

	sleeb_plan_cache(&pol, &in, 4096, ret, &err);
}

static void plan(const char *name, const char *aliases, struct sleeb_plan *ret)
{
	plan_sized(name, aliases, 72, ret);
}

/*
 * A merged cache's names matched by different sections: the section used
 * does not depend on which name the caller holds as "the name" (the rescan
 * has /proc/slabinfo's, the uevent path the first link in sysfs) but on
 * one order of all the names: byte order, the first one matched wins.
 */
START_TEST(test_merged_names_one_order)
{
	struct sleeb_plan a, b, c;

	load("[Cache]\nMatch=zzz_cache\nCpuQueueSize=200\n"
	     "[Cache]\nMatch=mmm_cache\nCpuQueueSize=100\n");
	plan("zzz_cache", "aaa_cache,mmm_cache", &a);     /* as the rescan */
	plan("aaa_cache", "mmm_cache,zzz_cache", &b);     /* as the uevent */
	plan("mmm_cache", "zzz_cache,aaa_cache", &c);
	ck_assert_int_eq(a.action, SLEEB_PLAN_POLICY);
	ck_assert_str_eq(a.matched_as, "mmm_cache");
	ck_assert_str_eq(b.matched_as, "mmm_cache");
	ck_assert_str_eq(c.matched_as, "mmm_cache");
	ck_assert_uint_eq(a.target.v[SLEEB_TUNABLE_QUEUE], 100);
	ck_assert_uint_eq(b.target.v[SLEEB_TUNABLE_QUEUE], 100);
	ck_assert_uint_eq(c.target.v[SLEEB_TUNABLE_QUEUE], 100);
	sleeb_policy_done(&pol);
}
END_TEST

/* One name matched: that one, wherever it is in the list. */
START_TEST(test_alias_only_match)
{
	struct sleeb_plan p;

	load("[Cache]\nMatch=proc_dir_entry\nCpuQueueSize=200\n");
	plan("uid_cache", "proc_dir_entry", &p);
	ck_assert_int_eq(p.action, SLEEB_PLAN_POLICY);
	ck_assert_str_eq(p.matched_as, "proc_dir_entry");
	plan("uid_cache", NULL, &p);
	ck_assert_int_eq(p.action, SLEEB_PLAN_NONE);
	ck_assert_str_eq(p.matched_as, "");
	sleeb_policy_done(&pol);
}
END_TEST

/*
 * AutoTuneMin=default: the kernel's default queue of the cache's size
 * class (SLAB's table), so auto-tuning grows queues and brings them back
 * but never below what the kernel would have.  The cache's current queue
 * (120 here) is clamped up to it where it is smaller.
 */
START_TEST(test_autotune_bounds_default)
{
	static const struct { uint64_t size; uint32_t q; } want[] = {
		{ 64, 120 }, { 256, 120 }, { 512, 54 }, { 1024, 54 }, { 2048, 24 }, { 4096, 24 },
	};
	struct sleeb_plan p;

	load("[Cache]\nMatch=kmalloc-*\nAutoTune=yes\nAutoTuneMin=default\nAutoTuneMax=512\n"
	     "[Cache]\nMatch=skbuff_*\nAutoTune=yes\nAutoTuneMin=8\nAutoTuneMax=default\n");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		plan_sized("kmalloc-x", NULL, want[i].size, &p);
		ck_assert_int_eq(p.action, SLEEB_PLAN_POLICY);
		ck_assert_msg(p.autotune_min == want[i].q && p.autotune_max == 512,
			      "%llu-byte objects: bounds %u..%u, want %u..512",
			      (unsigned long long) want[i].size, p.autotune_min, p.autotune_max, want[i].q);
	}
	plan_sized("skbuff_head_cache", NULL, 256, &p);
	ck_assert_uint_eq(p.autotune_min, 8);
	ck_assert_uint_eq(p.autotune_max, 120);
	sleeb_policy_done(&pol);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_autotune_bounds_default);
	tcase_add_test(tc, test_merged_names_one_order);
	tcase_add_test(tc, test_alias_only_match);
}

int main(void)
{
	return test_main("plan", add_tests);
}
