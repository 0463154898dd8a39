/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/slabinfo.c: the format, each error with its line, streaming. */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/root.h"
#include "sleeb/slabinfo.h"

#define HDR "slabinfo - version: 2.1\n" \
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
#define LINE(name) name "        3000   3072     64   64    1 : tunables  120   60  480 : slabdata     48     48    240\n"

static int parse(const char *text, struct sleeb_slabinfo *out, struct sleeb_error *err)
{
	return sleeb_slabinfo_parse_buffer(text, strlen(text), "test", sleeb_slabinfo_append, out,
					   err);
}

/* Expect an error code and a message starting with "test:LINE: " and
 * containing @what. */
static void expect_error(const char *text, int code, const char *where, const char *what)
{
	struct sleeb_slabinfo s = { 0 };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(parse(text, &s, &err), code);
	ck_assert_int_eq(err.code, code);
	ck_assert_msg(strncmp(err.msg, where, strlen(where)) == 0, "message '%s' not at '%s'",
		      err.msg, where);
	ck_assert_msg(strstr(err.msg, what), "message '%s' lacks '%s'", err.msg, what);
	sleeb_slabinfo_free(&s);
}

START_TEST(test_valid)
{
	struct sleeb_slabinfo s = { 0 };
	const struct sleeb_slabinfo_entry *e;

	ck_assert_int_eq(parse(HDR LINE("kmalloc-64") LINE("dentry"), &s, NULL), 2);
	ck_assert_uint_eq(s.n, 2);
	e = sleeb_slabinfo_find(&s, "kmalloc-64");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->active_objs, 3000);
	ck_assert_uint_eq(e->num_objs, 3072);
	ck_assert_uint_eq(e->objsize, 64);
	ck_assert_uint_eq(e->objperslab, 64);
	ck_assert_uint_eq(e->pagesperslab, 1);
	ck_assert_uint_eq(e->limit, 120);
	ck_assert_uint_eq(e->batchcount, 60);
	ck_assert_uint_eq(e->sharedfactor, 480);
	ck_assert_uint_eq(e->active_slabs, 48);
	ck_assert_uint_eq(e->num_slabs, 48);
	ck_assert_uint_eq(e->sharedavail, 240);
	ck_assert_ptr_null(sleeb_slabinfo_find(&s, "nope"));
	sleeb_slabinfo_free(&s);
}
END_TEST

START_TEST(test_versions_and_layout)
{
	struct sleeb_slabinfo s = { 0 };

	/* 2.0 and future 2.x minors are accepted; a name beyond 17 columns
	 * pushes the numbers right; tabs and no '#' line are fine; the last
	 * line may lack its newline if complete. */
	ck_assert_int_eq(parse("slabinfo - version: 2.0\n" LINE("a"), &s, NULL), 1);
	ck_assert_int_eq(parse("slabinfo - version: 2.17\n"
			       "ext4_groupinfo_4k_and_then_some     10     28    144   28    1 : tunables  120   60  480 : slabdata      1      1    240\n",
			       &s, NULL), 1);
	ck_assert_str_eq(s.entries[1].name, "ext4_groupinfo_4k_and_then_some");
	ck_assert_uint_eq(s.entries[1].num_objs, 28);
	ck_assert_int_eq(parse(HDR "x\t1\t2\t3\t4\t5\t:\ttunables\t6\t7\t8\t:\tslabdata\t9\t10\t11", &s, NULL), 1);
	ck_assert_uint_eq(s.entries[2].sharedavail, 11);
	ck_assert_int_eq(parse(HDR "\n# comment\n   \n", &s, NULL), 0);
	/* Header only: zero caches is valid. */
	ck_assert_int_eq(parse("slabinfo - version: 2.1\n", &s, NULL), 0);
	sleeb_slabinfo_free(&s);
}
END_TEST

START_TEST(test_header_errors)
{
	expect_error("", -EINVAL, "test: ", "missing 'slabinfo - version:' header");
	expect_error(LINE("kmalloc-64"), -EINVAL, "test:1: ", "missing 'slabinfo - version:'");
	expect_error("slabinfo - version: 1.1\n", -EINVAL, "test:1: ", "unsupported slabinfo version 1.1");
	expect_error("slabinfo - version: 3.0\n", -EINVAL, "test:1: ", "unsupported slabinfo version 3.0");
	expect_error("slabinfo - version: 2\n", -EINVAL, "test:1: ", "malformed slabinfo version");
	expect_error("slabinfo - version: 2.x\n", -EINVAL, "test:1: ", "malformed slabinfo version");
	expect_error("slabinfo - version: 2.1 extra\n", -EINVAL, "test:1: ", "malformed");
	expect_error("slabinfo - version: \n", -EINVAL, "test:1: ", "malformed");
}
END_TEST

START_TEST(test_line_errors)
{
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunables 6 7 8 : slabdata 9 10\n", -EINVAL,
		     "test:3: ", "short line: sharedavail missing");
	expect_error(HDR "kmalloc-64\n", -EINVAL, "test:3: ", "short line: active_objs missing");
	expect_error(HDR LINE("ok") "kmalloc-64 1 2 3 4 5 : tunables", -EINVAL, "test:4: ",
		     "(truncated last line)");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunables 6 7 8 : slabdata 9 10 11 12\n", -EINVAL,
		     "test:3: ", "trailing field '12'");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 ; tunables 6 7 8 : slabdata 9 10 11\n", -EINVAL,
		     "test:3: ", "':' expected, got ';'");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunable 6 7 8 : slabdata 9 10 11\n", -EINVAL,
		     "test:3: ", "'tunables' expected");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunables 6 7 8 : slab 9 10 11\n", -EINVAL,
		     "test:3: ", "'slabdata' expected");
	expect_error(HDR "kmalloc-64 1 x 3 4 5 : tunables 6 7 8 : slabdata 9 10 11\n", -EINVAL,
		     "test:3: ", "num_objs: 'x' is not a number");
	expect_error(HDR "kmalloc-64 1 2 -3 4 5 : tunables 6 7 8 : slabdata 9 10 11\n", -EINVAL,
		     "test:3: ", "objsize: '-3' is not a number");
	expect_error(HDR "kmalloc-64 18446744073709551616 2 3 4 5 : tunables 6 7 8 : slabdata 9 10 11\n",
		     -ERANGE, "test:3: ", "active_objs: number '18446744073709551616' out of range");
	expect_error(HDR "kmalloc-64 1 2 4294967296 4 5 : tunables 6 7 8 : slabdata 9 10 11\n",
		     -ERANGE, "test:3: ", "objsize: number");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunables 6 7 4294967296 : slabdata 9 10 11\n",
		     -ERANGE, "test:3: ", "sharedfactor: number");
	expect_error(HDR "kmalloc-64 1 2 3 4 5 : tunables 6 7 8 : slabdata 9 10 99999999999999999999\n",
		     -ERANGE, "test:3: ", "sharedavail: number");
}
END_TEST

START_TEST(test_odd_bytes)
{
	static const char nul[] = "slabinfo - version: 2.1\nkm\0lloc 1 2 3 4 5 : tunables 6 7 8 : slabdata 9 10 11\n";
	struct sleeb_error err = { 0 };
	char *big, name[400];
	int r;

	r = sleeb_slabinfo_parse_buffer(nul, sizeof(nul) - 1, "test", NULL, NULL, &err);
	ck_assert_int_eq(r, -EINVAL);
	ck_assert_str_eq(err.msg, "test:2: NUL byte in line");

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ck_assert_int_ge(asprintf(&big, HDR "%s 1 2 3 4 5 : tunables 6 7 8 : slabdata 9 10 11\n", name), 0);
	expect_error(big, -EINVAL, "test:3: ", "cache name longer than 255 bytes");
	free(big);

	big = calloc(1, 10000);
	ck_assert_ptr_nonnull(big);
	strcpy(big, HDR);
	memset(big + strlen(big), 'x', 6000);
	expect_error(big, -EINVAL, "test:3: ", "line too long");
	free(big);
}
END_TEST

static int stop_at_second(const struct sleeb_slabinfo_entry *e, void *userdata)
{
	int *calls = userdata;

	(void)e;
	return ++*calls == 2 ? -ECANCELED : 0;
}

START_TEST(test_callback_stops)
{
	int calls = 0;
	const char *text = HDR LINE("a") LINE("b") LINE("c");

	ck_assert_int_eq(sleeb_slabinfo_parse_buffer(text, strlen(text), "t", stop_at_second,
						     &calls, NULL), -ECANCELED);
	ck_assert_int_eq(calls, 2);
}
END_TEST

static int count_only(const struct sleeb_slabinfo_entry *e, void *userdata)
{
	(void)e;
	++*(long *)userdata;
	return 0;
}

START_TEST(test_large_file_streams)
{
	char *dir = test_mkdtemp(), *path = test_path(dir, "slabinfo");
	struct sleeb_error err = { 0 };
	long calls = 0, i;
	FILE *f = fopen(path, "w");

	/* ~30 MB: far more than any real slabinfo; must not be slurped. */
	ck_assert_ptr_nonnull(f);
	fputs(HDR, f);
	for (i = 0; i < 300000; i++)
		fprintf(f, "cache-%ld %6ld %6ld 64 64 1 : tunables 120 60 480 : slabdata 1 1 0\n",
			i, i, i + 1);
	ck_assert_int_eq(fclose(f), 0);
	f = fopen(path, "r");
	ck_assert_int_eq(sleeb_slabinfo_parse_file(f, path, count_only, &calls, &err), 300000);
	ck_assert_int_eq(calls, 300000);
	fclose(f);
	test_rm_tree(dir);
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_read_under_root)
{
	struct sleeb_slabinfo s = { 0 };
	struct sleeb_error err = { 0 };

	ck_assert_int_eq(sleeb_root_set(SLEEB_TEST_DATA "/fake-sleeb/"), 0);
	ck_assert_int_eq(sleeb_slabinfo_load(&s, &err), 9);
	ck_assert_ptr_nonnull(sleeb_slabinfo_find(&s, "ext4_groupinfo_4k_and_then_some"));
	sleeb_slabinfo_free(&s);

	ck_assert_int_eq(sleeb_root_set(SLEEB_TEST_DATA "/does-not-exist"), 0);
	ck_assert_int_eq(sleeb_slabinfo_load(&s, &err), -ENOENT);
	ck_assert_msg(strstr(err.msg, "does-not-exist/proc/slabinfo: No such file"), "%s", err.msg);
	ck_assert_uint_eq(s.n, 0);
	sleeb_root_set(NULL);
}
END_TEST

START_TEST(test_root_paths)
{
	char buf[64];

	ck_assert_int_eq(sleeb_root_set(NULL), 0);
	ck_assert_str_eq(sleeb_root_get(), "/");
	ck_assert_int_gt(sleeb_root_path(buf, sizeof(buf), "/proc/slabinfo"), 0);
	ck_assert_str_eq(buf, "/proc/slabinfo");
	ck_assert_int_eq(sleeb_root_set("/tmp/x///"), 0);
	ck_assert_str_eq(sleeb_root_get(), "/tmp/x");
	ck_assert_int_gt(sleeb_root_path(buf, sizeof(buf), "proc/meminfo"), 0);
	ck_assert_str_eq(buf, "/tmp/x/proc/meminfo");
	ck_assert_int_eq(sleeb_root_path(buf, 8, "proc/meminfo"), -ENAMETOOLONG);
	ck_assert_int_eq(sleeb_root_set("///"), 0);
	ck_assert_str_eq(sleeb_root_get(), "/");
	sleeb_root_set(NULL);
}
END_TEST

/* The running kernel's files, when readable: the real format, not ours. */
START_TEST(test_host_files)
{
	struct sleeb_slabinfo s = { 0 };
	struct sleeb_error err = { 0 };
	int r;

	sleeb_root_set(NULL);
	r = sleeb_slabinfo_load(&s, &err);
	if (r == -ENOENT || r == -EACCES || r == -EPERM)
		return;  /* no CONFIG_SLUB_DEBUG, or not root */
	ck_assert_msg(r > 0, "host /proc/slabinfo: %s", err.msg);
	sleeb_slabinfo_free(&s);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_valid);
	tcase_add_test(tc, test_versions_and_layout);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_line_errors);
	tcase_add_test(tc, test_odd_bytes);
	tcase_add_test(tc, test_callback_stops);
	tcase_add_test(tc, test_large_file_streams);
	tcase_add_test(tc, test_read_under_root);
	tcase_add_test(tc, test_root_paths);
	tcase_add_test(tc, test_host_files);
}

int main(void)
{
	return test_main("slabinfo", add_tests);
}
