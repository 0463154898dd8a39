/* SPDX-License-Identifier: GPL-2.0-only */
/* The root prefix: the one global of libsleeb (see sleeb/root.h). */

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sleeb/root.h"

static char root[PATH_MAX] = "/";

int sleeb_root_set(const char *dir)
{
	size_t len;

	if (!dir || !*dir)
		dir = "/";
	len = strlen(dir);
	if (len >= sizeof(root))
		return -ENAMETOOLONG;
	/* Keep "/" itself, drop other trailing slashes so that joins never
	 * produce "//" (cosmetic, but it shows up in every message). */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	memcpy(root, dir, len);
	root[len] = '\0';
	return 0;
}

const char *sleeb_root_get(void)
{
	return root;
}

int sleeb_prefix_path(char *buf, size_t len, const char *prefix, const char *rel)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	int n;

	/* "/", "" and NULL are all the real root; "DIR/" is "DIR". */
	while (plen > 0 && prefix[plen - 1] == '/')
		plen--;
	while (*rel == '/')
		rel++;
	if (plen > INT_MAX)
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%.*s/%s", (int)plen, plen ? prefix : "", rel);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

int sleeb_root_path(char *buf, size_t len, const char *rel)
{
	return sleeb_prefix_path(buf, len, root, rel);
}
