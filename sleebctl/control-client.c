/* SPDX-License-Identifier: GPL-2.0-only */
/* sleebd control socket client, shared by status and reload. */

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "control-client.h"
#include "sleeb/control.h"
#include "sleeb/root.h"
#include "verbs.h"

int sleebctl_control_call(const char *config_root, const char *cmd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 30 };
	char *buf = NULL, *nl;
	size_t len = 0, cap = 0;
	int fd;

	/* Before connecting: the daemon would only say "command too long". */
	if (strlen(cmd) + 1 >= SLEEB_CONTROL_COMMAND_MAX) {
		fprintf(stderr, "sleebctl: the command for sleebd is %zu bytes long, the daemon takes %d at most: "
			"name fewer caches per call\n", strlen(cmd), SLEEB_CONTROL_COMMAND_MAX - 2);
		return SLEEBCTL_EXIT_FAILURE;
	}
	if (sleeb_prefix_path(sa.sun_path, sizeof(sa.sun_path), config_root, SLEEB_CONTROL_SOCKET) < 0) {
		fprintf(stderr, "sleebctl: --config-root %s: the control socket's path is too long (%zu bytes at most)\n",
			config_root, sizeof(sa.sun_path) - 1 - strlen(SLEEB_CONTROL_SOCKET));
		return SLEEBCTL_EXIT_FAILURE;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		int e = errno;

		/* Only a missing or dead socket means sleebd is not running;
		 * EACCES is a directory's or an older daemon's mode (0600). */
		if (e == EACCES || e == EPERM)
			fprintf(stderr, "sleebctl: cannot connect to sleebd at %s: " SLEEB_CONTROL_ROOT_ONLY "\n",
				sa.sun_path);
		else
			fprintf(stderr, "sleebctl: cannot connect to sleebd at %s: %s%s\n", sa.sun_path, strerror(e),
				e == ENOENT || e == ECONNREFUSED ? " (is sleebd running?)" : "");
		if (fd >= 0)
			close(fd);
		return SLEEBCTL_EXIT_FAILURE;
	}
	/* A reload re-applies every cache; give it time, but not forever. */
	(void) setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	/* MSG_NOSIGNAL: a daemon that answers and closes before reading
	 * (a refusal) must not kill us with SIGPIPE; its answer is read below. */
	{
		char *line;
		int k = asprintf(&line, "%s\n", cmd);

		if (k < 0) {
			fprintf(stderr, "sleebctl: out of memory\n");
			close(fd);
			return SLEEBCTL_EXIT_FAILURE;
		}
		if (send(fd, line, (size_t) k, MSG_NOSIGNAL) < 0 && errno != EPIPE) {
			fprintf(stderr, "sleebctl: cannot talk to sleebd: %s\n", strerror(errno));
			free(line);
			close(fd);
			return SLEEBCTL_EXIT_FAILURE;
		}
		free(line);
	}
	for (;;) {
		ssize_t k;

		if (cap - len < 4096) {
			char *t = realloc(buf, cap + 65536);

			if (!t) {
				fprintf(stderr, "sleebctl: out of memory\n");
				free(buf);
				close(fd);
				return SLEEBCTL_EXIT_FAILURE;
			}
			buf = t;
			cap += 65536;
		}
		k = read(fd, buf + len, cap - len - 1);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		len += (size_t) k;
	}
	close(fd);
	if (!buf || len == 0) {
		fprintf(stderr, "sleebctl: no answer from sleebd\n");
		free(buf);
		return SLEEBCTL_EXIT_FAILURE;
	}
	buf[len] = '\0';
	nl = strchr(buf, '\n');
	if (nl)
		*nl++ = '\0';
	if (strcmp(buf, "OK") == 0) {
		if (nl)
			fputs(nl, stdout);
		free(buf);
		return SLEEBCTL_EXIT_OK;
	}
	fprintf(stderr, "sleebctl: sleebd: %s\n", strncmp(buf, "ERROR ", 6) == 0 ? buf + 6 : buf);
	if (nl)
		fputs(nl, stderr);
	free(buf);
	return SLEEBCTL_EXIT_FAILURE;
}

int sleebctl_control_verb(int argc, char *argv[], const struct option *options, const char *verb,
			  const char *cmd, const char *json_cmd, const char *help)
{
	const char *config_root = NULL;
	int c;

	while ((c = getopt_long(argc, argv, json_cmd ? "jh" : "h", options, NULL)) >= 0) {
		switch (c) {
		case 'C':
			config_root = optarg;
			break;
		case 'j':
			cmd = json_cmd;
			break;
		case 'h':
			printf("Usage: sleebctl %s [--config-root DIR]%s\n%s", verb, json_cmd ? " [--json]" : "", help);
			return SLEEBCTL_EXIT_OK;
		default:
			return SLEEBCTL_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return sleebctl_usage_error("%s takes no arguments", verb);
	return sleebctl_control_call(config_root, cmd);
}
