/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the sysfs value parsers: attribute values
 * ("N\n", "N N0=.. N1=.."), queue_stats, and the strict number, duration
 * and size parsers used on option and policy values.  Any input either
 * parses or fails with -EINVAL/-ERANGE; a parsed value round-trips.
 */

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/parse.h"
#include "sleeb/sysfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void expect_errno(int r)
{
	if (r < 0 && r != -EINVAL && r != -ERANGE)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct sleeb_queue_stats qs;
	struct sleeb_error err = { 0 };
	char *str, again[32];
	uint64_t v;
	int r;

	r = sleeb_sysfs_parse_value(buf, size, &v);
	expect_errno(r);
	if (r == 0) {
		/* The number we got is the digits the input starts with. */
		snprintf(again, sizeof(again), "%" PRIu64, v);
		if (size < strlen(again) || (memcmp(buf, again, strlen(again)) != 0 && buf[0] != '0'))
			abort();
	}
	expect_errno(sleeb_queue_stats_parse(buf, size, "fuzz", &qs, &err));

	/* The NUL-terminated parsers see the input up to its first NUL. */
	str = malloc(size + 1);
	if (!str)
		return 0;
	memcpy(str, data, size);
	str[size] = '\0';
	r = sleeb_parse_u64(str, &v);
	expect_errno(r);
	if (r == 0) {
		uint64_t w;

		snprintf(again, sizeof(again), "%" PRIu64, v);
		if (sleeb_parse_u64(again, &w) != 0 || w != v)
			abort();
	}
	expect_errno(sleeb_parse_duration(str, &v));
	expect_errno(sleeb_parse_size(str, &v));
	free(str);
	return 0;
}
