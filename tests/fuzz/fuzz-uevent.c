/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target for sleebd's uevent message parser (sleebd/uevent-parse.c),
 * which reads what arrives on the NETLINK_KOBJECT_UEVENT socket. Any input
 * must give UEVENT_OTHER or a cache event whose name is one sysfs directory
 * under /kernel/slab that the message itself names; a short name buffer is
 * never overrun (ASan sees the exact-size allocations).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../sleebd/uevent.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Does the message hold the NUL-terminated string s as one of its strings? */
static int has_string(const char *buf, size_t n, const char *s)
{
	size_t len = strlen(s) + 1;

	for (size_t pos = 0; pos < n;) {
		const char *end = memchr(buf + pos, '\0', n - pos);

		if (!end)
			return 0;
		if ((size_t)(end - (buf + pos)) + 1 == len && memcmp(buf + pos, s, len) == 0)
			return 1;
		pos = (size_t)(end - buf) + 1;
	}
	return 0;
}

static void check_one(const char *buf, size_t size, size_t len)
{
	char *name = malloc(len), *want;
	enum uevent_action a;
	size_t l;

	if (!name)
		return;
	a = uevent_parse(buf, size, name, len);
	if (a != UEVENT_OTHER && a != UEVENT_ADD && a != UEVENT_REMOVE)
		abort();
	if (a == UEVENT_OTHER) {
		free(name);
		return;
	}
	/* A name: terminated inside the buffer, one path component that is
	 * a directory of its own (not "." or ".."). */
	l = strnlen(name, len);
	if (l == 0 || l >= len || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
		abort();
	/* ...that the message says, with the action and subsystem it says. */
	want = malloc(l + sizeof("DEVPATH=/kernel/slab/"));
	if (!want)
		abort();
	strcpy(want, "DEVPATH=/kernel/slab/");
	strcat(want, name);
	if (!has_string(buf, size, want) || !has_string(buf, size, "SUBSYSTEM=slab") ||
	    !has_string(buf, size, a == UEVENT_ADD ? "ACTION=add" : "ACTION=remove"))
		abort();
	free(want);
	free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The daemon's buffer size, a tight one and the smallest. */
	static const size_t lens[] = { 256, 8, 1 };

	for (size_t i = 0; i < sizeof(lens) / sizeof(lens[0]); i++)
		check_one((const char *)data, size, lens[i]);
	return 0;
}
