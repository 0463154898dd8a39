/* SPDX-License-Identifier: GPL-2.0-only */
/* The writers' lock (see sleeb/lock.h). */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sleeb/lock.h"

/* How often a waiter tries again: holders other than the daemon hold the
 * lock for one pass over the caches, milliseconds. */
#define LOCK_RETRY_USEC 20000

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000 + (uint64_t) ts.tv_nsec / 1000;
}

bool sleeb_lock_holder_is_daemon(const struct sleeb_lock_holder *h)
{
	return strcmp(h->who, SLEEB_LOCK_DAEMON) == 0;
}

/* What the file says; pid 0 and who "" when it says nothing usable yet
 * (the holder takes the lock before it writes its line). */
static void read_holder(int fd, struct sleeb_lock_holder *h)
{
	char buf[64];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	char *end;

	h->pid = 0;
	h->who[0] = '\0';
	if (n <= 0)
		return;
	buf[n] = '\0';
	end = strchr(buf, '\n');
	if (!end)
		return;
	*end = '\0';
	if (sscanf(buf, "%ld %31[^\n]", &h->pid, h->who) != 2 || h->pid <= 0) {
		h->pid = 0;
		h->who[0] = '\0';
	}
}

static int write_holder(int fd, const char *who)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "%ld %s\n", (long) getpid(), who);

	if (n < 0 || (size_t) n >= sizeof(line))
		return -EINVAL;
	if (ftruncate(fd, 0) < 0 || pwrite(fd, line, (size_t) n, 0) != n)
		return -errno;
	return 0;
}

int (*sleeb_lock_flock)(int fd, int op) = flock;

/*
 * A kernel built without CONFIG_FILE_LOCKING (tinyconfig, the test guests
 * of some projects) fails flock() with ENOSYS. There an abstract unix
 * socket named after the lock file stands in: only one process can bind
 * a name, and the name is free again when the holder's descriptor closes,
 * at exit too, as with the flock. Returns the bound socket, -EWOULDBLOCK
 * while another process holds it, or another -errno.
 */
static int socket_lock(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char real[PATH_MAX];
	uint64_t h = UINT64_C(14695981039346656037);
	socklen_t len;
	int fd, r;

	if (!realpath(path, real))
		return -errno;
	/* FNV-1a of the resolved path: a fixed-length name for any path. */
	for (const char *c = real; *c; c++)
		h = (h ^ (unsigned char) *c) * UINT64_C(1099511628211);
	r = snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "sleeb-lock-%016llx", (unsigned long long) h);
	len = (socklen_t) (offsetof(struct sockaddr_un, sun_path) + 1 + (size_t) r);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *) &sa, len) < 0) {
		r = errno == EADDRINUSE ? -EWOULDBLOCK : -errno;
		close(fd);
		return r;
	}
	return fd;
}

/* One attempt: 0 (fd now holds the lock, or *sock does) or -errno. */
static int try_lock(int fd, const char *path, bool *no_flock, int *sock)
{
	int r;

	if (!*no_flock) {
		if (sleeb_lock_flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 0;
		if (errno != ENOSYS)
			return -errno;
		*no_flock = true;
	}
	r = socket_lock(path);
	if (r < 0)
		return r;
	*sock = r;
	return 0;
}

int sleeb_lock_take(const char *path, const char *who, uint64_t wait_usec, struct sleeb_lock_holder *holder,
		    struct sleeb_error *err)
{
	uint64_t start = now_usec();
	bool writable = true, no_flock = false;
	int fd, r, sock = -1;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 && (errno == EACCES || errno == EROFS)) {
		/* flock() works on a read-only file too; the line is then
		 * the previous holder's, which is only ever read while locked. */
		fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		writable = false;
	}
	if (fd < 0)
		return sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));

	while ((r = try_lock(fd, path, &no_flock, &sock)) < 0) {
		if (r == -EINTR)
			continue;
		if (r != -EWOULDBLOCK) {
			r = sleeb_error_set(err, -r, "%s: cannot lock: %s", path, strerror(-r));
			close(fd);
			return r;
		}
		read_holder(fd, holder);
		if (sleeb_lock_holder_is_daemon(holder) || now_usec() - start >= wait_usec) {
			close(fd);
			return sleeb_error_set(err, EBUSY, "%s: held by %s (pid %ld)", path,
					       holder->who[0] ? holder->who : "an unknown process", holder->pid);
		}
		usleep(LOCK_RETRY_USEC);
	}
	if (writable) {
		r = write_holder(fd, who);
		if (r < 0) {
			close(fd);
			if (sock >= 0)
				close(sock);
			return sleeb_error_set(err, r, "%s: %s", path, strerror(-r));
		}
	}
	if (sock >= 0) {
		close(fd);
		fd = sock;
	}
	return fd;
}
