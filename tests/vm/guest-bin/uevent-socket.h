/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's uevents for the guest helpers (uevent-listen,
 * uevent-latency): a bound NETLINK_KOBJECT_UEVENT socket and the next
 * message from the kernel itself (netlink port 0; udev's rebroadcasts and
 * other senders are skipped).
 */
#pragma once

struct uevent {
	char buf[8192];
	const char *action, *devpath, *subsystem; /* into buf; NULL if absent */
};

/* Monotonic clock in microseconds. */
long long uevent_now_us(void);

/* A socket bound to the kernel's uevent group, or -1 (errno set). */
int uevent_open(void);

/* Wait until deadline_us (uevent_now_us() clock) for the next kernel uevent:
 * 1 with *ev filled, 0 when the deadline passed. */
int uevent_next(int fd, long long deadline_us, struct uevent *ev);
