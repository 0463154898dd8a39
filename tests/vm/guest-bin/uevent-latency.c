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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uevent-socket.h"

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
	char want[512], path[512], val[64] = "";
	long long end, t0 = -1;
	struct uevent ev;
	int fd;

	if (argc != 5) {
		fprintf(stderr, "usage: uevent-latency CACHE ATTR EXPECTED SECONDS\n");
		return 2;
	}
	snprintf(want, sizeof(want), "/kernel/slab/%s", argv[1]);
	snprintf(path, sizeof(path), "/sys/kernel/slab/%s/%s", argv[1], argv[2]);
	fd = uevent_open();
	if (fd < 0) {
		perror("uevent-latency: socket");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	end = uevent_now_us() + atol(argv[4]) * 1000000LL;
	while (t0 < 0 && uevent_next(fd, end, &ev)) {
		if (ev.action && ev.devpath && ev.subsystem && !strcmp(ev.subsystem, "slab") &&
		    !strcmp(ev.action, "add") && !strcmp(ev.devpath, want))
			t0 = uevent_now_us();
	}
	close(fd);
	if (t0 < 0) {
		printf("timeout: no KOBJ_ADD for %s\n", argv[1]);
		return 1;
	}
	while (uevent_now_us() < end) {
		read_attr(path, val, sizeof(val));
		if (!strcmp(val, argv[3])) {
			printf("latency_us %lld last=%s\n", uevent_now_us() - t0, val);
			return 0;
		}
		usleep(200);
	}
	printf("timeout: %s still '%s' %lld us after the uevent\n", path, val, uevent_now_us() - t0);
	return 1;
}
