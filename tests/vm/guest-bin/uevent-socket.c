// SPDX-License-Identifier: GPL-2.0
/* See uevent-socket.h. */
#include <errno.h>
#include <linux/netlink.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "uevent-socket.h"

long long uevent_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

int uevent_open(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

int uevent_next(int fd, long long deadline_us, struct uevent *ev)
{
	long long left;

	while ((left = deadline_us - uevent_now_us()) > 0) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		struct iovec iov = { ev->buf, sizeof(ev->buf) - 1 };
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		ssize_t len;

		if (poll(&p, 1, (int)(left / 1000) + 1) <= 0)
			continue;
		len = recvmsg(fd, &msg, 0);
		if (len <= 0 || from.nl_pid != 0)
			continue;
		ev->buf[len] = '\0';
		ev->action = ev->devpath = ev->subsystem = NULL;
		/* "add@/devpath\0ACTION=add\0DEVPATH=...\0SUBSYSTEM=...\0..." */
		for (char *s = ev->buf; s < ev->buf + len; s += strlen(s) + 1) {
			if (!strncmp(s, "ACTION=", 7))
				ev->action = s + 7;
			else if (!strncmp(s, "DEVPATH=", 8))
				ev->devpath = s + 8;
			else if (!strncmp(s, "SUBSYSTEM=", 10))
				ev->subsystem = s + 10;
		}
		return 1;
	}
	return 0;
}
