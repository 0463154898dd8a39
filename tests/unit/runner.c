/* SPDX-License-Identifier: GPL-2.0-only */
/* The unit tests' runner (see runner.h). */

#include <stdlib.h>

#include "runner.h"

int test_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int test_main(const char *name, void (*add_tests)(TCase *tc))
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);

	/*
	 * Check's default of 4 s per test is a wall-clock limit: tests that
	 * build fake trees with cp and rm hit it under ASan on a loaded host
	 * (the suites run beside kernel builds). It only bounds a hang.
	 */
	tcase_set_timeout(tc, 60);
	add_tests(tc);
	suite_add_tcase(s, tc);
	return test_run_suite(s);
}
