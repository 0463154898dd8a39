// SPDX-License-Identifier: GPL-2.0
/*
 * sleeb-write FILE STRING: write STRING to FILE in one write(2) and print
 * "OK" or the errno's symbolic name (EINVAL, EOPNOTSUPP, ...), so guest
 * tests can assert the exact error the kernel returned. Exit 0 on success,
 * 1 on a write error, 2 on usage or open errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *errno_name(int e)
{
	switch (e) {
	case EINVAL: return "EINVAL";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOENT: return "ENOENT";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case ENOMEM: return "ENOMEM";
	case ERANGE: return "ERANGE";
	case EFAULT: return "EFAULT";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: sleeb-write FILE STRING\n");
		return 2;
	}
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("%s\n", errno_name(errno));
		return 2;
	}
	n = write(fd, argv[2], strlen(argv[2]));
	if (n < 0) {
		printf("%s\n", errno_name(errno));
		close(fd);
		return 1;
	}
	close(fd);
	printf("OK\n");
	return 0;
}
