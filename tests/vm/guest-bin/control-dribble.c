// SPDX-License-Identifier: GPL-2.0
/*
 * control-dribble SOCKET INTERVAL_MS BYTES: connect to sleebd's control
 * socket and send a BYTES-long command line ("STATUS", spaces, newline)
 * one byte every INTERVAL_MS, as a slow or hostile client would; stop
 * when the daemon closes the connection. Prints the daemon's answer, then
 * "# sent N of BYTES bytes in T ms". Exit 0 once the answer is read, 2 on
 * usage or connection errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char answer[65536];
	size_t got = 0;
	long interval, bytes, sent = 0;
	long long t0;
	ssize_t n;
	int fd;

	if (argc != 4 || (interval = atol(argv[2])) <= 0 || (bytes = atol(argv[3])) < 7 ||
	    strlen(argv[1]) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "usage: control-dribble SOCKET INTERVAL_MS BYTES (BYTES >= 7)\n");
		return 2;
	}
	strcpy(sa.sun_path, argv[1]);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		fprintf(stderr, "control-dribble: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	t0 = now_ms();
	for (sent = 0; sent < bytes; sent++) {
		char c = sent < 6 ? "STATUS"[sent] : sent == bytes - 1 ? '\n' : ' ';

		/* MSG_NOSIGNAL: a daemon that gave up on us closed the socket. */
		if (send(fd, &c, 1, MSG_NOSIGNAL) != 1)
			break;
		if (sent < bytes - 1)
			usleep((useconds_t)interval * 1000);
	}
	while (got < sizeof(answer) - 1 && (n = read(fd, answer + got, sizeof(answer) - 1 - got)) > 0)
		got += (size_t)n;
	answer[got] = '\0';
	fputs(answer, stdout);
	if (got && answer[got - 1] != '\n')
		putchar('\n');
	printf("# sent %ld of %ld bytes in %lld ms\n", sent, bytes, now_ms() - t0);
	close(fd);
	return 0;
}
