/* SPDX-License-Identifier: GPL-2.0-only */
/* /proc/meminfo parser (see sleeb/meminfo.h). */

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sleeb/meminfo.h"
#include "sleeb/util.h"
#include "sleeb/parse.h"
#include "sleeb/root.h"

#define MEMINFO_LINE_MAX 1024

static const char *const field_keys[_SLEEB_MEMINFO_MAX] = {
	[SLEEB_MEMINFO_MEM_TOTAL] = "MemTotal",
	[SLEEB_MEMINFO_MEM_FREE] = "MemFree",
	[SLEEB_MEMINFO_MEM_AVAILABLE] = "MemAvailable",
	[SLEEB_MEMINFO_SLAB] = "Slab",
	[SLEEB_MEMINFO_SRECLAIMABLE] = "SReclaimable",
	[SLEEB_MEMINFO_SUNRECLAIM] = "SUnreclaim",
};

struct meminfo_parser {
	const char *fname;
	unsigned lineno;
	struct sleeb_meminfo *out;
	struct sleeb_error *err;
};

static int line_error(struct meminfo_parser *p, int code, const char *what)
{
	return sleeb_error_set(p->err, code, "%s:%u: %s", p->fname, p->lineno, what);
}

/* "Key:   123 kB" or "Key:   123"; keys are [^: \t]+ (e.g. "Active(anon)"). */
static int parser_feed(struct meminfo_parser *p, const char *line, size_t len)
{
	const char *colon;
	size_t klen, pos, end;
	uint64_t v;
	unsigned i;
	int r;

	p->lineno++;
	if (len > MEMINFO_LINE_MAX)
		return line_error(p, EINVAL, "line too long");
	if (memchr(line, '\0', len))
		return line_error(p, EINVAL, "NUL byte in line");
	if (len == 0)
		return 0;
	colon = memchr(line, ':', len);
	if (!colon || colon == line)
		return line_error(p, EINVAL, "expected 'Key: value'");
	klen = (size_t)(colon - line);
	if (memchr(line, ' ', klen) || memchr(line, '\t', klen))
		return line_error(p, EINVAL, "white space in key");
	pos = klen + 1;
	while (pos < len && (line[pos] == ' ' || line[pos] == '\t'))
		pos++;
	r = sleeb_parse_u64_prefix(line + pos, len - pos, &v, &end);
	if (r == -ERANGE)
		return line_error(p, ERANGE, "value out of range");
	if (r < 0)
		return line_error(p, EINVAL, "missing numeric value");
	pos += end;
	if (pos < len) {
		static const char kb[] = " kB";

		if (len - pos != strlen(kb) || memcmp(line + pos, kb, strlen(kb)) != 0)
			return line_error(p, EINVAL, "unexpected text after value (only ' kB' allowed)");
		if (__builtin_mul_overflow(v, 1024, &v))
			return line_error(p, ERANGE, "value out of range");
	}
	for (i = 0; i < _SLEEB_MEMINFO_MAX; i++) {
		if (strlen(field_keys[i]) == klen && memcmp(field_keys[i], line, klen) == 0) {
			p->out->value[i] = v;
			p->out->present |= 1u << i;
			break;
		}
	}
	return 0;
}

static int parser_finish(struct meminfo_parser *p)
{
	if (!(p->out->present & (1u << SLEEB_MEMINFO_MEM_TOTAL)))
		return sleeb_error_set(p->err, EINVAL, "%s: no MemTotal line", p->fname);
	return 0;
}

static int meminfo_line(void *ctx, const char *line, size_t len, bool terminated)
{
	(void)terminated; /* a cut-off last line parses like any other */
	return parser_feed(ctx, line, len);
}

int sleeb_meminfo_parse_file(FILE *f, const char *fname, struct sleeb_meminfo *out,
			     struct sleeb_error *err)
{
	struct meminfo_parser p = { .fname = fname, .out = out, .err = err };
	int r;

	memset(out, 0, sizeof(*out));
	r = sleeb_read_lines(f, fname, meminfo_line, &p, err);
	return r < 0 ? r : parser_finish(&p);
}

int sleeb_meminfo_parse_buffer(const char *buf, size_t len, const char *fname,
			       struct sleeb_meminfo *out, struct sleeb_error *err)
{
	struct meminfo_parser p = { .fname = fname, .out = out, .err = err };
	size_t pos = 0;
	int r;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		r = parser_feed(&p, buf + pos, llen);
		if (r < 0)
			return r;
		pos += llen + (nl != NULL);
	}
	return parser_finish(&p);
}

int sleeb_meminfo_read(struct sleeb_meminfo *out, struct sleeb_error *err)
{
	char path[PATH_MAX];
	FILE *f;
	int r;

	r = sleeb_root_path(path, sizeof(path), "/proc/meminfo");
	if (r < 0)
		return sleeb_error_set(err, r, "/proc/meminfo: path too long under root %s",
				       sleeb_root_get());
	f = sleeb_root_fopen("/proc/meminfo", &r, err);
	if (!f)
		return r;
	r = sleeb_meminfo_parse_file(f, path, out, err);
	fclose(f);
	return r;
}
