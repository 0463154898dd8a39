/* SPDX-License-Identifier: GPL-2.0-only */
/* Rollback state file: round trip, first value wins, errors. */

#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleeb/state.h"
#include "runner.h"

static char dir[64], path[128];

static void setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/sleeb-state-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/run/sleeb/state", dir);
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_round_trip)
{
	struct sleeb_state s, t;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 120, 60, 480 } }, b = { { 8, 4, 0 } }, later = { { 1, 1, 0 } };

	ck_assert_int_eq(sleeb_state_load(&s, path, &err), 0);       /* missing: empty */
	ck_assert_uint_eq(s.n, 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &a), 1);
	ck_assert_int_eq(sleeb_state_remember(&s, ":a-0000104", &b), 1);
	/* the first value seen is the original; later ones are ours */
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &later), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "bad name", &a), -EINVAL);
	ck_assert_int_eq(sleeb_state_remember(&s, "", &a), -EINVAL);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);             /* creates run/sleeb/ */

	ck_assert_int_eq(sleeb_state_load(&t, path, &err), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_ptr_nonnull(sleeb_state_find(&t, "kmalloc-64"));
	ck_assert_mem_eq(&sleeb_state_find(&t, "kmalloc-64")->orig, &a, sizeof(a));
	ck_assert_mem_eq(&sleeb_state_find(&t, ":a-0000104")->orig, &b, sizeof(b));
	ck_assert_ptr_null(sleeb_state_find(&t, "dentry"));

	ck_assert_int_eq(sleeb_state_forget(&t, "kmalloc-64"), 1);
	ck_assert_int_eq(sleeb_state_forget(&t, "kmalloc-64"), 0);
	ck_assert_int_eq(sleeb_state_save(&t, &err), 0);
	sleeb_state_done(&s);
	ck_assert_int_eq(sleeb_state_load(&s, path, &err), 0);
	ck_assert_uint_eq(s.n, 1);

	/* empty state: the file goes away */
	ck_assert_int_eq(sleeb_state_forget(&s, ":a-0000104"), 1);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);
	ck_assert_int_eq(access(path, F_OK), -1);
	sleeb_state_done(&s);
	sleeb_state_done(&t);
}
END_TEST

START_TEST(test_malformed)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	FILE *f;

	snprintf(path, sizeof(path), "%s/state", dir);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# sleebd state v1\nkmalloc-64 120 60 480\ndentry 1 x 3\n", f);
	fclose(f);
	ck_assert_int_eq(sleeb_state_load(&s, path, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "/state:3:"), "got %s", err.msg);
	sleeb_state_done(&s);
}
END_TEST

/* fuzz-state found it: a name starting with '#' (storable: remember()
 * takes it) was written at the start of a line and read back as a
 * comment, so its original was lost across a restart. Comments are "#"
 * followed by a blank or nothing; names have no blanks. */
START_TEST(test_hash_name_round_trip)
{
	struct sleeb_state s, t;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 6, 6, 8 } }, b = { { 120, 60, 480 } };
	FILE *f;

	ck_assert_int_eq(sleeb_state_load(&s, path, &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "#odd", &a), 1);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &b), 1);
	ck_assert_int_eq(sleeb_state_save(&s, &err), 0);
	ck_assert_int_eq(sleeb_state_load(&t, path, &err), 0);
	ck_assert_uint_eq(t.n, 2);
	ck_assert_ptr_nonnull(sleeb_state_find(&t, "#odd"));
	ck_assert_mem_eq(&sleeb_state_find(&t, "#odd")->orig, &a, sizeof(a));
	sleeb_state_done(&t);
	sleeb_state_done(&s);

	/* Comments: "# ...", "#\t..." and a lone "#". */
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# sleebd state v1\n#\n#\tnote\n#odd 6 6 8\n", f);
	fclose(f);
	ck_assert_int_eq(sleeb_state_load(&t, path, &err), 0);
	ck_assert_uint_eq(t.n, 1);
	ck_assert_str_eq(t.entries[0].cache, "#odd");
	sleeb_state_done(&t);

	/* A cache named "#" alone would be written as "# 8 4 3", a comment:
	 * it cannot be stored (the 10 M run found "\t# 8 4 3"). */
	ck_assert_int_eq(sleeb_state_load(&s, path, &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "#", &a), -EINVAL);
	sleeb_state_done(&s);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("# sleebd state v1\n\t# 8 4 3\n", f);
	fclose(f);
	ck_assert_int_eq(sleeb_state_load(&t, path, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "/state:2: invalid cache name"), "got %s", err.msg);
	sleeb_state_done(&t);
}
END_TEST

START_TEST(test_unwritable)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	struct sleeb_tunables a = { { 120, 60, 480 } };

	/* /proc refuses new directories, even to root: an error, not a crash */
	ck_assert_int_eq(sleeb_state_load(&s, "/proc/sleeb-no-such-dir/state", &err), 0);
	ck_assert_int_eq(sleeb_state_remember(&s, "kmalloc-64", &a), 1);
	ck_assert_int_lt(sleeb_state_save(&s, &err), 0);
	ck_assert(strstr(err.msg, "/proc/sleeb-no-such-dir/state"));
	sleeb_state_done(&s);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_hash_name_round_trip);
	tcase_add_test(tc, test_unwritable);
}

int main(void)
{
	return test_main("state", add_tests);
}
