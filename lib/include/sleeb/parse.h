/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Strict parsers for numbers, durations, sizes and booleans, shared by
 * sleebctl options, sleebd policy files and the /proc and /sys readers.
 *
 * "Strict" means: the whole string must be consumed; no leading or
 * trailing white space, no sign, no empty string, decimal only.  Callers
 * that accept white space strip it first.
 *
 * All return 0 on success and leave *ret untouched on failure:
 *   -EINVAL  the string is not of the expected form (or is NULL)
 *   -ERANGE  the value does not fit or is outside [min, max]
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SLEEB_USEC_PER_MSEC UINT64_C(1000)
#define SLEEB_USEC_PER_SEC  UINT64_C(1000000)

int sleeb_parse_u64(const char *s, uint64_t *ret);
int sleeb_parse_u32(const char *s, uint32_t *ret);

/* As sleeb_parse_u64(), then -ERANGE unless min <= value <= max. */
int sleeb_parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *ret);

/*
 * Parse the decimal number at the start of a buffer of @len bytes (not
 * necessarily NUL-terminated) and store the number of bytes consumed in
 * *@end.  No digits -> -EINVAL; overflow -> -ERANGE.
 */
int sleeb_parse_u64_prefix(const char *s, size_t len, uint64_t *ret, size_t *end);

/*
 * Durations: one or more "<number><unit>" groups, e.g. "500ms", "2s",
 * "1m30s".  Units: us, ms, s, m or min, h.  A bare number means seconds.
 * Result in microseconds.
 */
int sleeb_parse_duration(const char *s, uint64_t *ret_usec);

/*
 * Sizes: a number with an optional binary suffix K, M, G or T (either
 * case, optionally followed by "B" or "iB": "64K", "64KiB", "1g").  A bare
 * number means bytes.  Result in bytes.
 */
int sleeb_parse_size(const char *s, uint64_t *ret_bytes);

/* Percentages: "0".."100", optionally followed by "%". */
int sleeb_parse_percent(const char *s, unsigned *ret);

/* Booleans: 1/0, yes/no, true/false, on/off (case-insensitive). */
int sleeb_parse_bool(const char *s, bool *ret);

/*
 * Format a duration (microseconds) for messages: the largest exact unit
 * ("2s", "500ms", "1500us").  Returns @buf.
 */
const char *sleeb_format_duration(uint64_t usec, char *buf, size_t len);

/* Format a byte count with a binary suffix and one decimal ("1.5M"). */
const char *sleeb_format_size(uint64_t bytes, char *buf, size_t len);
