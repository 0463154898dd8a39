/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Control socket server. Every client gets its own event source and a
 * deadline, and every socket is non-blocking: a client that is slow to
 * send its command or to take its answer costs the loop nothing, so the
 * watchdog keeps being fed and other clients keep being answered.
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <systemd/sd-daemon.h>
#include <time.h>
#include <unistd.h>

#include "control-accept.h"
#include "control-peer.h"
#include "control.h"
#include "log.h"
#include "manager.h"
#include "sleeb/parse.h"
#include "sleeb/state.h"

#define STRINGIFY(x) #x
#define XSTRINGIFY(x) STRINGIFY(x)

/* Clients served at once; a root client that holds a slot holds it for
 * two deadlines at most. */
#define CONTROL_CLIENTS_MAX 16
/* To send the command, and again to take the answer. */
#define CONTROL_DEADLINE_SEC 2
#define CONTROL_DEADLINE_USEC (CONTROL_DEADLINE_SEC * SLEEB_USEC_PER_SEC)
/* Refusals logged per window: anybody may connect, nobody may flood the journal. */
#define CONTROL_LOG_WINDOW_USEC (10 * SLEEB_USEC_PER_SEC)
#define CONTROL_LOG_BURST 5
/* accept() out of file descriptors: try again this much later rather than spin. */
#define CONTROL_ACCEPT_RETRY_USEC (1 * SLEEB_USEC_PER_SEC)

struct control_client;

struct control_server {
	Manager *m;
	struct control_client *clients;
	unsigned n_clients;
	sd_event_source *retry;         /* re-enables accepting after EMFILE and the like */
	uint64_t log_window_start;
	unsigned log_count;
};

struct control_client {
	struct control_server *server;
	struct control_client *prev, *next;
	int fd;
	sd_event_source *io, *deadline;
	char in[SLEEB_CONTROL_COMMAND_MAX];
	size_t in_len;
	char *out;                      /* the answer; NULL while reading */
	size_t out_len, out_sent;
};

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * SLEEB_USEC_PER_SEC + (uint64_t) ts.tv_nsec / 1000;
}

/* Whether to log one more refusal in this window; says how many were not. */
static bool log_ratelimit(struct control_server *srv)
{
	uint64_t now = now_usec();

	if (now - srv->log_window_start >= CONTROL_LOG_WINDOW_USEC) {
		if (srv->log_count > CONTROL_LOG_BURST)
			log_notice("control: %u more refused clients not logged", srv->log_count - CONTROL_LOG_BURST);
		srv->log_window_start = now;
		srv->log_count = 0;
	}
	return ++srv->log_count <= CONTROL_LOG_BURST;
}

/* A last short answer to a client that has not been answered yet: it
 * fits in the socket buffer, and a client gone already is fine. */
static void send_last(int fd, const char *s)
{
	(void) send(fd, s, strlen(s), MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void send_and_close(int fd, const char *s)
{
	send_last(fd, s);
	close(fd);
}

static void client_free(struct control_client *c)
{
	struct control_server *srv = c->server;

	if (c->prev)
		c->prev->next = c->next;
	else
		srv->clients = c->next;
	if (c->next)
		c->next->prev = c->prev;
	srv->n_clients--;
	sd_event_source_disable_unref(c->io);
	sd_event_source_disable_unref(c->deadline);
	close(c->fd);
	free(c->out);
	free(c);
}

static int set_deadline(struct control_client *c)
{
	int r = sd_event_source_set_time(c->deadline, now_usec() + CONTROL_DEADLINE_USEC);

	return r < 0 ? r : sd_event_source_set_enabled(c->deadline, SD_EVENT_ONESHOT);
}

/* Sends what the socket takes now; the rest when it says EPOLLOUT. */
static void client_write(struct control_client *c)
{
	while (c->out_sent < c->out_len) {
		ssize_t k = send(c->fd, c->out + c->out_sent, c->out_len - c->out_sent, MSG_DONTWAIT | MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;
		if (k <= 0)
			break;          /* the client went away: nobody to tell */
		c->out_sent += (size_t) k;
	}
	client_free(c);
}

/* Takes head and body (may be NULL) as the answer and starts sending it. */
static void client_answer(struct control_client *c, const char *head, const char *body)
{
	if (asprintf(&c->out, "%s%s", head, body ? body : "") < 0) {
		c->out = NULL;
		log_error("control: out of memory");
		send_last(c->fd, "ERROR out of memory\n");
		client_free(c);
		return;
	}
	c->out_len = strlen(c->out);
	if (sd_event_source_set_io_events(c->io, EPOLLOUT) < 0 || set_deadline(c) < 0) {
		client_free(c);
		return;
	}
	client_write(c);
}

static bool is_forget_learned(const char *cmd)
{
	size_t k = strlen(SLEEB_CONTROL_FORGET_LEARNED);

	return strncmp(cmd, SLEEB_CONTROL_FORGET_LEARNED, k) == 0 && (cmd[k] == '\0' || cmd[k] == ' ');
}

/* args: the cache names, each after a blank (sleeb/control.h). */
static void forget_learned(struct control_client *c, const char *args)
{
	struct sleeb_error err = { 0 };
	char *copy = strdup(args), *save = NULL, *head = NULL, *text = NULL, **names;
	size_t n = 0;
	int r = -ENOMEM;

	/* A name per blank at most: the command is one line of bounded length. */
	names = calloc(strlen(args) + 1, sizeof(*names));
	if (copy && names) {
		for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
			names[n++] = t;
		r = manager_forget_learned(c->server->m, names, n, &text, &err);
	}
	if (r < 0 && asprintf(&head, "ERROR %s\n", err.msg[0] ? err.msg : strerror(-r)) < 0)
		head = NULL;
	client_answer(c, r >= 0 ? "OK\n" : head ? head : "ERROR out of memory\n", text);
	free(head);
	free(text);
	free(names);
	free(copy);
}

static void client_run(struct control_client *c, const char *cmd)
{
	Manager *m = c->server->m;
	char *text = NULL;
	int r;

	if (strcmp(cmd, "STATUS") == 0) {
		r = manager_status_text(m, &text);
		client_answer(c, r < 0 ? "ERROR out of memory\n" : "OK\n", text);
	} else if (strcmp(cmd, "STATUS JSON") == 0) {
		r = manager_status_json(m, &text);
		client_answer(c, r < 0 ? "ERROR out of memory\n" : "OK\n", text);
	} else if (strcmp(cmd, "RELOAD") == 0) {
		r = manager_reload(m, &text);
		client_answer(c, r < 0 ? "ERROR policy refused, old policy stays in force\n" : "OK\n", text);
	} else if (is_forget_learned(cmd))
		forget_learned(c, cmd + strlen(SLEEB_CONTROL_FORGET_LEARNED));
	else
		client_answer(c, "ERROR unknown command\n", NULL);
	free(text);
}

/* Reads what has come; runs the command once its line is complete. */
static void client_read(struct control_client *c)
{
	for (;;) {
		ssize_t k = recv(c->fd, c->in + c->in_len, sizeof(c->in) - 1 - c->in_len, MSG_DONTWAIT);
		char *nl;

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0 && errno == EAGAIN)
			return;
		if (k < 0 || (k == 0 && c->in_len == 0)) {
			client_free(c);
			return;
		}
		c->in_len += (size_t) k;
		c->in[c->in_len] = '\0';
		nl = memchr(c->in, '\n', c->in_len);
		/* A client may also end its command by shutting down its side. */
		if (nl || k == 0) {
			c->in[strcspn(c->in, "\r\n")] = '\0';
			client_run(c, c->in);
			return;
		}
		if (c->in_len == sizeof(c->in) - 1) {
			client_answer(c, "ERROR command too long\n", NULL);
			return;
		}
	}
}

static int on_client_io(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct control_client *c = userdata;

	(void) s;
	(void) fd;
	if (c->out) {
		if (revents & (EPOLLERR | EPOLLHUP))
			client_free(c);
		else
			client_write(c);
	} else
		client_read(c);   /* EPOLLHUP/EPOLLERR show up as EOF or an error */
	return 0;
}

static int on_client_deadline(sd_event_source *s, uint64_t usec, void *userdata)
{
	struct control_client *c = userdata;

	(void) s;
	(void) usec;
	if (c->out)
		log_notice("control: client did not take its answer within " XSTRINGIFY(CONTROL_DEADLINE_SEC)
			   " s; closed");
	else {
		log_notice("control: client sent no complete command within " XSTRINGIFY(CONTROL_DEADLINE_SEC)
			   " s; closed");
		send_last(c->fd, "ERROR timeout: no complete command within " XSTRINGIFY(CONTROL_DEADLINE_SEC) " s\n");
	}
	client_free(c);
	return 0;
}

/* Serves an accepted, allowed client; fd is taken either way. */
static void client_new(struct control_server *srv, int fd)
{
	struct control_client *c = calloc(1, sizeof(*c));
	int r;

	if (!c) {
		log_error("control: out of memory");
		send_and_close(fd, "ERROR out of memory\n");
		return;
	}
	c->server = srv;
	c->fd = fd;
	c->next = srv->clients;
	if (c->next)
		c->next->prev = c;
	srv->clients = c;
	srv->n_clients++;
	r = sd_event_add_io(srv->m->event, &c->io, fd, EPOLLIN, on_client_io, c);
	if (r >= 0)
		r = sd_event_add_time(srv->m->event, &c->deadline, CLOCK_MONOTONIC, now_usec() + CONTROL_DEADLINE_USEC,
				      0, on_client_deadline, c);
	if (r < 0) {
		log_error_errno(r, "control: cannot serve a client: %m");
		client_free(c);
		return;
	}
	(void) sd_event_source_set_description(c->io, "control-client");
	(void) sd_event_source_set_description(c->deadline, "control-client-deadline");
}

static int on_accept_retry(sd_event_source *s, uint64_t usec, void *userdata)
{
	Manager *m = userdata;

	(void) s;
	(void) usec;
	return sd_event_source_set_enabled(m->control_source, SD_EVENT_ON);
}

/* accept() failed for want of resources: the listening socket stays
 * readable, so stop watching it for a while instead of spinning. */
static void accept_backoff(struct control_server *srv, int error)
{
	Manager *m = srv->m;
	int r;

	log_warning_errno(error, "control: cannot accept clients: %m; trying again in 1 s");
	if (!srv->retry) {
		r = sd_event_add_time_relative(m->event, &srv->retry, CLOCK_MONOTONIC, CONTROL_ACCEPT_RETRY_USEC, 0,
					       on_accept_retry, m);
		if (r < 0)
			return;
	} else if (sd_event_source_set_time_relative(srv->retry, CONTROL_ACCEPT_RETRY_USEC) < 0 ||
		   sd_event_source_set_enabled(srv->retry, SD_EVENT_ONESHOT) < 0)
		return;
	(void) sd_event_source_set_enabled(m->control_source, SD_EVENT_OFF);
}

/* A client just accepted: checked, then served or told why not. */
static void serve_connection(void *userdata, int c)
{
	struct control_server *srv = userdata;
	char why[128];

	/* The credentials are those of connect(): check them before
	 * reading a byte, so that nobody but root can hold a slot. */
	if (!control_peer_allowed(c, why, sizeof(why))) {
		if (log_ratelimit(srv))
			log_notice("control: refused client (%s): root only", why);
		send_and_close(c, "ERROR " SLEEB_CONTROL_ROOT_ONLY "\n");
		return;
	}
	if (srv->n_clients >= CONTROL_CLIENTS_MAX) {
		if (log_ratelimit(srv))
			log_warning("control: %d clients connected already; refused one more", CONTROL_CLIENTS_MAX);
		send_and_close(c, "ERROR busy: " XSTRINGIFY(CONTROL_CLIENTS_MAX)
				  " clients connected already, try again\n");
		return;
	}
	client_new(srv, c);
}

static int on_connection(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct control_server *srv = userdata;
	int r;

	(void) s;
	(void) revents;
	r = control_accept_some(fd, serve_connection, srv);
	if (r < 0)
		accept_backoff(srv, -r);
	return 0;
}

static void server_free(void *userdata)
{
	struct control_server *srv = userdata;

	while (srv->clients)
		client_free(srv->clients);
	sd_event_source_disable_unref(srv->retry);
	free(srv);
}

int control_open(Manager *m)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct control_server *srv;
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
		/* Anybody may connect, so that a refused user hears why from
		 * us (root only, by SO_PEERCRED) rather than EACCES. */
		if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0 || chmod(m->socket_path, 0666) < 0 ||
		    listen(fd, SOMAXCONN) < 0) {
			r = -errno;
			close(fd);
			return r;
		}
		m->control_owned = true;
	}
	m->control_fd = fd;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->m = m;
	r = sd_event_add_io(m->event, &m->control_source, fd, EPOLLIN, on_connection, srv);
	if (r < 0) {
		free(srv);
		return r;
	}
	/* The server's clients go with the listening source. */
	(void) sd_event_source_set_destroy_callback(m->control_source, server_free);
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
