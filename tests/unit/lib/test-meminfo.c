/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/meminfo.c. */

#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/meminfo.h"
#include "sleeb/root.h"

static int parse(const char *text, struct sleeb_meminfo *mi, struct sleeb_error *err)
{
	return sleeb_meminfo_parse_buffer(text, strlen(text), "meminfo", mi, err);
}

static void expect_error(const char *text, int code, const char *msg)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(parse(text, &mi, &err), code);
	ck_assert_msg(strcmp(err.msg, msg) == 0, "got '%s' want '%s'", err.msg, msg);
}

START_TEST(test_valid)
{
	struct sleeb_meminfo mi;

	ck_assert_int_eq(parse("MemTotal:        2014400 kB\nMemFree: 1 kB\nActive(anon):  5 kB\n"
			       "HugePages_Total:       0\nSlab:  190000 kB\nSReclaimable: 2 kB\n"
			       "SUnreclaim: 3 kB\nMemAvailable:\t4 kB", &mi, NULL), 0);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_MEM_TOTAL], 2014400ULL * 1024);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_MEM_FREE], 1024);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_SLAB], 190000ULL * 1024);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_SRECLAIMABLE], 2048);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_SUNRECLAIM], 3072);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_MEM_AVAILABLE], 4096);
	ck_assert_uint_eq(mi.present, (1u << _SLEEB_MEMINFO_MAX) - 1);
	/* Only MemTotal is required. */
	ck_assert_int_eq(parse("MemTotal: 1 kB\n\n", &mi, NULL), 0);
	ck_assert_uint_eq(mi.present, 1u << SLEEB_MEMINFO_MEM_TOTAL);
}
END_TEST

START_TEST(test_errors)
{
	static const char nul[] = "MemTotal: 1 kB\nMem\0Free: 2 kB\n";
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };

	expect_error("", -EINVAL, "meminfo: no MemTotal line");
	expect_error("MemFree: 1 kB\n", -EINVAL, "meminfo: no MemTotal line");
	expect_error("MemTotal 1 kB\n", -EINVAL, "meminfo:1: expected 'Key: value'");
	expect_error(": 1 kB\n", -EINVAL, "meminfo:1: expected 'Key: value'");
	expect_error("MemTotal: 1 kB\nMem Free: 1 kB\n", -EINVAL, "meminfo:2: white space in key");
	expect_error("MemTotal: kB\n", -EINVAL, "meminfo:1: missing numeric value");
	expect_error("MemTotal: 1 MB\n", -EINVAL,
		     "meminfo:1: unexpected text after value (only ' kB' allowed)");
	expect_error("MemTotal: 1 kB extra\n", -EINVAL,
		     "meminfo:1: unexpected text after value (only ' kB' allowed)");
	expect_error("MemTotal: 99999999999999999999 kB\n", -ERANGE, "meminfo:1: value out of range");
	/* Fits in 64 bits, overflows when converted to bytes. */
	expect_error("MemTotal: 18014398509481984 kB\n", -ERANGE, "meminfo:1: value out of range");
	ck_assert_int_eq(sleeb_meminfo_parse_buffer(nul, sizeof(nul) - 1, "m", &mi, &err), -EINVAL);
	ck_assert_str_eq(err.msg, "m:2: NUL byte in line");
}
END_TEST

START_TEST(test_read)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb"), 0);
	ck_assert_int_eq(sleeb_meminfo_read(&mi, &err), 0);
	ck_assert_uint_eq(mi.value[SLEEB_MEMINFO_MEM_TOTAL], 2014400ULL * 1024);
	ck_assert_int_eq(sleeb_root_set("/nonexistent"), 0);
	ck_assert_int_eq(sleeb_meminfo_read(&mi, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "/nonexistent/proc/meminfo"), "%s", err.msg);
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_host_file)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };

	sleeb_root_set(NULL);
	ck_assert_msg(sleeb_meminfo_read(&mi, &err) == 0, "host /proc/meminfo: %s", err.msg);
	ck_assert_uint_gt(mi.value[SLEEB_MEMINFO_MEM_TOTAL], 0);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_read);
	tcase_add_test(tc, test_host_file);
}

int main(void)
{
	return test_main("meminfo", add_tests);
}
