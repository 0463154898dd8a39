/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/* Which [Cache] sections apply to a cache: Match= globs and size bounds. */

#include <stdbool.h>
#include <stdint.h>

#include "sleeb/policy.h"

/* True if any of the NULL-terminated shell globs matches name (fnmatch). */
bool sleeb_match_globs(char *const *globs, const char *name);

/*
 * True if the section applies to a cache with this name and object size:
 * a glob matches and MinObjectSize <= object_size <= MaxObjectSize (each
 * bound only when set).
 */
bool sleeb_section_matches(const struct sleeb_cache_section *s, const char *name, uint64_t object_size);
