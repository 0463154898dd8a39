/* SPDX-License-Identifier: GPL-2.0-only */
/* Control socket server. */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "control-peer.h"
#include "control.h"
#include "log.h"
#include "manager.h"
#include "sleeb/state.h"

static void send_all(int fd, const char *s)
{
	size_t len = strlen(s);

	while (len > 0) {
		ssize_t k = send(fd, s, len, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return;
		s += k;
		len -= (size_t) k;
	}
}

/* Reads one command line; clients are local and quick, so a short
 * timeout keeps a stuck client from stalling the loop for long. */
static int read_command(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len - 1) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t k;
		int r = poll(&p, 1, 500);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -ETIMEDOUT;
		k = recv(fd, buf + got, len - 1 - got, MSG_DONTWAIT);
		if (k < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (k <= 0)
			break;
		got += (size_t) k;
		if (memchr(buf, '\n', got))
			break;
	}
	buf[got] = '\0';
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

static void handle_client(Manager *m, int fd)
{
	char cmd[64], why[128], *text = NULL;
	int r;

	/* Read the command first, even from a client we refuse: closing
	 * before the client has written it kills sleebctl with SIGPIPE
	 * instead of showing it our answer (seen in the guest tests). */
	r = read_command(fd, cmd, sizeof(cmd));
	if (!control_peer_allowed(fd, why, sizeof(why))) {
		log_notice("control: refused client (%s): root only", why);
		send_all(fd, "ERROR permission denied: root only\n");
		return;
	}
	if (r < 0) {
		send_all(fd, "ERROR timeout\n");
		return;
	}

	if (strcmp(cmd, "STATUS") == 0) {
		r = manager_status_text(m, &text);
		if (r < 0) {
			send_all(fd, "ERROR out of memory\n");
			return;
		}
		send_all(fd, "OK\n");
		send_all(fd, text);
	} else if (strcmp(cmd, "RELOAD") == 0) {
		r = manager_reload(m, &text);
		send_all(fd, r < 0 ? "ERROR policy refused, old policy stays in force\n" : "OK\n");
		if (text)
			send_all(fd, text);
	} else
		send_all(fd, "ERROR unknown command\n");
	free(text);
}

static int on_connection(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	(void) s;
	(void) revents;
	for (;;) {
		int c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);

		if (c < 0)
			break;
		handle_client(userdata, c);
		close(c);
	}
	return 0;
}

int control_open(Manager *m)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r, n;

	n = sd_listen_fds(1);
	if (n > 1)
		log_warning("control: %d sockets passed, using the first", n);
	if (n >= 1) {
		fd = SD_LISTEN_FDS_START;
		m->control_owned = false;
		/* accept() loops until EAGAIN: never block the event loop. */
		r = fcntl(fd, F_GETFL);
		if (r < 0 || fcntl(fd, F_SETFL, r | O_NONBLOCK) < 0)
			return -errno;
	} else {
		if (strlen(m->socket_path) >= sizeof(sa.sun_path))
			return -ENAMETOOLONG;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", m->socket_path);
		r = sleeb_mkdir_parents(m->socket_path);
		if (r < 0)
			return r;

		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (fd < 0)
			return -errno;
		(void) unlink(m->socket_path);
		if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || chmod(m->socket_path, 0600) < 0 ||
		    listen(fd, 8) < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		m->control_owned = true;
	}
	m->control_fd = fd;
	r = sd_event_add_io(m->event, &m->control_source, fd, EPOLLIN, on_connection, m);
	if (r < 0)
		return r;
	(void) sd_event_source_set_description(m->control_source, "control-socket");
	return 0;
}

void control_close(Manager *m)
{
	m->control_source = sd_event_source_disable_unref(m->control_source);
	if (m->control_fd >= 0) {
		close(m->control_fd);
		if (m->control_owned)
			(void) unlink(m->socket_path);
	}
	m->control_fd = -1;
}
