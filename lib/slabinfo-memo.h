/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* The parser's side of struct sleeb_slabinfo_memo (lib/slabinfo-memo.c). */

#include <stddef.h>

#include "sleeb/slabinfo.h"

/* A parse starts recording a new generation. */
void slabinfo_memo_begin(struct sleeb_slabinfo_memo *m);

/* Cache line number @idx (0 for the first cache line) into @e: the kept
 * entry when the line is unchanged, else parsed. Errors as for
 * sleeb_slabinfo_parse_line(). */
int slabinfo_memo_line(struct sleeb_slabinfo_memo *m, size_t idx, const char *line,
		       size_t len, struct sleeb_slabinfo_entry *e, struct sleeb_error *err);

/* The parse succeeded: what it recorded is compared against next time. */
void slabinfo_memo_commit(struct sleeb_slabinfo_memo *m);
