/* SPDX-License-Identifier: GPL-2.0-only */
/* Per-cache sysfs attributes under <root>/sys/kernel/slab (see sleeb/sysfs.h). */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sleeb/parse.h"
#include "sleeb/root.h"
#include "sleeb/sysfs.h"
#include "sleeb/util.h"

/* queue_stats is ~10 short lines; leave room for counters added later. */
#define QUEUE_STATS_MAX 8192
#define ATTR_VALUE_MAX 4096

static const char *const queue_stat_names[_SLEEB_QSTAT_MAX] = {
	[SLEEB_QSTAT_ALLOC_REFILL] = "alloc_refill",
	[SLEEB_QSTAT_FREE_DRAIN] = "free_drain",
	[SLEEB_QSTAT_SHARED_ALLOC_HIT] = "shared_alloc_hit",
	[SLEEB_QSTAT_SHARED_ALLOC_MISS] = "shared_alloc_miss",
	[SLEEB_QSTAT_SHARED_FREE] = "shared_free",
	[SLEEB_QSTAT_SHARED_OVERFLOW] = "shared_overflow",
	[SLEEB_QSTAT_REMOTE_FREE] = "remote_free",
	[SLEEB_QSTAT_REMOTE_ALLOC] = "remote_alloc",
	[SLEEB_QSTAT_REAP_DRAINED] = "reap_drained",
	[SLEEB_QSTAT_RESIZE] = "resize",
	[SLEEB_QSTAT_FASTPATH_OPS] = "fastpath_ops",
	[SLEEB_QSTAT_ARRAY_FAIL] = "array_fail",
	[SLEEB_QSTAT_REFILL_NOMEM] = "refill_nomem",
	[SLEEB_QSTAT_BULK_ALLOC] = "bulk_alloc",
	[SLEEB_QSTAT_BULK_FREE] = "bulk_free",
	[SLEEB_QSTAT_RESIZE_DRAINED] = "resize_drained",
};

const char *sleeb_queue_stat_name(enum sleeb_queue_stat s)
{
	if ((unsigned)s >= _SLEEB_QSTAT_MAX)
		return NULL;
	return queue_stat_names[s];
}

/* "sys/kernel/slab/<cache>[/<attr>]", relative to the root. */
static int sysfs_rel(char *buf, size_t len, const char *cache, const char *attr)
{
	int n;

	/* A name is one path component: never let "../x" escape the tree. */
	if (!cache || !*cache || strchr(cache, '/') || strcmp(cache, ".") == 0 ||
	    strcmp(cache, "..") == 0)
		return -EINVAL;
	if (attr && (!*attr || strchr(attr, '/')))
		return -EINVAL;
	if (attr)
		n = snprintf(buf, len, SLEEB_SYSFS_SLAB_DIR "/%s/%s", cache, attr);
	else
		n = snprintf(buf, len, SLEEB_SYSFS_SLAB_DIR "/%s", cache);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return n;
}

int sleeb_sysfs_path(char *buf, size_t len, const char *cache, const char *attr)
{
	char rel[PATH_MAX];
	int r = sysfs_rel(rel, sizeof(rel), cache, attr);

	return r < 0 ? r : sleeb_root_path(buf, len, rel);
}

int sleeb_sysfs_open(const char *cache, const char *attr, int flags, struct sleeb_error *err)
{
	char rel[PATH_MAX];
	int r = sysfs_rel(rel, sizeof(rel), cache, attr);

	if (r < 0)
		return sleeb_error_set(err, r, "%s/%s: invalid name", cache ? cache : "", attr ? attr : "");
	return sleeb_root_open_file(rel, flags, err);
}

int sleeb_sysfs_stat(const char *cache, const char *attr, struct stat *st)
{
	char rel[PATH_MAX];
	int fd, r = sysfs_rel(rel, sizeof(rel), cache, attr);

	if (r < 0)
		return r;
	fd = sleeb_root_open(rel, O_PATH);
	if (fd < 0)
		return fd;
	r = fstat(fd, st) < 0 ? -errno : 0;
	close(fd);
	return r;
}

int sleeb_sysfs_parse_value(const char *buf, size_t len, uint64_t *ret)
{
	uint64_t v;
	size_t end;
	int r;

	r = sleeb_parse_u64_prefix(buf, len, &v, &end);
	if (r < 0)
		return r;
	/* After the number: nothing, a final newline, or a blank followed by
	 * a per-node/per-cpu breakdown we do not need. */
	if (end < len && buf[end] != ' ' && buf[end] != '\t' &&
	    !(buf[end] == '\n' && end + 1 == len))
		return -EINVAL;
	*ret = v;
	return 0;
}

static int path_error(struct sleeb_error *err, int r, const char *cache, const char *attr)
{
	return sleeb_error_set(err, r, "%s%s%s: invalid name", cache ? cache : "",
			       attr ? "/" : "", attr ? attr : "");
}

int sleeb_sysfs_read_string(const char *cache, const char *attr, char *buf, size_t len,
			    struct sleeb_error *err)
{
	char path[PATH_MAX];
	int fd, r;

	r = sleeb_sysfs_path(path, sizeof(path), cache, attr);
	if (r < 0)
		return path_error(err, r, cache, attr);
	fd = sleeb_sysfs_open(cache, attr, O_RDONLY, err);
	if (fd < 0)
		return fd;
	r = sleeb_read_small_fd(fd, buf, len);
	close(fd);
	if (r < 0)
		return sleeb_error_set(err, r, "%s: %s", path, strerror(-r));
	if (r > 0 && buf[r - 1] == '\n')
		buf[--r] = '\0';
	return r;
}

int sleeb_sysfs_read_u64(const char *cache, const char *attr, uint64_t *ret,
			 struct sleeb_error *err)
{
	char buf[ATTR_VALUE_MAX];
	int r;

	r = sleeb_sysfs_read_string(cache, attr, buf, sizeof(buf), err);
	if (r < 0)
		return r;
	r = sleeb_sysfs_parse_value(buf, (size_t)r, ret);
	if (r < 0)
		return sleeb_error_set(err, r, "%s: %s: '%.32s' %s", cache, attr, buf,
				       r == -ERANGE ? "is out of range" : "is not a number");
	return 0;
}

/*
 * Write @len bytes of @buf to @attr of @cache in one write(). Returns 0 or
 * the -errno of open(), write() or close(), as the kernel gave it; -ELOOP
 * for an attribute that is a symbolic link. -EBADFD (not a regular file)
 * comes with its message in @err already; the callers word the others.
 */
static int attr_write(const char *cache, const char *attr, const char *buf, size_t len,
		      struct sleeb_error *err)
{
	struct stat st;
	ssize_t n;
	int fd, e;

	/* Resolved inside the root (a merged cache's directory is a link,
	 * which must not lead out of a tree under --root); the attribute
	 * itself never is a link, nor anything but a regular file, so
	 * neither a planted link nor a FIFO turns root's write into a write
	 * elsewhere or a hang. No O_TRUNC: sysfs does not need it. */
	fd = sleeb_sysfs_open(cache, attr, O_WRONLY | O_NOFOLLOW, err);
	if (fd < 0)
		return fd;
	/* sysfs takes one write(); a short write would be a kernel bug, but
	 * report it rather than retry with half a value. */
	n = write(fd, buf, len);
	/* A regular file (a fake tree in tests, never sysfs) would keep the
	 * tail of a longer old value: cut it after the write, through the fd
	 * we opened, never through a path. */
	if (n == (ssize_t)len && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    ftruncate(fd, (off_t)len) < 0)
		n = -1;
	if (n < 0) {
		e = errno;
		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return n == (ssize_t)len ? 0 : -EIO;
}

int sleeb_sysfs_write_u64(const char *cache, const char *attr, uint64_t value,
			  struct sleeb_error *err)
{
	char dir[PATH_MAX], buf[32];
	int len, r;

	if (!attr || !*attr || strchr(attr, '/') ||
	    sleeb_sysfs_path(dir, sizeof(dir), cache, NULL) < 0)
		return path_error(err, -EINVAL, cache, attr);
	len = snprintf(buf, sizeof(buf), "%llu\n", (unsigned long long)value);
	r = attr_write(cache, attr, buf, (size_t)len, err);
	if (r == -EBADFD)
		return r;
	if (r == -ELOOP)
		return sleeb_error_set(err, ELOOP,
				       "%s: %s: %llu: is a symbolic link, not a sysfs attribute",
				       cache, attr, (unsigned long long)value);
	if (r < 0)
		return sleeb_error_set(err, -r, "%s: %s: %llu: %s", cache, attr,
				       (unsigned long long)value, strerror(-r));
	return 0;
}

int sleeb_sysfs_write_string(const char *cache, const char *attr, const char *value,
			     struct sleeb_error *err)
{
	char path[PATH_MAX], buf[ATTR_VALUE_MAX];
	int len, r;

	if (!attr || !*attr || strchr(attr, '/') ||
	    sleeb_sysfs_path(path, sizeof(path), cache, attr) < 0)
		return path_error(err, -EINVAL, cache, attr);
	len = snprintf(buf, sizeof(buf), "%s\n", value);
	if (len < 0 || (size_t)len >= sizeof(buf))
		return sleeb_error_set(err, EINVAL, "%s: value too long", path);
	r = attr_write(cache, attr, buf, (size_t)len, err);
	if (r == -EBADFD)
		return r;
	if (r == -ELOOP)
		return sleeb_error_set(err, ELOOP, "%s: %s: is a symbolic link, not a sysfs attribute",
				       path, value);
	if (r < 0)
		return sleeb_error_set(err, -r, "%s: %s: %s", path, value, strerror(-r));
	return 0;
}

bool sleeb_sysfs_has_attr(const char *cache, const char *attr)
{
	struct stat st;

	return sleeb_sysfs_stat(cache, attr, &st) == 0;
}

bool sleeb_sysfs_kernel_has_queues(void)
{
	struct sleeb_sysfs_list l;
	bool found = false;
	size_t i;

	if (sleeb_sysfs_list_caches(&l, NULL) < 0)
		return false;
	for (i = 0; i < l.n && !found; i++)
		found = sleeb_sysfs_has_attr(l.entries[i].name, "cpu_queue_size");
	sleeb_sysfs_list_free(&l);
	return found;
}

int sleeb_queue_stats_parse(const char *buf, size_t len, const char *fname,
			    struct sleeb_queue_stats *out, struct sleeb_error *err)
{
	size_t pos = 0;
	unsigned lineno = 0;

	memset(out, 0, sizeof(*out));
	while (pos < len) {
		const char *line = buf + pos, *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos, i = 0, nstart, nlen, end;
		uint64_t v;
		unsigned s;
		int r;

		lineno++;
		pos += llen + (nl != NULL);
		if (memchr(line, '\0', llen))
			return sleeb_error_set(err, EINVAL, "%s:%u: NUL byte in line", fname, lineno);
		while (i < llen && (line[i] == ' ' || line[i] == '\t'))
			i++;
		if (i == llen)
			continue;
		nstart = i;
		while (i < llen && line[i] != ' ' && line[i] != '\t')
			i++;
		nlen = i - nstart;
		while (i < llen && (line[i] == ' ' || line[i] == '\t'))
			i++;
		r = sleeb_parse_u64_prefix(line + i, llen - i, &v, &end);
		if (r == -ERANGE)
			return sleeb_error_set(err, r, "%s:%u: %.*s: value out of range", fname,
					       lineno, (int)(nlen > 64 ? 64 : nlen), line + nstart);
		if (r < 0)
			return sleeb_error_set(err, r, "%s:%u: expected 'name value'", fname, lineno);
		i += end;
		/* SLUB_STATS-style per-cpu breakdowns may follow after a blank. */
		if (i < llen && line[i] != ' ' && line[i] != '\t')
			return sleeb_error_set(err, EINVAL, "%s:%u: trailing garbage after value",
					       fname, lineno);
		for (s = 0; s < _SLEEB_QSTAT_MAX; s++) {
			if (strlen(queue_stat_names[s]) != nlen ||
			    memcmp(queue_stat_names[s], line + nstart, nlen) != 0)
				continue;
			if (out->present & (1u << s))
				return sleeb_error_set(err, EINVAL, "%s:%u: duplicate counter %s",
						       fname, lineno, queue_stat_names[s]);
			out->value[s] = v;
			out->present |= 1u << s;
			break;
		}
	}
	return 0;
}

int sleeb_sysfs_read_queue_stats(const char *cache, struct sleeb_queue_stats *out,
				 struct sleeb_error *err)
{
	char *buf, path[PATH_MAX];
	int r;

	buf = malloc(QUEUE_STATS_MAX);
	if (!buf)
		return sleeb_error_set(err, ENOMEM, "out of memory");
	r = sleeb_sysfs_read_string(cache, "queue_stats", buf, QUEUE_STATS_MAX, err);
	if (r >= 0) {
		if (sleeb_sysfs_path(path, sizeof(path), cache, "queue_stats") < 0)
			snprintf(path, sizeof(path), "queue_stats");
		r = sleeb_queue_stats_parse(buf, (size_t)r, path, out, err);
	}
	free(buf);
	return r;
}

static int entry_compare(const void *a, const void *b)
{
	const struct sleeb_sysfs_entry *x = a, *y = b;

	return strcmp(x->name, y->name);
}

/* Fill @e from directory entry @name of @dirfd. 0 to keep, 1 to skip. */
static int entry_fill(int dirfd, const char *name, struct sleeb_sysfs_entry *e)
{
	char target[PATH_MAX];
	struct stat st;
	const char *base;
	ssize_t n;

	if (strlen(name) >= sizeof(e->name))
		return 1;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 1 : -errno;  /* a cache may vanish meanwhile */
	memset(e, 0, sizeof(*e));
	strcpy(e->name, name);
	if (S_ISDIR(st.st_mode)) {
		strcpy(e->id, name);
		return 0;
	}
	if (!S_ISLNK(st.st_mode))
		return 1;
	n = readlinkat(dirfd, name, target, sizeof(target) - 1);
	if (n < 0)
		return errno == ENOENT ? 1 : -errno;
	target[n] = '\0';
	while (n > 1 && target[n - 1] == '/')
		target[--n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strlen(base) >= sizeof(e->id))
		return 1;
	strcpy(e->id, base);
	e->is_link = true;
	return 0;
}

int sleeb_sysfs_list_caches(struct sleeb_sysfs_list *out, struct sleeb_error *err)
{
	struct sleeb_sysfs_entry *entries = NULL;
	char path[PATH_MAX];
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;
	int r;

	out->entries = NULL;
	out->n = 0;
	r = sleeb_root_path(path, sizeof(path), SLEEB_SYSFS_SLAB_DIR);
	if (r < 0)
		return sleeb_error_set(err, r, "%s: path too long", SLEEB_SYSFS_SLAB_DIR);
	d = sleeb_root_opendir(SLEEB_SYSFS_SLAB_DIR, &r);
	if (!d)
		return sleeb_error_set(err, r, "%s: %s", path, strerror(-r));
	while ((errno = 0, de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 256;
			struct sleeb_sysfs_entry *ne = reallocarray(entries, ncap, sizeof(*ne));

			if (!ne) {
				r = sleeb_error_set(err, ENOMEM, "out of memory");
				goto fail;
			}
			entries = ne;
			cap = ncap;
		}
		r = entry_fill(dirfd(d), de->d_name, &entries[n]);
		if (r < 0) {
			sleeb_error_set(err, r, "%s/%s: %s", path, de->d_name, strerror(-r));
			goto fail;
		}
		if (r == 0)
			n++;
	}
	if (errno) {
		r = sleeb_error_set(err, errno, "%s: %s", path, strerror(errno));
		goto fail;
	}
	closedir(d);
	if (n)
		qsort(entries, n, sizeof(*entries), entry_compare);
	out->entries = entries;
	out->n = n;
	return n > INT_MAX ? INT_MAX : (int)n;
fail:
	closedir(d);
	free(entries);
	return r;
}

void sleeb_sysfs_list_free(struct sleeb_sysfs_list *l)
{
	free(l->entries);
	l->entries = NULL;
	l->n = 0;
}

const char *sleeb_sysfs_list_id(const struct sleeb_sysfs_list *l, const char *name)
{
	struct sleeb_sysfs_entry key, *e;

	if (strlen(name) >= sizeof(key.name) || l->n == 0)
		return NULL;
	strcpy(key.name, name);
	e = bsearch(&key, l->entries, l->n, sizeof(*l->entries), entry_compare);
	return e ? e->id : NULL;
}

int sleeb_sysfs_list_aliases(const struct sleeb_sysfs_list *l, const char *name,
			     char *buf, size_t len)
{
	const char *id = sleeb_sysfs_list_id(l, name);
	size_t i, used = 0;
	int count = 0, r = 0;

	if (len)
		buf[0] = '\0';
	if (!id)
		return 0;
	for (i = 0; i < l->n; i++) {
		const struct sleeb_sysfs_entry *e = &l->entries[i];
		size_t need;

		if (strcmp(e->id, id) != 0 || strcmp(e->name, name) == 0 || e->name[0] == ':')
			continue;
		count++;
		need = strlen(e->name) + (used ? 1 : 0);
		if (used + need >= len) {
			r = -ENOBUFS;
			continue;
		}
		if (used)
			buf[used++] = ',';
		strcpy(buf + used, e->name);
		used += strlen(e->name);
	}
	return r < 0 ? r : count;
}
