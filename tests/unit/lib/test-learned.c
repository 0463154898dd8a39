/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/learned.c: where an auto-tuned cache starts. */

#include "helpers.h"
#include "sleeb/learned.h"

#define T(q, b, s) ((struct sleeb_tunables) { .v = { (q), (b), (s) } })

static struct sleeb_autotune_params params(uint64_t budget, uint64_t other)
{
	struct sleeb_autotune_params p;

	sleeb_autotune_params_init(&p);
	p.ncpus = 4;
	p.nnodes = 2;
	p.budget_bytes = budget;
	p.other_bytes = other;
	return p;
}

START_TEST(test_learned_within_bounds)
{
	struct sleeb_autotune_params p = params(0, 0);
	struct sleeb_tunables plan = T(120, 60, 480), r = T(0, 0, 0);

	ck_assert(sleeb_learned_start(&p, 64, &plan, &(struct sleeb_tunables) T(240, 120, 960), 16, 960, &r));
	ck_assert_mem_eq(&r, &((struct sleeb_tunables) T(240, 120, 960)), sizeof(r));
}
END_TEST

/* A policy whose bounds changed since: the nearer bound, scaled. */
START_TEST(test_learned_clamped)
{
	struct sleeb_autotune_params p = params(0, 0);
	struct sleeb_tunables plan = T(120, 60, 480), r;

	ck_assert(sleeb_learned_start(&p, 64, &plan, &(struct sleeb_tunables) T(960, 480, 3840), 16, 240, &r));
	ck_assert_mem_eq(&r, &((struct sleeb_tunables) T(240, 120, 960)), sizeof(r));
	ck_assert(sleeb_learned_start(&p, 64, &plan, &(struct sleeb_tunables) T(8, 4, 32), 16, 240, &r));
	ck_assert_mem_eq(&r, &((struct sleeb_tunables) T(16, 8, 64)), sizeof(r));
}
END_TEST

/* MaxQueuedMemory: halved until it fits, never below the plan. */
START_TEST(test_learned_budget)
{
	struct sleeb_tunables plan = T(120, 60, 0), r;
	/* 1000-byte objects, 4 cpus: queue 960 is 3.84 MB, 480 1.92 MB */
	struct sleeb_autotune_params p = params(3000000, 1000000);

	ck_assert(sleeb_learned_start(&p, 1000, &plan, &(struct sleeb_tunables) T(960, 480, 0), 16, 960, &r));
	ck_assert_mem_eq(&r, &((struct sleeb_tunables) T(480, 240, 0)), sizeof(r));
	p = params(1400000, 1000000);   /* 400 kB left: not even 240 fits */
	r = T(1, 1, 1);
	ck_assert(!sleeb_learned_start(&p, 1000, &plan, &(struct sleeb_tunables) T(960, 480, 0), 16, 960, &r));
	ck_assert_mem_eq(&r, &((struct sleeb_tunables) T(1, 1, 1)), sizeof(r));
}
END_TEST

/* Values the kernel cannot be in (a file edited by hand): the plan. */
START_TEST(test_learned_invalid)
{
	struct sleeb_autotune_params p = params(0, 0);
	struct sleeb_tunables plan = T(120, 60, 480), r;

	ck_assert(!sleeb_learned_start(&p, 64, &plan, &(struct sleeb_tunables) T(10, 60, 480), 16, 960, &r));
	ck_assert(!sleeb_learned_start(&p, 64, &plan, &(struct sleeb_tunables) T(0, 0, 0), 16, 960, &r));
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_learned_within_bounds);
	tcase_add_test(tc, test_learned_clamped);
	tcase_add_test(tc, test_learned_budget);
	tcase_add_test(tc, test_learned_invalid);
}

int main(void)
{
	return test_main("learned", add_tests);
}
