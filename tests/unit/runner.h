/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The runner every unit test binary ends in (tests/unit/lib, sleebctl and
 * sleebd alike): one place for the Check boilerplate and the exit code
 * meson reads.
 */

#include <check.h>

/*
 * A suite @name of one test case, also @name, that @add_tests fills (tests,
 * fixtures, timeout); runs it. Returns EXIT_SUCCESS, or EXIT_FAILURE when
 * a test failed: what main() returns.
 */
int test_main(const char *name, void (*add_tests)(TCase *tc));

/* Runs a suite built by hand (several test cases); same return value. */
int test_run_suite(Suite *s);
