// SPDX-License-Identifier: GPL-2.0
/*
 * uevent-latency CACHE ATTR EXPECTED SECONDS: wait (up to SECONDS) for the
 * kernel's KOBJ_ADD of slab cache CACHE, then read
 * /sys/kernel/slab/CACHE/ATTR in a tight loop (every 200 us) until it reads
 * EXPECTED, and print "latency_us N last=VALUE": the time from receiving
 * the uevent to the value being in place (i.e. how quickly a daemon tuned
 * the new cache). Prints "ready" once the socket is bound, so the caller
 * can create the cache after it. Exit 0 when EXPECTED was seen, 1 on a
 * timeout (the line then says "timeout ..."), 2 on usage/socket errors.
 */
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static void read_attr(const char *path, char *out, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	out[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, out, len - 1);
	close(fd);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

int main(int argc, char **argv)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	char buf[8192], want[512], path[512], val[64] = "";
	long long end, t0 = -1;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: uevent-latency CACHE ATTR EXPECTED SECONDS\n");
		return 2;
	}
	snprintf(want, sizeof(want), "/kernel/slab/%s", argv[1]);
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", argv[1], argv[2]);
	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("uevent-latency: socket");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	end = now_us() + atol(argv[4]) * 1000000LL;
	while (t0 < 0 && now_us() < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_nl from;
		struct iovec iov = { buf, sizeof(buf) - 1 };
		struct msghdr msg = { .msg_name = &from, .msg_namelen = sizeof(from),
				      .msg_iov = &iov, .msg_iovlen = 1 };
		const char *action = NULL, *devpath = NULL, *subsys = NULL;
		ssize_t len;

		if (poll(&p, 1, (int)((end - now_us()) / 1000) + 1) <= 0)
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
		if (action && devpath && subsys && !strcmp(subsys, "slab") &&
		    !strcmp(action, "add") && !strcmp(devpath, want))
			t0 = now_us();
	}
	close(fd);
	if (t0 < 0) {
		printf("timeout: no KOBJ_ADD for %s\n", argv[1]);
		return 1;
	}
	while (now_us() < end) {
		read_attr(path, val, sizeof(val));
		if (!strcmp(val, argv[3])) {
			printf("latency_us %lld last=%s\n", now_us() - t0, val);
			return 0;
		}
		usleep(200);
	}
	printf("timeout: %s still '%s' %lld us after the uevent\n", path, val, now_us() - t0);
	return 1;
}
