/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/health.c: each check, thresholds, severities. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/health.h"

static struct sleeb_cache make(const char *name, uint64_t active, uint64_t total, uint32_t size)
{
	struct sleeb_cache c;

	memset(&c, 0, sizeof(c));
	snprintf(c.si.name, sizeof(c.si.name), "%s", name);
	c.si.active_objs = active;
	c.si.num_objs = total;
	c.si.objsize = size;
	c.si.objperslab = 1;
	c.si.pagesperslab = 1;
	c.si.num_slabs = total;
	c.si.active_slabs = total;
	return c;
}

static struct sleeb_health_thresholds none(void)
{
	return (struct sleeb_health_thresholds) { 0 };
}

START_TEST(test_names)
{
	struct sleeb_health_thresholds t;

	ck_assert_str_eq(sleeb_health_status_name(SLEEB_HEALTH_CRITICAL), "CRITICAL");
	ck_assert_str_eq(sleeb_health_status_name(7), "UNKNOWN");
	ck_assert_str_eq(sleeb_health_check_name(SLEEB_CHECK_THRASH), "thrash");
	ck_assert_str_eq(sleeb_health_check_name(_SLEEB_CHECK_MAX), "unknown");
	sleeb_health_thresholds_default(&t);
	ck_assert_uint_eq(t.waste_warn, 64 << 20);
	ck_assert_uint_eq(t.slab_crit, 25);
}
END_TEST

START_TEST(test_waste_and_ok)
{
	struct sleeb_cache c[2] = { make("a", 10, 1010, 1024), make("b", 100, 100, 64) };
	struct sleeb_cache_set set = { .caches = c, .n = 2 };
	struct sleeb_health_thresholds t = none();
	struct sleeb_health_report rep;

	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_OK);
	ck_assert_uint_eq(rep.n, 0);
	ck_assert_uint_eq(rep.waste_bytes, 1000 * 1024);
	ck_assert_uint_eq(rep.waste_max, 1000 * 1024);
	sleeb_health_report_free(&rep);

	t.waste_warn = 500 << 10;
	t.waste_crit = 1000 << 10;
	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_CRITICAL);
	ck_assert_uint_eq(rep.n, 1);
	ck_assert_str_eq(rep.problems[0].cache, "a");
	ck_assert_uint_eq(rep.problems[0].threshold, 1000 << 10);
	ck_assert_str_eq(rep.problems[0].message,
			 "a: waste 1000.0K (1000 unused objects of 1024 bytes) >= 1000.0K");
	sleeb_health_report_free(&rep);

	t.waste_crit = 0;  /* disabled: only the warning level applies */
	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_WARNING);
	sleeb_health_report_free(&rep);
	ck_assert_int_eq(sleeb_health_evaluate(&set, 0, NULL, &t, &rep), -EINVAL);
	sleeb_health_report_free(&rep);
}
END_TEST

START_TEST(test_slab_percent)
{
	struct sleeb_cache c[1] = { make("a", 1, 1, 64) };
	struct sleeb_cache_set set = { .caches = c, .n = 1 };
	struct sleeb_health_thresholds t = none();
	struct sleeb_meminfo mi = { 0 };
	struct sleeb_health_report rep;

	mi.value[SLEEB_MEMINFO_MEM_TOTAL] = 1000;
	mi.value[SLEEB_MEMINFO_SLAB] = 300;
	mi.present = (1u << SLEEB_MEMINFO_MEM_TOTAL) | (1u << SLEEB_MEMINFO_SLAB);
	t.slab_warn = 10;
	t.slab_crit = 50;
	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, &mi, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_WARNING);
	ck_assert_uint_eq(rep.slab_percent, 30);
	ck_assert_int_eq(rep.problems[0].check, SLEEB_CHECK_SLAB);
	ck_assert_str_eq(rep.problems[0].cache, "");
	sleeb_health_report_free(&rep);
	/* Without MemTotal there is no percentage and no problem. */
	mi.present = 1u << SLEEB_MEMINFO_SLAB;
	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, &mi, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_OK);
	sleeb_health_report_free(&rep);
}
END_TEST

START_TEST(test_invariant)
{
	struct sleeb_cache c[2] = { make("good", 1, 1, 64), make("bad", 1, 1, 64) };
	struct sleeb_cache_set set = { .caches = c, .n = 2 };
	struct sleeb_health_thresholds t = none();
	struct sleeb_health_report rep;

	c[0].tunables = (struct sleeb_tunables) { .v = { 120, 60, 0 } };
	c[1].tunables = (struct sleeb_tunables) { .v = { 120, 200, 0 } };
	ck_assert_int_eq(sleeb_health_evaluate(&set, 1, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_CRITICAL);
	ck_assert_uint_eq(rep.n, 1);
	ck_assert_str_eq(rep.problems[0].message,
			 "bad: tunables break the invariants: cpu_batch_size: 200: not in 1..cpu_queue_size 120");
	sleeb_health_report_free(&rep);
}
END_TEST

START_TEST(test_growth)
{
	struct sleeb_cache s0[2] = { make("leak", 100, 200, 1024), make("flat", 100, 200, 64) };
	struct sleeb_cache s1[2] = { make("leak", 150, 200, 1024), make("flat", 120, 200, 64) };
	struct sleeb_cache s2[2] = { make("leak", 200, 200, 1024), make("flat", 110, 200, 64) };
	struct sleeb_cache_set sets[3] = {
		{ .caches = s0, .n = 2, .timestamp_usec = 1000000 },
		{ .caches = s1, .n = 2, .timestamp_usec = 2000000 },
		{ .caches = s2, .n = 2, .timestamp_usec = 3000000 },
	};
	struct sleeb_health_thresholds t = none();
	struct sleeb_health_report rep;

	/* "leak" grows 100 objects x 1 KiB over 2 s = 50 KiB/s, in every
	 * step; "flat" went up then down: not a suspect. */
	t.growth_warn = 10 << 10;
	t.growth_crit = 100 << 10;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 3, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_WARNING);
	ck_assert_uint_eq(rep.n, 1);
	ck_assert_str_eq(rep.problems[0].cache, "leak");
	ck_assert_uint_eq(rep.problems[0].value, 51200);
	ck_assert_uint_eq(rep.elapsed_usec, 2000000);
	ck_assert_msg(strstr(rep.problems[0].message, "leak suspected"), "%s", rep.problems[0].message);
	/* The worst value, for the perfdata: also when below the thresholds. */
	ck_assert(rep.rates_measured);
	ck_assert_uint_eq(rep.growth_max, 51200);
	sleeb_health_report_free(&rep);
	t.growth_warn = t.growth_crit = 0;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 3, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	ck_assert_uint_eq(rep.growth_max, 51200);
	sleeb_health_report_free(&rep);
	t.growth_warn = 10 << 10;
	t.growth_crit = 100 << 10;

	/* One sample: no growth check at all. */
	ck_assert_int_eq(sleeb_health_evaluate(&sets[2], 1, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	ck_assert(!rep.rates_measured);
	ck_assert_uint_eq(rep.growth_max, 0);
	sleeb_health_report_free(&rep);

	/* A cache missing from an earlier sample is skipped. */
	sets[0].n = 1;
	s0[0] = make("other", 1, 1, 1);
	ck_assert_int_eq(sleeb_health_evaluate(sets, 3, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	sleeb_health_report_free(&rep);
}
END_TEST

START_TEST(test_thrash)
{
	struct sleeb_cache a = make("q", 1, 1, 64), b = make("q", 1, 1, 64);
	struct sleeb_cache_set sets[2] = {
		{ .caches = &a, .n = 1, .timestamp_usec = 0 },
		{ .caches = &b, .n = 1, .timestamp_usec = 500000 },
	};
	struct sleeb_health_thresholds t = none();
	struct sleeb_health_report rep;

	a.has_stats = b.has_stats = true;
	a.stats.value[SLEEB_QSTAT_ALLOC_REFILL] = 1000;
	a.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 1000;
	b.stats.value[SLEEB_QSTAT_ALLOC_REFILL] = 4000;   /* +3000 in 0.5 s */
	b.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 3000;     /* +2000 in 0.5 s */
	t.thrash_warn = 1000;
	t.thrash_crit = 10000;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 2, NULL, &t, &rep), 0);
	ck_assert_int_eq(rep.status, SLEEB_HEALTH_CRITICAL);
	ck_assert_uint_eq(rep.problems[0].value, 10000);
	ck_assert_str_eq(rep.problems[0].message,
			 "q: queue thrash: 6000 refills + 4000 drains/s >= 10000/s (queue=0 batch=0)");
	sleeb_health_report_free(&rep);
	t.thrash_warn = t.thrash_crit = 0;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 2, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	ck_assert_uint_eq(rep.thrash_max, 10000);
	sleeb_health_report_free(&rep);
	t.thrash_warn = 1000;
	t.thrash_crit = 10000;

	/* Deltas near 2^64: rates saturate instead of wrapping (refill * 10^6
	 * overflowed) or overflowing a double-to-integer cast (undefined). */
	a.stats.value[SLEEB_QSTAT_ALLOC_REFILL] = 0;
	a.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 0;
	b.stats.value[SLEEB_QSTAT_ALLOC_REFILL] = UINT64_MAX / 2;
	b.stats.value[SLEEB_QSTAT_FREE_DRAIN] = UINT64_MAX / 2;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 2, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.problems[0].value, UINT64_MAX);
	ck_assert_str_eq(rep.problems[0].message,
			 "q: queue thrash: 18446744073709551614 refills + 18446744073709551614 drains/s >= 10000/s (queue=0 batch=0)");
	sleeb_health_report_free(&rep);

	/* Counters going backwards (cache re-created): no verdict. */
	a.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 1000;
	b.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 10;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 2, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	sleeb_health_report_free(&rep);

	/* No queue_stats (kernel without SLEEB): no verdict. */
	b.stats.value[SLEEB_QSTAT_FREE_DRAIN] = 3000;
	b.has_stats = false;
	ck_assert_int_eq(sleeb_health_evaluate(sets, 2, NULL, &t, &rep), 0);
	ck_assert_uint_eq(rep.n, 0);
	sleeb_health_report_free(&rep);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_waste_and_ok);
	tcase_add_test(tc, test_slab_percent);
	tcase_add_test(tc, test_invariant);
	tcase_add_test(tc, test_growth);
	tcase_add_test(tc, test_thrash);
}

int main(void)
{
	return test_main("health", add_tests);
}
