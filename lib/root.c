/* SPDX-License-Identifier: GPL-2.0-only */
/* The root prefix: the one global of libsleeb (see sleeb/root.h). */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sleeb/root.h"

/* Links followed in one resolution, as the kernel's MAXSYMLINKS. */
#define LINKS_MAX 40
/* Directories held at once by the walk: /sys paths are a handful deep. */
#define WALK_DEPTH_MAX 64
/* openat2() says EAGAIN when a rename raced a ".." it resolved. */
#define OPENAT2_TRIES 4

static char root[PATH_MAX] = "/";
static int root_fd = -1;

bool sleeb_root_allow_fifos;

static long sys_openat2(int dirfd, const char *path, struct open_how *how, size_t size)
{
	/* glibc (2.36, Debian 12) has no wrapper. */
	return syscall(SYS_openat2, dirfd, path, how, size);
}

long (*sleeb_root_openat2)(int dirfd, const char *path, struct open_how *how, size_t size) = sys_openat2;

int sleeb_root_set(const char *dir)
{
	size_t len;

	if (!dir || !*dir)
		dir = "/";
	len = strlen(dir);
	if (len >= sizeof(root))
		return -ENAMETOOLONG;
	/* Keep "/" itself, drop other trailing slashes so that joins never
	 * produce "//" (cosmetic, but it shows up in every message). */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	memcpy(root, dir, len);
	root[len] = '\0';
	if (root_fd >= 0)
		close(root_fd);
	root_fd = -1;
	return 0;
}

int sleeb_root_fd(void)
{
	if (root_fd < 0) {
		root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (root_fd < 0)
			return -errno;
	}
	return root_fd;
}

const char *sleeb_root_get(void)
{
	return root;
}

int sleeb_prefix_path(char *buf, size_t len, const char *prefix, const char *rel)
{
	size_t plen = prefix ? strlen(prefix) : 0;
	int n;

	/* "/", "" and NULL are all the real root; "DIR/" is "DIR". */
	while (plen > 0 && prefix[plen - 1] == '/')
		plen--;
	while (*rel == '/')
		rel++;
	if (plen > INT_MAX)
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%.*s/%s", (int)plen, plen ? prefix : "", rel);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

int sleeb_root_path(char *buf, size_t len, const char *rel)
{
	return sleeb_prefix_path(buf, len, root, rel);
}

/* The next component of *p into @name, *p moved past it; false at the end. */
static bool next_component(const char **p, char *name, size_t size, int *r)
{
	size_t len;

	while (**p == '/')
		(*p)++;
	if (!**p)
		return false;
	len = strcspn(*p, "/");
	if (len >= size) {
		*r = -ENAMETOOLONG;
		return false;
	}
	memcpy(name, *p, len);
	name[len] = '\0';
	*p += len;
	return true;
}

/* Whether nothing but slashes is left of @p. */
static bool at_end(const char *p)
{
	return p[strspn(p, "/")] == '\0';
}

/*
 * Puts @target in front of what is left of the path (@rest, inside @buf);
 * returns 0 or -ENAMETOOLONG.
 */
static int splice_link(char *buf, size_t size, const char *target, const char *rest)
{
	char next[PATH_MAX];
	int n = snprintf(next, sizeof(next), "%s/%s", target, rest);

	if (n < 0 || (size_t)n >= sizeof(next) || (size_t)n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, next, (size_t)n + 1);
	return 0;
}

/*
 * RESOLVE_IN_ROOT by hand, for kernels without openat2(). Every directory
 * on the way is held open (O_PATH) from the root down, so ".." closes the
 * last one, and stops at the root, instead of asking the file system for
 * a parent that may lie outside it; a link's target goes in front of what
 * is left of the path, and an absolute one starts again at the root. The
 * last component is opened with O_NOFOLLOW from the directory held, so a
 * link swapped in after it was looked at fails (ELOOP) rather than leads
 * out. Returns the descriptor or -errno.
 */
static int walk_open(int rootfd, const char *path, int flags)
{
	char buf[PATH_MAX], name[NAME_MAX + 1], target[PATH_MAX];
	int fds[WALK_DEPTH_MAX] = { rootfd };
	unsigned depth = 0, links = 0;
	const char *p = buf;
	int r = 0;

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (;;) {
		struct stat st;
		ssize_t n;
		int fd;

		if (!next_component(&p, name, sizeof(name), &r)) {
			/* The path ended at a directory held (the root, "..", "x/"). */
			if (r == 0 && (r = openat(fds[depth], ".", flags | O_CLOEXEC)) < 0)
				r = -errno;
			break;
		}
		if (strcmp(name, ".") == 0)
			continue;
		if (strcmp(name, "..") == 0) {
			if (depth > 0)
				close(fds[depth--]);
			continue;
		}
		fd = openat(fds[depth], name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0) {
			r = -errno;
			if (fd >= 0)
				close(fd);
			break;
		}
		if (S_ISLNK(st.st_mode) && !(at_end(p) && (flags & O_NOFOLLOW))) {
			n = readlinkat(fd, "", target, sizeof(target) - 1);
			r = n < 0 ? -errno : 0;
			close(fd);
			if (r == 0 && ++links > LINKS_MAX)
				r = -ELOOP;
			if (r == 0) {
				target[n] = '\0';
				r = splice_link(buf, sizeof(buf), target, p);
			}
			if (r < 0)
				break;
			p = buf;
			if (target[0] == '/')
				while (depth > 0)
					close(fds[depth--]);
			continue;
		}
		if (at_end(p)) {
			r = openat(fds[depth], name, flags | O_NOFOLLOW | O_CLOEXEC);
			if (r < 0)
				r = -errno;
			close(fd);
			break;
		}
		if (!S_ISDIR(st.st_mode) || depth + 1 >= WALK_DEPTH_MAX) {
			r = S_ISDIR(st.st_mode) ? -ENAMETOOLONG : -ENOTDIR;
			close(fd);
			break;
		}
		fds[++depth] = fd;
	}
	while (depth > 0)
		close(fds[depth--]);
	return r;
}

int sleeb_root_open(const char *rel, int flags)
{
	struct open_how how = {
		.flags = (uint64_t)(unsigned)(flags | O_CLOEXEC),
		/* Magic links (/proc/self/fd/N) lead anywhere. */
		.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS,
	};
	int rfd = sleeb_root_fd();
	long fd = -1;

	if (rfd < 0)
		return rfd;
	while (*rel == '/')
		rel++;
	if (!*rel)
		rel = ".";
	for (int i = 0; i < OPENAT2_TRIES; i++) {
		fd = sleeb_root_openat2(rfd, rel, &how, sizeof(how));
		if (fd >= 0 || errno != EAGAIN)
			break;
	}
	if (fd >= 0)
		return (int)fd;
	/* No openat2 (before Linux 5.6), or a seccomp filter that does not
	 * know it: the same resolution, by hand. */
	if (errno == ENOSYS || errno == EPERM)
		return walk_open(rfd, rel, flags);
	return -errno;
}

static const char *file_type(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO";
	case S_IFSOCK:
		return "a socket";
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFLNK:
		return "a symbolic link";
	default:
		return "not a file";
	}
}

/* Why @rel could not be opened (-@r): a planted FIFO that no one reads
 * fails a non-blocking open for writing with ENXIO; say what it is. */
static int open_file_error(const char *rel, int r, int flags, struct sleeb_error *err)
{
	char path[PATH_MAX];
	struct stat st;
	int fd;

	if (sleeb_root_path(path, sizeof(path), rel) < 0)
		snprintf(path, sizeof(path), "%s", rel);
	if (r == -ENXIO) {
		fd = sleeb_root_open(rel, O_PATH | (flags & O_NOFOLLOW));
		if (fd >= 0 && fstat(fd, &st) == 0 && !S_ISREG(st.st_mode))
			r = -EBADFD;
		if (fd >= 0)
			close(fd);
		if (r == -EBADFD)
			return sleeb_error_set(err, r, "%s: not a regular file (%s)", path, file_type(st.st_mode));
	}
	return sleeb_error_set(err, r, "%s: %s", path, strerror(-r));
}

static bool is_fifo(const char *rel, int flags)
{
	struct stat st;
	int fd = sleeb_root_open(rel, O_PATH | (flags & O_NOFOLLOW));
	bool r;

	if (fd < 0)
		return false;
	r = fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
	close(fd);
	return r;
}

int sleeb_root_open_file(const char *rel, int flags, struct sleeb_error *err)
{
	char path[PATH_MAX];
	struct stat st;
	int fd, fl, r;

	if (sleeb_root_allow_fifos && is_fifo(rel, flags)) {
		/* A test's stand-in for a slow file: opened as it is, waiting
		 * for its writer (a reader that came and went first would
		 * leave the writer to SIGPIPE). */
		fd = sleeb_root_open(rel, flags);
		return fd < 0 ? open_file_error(rel, fd, flags, err) : fd;
	}
	fd = sleeb_root_open(rel, flags | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return open_file_error(rel, fd, flags, err);
	if (fstat(fd, &st) < 0) {
		r = -errno;
		close(fd);
		return open_file_error(rel, r, flags, err);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		if (sleeb_root_path(path, sizeof(path), rel) < 0)
			snprintf(path, sizeof(path), "%s", rel);
		return sleeb_error_set(err, EBADFD, "%s: not a regular file (%s)", path, file_type(st.st_mode));
	}
	if (!(flags & O_NONBLOCK) && ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)) {
		r = -errno;
		close(fd);
		return open_file_error(rel, r, flags, err);
	}
	return fd;
}

DIR *sleeb_root_opendir(const char *rel, int *r)
{
	int fd = sleeb_root_open(rel, O_RDONLY | O_DIRECTORY);
	DIR *d;

	if (fd < 0) {
		*r = fd;
		return NULL;
	}
	d = fdopendir(fd);
	if (!d) {
		*r = -errno;
		close(fd);
	}
	return d;
}

FILE *sleeb_root_fopen(const char *rel, int *r, struct sleeb_error *err)
{
	int fd = sleeb_root_open_file(rel, O_RDONLY, err);
	FILE *f;

	if (fd < 0) {
		*r = fd;
		return NULL;
	}
	f = fdopen(fd, "re");
	if (!f) {
		*r = sleeb_error_set(err, errno, "%s: %s", rel, strerror(errno));
		close(fd);
	}
	return f;
}
