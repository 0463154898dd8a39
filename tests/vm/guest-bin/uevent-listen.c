// SPDX-License-Identifier: GPL-2.0
/*
 * uevent-listen SECONDS SUBSYSTEM: print the kernel's uevents of one
 * subsystem for SECONDS, one line each: "ACTION DEVPATH". Only messages
 * from the kernel (netlink port 0) are accepted. A line "ready" on stdout
 * says the socket is bound, so a test can start its action after it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uevent-socket.h"

int main(int argc, char **argv)
{
	struct uevent ev;
	long long end;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: uevent-listen SECONDS SUBSYSTEM\n");
		return 2;
	}
	fd = uevent_open();
	if (fd < 0) {
		perror("uevent-listen: socket");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	end = uevent_now_us() + atol(argv[1]) * 1000000LL;
	while (uevent_next(fd, end, &ev)) {
		if (ev.action && ev.devpath && ev.subsystem && !strcmp(ev.subsystem, argv[2])) {
			printf("%s %s\n", ev.action, ev.devpath);
			fflush(stdout);
		}
	}
	close(fd);
	return 0;
}
