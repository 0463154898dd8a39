/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * The systemd-style INI reader behind policy files (policy.h) and
 * sleebd.conf (daemon-config.h): "[Section]" headers, "Key=Value" lines,
 * '#' and ';' comments, and "file:line: what is wrong" diagnostics.
 *
 * Errors are collected, not printed: every problem becomes one
 * "file:line: what is wrong" string in a struct sleeb_diag, so that
 * `sleebctl policy verify` can list all of them and sleebd can log them.
 */

#include <stddef.h>

/* Where a value came from. file points into the loaded file list. */
struct sleeb_origin {
	const char *file;
	unsigned line;
};

/* Diagnostics: "file:line: message" strings. */
struct sleeb_diag {
	char **msgs;
	size_t n;
};

void sleeb_diag_done(struct sleeb_diag *d);
/* Appends a formatted message. Returns 0 or -ENOMEM. */
int sleeb_diag_add(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* Adds a diagnostic and turns success into -EINVAL (keeps -ENOMEM). */
int sleeb_diag_bad(struct sleeb_diag *d, const char *file, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* NULL-terminated string lists. */
void sleeb_strv_free(char **l);
/* Appends s (taken) to *l of *n entries, keeping it NULL-terminated. 0 or -ENOMEM. */
int sleeb_strv_push(char ***l, size_t *n, char *s);

/*
 * Reads a whole configuration file (16 MiB at most) into a malloc'd
 * buffer. Returns 0, -errno, -EFBIG or -ENOMEM.
 */
int sleeb_conf_read_file(const char *path, char **ret, size_t *ret_len);

/* Keeps a copy of name in *files (*ret points at it, for origins). 0 or -ENOMEM. */
int sleeb_conf_remember_file(char ***files, size_t *n, const char *name, const char **ret);

/*
 * Calls the section callback for "[Name]" lines and the key callback for
 * "Key=Value" lines, with whitespace stripped. The callbacks add their own
 * diagnostics; they return -ENOMEM to abort, otherwise 0 or -EINVAL.
 */
struct sleeb_ini_ops {
	int (*section)(void *userdata, const char *file, unsigned line, const char *name);
	int (*key)(void *userdata, const char *file, unsigned line, const char *key, const char *value);
	int (*end)(void *userdata, const char *file);
};

/*
 * Walks buf (named file in messages). A malformed header calls section
 * with line 0 and name NULL. Returns 0 if clean, -EINVAL if diag got
 * errors, -ENOMEM.
 */
int sleeb_ini_parse(const char *file, const char *buf, size_t len, const struct sleeb_ini_ops *ops,
		    void *userdata, struct sleeb_diag *diag);

/*
 * Loads one configuration file, whatever its kind (policy file,
 * sleebd.conf): reads it (a file that cannot be read is one diagnostic,
 * "path: cannot read: ..."), keeps a copy of its name in *files and
 * walks it with ops, whose callbacks get that copy as their file (origins
 * may point at it). Returns as sleeb_ini_parse(), or the read's -errno.
 */
int sleeb_conf_load_file(const char *path, char ***files, size_t *n_files, const struct sleeb_ini_ops *ops,
			 void *userdata, struct sleeb_diag *diag);

/* The same from a buffer; name stands for the file. */
int sleeb_conf_load_buffer(const char *name, const char *buf, size_t len, char ***files, size_t *n_files,
			   const struct sleeb_ini_ops *ops, void *userdata, struct sleeb_diag *diag);
