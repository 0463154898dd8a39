/* SPDX-License-Identifier: GPL-2.0-only */
/* Strict number, duration, size, percent and boolean parsers. */

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "sleeb/parse.h"

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int sleeb_parse_u64_prefix(const char *s, size_t len, uint64_t *ret, size_t *end)
{
	uint64_t v = 0;
	size_t i = 0;

	if (!s)
		return -EINVAL;
	/* Hand-rolled rather than strtoull(): strtoull accepts white space,
	 * signs and "0x", and needs a NUL terminator we may not have. */
	for (; i < len && is_digit(s[i]); i++) {
		unsigned d = (unsigned)(s[i] - '0');

		if (v > (UINT64_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	if (i == 0)
		return -EINVAL;
	*ret = v;
	*end = i;
	return 0;
}

int sleeb_parse_u64(const char *s, uint64_t *ret)
{
	size_t len, end;
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	len = strlen(s);
	r = sleeb_parse_u64_prefix(s, len, &v, &end);
	if (r < 0)
		return r;
	if (end != len)
		return -EINVAL;
	*ret = v;
	return 0;
}

int sleeb_parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret)
{
	uint64_t v;
	int r;

	r = sleeb_parse_u64(s, &v);
	if (r < 0)
		return r;
	if (v < min || v > max)
		return -ERANGE;
	*ret = v;
	return 0;
}

int sleeb_parse_u32(const char *s, uint32_t *ret)
{
	uint64_t v;
	int r;

	r = sleeb_parse_u64_range(s, 0, UINT32_MAX, &v);
	if (r < 0)
		return r;
	*ret = (uint32_t)v;
	return 0;
}

/* Multiply with overflow detection. */
static int mul_u64(uint64_t a, uint64_t b, uint64_t *ret)
{
	if (__builtin_mul_overflow(a, b, ret))
		return -ERANGE;
	return 0;
}

static const struct {
	const char *suffix;
	uint64_t usec;
} duration_units[] = {
	/* Longest match first: "ms" and "min" before "m" and "s". */
	{ "min", 60 * SLEEB_USEC_PER_SEC },
	{ "ms",  SLEEB_USEC_PER_MSEC },
	{ "us",  1 },
	{ "s",   SLEEB_USEC_PER_SEC },
	{ "m",   60 * SLEEB_USEC_PER_SEC },
	{ "h",   3600 * SLEEB_USEC_PER_SEC },
};

int sleeb_parse_duration(const char *s, uint64_t *ret_usec)
{
	uint64_t total = 0;
	size_t len, pos = 0;

	if (!s || !*s)
		return -EINVAL;
	len = strlen(s);
	while (pos < len) {
		uint64_t n, part;
		size_t end, i, ulen = 0, unit_usec = 0;
		int r;

		r = sleeb_parse_u64_prefix(s + pos, len - pos, &n, &end);
		if (r < 0)
			return r;
		pos += end;
		if (pos == len) {
			/* A bare number is seconds, but only on its own:
			 * "1m30" is ambiguous, reject it. */
			if (total != 0 || pos != end)
				return -EINVAL;
			unit_usec = SLEEB_USEC_PER_SEC;
		} else {
			for (i = 0; i < sizeof(duration_units) / sizeof(duration_units[0]); i++) {
				size_t l = strlen(duration_units[i].suffix);

				if (strncmp(s + pos, duration_units[i].suffix, l) == 0) {
					ulen = l;
					unit_usec = duration_units[i].usec;
					break;
				}
			}
			if (!ulen)
				return -EINVAL;
			pos += ulen;
		}
		if (mul_u64(n, unit_usec, &part) < 0)
			return -ERANGE;
		if (__builtin_add_overflow(total, part, &total))
			return -ERANGE;
	}
	*ret_usec = total;
	return 0;
}

int sleeb_parse_size(const char *s, uint64_t *ret_bytes)
{
	static const char suffixes[] = "KMGT";
	uint64_t n, mult = 1;
	size_t len, end;
	const char *p, *rest;
	int r;

	if (!s)
		return -EINVAL;
	len = strlen(s);
	r = sleeb_parse_u64_prefix(s, len, &n, &end);
	if (r < 0)
		return r;
	rest = s + end;
	if (*rest) {
		p = strchr(suffixes, *rest >= 'a' && *rest <= 'z' ? *rest - 'a' + 'A' : *rest);
		if (!p || !*p)
			return -EINVAL;
		mult = UINT64_C(1) << (10 * (p - suffixes + 1));
		rest++;
		if (*rest && strcmp(rest, "B") != 0 && strcmp(rest, "iB") != 0)
			return -EINVAL;
	}
	if (mul_u64(n, mult, &n) < 0)
		return -ERANGE;
	*ret_bytes = n;
	return 0;
}

int sleeb_parse_percent(const char *s, unsigned *ret)
{
	char buf[8];
	size_t len;
	uint64_t v;
	int r;

	if (!s)
		return -EINVAL;
	len = strlen(s);
	if (len > 0 && s[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof(buf))
		return len == 0 ? -EINVAL : -ERANGE;
	memcpy(buf, s, len);
	buf[len] = '\0';
	r = sleeb_parse_u64_range(buf, 0, 100, &v);
	if (r < 0)
		return r;
	*ret = (unsigned)v;
	return 0;
}

int sleeb_parse_bool(const char *s, bool *ret)
{
	static const char *const yes[] = { "1", "yes", "true", "on" };
	static const char *const no[] = { "0", "no", "false", "off" };
	size_t i;

	if (!s)
		return -EINVAL;
	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*ret = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*ret = false;
			return 0;
		}
	}
	return -EINVAL;
}

const char *sleeb_format_duration(uint64_t usec, char *buf, size_t len)
{
	if (usec != 0 && usec % SLEEB_USEC_PER_SEC == 0)
		snprintf(buf, len, "%llus", (unsigned long long)(usec / SLEEB_USEC_PER_SEC));
	else if (usec != 0 && usec % SLEEB_USEC_PER_MSEC == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(usec / SLEEB_USEC_PER_MSEC));
	else
		snprintf(buf, len, "%lluus", (unsigned long long)usec);
	return buf;
}

const char *sleeb_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGTPE";
	double v = (double)bytes;
	int u = -1;

	while (v >= 1024.0 && u < (int)sizeof(units) - 2) {
		v /= 1024.0;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%lluB", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f%c", v, units[u]);
	return buf;
}
