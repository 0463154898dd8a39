/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/util.c and lib/error.c. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/error.h"
#include "sleeb/util.h"

START_TEST(test_glob)
{
	char *pats[] = { "kmalloc-*", "dentry" };

	ck_assert(sleeb_glob_match("kmalloc-*", "kmalloc-64"));
	ck_assert(sleeb_glob_match("kmalloc-[0-9]*", "kmalloc-64"));
	ck_assert(!sleeb_glob_match("kmalloc-[0-9]*", "kmalloc-rcl-64"));
	ck_assert(sleeb_glob_match("?entry", "dentry"));
	ck_assert(!sleeb_glob_match("dentry", "dentry2"));
	ck_assert(sleeb_glob_match_any(pats, 2, "dentry"));
	ck_assert(!sleeb_glob_match_any(pats, 2, "inode_cache"));
	ck_assert(sleeb_glob_match_any(NULL, 0, "anything"));
	ck_assert(sleeb_glob_is_pattern("a*"));
	ck_assert(sleeb_glob_is_pattern("a[b]"));
	ck_assert(!sleeb_glob_is_pattern("kmalloc-64"));
}
END_TEST

static char *capture(void (*fn)(FILE *, const char *), const char *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	fn(f, arg);
	fclose(f);
	return buf;
}

START_TEST(test_json)
{
	char *s;

	s = capture(sleeb_json_print_string, "a\"b\\c\nd\te\x01");
	ck_assert_str_eq(s, "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
	free(s);
	s = capture(sleeb_json_print_list, "");
	ck_assert_str_eq(s, "[]");
	free(s);
	s = capture(sleeb_json_print_list, "a,b\"c,d");
	ck_assert_str_eq(s, "[\"a\",\"b\\\"c\",\"d\"]");
	free(s);
}
END_TEST

START_TEST(test_strscpy)
{
	char buf[8];

	ck_assert_str_eq(sleeb_strscpy(buf, "dentry", sizeof(buf)), "dentry");
	ck_assert_str_eq(sleeb_strscpy(buf, "kmalloc-64", sizeof(buf)), "kmalloc");
	ck_assert_str_eq(sleeb_strscpy(buf, "", sizeof(buf)), "");
	ck_assert_str_eq(sleeb_strscpy(buf, "x", 1), "");
}
END_TEST

START_TEST(test_read_small_file)
{
	char *dir = test_mkdtemp(), *p = test_path(dir, "f"), buf[8];

	test_write_file(p, "1234567");
	ck_assert_int_eq(sleeb_read_small_file(p, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "1234567");
	test_write_file(p, "12345678");
	ck_assert_int_eq(sleeb_read_small_file(p, buf, sizeof(buf)), -EFBIG);
	ck_assert_int_eq(sleeb_read_small_file(p, buf, 0), -EINVAL);
	ck_assert_int_eq(sleeb_read_small_file(dir, buf, sizeof(buf)), -EISDIR);
	ck_assert_int_eq(sleeb_read_small_file("/nonexistent/x", buf, sizeof(buf)), -ENOENT);
	test_rm_tree(dir);
	free(p);
	free(dir);
}
END_TEST

START_TEST(test_error)
{
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_error_set(&err, EINVAL, "x %d", 1), -EINVAL);
	ck_assert_int_eq(err.code, -EINVAL);
	ck_assert_str_eq(err.msg, "x 1");
	ck_assert_int_eq(sleeb_error_set(&err, -ENOENT, "y"), -ENOENT);
	ck_assert_int_eq(sleeb_error_set(&err, 0, "z"), -EIO);
	ck_assert_int_eq(sleeb_error_set(NULL, ERANGE, "ignored"), -ERANGE);
	ck_assert_int_eq(sleeb_error_prefix(&err, "file:%d", 3), -EIO);
	ck_assert_str_eq(err.msg, "file:3: z");
	ck_assert_int_eq(sleeb_error_prefix(NULL, "p"), -EIO);
	sleeb_error_clear(&err);
	ck_assert_int_eq(err.code, 0);
	ck_assert_str_eq(err.msg, "");
	sleeb_error_clear(NULL);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_glob);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_strscpy);
	tcase_add_test(tc, test_read_small_file);
	tcase_add_test(tc, test_error);
}

int main(void)
{
	return test_main("util", add_tests);
}
