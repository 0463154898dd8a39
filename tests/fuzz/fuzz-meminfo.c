/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for the /proc/meminfo parser: any input either parses
 * (with MemTotal present) or fails with -EINVAL/-ERANGE and a message
 * naming the file. The same input goes to the /proc/pressure/memory
 * parser: a percentage from 0 to 100, or -EINVAL naming the file.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/meminfo.h"
#include "sleeb/psi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sleeb_meminfo mi;
	struct sleeb_error err = { 0 };
	int r;

	r = sleeb_meminfo_parse_buffer((const char *)data, size, "fuzz", &mi, &err);
	if (r == 0 && !(mi.present & (1u << SLEEB_MEMINFO_MEM_TOTAL)))
		abort();
	if (r < 0 && ((r != -EINVAL && r != -ERANGE) || strncmp(err.msg, "fuzz", 4) != 0))
		abort();
	{
		double avg10 = -1;

		r = sleeb_psi_parse_some_avg10((const char *)data, size, "fuzz", &avg10, &err);
		if (r == 0 && (avg10 < 0 || avg10 > 100))
			abort();
		if (r < 0 && (r != -EINVAL || strncmp(err.msg, "fuzz", 4) != 0))
			abort();
	}
	return 0;
}
