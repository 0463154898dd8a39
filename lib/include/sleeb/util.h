/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Small helpers shared by the library and both programs. */

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sleeb/error.h"

#define SLEEB_ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Copies the string @src into @dst of @size (> 0) bytes, cut short to fit
 * and always terminated: snprintf(dst, size, "%s", src) without the
 * formatting, which costs more than the copy where it runs for every
 * cache every interval. Returns @dst.
 */
char *sleeb_strscpy(char *dst, const char *src, size_t size);

/* One line, without its newline; @terminated: it had one (not a cut-off tail). */
typedef int (*sleeb_line_cb)(void *ctx, const char *line, size_t len, bool terminated);

/*
 * Stream @f line by line into @cb until end of file or until @cb returns a
 * negative value. Returns 0, @cb's negative value, or a negative errno for
 * a read error (message "FNAME: read error: ..." in @err).
 */
int sleeb_read_lines(FILE *f, const char *fname, sleeb_line_cb cb, void *ctx,
		     struct sleeb_error *err);

/*
 * Shell-style glob match of a cache name (fnmatch(3), no flags: cache
 * names have no path structure).  Returns true on match.
 */
bool sleeb_glob_match(const char *pattern, const char *name);

/* True if @name matches any of @n patterns; true when @n is 0 ("all"). */
bool sleeb_glob_match_any(char *const *patterns, size_t n, const char *name);

/* True if @s contains a glob metacharacter (*, ? or [). */
bool sleeb_glob_is_pattern(const char *s);

/*
 * Log a line "PROG: message" to stderr.  The library itself never calls
 * these; the programs log once at the top level.
 */
void sleeb_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void sleeb_log_error(const struct sleeb_error *err);

/* Print @s as a JSON string literal (quotes and escapes) to @f. */
void sleeb_json_print_string(FILE *f, const char *s);

/* Print a comma-separated list ("a,b") as a JSON array of strings; "" is []. */
void sleeb_json_print_list(FILE *f, const char *list);

/*
 * Read a whole small file (sysfs attribute, test fixture) into @buf as a
 * NUL-terminated string.  Returns the length, -errno from open/read, or
 * -EFBIG if the file does not fit in @len - 1 bytes.
 */
int sleeb_read_small_file(const char *path, char *buf, size_t len);

/* The same from an open descriptor (left open). */
int sleeb_read_small_fd(int fd, char *buf, size_t len);
