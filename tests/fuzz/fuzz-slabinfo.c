/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the /proc/slabinfo parser: any input either parses
 * or fails with -EINVAL/-ERANGE and a "FILE:LINE: " (or "FILE: ") message;
 * every entry handed to the callback has a non-empty, terminated name.
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
	/* The single-line parser on the raw bytes, too. */
	r = sleeb_slabinfo_parse_line((const char *)data, size, &e, NULL);
	if (r < 0 && r != -EINVAL && r != -ERANGE)
		abort();
	return 0;
}
