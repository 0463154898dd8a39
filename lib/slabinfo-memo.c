/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The slabinfo parser's memory of its last parse (see sleeb/slabinfo.h).
 *
 * sleebd reads /proc/slabinfo every interval, and parsing it was most of
 * the daemon's own instructions (3,200 a line: every field is scanned
 * byte by byte and checked). Between two reads most lines do not change:
 * a quiet cache's line stands still. So each cache line's bytes are kept
 * with the entry they gave, by their index among the cache lines, and a
 * line whose bytes equal those of the line at the same index last time
 * takes the kept entry instead of being parsed again: the result is the
 * same by construction, since the entry is a function of the line's bytes.
 * The kernel lists the caches in a stable order; when a cache comes or
 * goes, the lines after it miss once and are parsed.
 *
 * Two generations: the last successful parse (compared against) and the
 * one being recorded, which replaces it when its parse succeeds. A parse
 * that fails, or that could not record (out of memory), leaves the last
 * generation in place: the memo never changes what a parse returns.
 */

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/slabinfo.h"
#include "slabinfo-memo.h"

struct memo_line {
	size_t off;     /* in the generation's text */
	size_t len;
	struct sleeb_slabinfo_entry e;
};

struct memo_gen {
	char *text;     /* the cache lines, back to back */
	size_t len, text_cap;
	struct memo_line *lines;
	size_t n, lines_cap;
	bool broken;    /* could not record: never becomes the last one */
};

struct sleeb_slabinfo_memo {
	struct memo_gen gen[2];
	unsigned last;  /* gen[last]: the last successful parse */
	uint64_t reused, parsed;
};

struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_new(void)
{
	return calloc(1, sizeof(struct sleeb_slabinfo_memo));
}

struct sleeb_slabinfo_memo *sleeb_slabinfo_memo_free(struct sleeb_slabinfo_memo *m)
{
	if (!m)
		return NULL;
	for (unsigned i = 0; i < 2; i++) {
		free(m->gen[i].text);
		free(m->gen[i].lines);
	}
	free(m);
	return NULL;
}

void sleeb_slabinfo_memo_forget(struct sleeb_slabinfo_memo *m)
{
	if (m)
		m->gen[0].n = m->gen[1].n = 0;
}

void sleeb_slabinfo_memo_stats(const struct sleeb_slabinfo_memo *m, uint64_t *reused,
			       uint64_t *parsed)
{
	*reused = m ? m->reused : 0;
	*parsed = m ? m->parsed : 0;
}

void slabinfo_memo_begin(struct sleeb_slabinfo_memo *m)
{
	struct memo_gen *next = &m->gen[!m->last];

	next->len = next->n = 0;
	next->broken = false;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t cap2 = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	while (cap2 < need)
		cap2 *= 2;
	q = realloc(*p, cap2 * size);
	if (!q)
		return false;
	*p = q;
	*cap = cap2;
	return true;
}

static void record(struct memo_gen *g, const char *line, size_t len,
		   const struct sleeb_slabinfo_entry *e)
{
	if (g->broken)
		return;
	if (!grow((void **)&g->text, &g->text_cap, g->len + len, 1) ||
	    !grow((void **)&g->lines, &g->lines_cap, g->n + 1, sizeof(*g->lines))) {
		g->broken = true;
		return;
	}
	memcpy(g->text + g->len, line, len);
	g->lines[g->n++] = (struct memo_line){ .off = g->len, .len = len, .e = *e };
	g->len += len;
}

int slabinfo_memo_line(struct sleeb_slabinfo_memo *m, size_t idx, const char *line,
		       size_t len, struct sleeb_slabinfo_entry *e, struct sleeb_error *err)
{
	const struct memo_gen *last = &m->gen[m->last];
	int r;

	if (idx < last->n && last->lines[idx].len == len &&
	    memcmp(last->text + last->lines[idx].off, line, len) == 0) {
		*e = last->lines[idx].e;
		m->reused++;
	} else {
		r = sleeb_slabinfo_parse_line(line, len, e, err);
		if (r < 0)
			return r;
		m->parsed++;
	}
	record(&m->gen[!m->last], line, len, e);
	return 0;
}

void slabinfo_memo_commit(struct sleeb_slabinfo_memo *m)
{
	if (!m->gen[!m->last].broken)
		m->last = !m->last;
}
