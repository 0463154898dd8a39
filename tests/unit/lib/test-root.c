/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/root.c: the one way prefixed paths are built. */

#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/control.h"
#include "sleeb/root.h"

START_TEST(test_prefix_path)
{
	static const struct {
		const char *prefix, *rel, *want;
	} cases[] = {
		{ NULL, "/run/sleeb/lock", "/run/sleeb/lock" },
		{ "", "/run/sleeb/lock", "/run/sleeb/lock" },
		{ "/", "/run/sleeb/lock", "/run/sleeb/lock" },
		{ "//", "run/sleeb/lock", "/run/sleeb/lock" },
		{ "/t", "/run/sleeb/lock", "/t/run/sleeb/lock" },
		{ "/t/", "/run/sleeb/lock", "/t/run/sleeb/lock" },
		{ "/t//", "//etc", "/t/etc" },
		{ "rel", "etc", "rel/etc" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = sleeb_prefix_path(buf, sizeof(buf), cases[i].prefix, cases[i].rel);

		ck_assert_msg(n == (int)strlen(cases[i].want) && strcmp(buf, cases[i].want) == 0,
			      "'%s' + '%s': got %d '%s', want '%s'", cases[i].prefix ? cases[i].prefix : "(null)",
			      cases[i].rel, n, buf, cases[i].want);
	}
	ck_assert_int_eq(sleeb_prefix_path(buf, 10, "/t", "run/sle"), -ENAMETOOLONG);
	ck_assert_int_eq(sleeb_prefix_path(buf, 10, "/t", "run/sl"), 9);
}
END_TEST

START_TEST(test_root_path_uses_the_root)
{
	char buf[64];

	ck_assert_int_eq(sleeb_root_set("/r//"), 0);
	ck_assert_str_eq(sleeb_root_get(), "/r");
	ck_assert_int_gt(sleeb_root_path(buf, sizeof(buf), "/proc/slabinfo"), 0);
	ck_assert_str_eq(buf, "/r/proc/slabinfo");
	ck_assert_int_eq(sleeb_root_set(NULL), 0);
	ck_assert_int_gt(sleeb_root_path(buf, sizeof(buf), "proc/slabinfo"), 0);
	ck_assert_str_eq(buf, "/proc/slabinfo");
}
END_TEST

START_TEST(test_control_socket_under_config_root)
{
	char buf[108];

	ck_assert_int_gt(sleeb_prefix_path(buf, sizeof(buf), "/tmp/x/", SLEEB_CONTROL_SOCKET), 0);
	ck_assert_str_eq(buf, "/tmp/x/run/sleeb/sleebd.sock");
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_prefix_path);
	tcase_add_test(tc, test_root_path_uses_the_root);
	tcase_add_test(tc, test_control_socket_under_config_root);
}

int main(void)
{
	return test_main("root", add_tests);
}
