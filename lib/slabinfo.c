/* SPDX-License-Identifier: GPL-2.0-only */
/* Streaming /proc/slabinfo parser (see sleeb/slabinfo.h). */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/parse.h"
#include "sleeb/root.h"
#include "sleeb/slabinfo.h"
#include "sleeb/util.h"
#include "slabinfo-memo.h"

/* Real lines are < 200 bytes; anything much longer is not slabinfo and
 * must not make us buffer an unbounded "line". */
#define SLABINFO_LINE_MAX 4096

#define HEADER_PREFIX "slabinfo - version: "

struct slabinfo_parser {
	const char *fname;
	unsigned lineno;
	bool have_header;
	sleeb_slabinfo_cb cb;
	void *userdata;
	struct sleeb_error *err;
	struct sleeb_slabinfo_memo *memo;  /* or NULL */
	int count;
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Next white-space separated token of line[*pos..len); false at end. */
bool slabinfo_next_token(const char *line, size_t len, size_t *pos, const char **tok,
			 size_t *tlen)
{
	size_t i = *pos, start;

	while (i < len && is_blank(line[i]))
		i++;
	if (i == len)
		return false;
	start = i;
	while (i < len && !is_blank(line[i]))
		i++;
	*tok = line + start;
	*tlen = i - start;
	*pos = i;
	return true;
}

static int token_u64(const char *tok, size_t tlen, uint64_t *ret)
{
	size_t end;
	int r;

	r = sleeb_parse_u64_prefix(tok, tlen, ret, &end);
	if (r < 0)
		return r;
	return end == tlen ? 0 : -EINVAL;
}

static int token_u32(const char *tok, size_t tlen, uint32_t *ret)
{
	uint64_t v;
	int r;

	r = token_u64(tok, tlen, &v);
	if (r < 0)
		return r;
	if (v > UINT32_MAX)
		return -ERANGE;
	*ret = (uint32_t)v;
	return 0;
}

static bool token_is(const char *tok, size_t tlen, const char *word)
{
	return tlen == strlen(word) && memcmp(tok, word, tlen) == 0;
}

/* Field layout of a cache line, after the name. */
enum field_kind { F_U64, F_U32, F_WORD };

static const struct {
	enum field_kind kind;
	size_t offset;       /* into struct sleeb_slabinfo_entry */
	const char *word;    /* literal for F_WORD */
	const char *what;    /* for messages */
} fields[] = {
#define U64(f) { F_U64, offsetof(struct sleeb_slabinfo_entry, f), NULL, #f }
#define U32(f) { F_U32, offsetof(struct sleeb_slabinfo_entry, f), NULL, #f }
#define WORD(w) { F_WORD, 0, w, "'" w "'" }
	U64(active_objs), U64(num_objs), U32(objsize), U32(objperslab), U32(pagesperslab),
	WORD(":"), WORD("tunables"), U32(limit), U32(batchcount), U32(sharedfactor),
	WORD(":"), WORD("slabdata"), U64(active_slabs), U64(num_slabs), U64(sharedavail),
#undef U64
#undef U32
#undef WORD
};

static int field_error(struct sleeb_error *err, int r, const char *field, const char *tok,
		       size_t tlen)
{
	int shown = (int)(tlen > 32 ? 32 : tlen);

	if (r == -ERANGE)
		return sleeb_error_set(err, r, "%s: number '%.*s' out of range", field, shown, tok);
	return sleeb_error_set(err, r, "%s: '%.*s' is not a number", field, shown, tok);
}

void sleeb_slabinfo_numbers_get(const struct sleeb_slabinfo_entry *e,
				struct sleeb_slabinfo_numbers *out)
{
	*out = (struct sleeb_slabinfo_numbers) {
		.active_objs = e->active_objs, .num_objs = e->num_objs,
		.active_slabs = e->active_slabs, .num_slabs = e->num_slabs,
		.sharedavail = e->sharedavail, .objsize = e->objsize,
		.objperslab = e->objperslab, .pagesperslab = e->pagesperslab,
		.limit = e->limit, .batchcount = e->batchcount,
		.sharedfactor = e->sharedfactor,
	};
}

bool sleeb_slabinfo_numbers_same(const struct sleeb_slabinfo_numbers *kept,
				 const struct sleeb_slabinfo_entry *e)
{
	struct sleeb_slabinfo_numbers now;

	sleeb_slabinfo_numbers_get(e, &now);
	/* Field by field: padding, were there any, is never compared. */
	return kept->active_objs == now.active_objs && kept->num_objs == now.num_objs &&
	       kept->active_slabs == now.active_slabs && kept->num_slabs == now.num_slabs &&
	       kept->sharedavail == now.sharedavail && kept->objsize == now.objsize &&
	       kept->objperslab == now.objperslab && kept->pagesperslab == now.pagesperslab &&
	       kept->limit == now.limit && kept->batchcount == now.batchcount &&
	       kept->sharedfactor == now.sharedfactor;
}

int sleeb_slabinfo_parse_line(const char *line, size_t len,
			      struct sleeb_slabinfo_entry *e, struct sleeb_error *err)
{
	const char *tok;
	size_t pos = 0, tlen, i;
	int r;

	memset(e, 0, sizeof(*e));
	if (memchr(line, '\0', len))
		return sleeb_error_set(err, EINVAL, "NUL byte in line");
	if (!slabinfo_next_token(line, len, &pos, &tok, &tlen))
		return sleeb_error_set(err, EINVAL, "empty line");
	if (tlen >= sizeof(e->name))
		return sleeb_error_set(err, EINVAL, "cache name longer than %zu bytes",
				       sizeof(e->name) - 1);
	memcpy(e->name, tok, tlen);
	e->name[tlen] = '\0';

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char *dst = (char *)e + fields[i].offset;

		if (!slabinfo_next_token(line, len, &pos, &tok, &tlen))
			return sleeb_error_set(err, EINVAL, "short line: %s missing", fields[i].what);
		switch (fields[i].kind) {
		case F_WORD:
			if (!token_is(tok, tlen, fields[i].word))
				return sleeb_error_set(err, EINVAL, "%s expected, got '%.*s'",
						       fields[i].what, (int)(tlen > 32 ? 32 : tlen), tok);
			break;
		case F_U64: {
			uint64_t v;

			r = token_u64(tok, tlen, &v);
			if (r < 0)
				return field_error(err, r, fields[i].what, tok, tlen);
			memcpy(dst, &v, sizeof(v));
			break;
		}
		case F_U32: {
			uint32_t v;

			r = token_u32(tok, tlen, &v);
			if (r < 0)
				return field_error(err, r, fields[i].what, tok, tlen);
			memcpy(dst, &v, sizeof(v));
			break;
		}
		}
	}
	if (slabinfo_next_token(line, len, &pos, &tok, &tlen))
		return sleeb_error_set(err, EINVAL, "trailing field '%.*s' after sharedavail",
				       (int)(tlen > 32 ? 32 : tlen), tok);
	return 0;
}

/* "slabinfo - version: 2.<minor>" is the only family we understand. */
static int parse_header(struct slabinfo_parser *p, const char *line, size_t len)
{
	size_t plen = strlen(HEADER_PREFIX), end;
	uint64_t major, minor;
	const char *v;

	if (len < plen || memcmp(line, HEADER_PREFIX, plen) != 0)
		return sleeb_error_set(p->err, EINVAL, "%s:%u: missing 'slabinfo - version:' header",
				       p->fname, p->lineno);
	v = line + plen;
	len -= plen;
	if (sleeb_parse_u64_prefix(v, len, &major, &end) < 0 || end == len || v[end] != '.')
		goto bad;
	v += end + 1;
	len -= end + 1;
	if (sleeb_parse_u64_prefix(v, len, &minor, &end) < 0 || end != len)
		goto bad;
	if (major != 2)
		return sleeb_error_set(p->err, EINVAL, "%s:%u: unsupported slabinfo version %llu.%llu (need 2.x)",
				       p->fname, p->lineno, (unsigned long long)major,
				       (unsigned long long)minor);
	p->have_header = true;
	return 0;
bad:
	return sleeb_error_set(p->err, EINVAL, "%s:%u: malformed slabinfo version", p->fname,
			       p->lineno);
}

/* One line without its newline; @terminated is false for a last line
 * that had no newline (the file was cut short). */
static int parser_feed(struct slabinfo_parser *p, const char *line, size_t len, bool terminated)
{
	struct sleeb_slabinfo_entry e;
	size_t i;
	int r;

	p->lineno++;
	if (len > SLABINFO_LINE_MAX)
		return sleeb_error_set(p->err, EINVAL, "%s:%u: line too long", p->fname, p->lineno);
	if (!p->have_header)
		return parse_header(p, line, len);
	for (i = 0; i < len && is_blank(line[i]); i++)
		;
	if (i == len || line[i] == '#')
		return 0;
	if (p->memo)
		r = slabinfo_memo_line(p->memo, (size_t)p->count, line, len, &e, p->err);
	else
		r = sleeb_slabinfo_parse_line(line, len, &e, p->err);
	if (r < 0) {
		if (!terminated && p->err)
			strncat(p->err->msg, " (truncated last line)",
				sizeof(p->err->msg) - strlen(p->err->msg) - 1);
		sleeb_error_prefix(p->err, "%s:%u", p->fname, p->lineno);
		return r;
	}
	r = p->cb ? p->cb(&e, p->userdata) : 0;
	if (r < 0)
		return r;
	if (p->count < INT_MAX)
		p->count++;
	return 0;
}

static int parser_finish(struct slabinfo_parser *p)
{
	if (!p->have_header)
		return sleeb_error_set(p->err, EINVAL, "%s: empty file, missing 'slabinfo - version:' header",
				       p->fname);
	return p->count;
}

static int slabinfo_line(void *ctx, const char *line, size_t len, bool terminated)
{
	return parser_feed(ctx, line, len, terminated);
}

int sleeb_slabinfo_parse_file(FILE *f, const char *fname, sleeb_slabinfo_cb cb,
			      void *userdata, struct sleeb_error *err)
{
	struct slabinfo_parser p = {
		.fname = fname, .cb = cb, .userdata = userdata, .err = err,
	};
	int r = sleeb_read_lines(f, fname, slabinfo_line, &p, err);

	return r < 0 ? r : parser_finish(&p);
}

int sleeb_slabinfo_parse_buffer_memo(const char *buf, size_t len, const char *fname,
				     struct sleeb_slabinfo_memo *memo,
				     sleeb_slabinfo_cb cb, void *userdata,
				     struct sleeb_error *err)
{
	struct slabinfo_parser p = {
		.fname = fname, .cb = cb, .userdata = userdata, .err = err, .memo = memo,
	};
	size_t pos = 0;
	int r;

	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		r = parser_feed(&p, buf + pos, llen, nl != NULL);
		if (r < 0)
			return r;
		pos += llen + (nl != NULL);
	}
	return parser_finish(&p);
}

int sleeb_slabinfo_parse_buffer(const char *buf, size_t len, const char *fname,
				sleeb_slabinfo_cb cb, void *userdata,
				struct sleeb_error *err)
{
	return sleeb_slabinfo_parse_buffer_memo(buf, len, fname, NULL, cb, userdata, err);
}

int sleeb_slabinfo_read(sleeb_slabinfo_cb cb, void *userdata, struct sleeb_error *err)
{
	char path[PATH_MAX];
	FILE *f;
	int r;

	r = sleeb_root_path(path, sizeof(path), "/proc/slabinfo");
	if (r < 0)
		return sleeb_error_set(err, r, "/proc/slabinfo: path too long under root %s",
				       sleeb_root_get());
	f = sleeb_root_fopen("/proc/slabinfo", &r, err);
	if (!f)
		return r;
	r = sleeb_slabinfo_parse_file(f, path, cb, userdata, err);
	fclose(f);
	return r;
}

int sleeb_slabinfo_append(const struct sleeb_slabinfo_entry *e, void *slabinfo)
{
	struct sleeb_slabinfo *s = slabinfo;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 128;
		struct sleeb_slabinfo_entry *n = reallocarray(s->entries, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		s->entries = n;
		s->cap = cap;
	}
	s->entries[s->n++] = *e;
	return 0;
}

int sleeb_slabinfo_load(struct sleeb_slabinfo *out, struct sleeb_error *err)
{
	int r;

	r = sleeb_slabinfo_read(sleeb_slabinfo_append, out, err);
	if (r == -ENOMEM)
		sleeb_error_set(err, ENOMEM, "slabinfo: out of memory");
	if (r < 0)
		sleeb_slabinfo_free(out);
	return r;
}

const struct sleeb_slabinfo_entry *sleeb_slabinfo_find(const struct sleeb_slabinfo *s,
						       const char *name)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->entries[i].name, name) == 0)
			return &s->entries[i];
	return NULL;
}

void sleeb_slabinfo_free(struct sleeb_slabinfo *s)
{
	free(s->entries);
	s->entries = NULL;
	s->n = s->cap = 0;
}
