/* SPDX-License-Identifier: GPL-2.0-only */
/* Cache matching: Match= globs and object size bounds. */

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/match.h"
#include "runner.h"

START_TEST(test_globs)
{
	char *g[] = { "kmalloc-*", "dentry", "ext4_[a-c]*", "?node", NULL };
	char *none[] = { NULL };

	ck_assert(sleeb_match_globs(g, "kmalloc-64"));
	ck_assert(sleeb_match_globs(g, "kmalloc-"));
	ck_assert(sleeb_match_globs(g, "dentry"));
	ck_assert(!sleeb_match_globs(g, "dentry2"));
	ck_assert(sleeb_match_globs(g, "ext4_bio"));
	ck_assert(!sleeb_match_globs(g, "ext4_zz"));
	ck_assert(sleeb_match_globs(g, "inode"));
	ck_assert(!sleeb_match_globs(g, "node"));
	ck_assert(!sleeb_match_globs(g, "skbuff_head_cache"));
	ck_assert(!sleeb_match_globs(none, "x"));
	ck_assert(!sleeb_match_globs(NULL, "x"));
}
END_TEST

START_TEST(test_sizes)
{
	char *g[] = { "*", NULL };
	struct sleeb_cache_section s = {
		.match = g,
		.min_object_size = { .value = 64 },
		.max_object_size = { .value = 4096 },
	};

	ck_assert(!sleeb_section_matches(&s, "a", 63));
	ck_assert(sleeb_section_matches(&s, "a", 64));
	ck_assert(sleeb_section_matches(&s, "a", 4096));
	ck_assert(!sleeb_section_matches(&s, "a", 4097));
	s.min_object_size.value = SLEEB_VALUE_UNSET;
	ck_assert(sleeb_section_matches(&s, "a", 1));
	s.max_object_size.value = SLEEB_VALUE_UNSET;
	ck_assert(sleeb_section_matches(&s, "a", 1 << 20));
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_globs);
	tcase_add_test(tc, test_sizes);
}

int main(void)
{
	return test_main("match", add_tests);
}
