/* SPDX-License-Identifier: GPL-2.0-only */
/* Tests for lib/learned-forget.c: which entry a name drops, all or nothing. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/learned-forget.h"

#define T(q, b, s) ((struct sleeb_tunables) { .v = { (q), (b), (s) } })

/* A merged kmalloc-64 (sysfs id ":0000064", two names) and dentry. */
static struct sleeb_sysfs_entry entries[] = {
	{ ":0000064", ":0000064", false },
	{ "dentry", "dentry", false },
	{ "kmalloc-64", ":0000064", true },
	{ "kmalloc-rnd-01-64", ":0000064", true },
};
static const struct sleeb_sysfs_list list = { entries, 4 };

static char *dir;

/* The learned sizes of ":0000064" and "gone", saved under a fresh directory. */
static void state(struct sleeb_state *s)
{
	*s = (struct sleeb_state) { .path = test_path(dir, "learned"), .header = SLEEB_LEARNED_HEADER };
	ck_assert_int_eq(sleeb_state_set(s, ":0000064", &T(240, 120, 960)), 1);
	ck_assert_int_eq(sleeb_state_set(s, "gone", &T(16, 8, 32)), 1);
}

static void setup(void)
{
	dir = test_mkdtemp();
}

static void teardown(void)
{
	test_rm_tree(dir);
	free(dir);
}

START_TEST(test_key_by_any_name)
{
	struct sleeb_state s;

	state(&s);
	ck_assert_str_eq(sleeb_learned_key(&s, &list, "kmalloc-rnd-01-64"), ":0000064");
	ck_assert_str_eq(sleeb_learned_key(&s, &list, ":0000064"), ":0000064");
	ck_assert_str_eq(sleeb_learned_key(&s, NULL, "gone"), "gone");
	ck_assert_ptr_null(sleeb_learned_key(&s, NULL, "kmalloc-64"));
	ck_assert_ptr_null(sleeb_learned_key(&s, &list, "dentry"));
	sleeb_state_done(&s);
}
END_TEST

START_TEST(test_forget_by_alias)
{
	struct sleeb_state s, dropped;
	struct sleeb_error err = { 0 };
	char *text;

	state(&s);
	/* Two names of one cache drop it once. */
	ck_assert_int_eq(sleeb_learned_forget(&s, &list, (char *[]) { "kmalloc-64", "kmalloc-rnd-01-64" }, 2, &dropped,
					      &err), 1);
	ck_assert_int_eq(s.n, 1);
	ck_assert_str_eq(s.entries[0].cache, "gone");
	ck_assert_int_eq(dropped.n, 1);
	ck_assert_str_eq(dropped.entries[0].cache, ":0000064");
	test_assert_file_eq(s.path, SLEEB_LEARNED_HEADER "\ngone 16 8 32\n");
	text = sleeb_learned_forgot_text(&dropped);
	ck_assert_str_eq(text, "forgot :0000064: queue 240 batch 120 shared 960\n"
			       "its current size left as it is; sleebd starts it from the policy from now on\n");
	free(text);
	sleeb_state_done(&dropped);
	sleeb_state_done(&s);
}
END_TEST

START_TEST(test_forget_unknown_drops_nothing)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };

	state(&s);
	ck_assert_int_eq(sleeb_learned_forget(&s, &list, (char *[]) { "gone", "dentry" }, 2, NULL, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "dentry: no learned size (2 caches have one); nothing forgotten");
	ck_assert_int_eq(sleeb_learned_forget(&s, &list, (char *[]) { "nope" }, 1, NULL, &err), -ENOENT);
	ck_assert_str_eq(err.msg, "nope: no such cache, and no learned size under that name; nothing forgotten");
	ck_assert_int_eq(s.n, 2);
	sleeb_state_done(&s);
}
END_TEST

/* A save that fails keeps the entries in memory too: the daemon's next
 * save must not lose them, nor the user believe them gone. */
START_TEST(test_forget_failed_save_keeps_all)
{
	struct sleeb_state s;
	struct sleeb_error err = { 0 };
	char *file = test_path(dir, "file");

	state(&s);
	test_write_file(file, "");
	free(s.path);
	s.path = test_path(file, "learned");
	ck_assert_int_eq(sleeb_learned_forget(&s, &list, NULL, 0, NULL, &err), -ENOTDIR);
	ck_assert_msg(strstr(err.msg, s.path), "%s", err.msg);
	ck_assert_int_eq(s.n, 2);
	free(file);
	sleeb_state_done(&s);
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_key_by_any_name);
	tcase_add_test(tc, test_forget_by_alias);
	tcase_add_test(tc, test_forget_unknown_drops_nothing);
	tcase_add_test(tc, test_forget_failed_save_keeps_all);
}

int main(void)
{
	return test_main("learned-forget", add_tests);
}
