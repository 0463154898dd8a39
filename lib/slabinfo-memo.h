/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* The parser's side of struct sleeb_slabinfo_memo (lib/slabinfo-memo.c). */

#include <stdbool.h>
#include <stddef.h>

#include "sleeb/slabinfo.h"

/* Cache line number @idx (0 for the first cache line) into @e: from the
 * memo when the line kept at @idx has the same bytes, else parsed (and
 * kept). Errors as for sleeb_slabinfo_parse_line(). */
int slabinfo_memo_line(struct sleeb_slabinfo_memo *m, size_t idx, const char *line,
		       size_t len, struct sleeb_slabinfo_entry *e, struct sleeb_error *err);

/* The field of @line after *@pos, its blanks skipped: false at the end. */
bool slabinfo_next_token(const char *line, size_t len, size_t *pos, const char **tok,
			 size_t *tlen);
