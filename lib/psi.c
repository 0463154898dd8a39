/* SPDX-License-Identifier: GPL-2.0-only */
/* /proc/pressure/memory (see sleeb/psi.h). */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/parse.h"
#include "sleeb/psi.h"
#include "sleeb/root.h"

/* Two lines of about 70 bytes; room for fields added later. */
#define PSI_FILE_MAX 1024

/* "12.34" into percent: digits, an optional point and up to two decimals. */
static int parse_avg(const char *s, size_t len, double *ret)
{
	uint64_t whole = 0, frac = 0, scale = 1;
	size_t i = 0;

	if (len == 0 || s[0] < '0' || s[0] > '9')
		return -EINVAL;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		whole = whole * 10 + (uint64_t) (s[i] - '0');
		if (whole > 100)
			return -EINVAL;
	}
	if (i < len && s[i] == '.') {
		for (i++; i < len && s[i] >= '0' && s[i] <= '9' && scale < 100; i++) {
			frac = frac * 10 + (uint64_t) (s[i] - '0');
			scale *= 10;
		}
	}
	if (i != len)
		return -EINVAL;
	*ret = (double) whole + (double) frac / (double) scale;
	return *ret > 100 ? -EINVAL : 0;
}

int sleeb_psi_parse_some_avg10(const char *buf, size_t len, const char *fname, double *avg10,
			       struct sleeb_error *err)
{
	size_t pos = 0;
	unsigned lineno = 0;

	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos), *f;
		size_t llen = nl ? (size_t) (nl - line) : len - pos;

		lineno++;
		pos += llen + (nl != NULL);
		if (llen < 5 || memcmp(line, "some ", 5) != 0)
			continue;
		for (f = line + 5; f < line + llen;) {
			const char *end = memchr(f, ' ', (size_t) (line + llen - f));
			size_t flen = end ? (size_t) (end - f) : (size_t) (line + llen - f);

			if (flen > 6 && memcmp(f, "avg10=", 6) == 0) {
				if (parse_avg(f + 6, flen - 6, avg10) < 0)
					return sleeb_error_set(err, EINVAL, "%s:%u: avg10=%.*s: not a percentage", fname,
							       lineno, (int) (flen - 6 > 32 ? 32 : flen - 6), f + 6);
				return 0;
			}
			f += flen + (end != NULL);
		}
		return sleeb_error_set(err, EINVAL, "%s:%u: 'some' line without avg10=", fname, lineno);
	}
	return sleeb_error_set(err, EINVAL, "%s: no 'some' line", fname);
}

int sleeb_psi_read_memory(double *avg10, struct sleeb_error *err)
{
	char buf[PSI_FILE_MAX];
	ssize_t n;
	int fd, r;

	fd = sleeb_root_open_file("/proc/pressure/memory", O_RDONLY, err);
	if (fd < 0)
		return fd;
	n = read(fd, buf, sizeof(buf));
	r = n < 0 ? -errno : 0;
	close(fd);
	if (r < 0)
		return sleeb_error_set(err, -r, "/proc/pressure/memory: %s", strerror(-r));
	return sleeb_psi_parse_some_avg10(buf, (size_t) n, "/proc/pressure/memory", avg10, err);
}
