/* SPDX-License-Identifier: GPL-2.0-only */
/* Parsing kernel uevent messages: pure, tested on its own. */

#include <stdio.h>
#include <string.h>

#include "uevent.h"

#define SLAB_DEVPATH "/kernel/slab/"

enum uevent_action uevent_parse(const char *buf, size_t n, char *name, size_t len)
{
	const char *action = NULL, *subsystem = NULL, *devpath = NULL;
	size_t pos = 0;

	/* The first string is the "action@devpath" summary; the KEY=VALUE
	 * pairs after it are authoritative. Stop at a missing NUL. */
	while (pos < n) {
		const char *s = buf + pos, *end = memchr(s, '\0', n - pos);

		if (!end)
			break;
		if (strncmp(s, "ACTION=", 7) == 0)
			action = s + 7;
		else if (strncmp(s, "SUBSYSTEM=", 10) == 0)
			subsystem = s + 10;
		else if (strncmp(s, "DEVPATH=", 8) == 0)
			devpath = s + 8;
		pos = (size_t) (end - buf) + 1;
	}
	if (!action || !subsystem || !devpath || strcmp(subsystem, "slab") != 0)
		return UEVENT_OTHER;
	if (strncmp(devpath, SLAB_DEVPATH, strlen(SLAB_DEVPATH)) != 0)
		return UEVENT_OTHER;
	devpath += strlen(SLAB_DEVPATH);
	/* One directory of its own: "." and ".." would name /kernel/slab
	 * itself or its parent, and the name is used to build sysfs paths. */
	if (!*devpath || strchr(devpath, '/') || strcmp(devpath, ".") == 0 || strcmp(devpath, "..") == 0 ||
	    strlen(devpath) >= len)
		return UEVENT_OTHER;
	snprintf(name, len, "%s", devpath);
	if (strcmp(action, "add") == 0)
		return UEVENT_ADD;
	if (strcmp(action, "remove") == 0)
		return UEVENT_REMOVE;
	return UEVENT_OTHER;
}
