/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Pressure stall information for memory (/proc/pressure/memory): the
 * share of time some task waited for memory, over the last 10 s.
 */

#include <stddef.h>

#include "sleeb/error.h"

/*
 * Parses the file's "some avg10=1.23 avg60=... total=..." line into
 * *avg10 (percent). A "full" line and unknown fields are accepted.
 * -EINVAL with "FNAME:LINE: ..." for a malformed some line, or when
 * there is none.
 */
int sleeb_psi_parse_some_avg10(const char *buf, size_t len, const char *fname, double *avg10,
			       struct sleeb_error *err);

/* Reads <root>/proc/pressure/memory. -errno (e.g. -ENOENT without PSI). */
int sleeb_psi_read_memory(double *avg10, struct sleeb_error *err);
