/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the /proc/slabinfo parser: any input either parses
 * or fails with -EINVAL/-ERANGE and a "FILE:LINE: " (or "FILE: ") message;
 * every entry handed to the callback has a non-empty, terminated name.
 * With the memo of a parse (lib/slabinfo-memo.c) the same input parsed
 * again, after itself and after its first half, gives the same result and
 * message as without.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/slabinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int check_entry(const struct sleeb_slabinfo_entry *e, void *userdata)
{
	size_t len = strnlen(e->name, sizeof(e->name));

	(void)userdata;
	if (len == 0 || len == sizeof(e->name))
		abort();
	return 0;
}

/* Parse @data with @memo after @before: what a plain parse gives. */
static void check_memo(const uint8_t *before, size_t before_len, const uint8_t *data, size_t size,
		       int want, const struct sleeb_error *want_err)
{
	struct sleeb_slabinfo_memo *memo = sleeb_slabinfo_memo_new();
	struct sleeb_error err = { 0 };
	int r;

	if (!memo)
		abort();
	(void)sleeb_slabinfo_parse_buffer_memo((const char *)before, before_len, "fuzz", memo,
					       check_entry, NULL, &err);
	memset(&err, 0, sizeof(err));
	r = sleeb_slabinfo_parse_buffer_memo((const char *)data, size, "fuzz", memo, check_entry,
					     NULL, &err);
	if (r != want || strcmp(err.msg, want_err->msg) != 0)
		abort();
	sleeb_slabinfo_memo_free(memo);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sleeb_slabinfo_entry e;
	struct sleeb_error err = { 0 };
	int r;

	r = sleeb_slabinfo_parse_buffer((const char *)data, size, "fuzz", check_entry, NULL, &err);
	if (r < 0) {
		if (r != -EINVAL && r != -ERANGE)
			abort();
		if (strncmp(err.msg, "fuzz:", 5) != 0)
			abort();
	}
	check_memo(data, size, data, size, r, &err);
	check_memo(data, size / 2, data, size, r, &err);
	/* The single-line parser on the raw bytes, too. */
	r = sleeb_slabinfo_parse_line((const char *)data, size, &e, NULL);
	if (r < 0 && r != -EINVAL && r != -ERANGE)
		abort();
	return 0;
}
