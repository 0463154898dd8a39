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
#include <sys/stat.h>
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
 * Only the lock's owner may be able to open the file: flock() works on a
 * read-only descriptor, so a file others can read would let any user
 * hold the lock and keep sleebd from starting; and only its owner (or
 * root) may write to its directory, where others could put a file of
 * their own in its place. 0 or -EPERM with what is wrong in @err.
 */
static int check_private(int dirfd, int fd, const char *path, struct sleeb_error *err)
{
	struct stat dst, st;

	if (fstat(dirfd, &dst) < 0 || fstat(fd, &st) < 0)
		return sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
	if ((dst.st_uid != geteuid() && dst.st_uid != 0) || (dst.st_mode & (S_IWGRP | S_IWOTH)))
		return sleeb_error_set(err, EPERM,
				       "%s: its directory has mode %04o: other users may replace the lock file; make it 0755",
				       path, (unsigned) (dst.st_mode & 07777));
	if (st.st_uid != geteuid())
		return sleeb_error_set(err, EPERM, "%s: owned by uid %u, not %u: that user can hold the lock; remove it",
				       path, (unsigned) st.st_uid, (unsigned) geteuid());
	if (!S_ISREG(st.st_mode))
		return sleeb_error_set(err, EPERM, "%s: not a regular file; remove it", path);
	if (st.st_mode & (S_IRWXG | S_IRWXO))
		return sleeb_error_set(err, EPERM,
				       "%s: mode %04o lets other users open it, and so hold the lock; remove it (or chmod 0600 it)",
				       path, (unsigned) (st.st_mode & 07777));
	return 0;
}

/* The lock file, created 0600 if missing, in a directory only its owner
 * writes to. Returns the descriptor or -errno (message in @err). */
static int open_lock_file(const char *path, struct sleeb_error *err)
{
	char dir[PATH_MAX];
	const char *base = strrchr(path, '/');
	int dirfd, fd, r;

	if (base && (size_t) (base - path) >= sizeof(dir))
		return sleeb_error_set(err, ENAMETOOLONG, "%s: path too long", path);
	snprintf(dir, sizeof(dir), "%.*s", base ? (int) (base == path ? 1 : base - path) : 1, base ? path : ".");
	base = base ? base + 1 : path;
	dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0)
		return sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
	fd = openat(dirfd, base, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
		close(dirfd);
		return r;
	}
	r = check_private(dirfd, fd, path, err);
	close(dirfd);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int sleeb_lock_take(const char *path, const char *who, uint64_t wait_usec, struct sleeb_lock_holder *holder,
		    struct sleeb_error *err)
{
	uint64_t start = now_usec();
	int fd, r;

	fd = open_lock_file(path, err);
	if (fd < 0)
		return fd;
	while (sleeb_lock_flock(fd, LOCK_EX | LOCK_NB) < 0) {
		r = -errno;
		if (r == -EINTR)
			continue;
		if (r == -ENOSYS) {
			/* An abstract socket stood in once; but its names are per
			 * network namespace, and sleebd.service has a namespace
			 * of its own (PrivateNetwork=yes): sleebctl took the
			 * "same" lock beside the daemon. No lock is better said. */
			close(fd);
			return sleeb_error_set(err, ENOSYS,
					       "%s: cannot lock: this kernel has no file locking (CONFIG_FILE_LOCKING), which the writers' lock needs",
					       path);
		}
		if (r != -EWOULDBLOCK) {
			close(fd);
			return sleeb_error_set(err, -r, "%s: cannot lock: %s", path, strerror(-r));
		}
		read_holder(fd, holder);
		if (sleeb_lock_holder_is_daemon(holder) || now_usec() - start >= wait_usec) {
			close(fd);
			return sleeb_error_set(err, EBUSY, "%s: held by %s (pid %ld)", path,
					       holder->who[0] ? holder->who : "an unknown process", holder->pid);
		}
		usleep(LOCK_RETRY_USEC);
	}
	r = write_holder(fd, who);
	if (r < 0) {
		close(fd);
		return sleeb_error_set(err, r, "%s: %s", path, strerror(-r));
	}
	return fd;
}
