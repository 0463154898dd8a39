/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Error reporting for libsleeb.
 *
 * Every fallible function returns 0 (or a count) on success and a negative
 * errno on failure, and, when the caller passes a non-NULL struct
 * sleeb_error, fills it with a one-line human-readable message.  The library
 * never prints and never exits: the top level logs once.
 */

#include <stddef.h>

#define SLEEB_ERROR_MAX 512

struct sleeb_error {
	int code;                   /* negative errno, 0 if unset */
	char msg[SLEEB_ERROR_MAX];  /* "FILE:LINE: what" or "cache: attr: value: reason" */
};

/*
 * Record an error.  @code may be given positive or negative; the stored
 * code and the return value are always the negative errno (or -EIO if
 * @code is 0), so callers can write "return sleeb_error_set(err, ...);".
 * @err may be NULL.
 */
int sleeb_error_set(struct sleeb_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prefix an existing message with "prefix: " (used to add a file name or a
 * cache name on the way up).  Returns err->code.  @err may be NULL. */
int sleeb_error_prefix(struct sleeb_error *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Clear @err (code 0, empty message).  @err may be NULL. */
void sleeb_error_clear(struct sleeb_error *err);
