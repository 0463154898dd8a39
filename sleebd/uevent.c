/* SPDX-License-Identifier: GPL-2.0-only */
/* Slab cache uevents through libmnl. */

#include <errno.h>
#include <libmnl/libmnl.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "log.h"
#include "manager.h"
#include "uevent.h"

#define UEVENT_GROUP_KERNEL 1u

struct uevent_listener {
	Manager *m;
	struct mnl_socket *nl;
	sd_event_source *source;
	sd_event_source *test_source;   /* SLEEBD_TEST_HOOKS only */
};

static void dispatch(struct uevent_listener *l, const char *buf, size_t n)
{
	char name[SLEEB_CACHE_NAME_MAX];

	switch (uevent_parse(buf, n, name, sizeof(name))) {
	case UEVENT_ADD:
		log_debug("uevent: %s added", name);
		(void) manager_apply_cache(l->m, name, "new cache (uevent)");
		break;
	case UEVENT_REMOVE:
		log_debug("uevent: %s removed", name);
		manager_drop_cache(l->m, name);
		break;
	default:
		break;
	}
}

static int on_uevent(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	struct uevent_listener *l = userdata;
	char buf[8192];

	(void) s;
	(void) revents;
	for (;;) {
		struct sockaddr_nl addr = { 0 };
		struct iovec iov = { buf, sizeof(buf) };
		struct msghdr mh = {
			.msg_name = &addr,
			.msg_namelen = sizeof(addr),
			.msg_iov = &iov,
			.msg_iovlen = 1,
		};
		ssize_t n;

		/* Our own recvmsg(): mnl_socket_recvfrom() drops the sender,
		 * and only the kernel (nl_pid 0) may tell us about caches. */
		n = recvmsg(fd, &mh, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOBUFS) {
				/* Lost events: the rescan will find the caches,
				 * and must list their aliases again. */
				log_debug("uevent socket overflowed, relying on the next rescan");
				sleeb_reader_forget(l->m->reader, NULL);
				continue;
			}
			break;  /* EAGAIN: drained */
		}
		if (mh.msg_namelen != sizeof(addr) || addr.nl_family != AF_NETLINK || addr.nl_pid != 0 ||
		    (mh.msg_flags & MSG_TRUNC))
			continue;

		dispatch(l, buf, (size_t) n);
	}
	return 0;
}

#ifdef SLEEBD_TEST_HOOKS
/*
 * Test builds only (tests/unit/sleebd: sleebd-test): uevents from a unix
 * datagram socket named by $SLEEBD_TEST_UEVENT_SOCKET, as a fake tree has
 * no kernel to send them. Never in the installed sleebd, where only the
 * kernel may tell us about caches.
 */
static int on_test_uevent(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
	char buf[8192];
	ssize_t n;

	(void) s;
	(void) revents;
	while ((n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT)) > 0)
		dispatch(userdata, buf, (size_t) n);
	return 0;
}

static int test_source_new(struct uevent_listener *l)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = getenv("SLEEBD_TEST_UEVENT_SOCKET");
	int fd, r;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	(void) unlink(path);
	if (bind(fd, (struct sockaddr *) &sa, sizeof(sa)) < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	r = sd_event_add_io(l->m->event, &l->test_source, fd, EPOLLIN, on_test_uevent, l);
	if (r < 0) {
		close(fd);
		return r;
	}
	(void) sd_event_source_set_io_fd_own(l->test_source, true);
	return 0;
}
#endif

int uevent_listener_new(Manager *m, struct uevent_listener **ret)
{
	struct uevent_listener *l;
	int r;

	l = calloc(1, sizeof(*l));
	if (!l)
		return -ENOMEM;
	l->m = m;
#ifdef SLEEBD_TEST_HOOKS
	/* A fake tree's uevents come from the test, never from this kernel. */
	if (getenv("SLEEBD_TEST_UEVENT_SOCKET")) {
		r = test_source_new(l);
		if (r < 0)
			goto fail;
		*ret = l;
		return 0;
	}
#endif
	l->nl = mnl_socket_open2(NETLINK_KOBJECT_UEVENT, SOCK_CLOEXEC | SOCK_NONBLOCK);
	if (!l->nl) {
		r = -errno;
		goto fail;
	}
	if (mnl_socket_bind(l->nl, UEVENT_GROUP_KERNEL, MNL_SOCKET_AUTOPID) < 0) {
		r = -errno;
		goto fail;
	}
	r = sd_event_add_io(m->event, &l->source, mnl_socket_get_fd(l->nl), EPOLLIN, on_uevent, l);
	if (r < 0)
		goto fail;
	(void) sd_event_source_set_description(l->source, "uevent");
	*ret = l;
	return 0;
fail:
	uevent_listener_free(l);
	return r;
}

struct uevent_listener *uevent_listener_free(struct uevent_listener *l)
{
	if (!l)
		return NULL;
	sd_event_source_disable_unref(l->source);
	sd_event_source_disable_unref(l->test_source);
	if (l->nl)
		mnl_socket_close(l->nl);
	free(l);
	return NULL;
}
