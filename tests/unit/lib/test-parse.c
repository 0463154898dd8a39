/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/parse.c: every parser, every error case. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/parse.h"

START_TEST(test_u64)
{
	uint64_t v = 42;

	ck_assert_int_eq(sleeb_parse_u64("0", &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(sleeb_parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	ck_assert_int_eq(sleeb_parse_u64("007", &v), 0);
	ck_assert_uint_eq(v, 7);
	v = 42;
	ck_assert_int_eq(sleeb_parse_u64("18446744073709551616", &v), -ERANGE);
	ck_assert_int_eq(sleeb_parse_u64("99999999999999999999999", &v), -ERANGE);
	ck_assert_int_eq(sleeb_parse_u64("", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64(NULL, &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("-1", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("+1", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64(" 1", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("1 ", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("1\n", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("0x10", &v), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64("1.5", &v), -EINVAL);
	ck_assert_uint_eq(v, 42);  /* untouched on failure */
}
END_TEST

START_TEST(test_u32_and_range)
{
	uint32_t u = 1;
	uint64_t v = 1;

	ck_assert_int_eq(sleeb_parse_u32("4294967295", &u), 0);
	ck_assert_uint_eq(u, UINT32_MAX);
	ck_assert_int_eq(sleeb_parse_u32("4294967296", &u), -ERANGE);
	ck_assert_int_eq(sleeb_parse_u32("x", &u), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64_range("5", 1, 10, &v), 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(sleeb_parse_u64_range("0", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(sleeb_parse_u64_range("11", 1, 10, &v), -ERANGE);
	ck_assert_int_eq(sleeb_parse_u64_range("1a", 1, 10, &v), -EINVAL);
}
END_TEST

START_TEST(test_prefix)
{
	uint64_t v;
	size_t end;

	ck_assert_int_eq(sleeb_parse_u64_prefix("123abc", 6, &v, &end), 0);
	ck_assert_uint_eq(v, 123);
	ck_assert_uint_eq(end, 3);
	/* Not NUL-terminated: must stop at len. */
	ck_assert_int_eq(sleeb_parse_u64_prefix("12345", 2, &v, &end), 0);
	ck_assert_uint_eq(v, 12);
	ck_assert_int_eq(sleeb_parse_u64_prefix("abc", 3, &v, &end), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64_prefix("1", 0, &v, &end), -EINVAL);
	ck_assert_int_eq(sleeb_parse_u64_prefix("184467440737095516160", 21, &v, &end), -ERANGE);
}
END_TEST

START_TEST(test_duration)
{
	static const struct {
		const char *s;
		int r;
		uint64_t usec;
	} cases[] = {
		{ "500ms", 0, 500000 },
		{ "2s", 0, 2000000 },
		{ "5", 0, 5000000 },
		{ "10us", 0, 10 },
		{ "1m", 0, 60000000 },
		{ "1min", 0, 60000000 },
		{ "1m30s", 0, 90000000 },
		{ "1h", 0, 3600000000ULL },
		{ "1h1ms", 0, 3600001000ULL },
		{ "0s", 0, 0 },
		{ "", -EINVAL, 0 },
		{ "ms", -EINVAL, 0 },
		{ "5x", -EINVAL, 0 },
		{ "1m30", -EINVAL, 0 },
		{ "-1s", -EINVAL, 0 },
		{ "1 s", -EINVAL, 0 },
		{ "1.5s", -EINVAL, 0 },
		{ "99999999999999h", -ERANGE, 0 },
		{ "18446744073709551615s", -ERANGE, 0 },
		{ "18446744073709551615us1us", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;

		ck_assert_msg(sleeb_parse_duration(cases[i].s, &v) == cases[i].r, "case '%s'",
			      cases[i].s);
		if (cases[i].r == 0)
			ck_assert_msg(v == cases[i].usec, "case '%s': %llu", cases[i].s,
				      (unsigned long long)v);
	}
	ck_assert_int_eq(sleeb_parse_duration(NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(test_size)
{
	static const struct {
		const char *s;
		int r;
		uint64_t bytes;
	} cases[] = {
		{ "0", 0, 0 },
		{ "10", 0, 10 },
		{ "64K", 0, 65536 },
		{ "64k", 0, 65536 },
		{ "64KiB", 0, 65536 },
		{ "64KB", 0, 65536 },
		{ "1M", 0, 1 << 20 },
		{ "1g", 0, 1 << 30 },
		{ "2T", 0, 2ULL << 40 },
		{ "", -EINVAL, 0 },
		{ "K", -EINVAL, 0 },
		{ "1Q", -EINVAL, 0 },
		{ "1Kx", -EINVAL, 0 },
		{ "1KiBB", -EINVAL, 0 },
		{ "1 K", -EINVAL, 0 },
		{ "16777216T", -ERANGE, 0 },
		{ "99999999999999999999", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t v = 0;

		ck_assert_msg(sleeb_parse_size(cases[i].s, &v) == cases[i].r, "case '%s'", cases[i].s);
		if (cases[i].r == 0)
			ck_assert_msg(v == cases[i].bytes, "case '%s'", cases[i].s);
	}
	ck_assert_int_eq(sleeb_parse_size(NULL, NULL), -EINVAL);
}
END_TEST

START_TEST(test_percent_bool)
{
	unsigned p = 7;
	bool b = false;

	ck_assert_int_eq(sleeb_parse_percent("0", &p), 0);
	ck_assert_uint_eq(p, 0);
	ck_assert_int_eq(sleeb_parse_percent("100", &p), 0);
	ck_assert_uint_eq(p, 100);
	ck_assert_int_eq(sleeb_parse_percent("50%", &p), 0);
	ck_assert_uint_eq(p, 50);
	ck_assert_int_eq(sleeb_parse_percent("101", &p), -ERANGE);
	ck_assert_int_eq(sleeb_parse_percent("1000000000", &p), -ERANGE);
	ck_assert_int_eq(sleeb_parse_percent("%", &p), -EINVAL);
	ck_assert_int_eq(sleeb_parse_percent("", &p), -EINVAL);
	ck_assert_int_eq(sleeb_parse_percent("5%%", &p), -EINVAL);
	ck_assert_int_eq(sleeb_parse_percent(NULL, &p), -EINVAL);

	ck_assert_int_eq(sleeb_parse_bool("yes", &b), 0);
	ck_assert(b);
	ck_assert_int_eq(sleeb_parse_bool("OFF", &b), 0);
	ck_assert(!b);
	ck_assert_int_eq(sleeb_parse_bool("1", &b), 0);
	ck_assert(b);
	ck_assert_int_eq(sleeb_parse_bool("false", &b), 0);
	ck_assert(!b);
	ck_assert_int_eq(sleeb_parse_bool("maybe", &b), -EINVAL);
	ck_assert_int_eq(sleeb_parse_bool("", &b), -EINVAL);
	ck_assert_int_eq(sleeb_parse_bool(NULL, &b), -EINVAL);
}
END_TEST

START_TEST(test_format)
{
	char buf[32];

	ck_assert_str_eq(sleeb_format_duration(2000000, buf, sizeof(buf)), "2s");
	ck_assert_str_eq(sleeb_format_duration(500000, buf, sizeof(buf)), "500ms");
	ck_assert_str_eq(sleeb_format_duration(1500, buf, sizeof(buf)), "1500us");
	ck_assert_str_eq(sleeb_format_duration(0, buf, sizeof(buf)), "0us");
	ck_assert_str_eq(sleeb_format_size(100, buf, sizeof(buf)), "100B");
	ck_assert_str_eq(sleeb_format_size(1536, buf, sizeof(buf)), "1.5K");
	ck_assert_str_eq(sleeb_format_size(64ULL << 20, buf, sizeof(buf)), "64.0M");
	ck_assert_str_eq(sleeb_format_size(UINT64_MAX, buf, sizeof(buf)), "16.0E");
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_u64);
	tcase_add_test(tc, test_u32_and_range);
	tcase_add_test(tc, test_prefix);
	tcase_add_test(tc, test_duration);
	tcase_add_test(tc, test_size);
	tcase_add_test(tc, test_percent_bool);
	tcase_add_test(tc, test_format);
}

int main(void)
{
	return test_main("parse", add_tests);
}
