// SPDX-License-Identifier: GPL-2.0
/*
 * run-as-nobody CMD [ARG...]: drop to uid/gid 65534 (no supplementary
 * groups) and exec CMD, so guest tests can run a client as an
 * unprivileged user. Exit 127 when CMD cannot be run, 126 when the
 * privileges cannot be dropped.
 */
#include <grp.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: run-as-nobody CMD [ARG...]\n");
		return 2;
	}
	if (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0) {
		perror("run-as-nobody: dropping privileges");
		return 126;
	}
	if (getuid() != 65534 || geteuid() != 65534) {
		fprintf(stderr, "run-as-nobody: still uid %d\n", (int)geteuid());
		return 126;
	}
	execvp(argv[1], argv + 1);
	perror("run-as-nobody: exec");
	return 127;
}
