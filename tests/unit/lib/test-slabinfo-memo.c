/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tests for lib/slabinfo-memo.c: a parse with the memo of the last one
 * gives exactly what a parse without it gives (entries, count, errors),
 * whatever changed in between, and takes the unchanged lines from it.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "sleeb/slabinfo.h"

#define HDR "slabinfo - version: 2.1\n" \
	"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n"
#define LINE(name, active) name "  " active "   3072     64   64    1 : tunables  120   60  480 : slabdata     48     48    240\n"

/* Parse @text with @memo and without; both must agree in every respect. */
static int parse_both(struct sleeb_slabinfo_memo *memo, const char *text,
		      struct sleeb_slabinfo *out, struct sleeb_error *err)
{
	struct sleeb_slabinfo plain = { 0 };
	struct sleeb_error plain_err = { 0 };
	int r, rp;

	r = sleeb_slabinfo_parse_buffer_memo(text, strlen(text), "test", memo,
					     sleeb_slabinfo_append, out, err);
	rp = sleeb_slabinfo_parse_buffer(text, strlen(text), "test", sleeb_slabinfo_append,
					 &plain, &plain_err);
	ck_assert_int_eq(r, rp);
	ck_assert_str_eq(err->msg, plain_err.msg);
	ck_assert_uint_eq(out->n, plain.n);
	for (size_t i = 0; i < out->n; i++)
		ck_assert_msg(memcmp(&out->entries[i], &plain.entries[i],
				     sizeof(plain.entries[i])) == 0,
			      "entry %zu (%s) differs from a plain parse", i, plain.entries[i].name);
	sleeb_slabinfo_free(&plain);
	return r;
}

/* Parse @want caches from @text; *reused and *parsed: the memo's counts
 * of this parse alone. */
static void parse_counting(struct sleeb_slabinfo_memo *memo, const char *text, int want,
			   uint64_t *reused, uint64_t *parsed)
{
	struct sleeb_slabinfo s = { 0 };
	struct sleeb_error err = { 0 };
	uint64_t ru0, pa0, ru, pa;

	sleeb_slabinfo_memo_stats(memo, &ru0, &pa0);
	ck_assert_int_eq(parse_both(memo, text, &s, &err), want);
	sleeb_slabinfo_memo_stats(memo, &ru, &pa);
	*reused = ru - ru0;
	*parsed = pa - pa0;
	sleeb_slabinfo_free(&s);
}

START_TEST(test_unchanged_lines_are_reused)
{
	struct sleeb_slabinfo_memo *memo = sleeb_slabinfo_memo_new();
	const char *t1 = HDR LINE("a", "1") LINE("b", "2") LINE("c", "3");
	const char *t2 = HDR LINE("a", "1") LINE("b", "9") LINE("c", "3");
	/* b's line as long as before, one digit different: still parsed. */
	uint64_t reused, parsed;

	ck_assert_ptr_nonnull(memo);
	parse_counting(memo, t1, 3, &reused, &parsed);
	ck_assert_uint_eq(reused, 0);
	ck_assert_uint_eq(parsed, 3);
	parse_counting(memo, t1, 3, &reused, &parsed);
	ck_assert_uint_eq(reused, 3);
	ck_assert_uint_eq(parsed, 0);
	parse_counting(memo, t2, 3, &reused, &parsed);
	ck_assert_uint_eq(reused, 2);
	ck_assert_uint_eq(parsed, 1);
	/* And back: compared with the last parse, not the first. */
	parse_counting(memo, t1, 3, &reused, &parsed);
	ck_assert_uint_eq(reused, 2);
	ck_assert_uint_eq(parsed, 1);
	sleeb_slabinfo_memo_free(memo);
}
END_TEST

/* A cache that comes or goes shifts the lines after it: they are parsed,
 * and a name that moved to another index is never taken for another's. */
START_TEST(test_caches_come_and_go)
{
	struct sleeb_slabinfo_memo *memo = sleeb_slabinfo_memo_new();
	const char *t1 = HDR LINE("a", "1") LINE("b", "2") LINE("c", "3");
	const char *t2 = HDR LINE("a", "1") LINE("new", "7") LINE("b", "2") LINE("c", "3");
	const char *t3 = HDR LINE("a", "1") LINE("c", "3");
	uint64_t reused, parsed;

	parse_counting(memo, t1, 3, &reused, &parsed);
	parse_counting(memo, t2, 4, &reused, &parsed);
	ck_assert_uint_eq(reused, 1);
	ck_assert_uint_eq(parsed, 3);
	parse_counting(memo, t3, 2, &reused, &parsed);
	ck_assert_uint_eq(reused, 1);
	ck_assert_uint_eq(parsed, 1);
	/* What is kept at an index stays there until another line is parsed
	 * at that index: "a" is still at 0 after a file without caches. */
	parse_counting(memo, HDR, 0, &reused, &parsed);
	parse_counting(memo, t1, 3, &reused, &parsed);
	ck_assert_uint_eq(reused, 1);
	ck_assert_uint_eq(parsed, 2);
	sleeb_slabinfo_memo_free(memo);
}
END_TEST

/* A bad file gives the plain parser's error, line and all; the line that
 * failed is not kept, so the good one it replaced still is. */
START_TEST(test_errors_keep_last_good_parse)
{
	struct sleeb_slabinfo_memo *memo = sleeb_slabinfo_memo_new();
	const char *good = HDR LINE("a", "1") LINE("b", "2");
	const char *bad = HDR LINE("a", "1") "b 2 3\n";
	const char *cut = HDR LINE("a", "1") "b   2   3072     64";
	struct sleeb_slabinfo s = { 0 };
	struct sleeb_error err = { 0 };
	uint64_t reused, parsed;

	parse_counting(memo, good, 2, &reused, &parsed);
	ck_assert_int_eq(parse_both(memo, bad, &s, &err), -EINVAL);
	ck_assert_msg(strncmp(err.msg, "test:4: ", 8) == 0, "%s", err.msg);
	sleeb_slabinfo_free(&s);
	memset(&err, 0, sizeof(err));
	ck_assert_int_eq(parse_both(memo, cut, &s, &err), -EINVAL);
	ck_assert_msg(strstr(err.msg, "truncated last line"), "%s", err.msg);
	sleeb_slabinfo_free(&s);
	/* The two failed parses reused "a" (twice) and kept nothing new. */
	parse_counting(memo, good, 2, &reused, &parsed);
	ck_assert_uint_eq(parsed, 0);
	sleeb_slabinfo_memo_free(memo);
}
END_TEST

/* Forgotten (another tree): everything is parsed again. */
START_TEST(test_forget)
{
	struct sleeb_slabinfo_memo *memo = sleeb_slabinfo_memo_new();
	const char *t = HDR LINE("a", "1") LINE("b", "2");
	uint64_t reused, parsed;

	parse_counting(memo, t, 2, &reused, &parsed);
	sleeb_slabinfo_memo_forget(memo);
	parse_counting(memo, t, 2, &reused, &parsed);
	ck_assert_uint_eq(reused, 0);
	ck_assert_uint_eq(parsed, 2);
	ck_assert_ptr_null(sleeb_slabinfo_memo_free(memo));
	ck_assert_ptr_null(sleeb_slabinfo_memo_free(NULL));
}
END_TEST

static void add_tests(TCase *tc)
{
	tcase_add_test(tc, test_unchanged_lines_are_reused);
	tcase_add_test(tc, test_caches_come_and_go);
	tcase_add_test(tc, test_errors_keep_last_good_parse);
	tcase_add_test(tc, test_forget);
}

int main(void)
{
	return test_main("slabinfo-memo", add_tests);
}
