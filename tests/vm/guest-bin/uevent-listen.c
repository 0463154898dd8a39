// SPDX-License-Identifier: GPL-2.0
/*
 * uevent-listen SECONDS SUBSYSTEM: print the kernel's uevents of one
 * subsystem for SECONDS, one line each: "ACTION DEVPATH". Only messages
 * from the kernel (netlink port 0) are accepted. A line "ready" on stdout
 * says the socket is bound, so a test can start its action after it.
 */
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char buf[8192];
	long end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: uevent-listen SECONDS SUBSYSTEM\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("uevent-listen: socket");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	end = now_ms() + atol(argv[1]) * 1000L;
	while (now_ms() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		const char *action = NULL, *devpath = NULL, *subsys = NULL;
		ssize_t len;

		if (poll(&p, 1, (int)(end - now_ms())) <= 0)
			continue;
		len = recvmsg(fd, &msg, 0);
		if (len <= 0 || from.nl_pid != 0)
			continue;
		buf[len] = '\0';
		for (char *s = buf; s < buf + len; s += strlen(s) + 1) {
			if (!strncmp(s, "ACTION=", 7))
				action = s + 7;
			else if (!strncmp(s, "DEVPATH=", 8))
				devpath = s + 8;
			else if (!strncmp(s, "SUBSYSTEM=", 10))
				subsys = s + 10;
		}
		if (action && devpath && subsys && !strcmp(subsys, argv[2])) {
			printf("%s %s\n", action, devpath);
			fflush(stdout);
		}
	}
	close(fd);
	return 0;
}
