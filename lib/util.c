/* SPDX-License-Identifier: GPL-2.0-only */
/* Globs, logging, JSON strings and small-file reads (see sleeb/util.h). */

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sleeb/util.h"

bool sleeb_glob_match(const char *pattern, const char *name)
{
	return fnmatch(pattern, name, 0) == 0;
}

bool sleeb_glob_match_any(char *const *patterns, size_t n, const char *name)
{
	size_t i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (sleeb_glob_match(patterns[i], name))
			return true;
	return false;
}

bool sleeb_glob_is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

void sleeb_log(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_invocation_short_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void sleeb_log_error(const struct sleeb_error *err)
{
	if (err->msg[0])
		sleeb_log("%s", err->msg);
	else
		sleeb_log("%s", strerror(-err->code));
}

/* Print @len bytes of @s quoted and escaped as a JSON string. */
static void json_print_n(FILE *f, const char *s, size_t len)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void sleeb_json_print_string(FILE *f, const char *s)
{
	json_print_n(f, s, strlen(s));
}

void sleeb_json_print_list(FILE *f, const char *list)
{
	const char *p = list;

	fputc('[', f);
	while (*p) {
		size_t len = strcspn(p, ",");

		if (p != list)
			fputc(',', f);
		json_print_n(f, p, len);
		p += len;
		if (*p == ',')
			p++;
	}
	fputc(']', f);
}

int sleeb_read_small_fd(int fd, char *buf, size_t len)
{
	size_t total = 0;
	int r = 0;

	if (len == 0)
		return -EINVAL;
	for (;;) {
		ssize_t n = read(fd, buf + total, len - 1 - total);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (n == 0)
			break;
		total += (size_t)n;
		if (total == len - 1) {
			char extra;

			/* Full buffer: only an error if there is more. */
			n = read(fd, &extra, 1);
			if (n > 0)
				r = -EFBIG;
			else if (n < 0)
				r = -errno;
			break;
		}
	}
	if (r < 0)
		return r;
	buf[total] = '\0';
	return (int)total;
}

int sleeb_read_small_file(const char *path, char *buf, size_t len)
{
	int fd, r;

	if (len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = sleeb_read_small_fd(fd, buf, len);
	close(fd);
	return r;
}

int sleeb_read_lines(FILE *f, const char *fname, sleeb_line_cb cb, void *ctx,
		     struct sleeb_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int r = 0;

	errno = 0;
	while ((n = getline(&line, &cap, f)) >= 0) {
		bool terminated = n > 0 && line[n - 1] == '\n';

		r = cb(ctx, line, (size_t)n - terminated, terminated);
		if (r < 0)
			break;
	}
	/* getline() returns -1 both at end of file and on a read error or
	 * ENOMEM; only the first sets the EOF flag. */
	if (r >= 0 && !feof(f))
		r = sleeb_error_set(err, errno ? errno : EIO, "%s: read error: %s", fname,
				    strerror(errno ? errno : EIO));
	free(line);
	return r;
}

char *sleeb_strscpy(char *dst, const char *src, size_t size)
{
	size_t len = strnlen(src, size - 1);

	memcpy(dst, src, len);
	dst[len] = '\0';
	return dst;
}
