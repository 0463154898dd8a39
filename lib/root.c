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

int sleeb_root_path(char *buf, size_t len, const char *rel)
{
	const char *base = strcmp(root, "/") == 0 ? "" : root;
	int n;

	while (*rel == '/')
		rel++;
	n = snprintf(buf, len, "%s/%s", base, rel);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}
