/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * /proc/meminfo parser: "Key:   value kB" lines.  Only the fields SLEEB
 * uses are kept (in bytes); unknown keys are skipped, but every line must
 * still be well-formed.
 */

#include <stdint.h>
#include <stdio.h>

#include "sleeb/error.h"

enum sleeb_meminfo_field {
	SLEEB_MEMINFO_MEM_TOTAL,
	SLEEB_MEMINFO_MEM_FREE,
	SLEEB_MEMINFO_MEM_AVAILABLE,
	SLEEB_MEMINFO_SLAB,
	SLEEB_MEMINFO_SRECLAIMABLE,
	SLEEB_MEMINFO_SUNRECLAIM,
	_SLEEB_MEMINFO_MAX,
};

struct sleeb_meminfo {
	uint64_t value[_SLEEB_MEMINFO_MAX];  /* bytes */
	unsigned present;                    /* bit (1 << field) when seen */
};

/*
 * Parse a stream.  Returns 0, or:
 *   -EINVAL  a malformed line ("FILE:LINE: ..."), or MemTotal missing
 *   -ERANGE  a value overflows (also after the kB -> bytes conversion)
 *   -ENOMEM, -EIO
 */
int sleeb_meminfo_parse_file(FILE *f, const char *fname, struct sleeb_meminfo *out,
			     struct sleeb_error *err);

/* The same for an in-memory buffer. */
int sleeb_meminfo_parse_buffer(const char *buf, size_t len, const char *fname,
			       struct sleeb_meminfo *out, struct sleeb_error *err);

/* Parse <root>/proc/meminfo.  Errors as above plus -errno from fopen(). */
int sleeb_meminfo_read(struct sleeb_meminfo *out, struct sleeb_error *err);
