/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slabinfo parser's memory of what it parsed (see sleeb/slabinfo.h).
 *
 * sleebd reads /proc/slabinfo every interval, and parsing it was most of
 * the daemon's own instructions (3,200 a line: every field is scanned
 * byte by byte and checked). Between two reads most lines do not change:
 * a quiet cache's line stands still. So the memo keeps, for each index
 * among the cache lines, the bytes of the last line parsed there with the
 * numbers they gave; a line equal, byte for byte, to the one kept at its
 * index takes those numbers and its name from its own first field instead
 * of being parsed again. The kernel lists the caches in a stable order;
 * when a cache comes or goes, the lines after it miss once and are parsed.
 *
 * Invariant: every kept (bytes, entry) pair is what parsing those bytes
 * gave. It holds whatever happens to a parse (a line that fails to parse
 * is not kept, a failed parse leaves the pairs it did not reach), so the
 * memo never changes what a parse returns, and needs no commit.
 *
 * Memory: the lines' bytes and 64 bytes of numbers a cache (about 70 KiB
 * for 349 caches), not a whole entry with its 256-byte name.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/slabinfo.h"
#include "slabinfo-memo.h"

/* The entry after its name: the numbers. */
#define NUMS_OFF offsetof(struct sleeb_slabinfo_entry, active_objs)
#define NUMS_LEN (sizeof(struct sleeb_slabinfo_entry) - NUMS_OFF)

struct memo_line {
	char *text;                     /* not terminated */
	size_t len, cap;                /* len 0: nothing kept */
	unsigned char nums[NUMS_LEN];
};

struct sleeb_slabinfo_memo {
	struct memo_line *lines;
	size_t n;                       /* lines[0..n) exist (kept or not) */
	uint64_t reused, parsed;
};

struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_new(void)
{
	return calloc(1, sizeof(struct sleeb_slabinfo_memo));
}

void sleeb_slabinfo_memo_forget(struct sleeb_slabinfo_memo *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->n; i++)
		m->lines[i].len = 0;    /* no cache line is empty */
}

struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_free(struct sleeb_slabinfo_memo *m)
{
	if (!m)
		return NULL;
	for (size_t i = 0; i < m->n; i++)
		free(m->lines[i].text);
	free(m->lines);
	free(m);
	return NULL;
}

void sleeb_slabinfo_memo_stats(const struct sleeb_slabinfo_memo *m, uint64_t *reused,
			       uint64_t *parsed)
{
	*reused = m ? m->reused : 0;
	*parsed = m ? m->parsed : 0;
}

/* The first field of a line the parser accepted: its name. */
static void name_of(const char *line, size_t len, char *name)
{
	size_t pos = 0, tlen = 0;
	const char *tok = line;

	slabinfo_next_token(line, len, &pos, &tok, &tlen);
	memcpy(name, tok, tlen);  /* < SLEEB_CACHE_NAME_MAX: parsed */
	name[tlen] = '\0';
}

/* Keep @line and @e at @idx; on no memory keep nothing there (the memo is
 * only ever a shortcut). */
static void keep(struct sleeb_slabinfo_memo *m, size_t idx, const char *line, size_t len,
		 const struct sleeb_slabinfo_entry *e)
{
	struct memo_line *l;

	if (idx >= m->n) {
		size_t n = idx + 1, cap = m->n ? m->n : 64;
		struct memo_line *lines;

		while (cap < n)
			cap *= 2;
		/* Grown only past the last index, in steps: n is the array's size. */
		lines = realloc(m->lines, cap * sizeof(*lines));
		if (!lines)
			return;
		memset(lines + m->n, 0, (cap - m->n) * sizeof(*lines));
		m->lines = lines;
		m->n = cap;
	}
	l = &m->lines[idx];
	if (l->cap < len) {
		size_t cap = (len + 31) & ~(size_t)31;
		char *t = realloc(l->text, cap);

		if (!t) {
			l->len = 0;
			return;
		}
		l->text = t;
		l->cap = cap;
	}
	memcpy(l->text, line, len);
	l->len = len;
	memcpy(l->nums, (const char *)e + NUMS_OFF, NUMS_LEN);
}

int slabinfo_memo_line(struct sleeb_slabinfo_memo *m, size_t idx, const char *line,
		       size_t len, struct sleeb_slabinfo_entry *e, struct sleeb_error *err)
{
	const struct memo_line *l = idx < m->n ? &m->lines[idx] : NULL;
	int r;

	if (l && l->len == len && memcmp(l->text, line, len) == 0) {
		memset(e->name, 0, sizeof(e->name));  /* as the parser leaves it */
		name_of(line, len, e->name);
		memcpy((char *)e + NUMS_OFF, l->nums, NUMS_LEN);
		m->reused++;
		return 0;
	}
	r = sleeb_slabinfo_parse_line(line, len, e, err);
	if (r < 0)
		return r;
	m->parsed++;
	keep(m, idx, line, len, e);
	return 0;
}
