/* SPDX-License-Identifier: GPL-2.0-only */
/* Cache matching: pure, no I/O. */

#include <stddef.h>

#include "sleeb/match.h"
#include "sleeb/util.h"

bool sleeb_match_globs(char *const *globs, const char *name)
{
	size_t n = 0;

	/* An empty list matches nothing here (sleeb_glob_match_any() would
	 * say "all"): a section without Match= is an error, not a wildcard. */
	if (!globs || !globs[0] || !name)
		return false;
	while (globs[n])
		n++;
	return sleeb_glob_match_any(globs, n, name);
}

bool sleeb_section_matches(const struct sleeb_cache_section *s, const char *name, uint64_t object_size)
{
	if (!sleeb_match_globs(s->match, name))
		return false;
	if (s->min_object_size.value >= 0 && object_size < (uint64_t) s->min_object_size.value)
		return false;
	if (s->max_object_size.value >= 0 && object_size > (uint64_t) s->max_object_size.value)
		return false;
	return true;
}
