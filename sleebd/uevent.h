/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Kernel uevents for slab caches (KOBJ_ADD/KOBJ_REMOVE, SUBSYSTEM=slab,
 * DEVPATH=/kernel/slab/<name>) on NETLINK_KOBJECT_UEVENT group 1, so a new
 * cache is tuned within milliseconds instead of at the next rescan.
 */

#include <stddef.h>

typedef struct Manager Manager;
struct uevent_listener;

/*
 * Opens the netlink socket and adds it to m's event loop. Returns 0,
 * or -errno (the caller then relies on the periodic rescan).
 */
int uevent_listener_new(Manager *m, struct uevent_listener **ret);
struct uevent_listener *uevent_listener_free(struct uevent_listener *l);

enum uevent_action {
	UEVENT_OTHER,
	UEVENT_ADD,
	UEVENT_REMOVE,
};

/*
 * Parses one uevent message ("action@devpath\0KEY=VALUE\0..."). Returns
 * UEVENT_ADD or UEVENT_REMOVE with the cache name in name (size len) for
 * slab events, UEVENT_OTHER for anything else. Pure, for tests.
 */
enum uevent_action uevent_parse(const char *buf, size_t n, char *name, size_t len);
