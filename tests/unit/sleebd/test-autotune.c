/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Auto-tuning decisions on synthetic series. Links only autotune.c: the
 * decision logic has no I/O and no other dependency.
 */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/autotune.h"

static struct sleeb_autotune_params P;

static void setup(void)
{
	sleeb_autotune_params_init(&P);
	P.ncpus = 4;
	P.nnodes = 2;
}

static struct sleeb_autotune_cache mk(uint32_t q, uint32_t min, uint32_t max)
{
	struct sleeb_autotune_cache c = {
		.object_size = 64,
		.cur = { { q, (q + 1) / 2, 8 * ((q + 1) / 2) } },
		.min = min,
		.max = max,
	};
	return c;
}

/* The kernel's rules, restated here so this binary links only autotune.c. */
static int valid(const struct sleeb_tunables *t)
{
	uint32_t q = t->v[SLEEB_TUNABLE_QUEUE], b = t->v[SLEEB_TUNABLE_BATCH], s = t->v[SLEEB_TUNABLE_SHARED];

	if (q > 10000 || b < 1 || b > 10000 || (q > 0 && b > q) || s > 10000 || (s > 0 && s < b))
		return 0;
	return 1;
}

/* One interval: decide, then "apply" the decision as the daemon would. */
static enum sleeb_autotune_action step(struct sleeb_autotune_cache *c, size_t n, double rate)
{
	enum sleeb_autotune_action any = SLEEB_AUTOTUNE_KEEP;

	for (size_t i = 0; i < n; i++)
		c[i].rate = rate;
	sleeb_autotune_decide(&P, c, n);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(valid(&c[i].next), 1);
		if (c[i].action != SLEEB_AUTOTUNE_KEEP)
			any = c[i].action;
		c[i].cur = c[i].next;
	}
	return any;
}

START_TEST(test_step_one_grow_after_k)
{
	struct sleeb_autotune_cache c = mk(120, 16, 960);
	int changes = 0, first = -1;

	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(step(&c, 1, 500), SLEEB_AUTOTUNE_KEEP);      /* between marks */
	/* step up: the change comes on the K-th high interval, and only one
	 * within K + cooldown intervals */
	for (int i = 1; i <= (int) (P.grow_after + P.cooldown); i++)
		if (step(&c, 1, 5000) != SLEEB_AUTOTUNE_KEEP) {
			changes++;
			if (first < 0)
				first = i;
		}
	ck_assert_int_eq(changes, 1);
	ck_assert_int_eq(first, (int) P.grow_after);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 240);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_BATCH], 120);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_SHARED], 960);
}
END_TEST

START_TEST(test_oscillation_no_flap)
{
	struct sleeb_autotune_cache c = mk(120, 16, 960);
	int last = -1000, changes = 0;

	/* Around one mark, or across both every interval: nothing ever holds
	 * long enough. */
	for (int i = 0; i < 200; i++)
		ck_assert_int_eq(step(&c, 1, i % 2 ? 5000 : 0), SLEEB_AUTOTUNE_KEEP);
	for (int i = 0; i < 200; i++)
		ck_assert_int_eq(step(&c, 1, i % 2 ? 1100 : 900), SLEEB_AUTOTUNE_KEEP);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 120);

	/* Slow oscillation that does cross: at most one change per cooldown. */
	for (int i = 0; i < 400; i++) {
		double rate = (i / 6) % 2 ? 5000 : 0;

		if (step(&c, 1, rate) != SLEEB_AUTOTUNE_KEEP) {
			ck_assert_int_gt(i - last, (int) P.cooldown);
			last = i;
			changes++;
		}
	}
	ck_assert_int_lt(changes, 400 / (int) (P.cooldown + 1) + 1);
}
END_TEST

START_TEST(test_idle_shrinks_to_floor)
{
	struct sleeb_autotune_cache c = mk(960, 16, 960);

	for (int i = 0; i < 200; i++) {
		step(&c, 1, 0);
		ck_assert_uint_ge(c.cur.v[SLEEB_TUNABLE_QUEUE], 16);
	}
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 16);
	ck_assert_int_eq(step(&c, 1, 0), SLEEB_AUTOTUNE_KEEP);
	ck_assert(strstr(c.reason, "AutoTuneMin"));
}
END_TEST

START_TEST(test_bounds)
{
	struct sleeb_autotune_cache c = mk(100, 16, 300);

	for (int i = 0; i < 200; i++) {
		step(&c, 1, 1e6);
		ck_assert_uint_le(c.cur.v[SLEEB_TUNABLE_QUEUE], 300);
	}
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 300);

	/* a current value outside the bounds is brought in at once */
	c = mk(5000, 16, 300);
	ck_assert_int_eq(step(&c, 1, 500), SLEEB_AUTOTUNE_SHRINK);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 300);
	c = mk(2, 16, 300);
	ck_assert_int_eq(step(&c, 1, 500), SLEEB_AUTOTUNE_GROW);
	ck_assert_uint_eq(c.cur.v[SLEEB_TUNABLE_QUEUE], 16);

	/* queue 0 means queues off: auto-tuning leaves it alone */
	c = mk(0, 16, 300);
	c.cur = (struct sleeb_tunables) { { 0, 1, 0 } };
	ck_assert_int_eq(step(&c, 1, 1e6), SLEEB_AUTOTUNE_KEEP);
}
END_TEST

START_TEST(test_budget_never_exceeded)
{
	struct sleeb_autotune_cache c[3] = { mk(32, 16, 10000), mk(32, 16, 10000), mk(32, 16, 10000) };
	uint64_t total;
	int refused = 0;

	P.budget_bytes = 400000;
	P.other_bytes = 10000;
	for (int i = 0; i < 300; i++) {
		step(c, 3, 1e6);
		total = P.other_bytes;
		for (int k = 0; k < 3; k++) {
			total += sleeb_autotune_queued_bytes(&P, c[k].object_size, &c[k].cur);
			refused += strstr(c[k].reason, "budget") != NULL;
		}
		ck_assert_uint_le(total, P.budget_bytes);
	}
	ck_assert_int_gt(refused, 0);
	/* growth did happen until the budget stopped it */
	ck_assert_uint_gt(c[0].cur.v[SLEEB_TUNABLE_QUEUE], 32);
}
END_TEST

START_TEST(test_shrink_frees_budget_first)
{
	struct sleeb_autotune_cache c[2] = { mk(64, 16, 10000), mk(1024, 16, 10000) };

	/* cache 0 busy, cache 1 idle: within one interval cache 1 shrinks
	 * and cache 0's growth fits in what it freed */
	c[0].state.above = P.grow_after - 1;
	c[1].state.below = P.shrink_after - 1;
	P.budget_bytes = sleeb_autotune_queued_bytes(&P, 64, &c[0].cur) +
			 sleeb_autotune_queued_bytes(&P, 64, &c[1].cur);
	c[0].rate = 1e6;
	c[1].rate = 0;
	sleeb_autotune_decide(&P, c, 2);
	ck_assert_int_eq(c[0].action, SLEEB_AUTOTUNE_GROW);
	ck_assert_int_eq(c[1].action, SLEEB_AUTOTUNE_SHRINK);
}
END_TEST

START_TEST(test_rate)
{
	ck_assert_double_eq_tol(sleeb_autotune_rate(100, 2100, 2000000, 4), 250.0, 1e-9);
	ck_assert_double_lt(sleeb_autotune_rate(100, 50, 2000000, 4), 0);
	ck_assert_double_lt(sleeb_autotune_rate(100, 200, 0, 4), 0);
	ck_assert_double_lt(sleeb_autotune_rate(100, 200, 1000, 0), 0);
	ck_assert_double_eq_tol(sleeb_autotune_churn_rate(1000, 600, 1000000, 2), 200.0, 1e-9);
	ck_assert_double_eq_tol(sleeb_autotune_churn_rate(600, 1000, 1000000, 2), 200.0, 1e-9);
	ck_assert_double_lt(sleeb_autotune_churn_rate(1, 2, 0, 2), 0);
}
END_TEST

START_TEST(test_unknown_rate_resets)
{
	struct sleeb_autotune_cache c = mk(120, 16, 960);

	step(&c, 1, 5000);
	step(&c, 1, 5000);
	ck_assert_int_eq(step(&c, 1, -1), SLEEB_AUTOTUNE_KEEP);
	ck_assert_int_eq(step(&c, 1, 5000), SLEEB_AUTOTUNE_KEEP);
	ck_assert_int_eq(step(&c, 1, 5000), SLEEB_AUTOTUNE_KEEP);
	ck_assert_int_eq(step(&c, 1, 5000), SLEEB_AUTOTUNE_GROW);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("autotune");
	TCase *tc = tcase_create("decide");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_step_one_grow_after_k);
	tcase_add_test(tc, test_oscillation_no_flap);
	tcase_add_test(tc, test_idle_shrinks_to_floor);
	tcase_add_test(tc, test_bounds);
	tcase_add_test(tc, test_budget_never_exceeded);
	tcase_add_test(tc, test_shrink_frees_budget_first);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_unknown_rate_resets);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
