/* SPDX-License-Identifier: GPL-2.0-only */
/* The error struct every fallible libsleeb function fills. */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sleeb/error.h"

int sleeb_error_set(struct sleeb_error *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (code > 0)
		code = -code;
	if (code == 0)
		code = -EIO;
	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

int sleeb_error_prefix(struct sleeb_error *err, const char *fmt, ...)
{
	char prefix[SLEEB_ERROR_MAX], old[SLEEB_ERROR_MAX];
	va_list ap;

	if (!err)
		return -EIO;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	/* Truncation is acceptable: a message is for humans. */
	size_t n = strnlen(prefix, sizeof(err->msg) - 1);
	memcpy(err->msg, prefix, n);
	err->msg[n] = '\0';
	strncat(err->msg, ": ", sizeof(err->msg) - strlen(err->msg) - 1);
	strncat(err->msg, old, sizeof(err->msg) - strlen(err->msg) - 1);
	return err->code ? err->code : -EIO;
}

void sleeb_error_clear(struct sleeb_error *err)
{
	if (!err)
		return;
	err->code = 0;
	err->msg[0] = '\0';
}
