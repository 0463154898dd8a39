/* SPDX-License-Identifier: GPL-2.0-only */
/* Snapshot of every cache: slabinfo joined with sysfs (see sleeb/cache.h). */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "sleeb/cache.h"
#include "sleeb/root.h"
#include "sleeb/util.h"

/* queue_stats is ~10 short lines; leave room for counters added later. */
#define QUEUE_STATS_MAX 8192
#define ATTR_VALUE_MAX 64
/* /proc/slabinfo: ~150 bytes a cache; refuse anything absurd. */
#define SLABINFO_MAX (64u << 20)

/* What the reader remembers about one /proc/slabinfo name between loads. */
struct known {
	char *name;
	char *id;               /* its sysfs directory (NULL: none) */
	char *aliases;          /* NULL: none */
	int naliases;
	bool has_sysfs, has_queues;
	bool gone;              /* its directory vanished during this load */
	dev_t dev;              /* its directory, to tell it from a new cache */
	ino_t ino;              /* of the same name (0: not known) */
	unsigned gen;           /* the last load whose /proc/slabinfo named it */
	bool has_sysfs_tun;     /* the two below are set */
	struct sleeb_tunables sysfs_tun;  /* the tunables sysfs gave last time */
	struct sleeb_tunables si_tun;     /* slabinfo's columns then */
};

struct sleeb_reader {
	struct known *known;    /* sorted by name */
	size_t n_known;
	bool listed;            /* known[] is complete for the names seen */
	int slabinfo_fd;        /* kept open (procfs only), or -1 */
	char *buf;              /* /proc/slabinfo */
	size_t buf_cap;
	struct sleeb_slabinfo_memo *memo;  /* its unchanged lines, unparsed */
	char *attr_buf;         /* one attribute, QUEUE_STATS_MAX */
	struct known **ks;      /* this load: each cache's entry in known[]
				 * (NULL: none), looked up once per load */
	size_t ks_cap;
	unsigned gen;
	char root[PATH_MAX];    /* what slabinfo_fd and known[] belong to */
};

static uint64_t now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

/*
 * The sizes in slabinfo's tunables columns. The third is SLAB's
 * sharedfactor, the shared queue's size in batches (rounded up by the
 * kernel); sysfs's shared_queue_size has the exact count.
 */
static struct sleeb_tunables slabinfo_tunables(const struct sleeb_slabinfo_entry *e)
{
	return (struct sleeb_tunables){
		.v = { e->limit, e->batchcount, e->sharedfactor * e->batchcount },
	};
}

static int cache_append(const struct sleeb_slabinfo_entry *e, void *userdata)
{
	struct sleeb_cache_set *set = userdata;
	struct sleeb_cache *n;

	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 256;

		n = reallocarray(set->caches, cap, sizeof(*n));
		if (!n)
			return -ENOMEM;
		set->caches = n;
		set->cap = cap;
	}
	n = &set->caches[set->n++];
	memset(n, 0, sizeof(*n));
	n->aliases = "";
	n->si = *e;
	sleeb_strscpy(n->id, e->name, sizeof(n->id));
	n->tunables = slabinfo_tunables(e);
	return 0;
}

static void known_clear(struct known *k)
{
	free(k->name);
	free(k->id);
	free(k->aliases);
}

static int known_compare(const void *a, const void *b)
{
	return strcmp(((const struct known *)a)->name, ((const struct known *)b)->name);
}

static struct known *known_find(struct sleeb_reader *rd, const char *name)
{
	struct known key = { .name = (char *)name };

	if (rd->n_known == 0)
		return NULL;
	return bsearch(&key, rd->known, rd->n_known, sizeof(key), known_compare);
}

int sleeb_reader_new(struct sleeb_reader **ret)
{
	struct sleeb_reader *rd = calloc(1, sizeof(*rd));

	if (!rd)
		return -ENOMEM;
	rd->attr_buf = malloc(QUEUE_STATS_MAX);
	rd->memo = sleeb_slabinfo_memo_new();
	if (!rd->attr_buf || !rd->memo) {
		free(rd->attr_buf);
		sleeb_slabinfo_memo_free(rd->memo);
		free(rd);
		return -ENOMEM;
	}
	rd->slabinfo_fd = -1;
	*ret = rd;
	return 0;
}

void sleeb_reader_forget(struct sleeb_reader *rd, const char *name)
{
	struct known *k;

	if (!name) {
		for (size_t i = 0; i < rd->n_known; i++)
			known_clear(&rd->known[i]);
		rd->n_known = 0;
		rd->listed = false;
		return;
	}
	k = known_find(rd, name);
	if (!k)
		return;
	known_clear(k);
	memmove(k, k + 1, (size_t)(rd->known + rd->n_known - (k + 1)) * sizeof(*k));
	rd->n_known--;
	rd->listed = false;
}

struct sleeb_reader *sleeb_reader_free(struct sleeb_reader *rd)
{
	if (!rd)
		return NULL;
	sleeb_reader_forget(rd, NULL);
	free(rd->known);
	if (rd->slabinfo_fd >= 0)
		close(rd->slabinfo_fd);
	free(rd->buf);
	free(rd->attr_buf);
	sleeb_slabinfo_memo_free(rd->memo);
	free(rd->ks);
	free(rd);
	return NULL;
}

/* Read from @fd into @buf (NUL-terminated): pread() from 0 when @seekable,
 * else read() to the end.  Returns the length or -errno, -EFBIG. */
static ssize_t read_all(int fd, bool seekable, char *buf, size_t len)
{
	size_t total = 0;

	while (total < len - 1) {
		ssize_t n = seekable ? pread(fd, buf + total, len - 1 - total, (off_t)total)
				     : read(fd, buf + total, len - 1 - total);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0) {
			buf[total] = '\0';
			return (ssize_t)total;
		}
		total += (size_t)n;
	}
	return -EFBIG;
}

/*
 * /proc/slabinfo into rd->buf.  The real one stays open and is read with
 * pread() from 0 (seq_file starts over); any other file is opened each
 * time (a test may replace it).
 */
static ssize_t read_slabinfo(struct sleeb_reader *rd, const char *path, struct sleeb_error *err)
{
	struct statfs sfs;
	ssize_t n;
	int fd = rd->slabinfo_fd;
	bool keep;

	if (fd < 0) {
		fd = sleeb_root_open_file("/proc/slabinfo", O_RDONLY, err);
		if (fd < 0)
			return fd;
	}
	keep = rd->slabinfo_fd >= 0 || (fstatfs(fd, &sfs) == 0 && sfs.f_type == PROC_SUPER_MAGIC);
	for (;;) {
		if (!rd->buf || rd->buf_cap < 65536) {
			free(rd->buf);
			rd->buf_cap = 65536;
			rd->buf = malloc(rd->buf_cap);
			if (!rd->buf) {
				rd->buf_cap = 0;
				n = -ENOMEM;
				break;
			}
		}
		n = read_all(fd, keep, rd->buf, rd->buf_cap);
		if (n != -EFBIG || rd->buf_cap >= SLABINFO_MAX)
			break;
		/* Grow and read again from the start. */
		free(rd->buf);
		rd->buf = malloc(rd->buf_cap * 2);
		rd->buf_cap = rd->buf ? rd->buf_cap * 2 : 0;
		if (!rd->buf) {
			n = -ENOMEM;
			break;
		}
		if (!keep && lseek(fd, 0, SEEK_SET) < 0) {
			n = -errno;
			break;
		}
	}
	if (keep && n >= 0)
		rd->slabinfo_fd = fd;
	else {
		close(fd);
		rd->slabinfo_fd = -1;
	}
	if (n == -ENOMEM)
		return sleeb_error_set(err, ENOMEM, "slabinfo: out of memory");
	if (n < 0)
		return sleeb_error_set(err, (int)-n, "%s: read error: %s", path, strerror((int)-n));
	return n;
}

/*
 * Did @k's directory (or the one its link points at) go away?  Also when
 * a new cache of the same name took its place meanwhile: what we were
 * reading is gone all the same, the new one is for the next snapshot.
 */
static bool cache_gone(const struct known *k)
{
	struct stat st;
	int r = sleeb_sysfs_stat(k->name, NULL, &st);

	if (r < 0)
		return r == -ENOENT;
	return k->ino && (st.st_ino != k->ino || st.st_dev != k->dev);
}

/* An attribute's path for messages: "<root>/sys/kernel/slab/<name>/<attr>". */
static const char *attr_path(char *buf, size_t len, const char *name, const char *attr)
{
	if (sleeb_sysfs_path(buf, len, name, attr) < 0)
		snprintf(buf, len, "%s/%s", name, attr);
	return buf;
}

/*
 * Read <name>/<attr> into rd->attr_buf: open, read, close.  queue_stats is
 * not kept open between reads, unlike /proc/slabinfo: an open sysfs file
 * holds a page-sized seq_file buffer in the kernel (kmalloc-cg-4k) from
 * its first read until it is closed, so one kept file per auto-tuned
 * cache cost 4-5 KiB of unreclaimable slab each (about 1 MiB for the 219
 * kmalloc caches a distribution's kernel has), more than the
 * queues sleebd trims save.  Two system calls per cache and interval are
 * the cheaper price.  Resolved inside the root like every sysfs file.
 * Returns the length, or -errno with "PATH: reason" in @err.
 */
static ssize_t read_attr(struct sleeb_reader *rd, const char *name, const char *attr,
			 struct sleeb_error *err)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	fd = sleeb_sysfs_open(name, attr, O_RDONLY, err);
	if (fd < 0)
		return fd;
	/* read(), not pread(): a test's fake tree may hand out a FIFO. */
	n = read_all(fd, false, rd->attr_buf, QUEUE_STATS_MAX);
	close(fd);
	if (n < 0)
		return sleeb_error_set(err, (int)-n, "%s: %s", attr_path(path, sizeof(path), name, attr),
				       strerror((int)-n));
	return n;
}

/* 1: the cache is gone (drop it), 0: read, -errno: error in @err. */
static int load_tunables(struct sleeb_reader *rd, const struct known *k, struct sleeb_cache *c,
			 struct sleeb_error *err)
{
	struct sleeb_tunables t;

	for (unsigned i = 0; i < _SLEEB_TUNABLE_MAX; i++) {
		const char *attr = sleeb_tunable_attr((enum sleeb_tunable)i);
		uint64_t v;
		ssize_t n = read_attr(rd, c->si.name, attr, err);
		int r;

		if ((n == -ENOENT || n == -ENODEV) && cache_gone(k))
			return 1;
		if (n < 0)
			return (int)n;
		if (n > 0 && rd->attr_buf[n - 1] == '\n')
			rd->attr_buf[--n] = '\0';
		r = sleeb_sysfs_parse_value(rd->attr_buf, (size_t)n, &v);
		if (r < 0)
			return sleeb_error_set(err, r, "%s: %s: '%.32s' %s", c->si.name, attr,
					       rd->attr_buf,
					       r == -ERANGE ? "is out of range" : "is not a number");
		if (v > UINT32_MAX)
			return sleeb_error_set(err, ERANGE, "%s: %s: %llu out of range", c->si.name,
					       attr, (unsigned long long)v);
		t.v[i] = (uint32_t)v;
	}
	c->tunables = t;
	return 0;
}

/* The same for queue_stats; a missing one is no error (has_stats false). */
static int load_stats(struct sleeb_reader *rd, const struct known *k, struct sleeb_cache *c,
		      struct sleeb_error *err)
{
	char path[PATH_MAX];
	ssize_t n;
	int r;

	n = read_attr(rd, c->si.name, "queue_stats", err);
	if ((n == -ENOENT || n == -ENODEV) && cache_gone(k))
		return 1;
	if (n == -ENOENT) {
		sleeb_error_clear(err);
		return 0;
	}
	if (n < 0)
		return (int)n;
	attr_path(path, sizeof(path), c->si.name, "queue_stats");
	c->stats_usec = now_usec();
	r = sleeb_queue_stats_parse(rd->attr_buf, (size_t)n, path, &c->stats, err);
	if (r < 0)
		return r;
	c->has_stats = true;
	return 0;
}

/*
 * List /sys/kernel/slab (one walk) and learn about every cache of this
 * snapshot: its sysfs directory, queue attributes and merged aliases.
 * Kept files of caches known before stay open.
 */
static int relist(struct sleeb_reader *rd, bool has_slab_dir, const struct sleeb_cache_set *set,
		  struct sleeb_error *err)
{
	struct sleeb_sysfs_list list = { 0 };
	char aliases[SLEEB_ALIASES_MAX];
	struct known *nk;
	size_t n = 0;
	int r;

	r = has_slab_dir ? sleeb_sysfs_list_caches(&list, err) : -ENOENT;
	if (r < 0 && r != -ENOENT)
		return r;
	sleeb_error_clear(err);
	nk = calloc(set->n ? set->n : 1, sizeof(*nk));
	if (!nk) {
		sleeb_sysfs_list_free(&list);
		return sleeb_error_set(err, ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < set->n; i++) {
		const char *name = set->caches[i].si.name;
		struct known *old = known_find(rd, name), *k = &nk[n];
		struct stat st;
		const char *id = sleeb_sysfs_list_id(&list, name);

		/* A name twice in /proc/slabinfo: the first one wins. */
		bool dup = false;

		for (size_t j = 0; j < n && !dup; j++)
			dup = strcmp(nk[j].name, name) == 0;
		if (dup)
			continue;
		k->name = strdup(name);
		if (!k->name)
			goto nomem;
		n++;
		if (old) {
			k->has_sysfs_tun = old->has_sysfs_tun;
			k->sysfs_tun = old->sysfs_tun;
			k->si_tun = old->si_tun;
		}
		if (!id)
			continue;
		k->has_sysfs = true;
		k->id = strdup(id);
		if (!k->id)
			goto nomem;
		r = sleeb_sysfs_list_aliases(&list, name, aliases, sizeof(aliases));
		k->naliases = r == -ENOBUFS ? 0 : r;
		if (r == -ENOBUFS)
			/* Still count them: the list is only cut short for display. */
			for (size_t j = 0; j < list.n; j++)
				if (strcmp(list.entries[j].id, id) == 0 &&
				    strcmp(list.entries[j].name, name) != 0 && list.entries[j].name[0] != ':')
					k->naliases++;
		if (aliases[0] && !(k->aliases = strdup(aliases)))
			goto nomem;
		if (sleeb_sysfs_stat(name, NULL, &st) < 0) {
			k->gone = true;  /* listed a moment ago, gone now */
			continue;
		}
		k->dev = st.st_dev;
		k->ino = st.st_ino;
		k->has_queues = sleeb_sysfs_has_attr(name, "cpu_queue_size");
		if (!k->has_queues && cache_gone(k))
			k->gone = true;
	}
	sleeb_sysfs_list_free(&list);
	sleeb_reader_forget(rd, NULL);
	free(rd->known);
	rd->known = nk;
	rd->n_known = n;
	if (n)
		qsort(rd->known, n, sizeof(*nk), known_compare);
	rd->listed = true;
	return 0;
nomem:
	for (size_t j = 0; j < n; j++)
		known_clear(&nk[j]);
	free(nk);
	sleeb_sysfs_list_free(&list);
	return sleeb_error_set(err, ENOMEM, "out of memory");
}

/*
 * Every cache's aliases into the set's pool, sized once per load so that
 * the pointers into it stay put (the pool is reused from load to load).
 */
static int alias_pool_fill(struct sleeb_reader *rd, struct sleeb_cache_set *out,
			   struct sleeb_error *err)
{
	size_t need = 0, used = 0;

	for (size_t i = 0; i < out->n; i++) {
		const struct known *k = rd->ks[i];

		if (k && k->aliases)
			need += strlen(k->aliases) + 1;
	}
	if (need > out->alias_pool_cap) {
		char *p = realloc(out->alias_pool, need);

		if (!p)
			return sleeb_error_set(err, ENOMEM, "out of memory");
		out->alias_pool = p;
		out->alias_pool_cap = need;
	}
	for (size_t i = 0; i < out->n; i++) {
		struct sleeb_cache *c = &out->caches[i];
		const struct known *k = rd->ks[i];
		size_t len;

		if (!k)
			continue;
		c->naliases = k->naliases;
		if (!k->aliases)
			continue;
		len = strlen(k->aliases) + 1;
		memcpy(out->alias_pool + used, k->aliases, len);
		c->aliases = out->alias_pool + used;
		used += len;
	}
	return 0;
}

/* Whether <root>/sys/kernel/slab is there (a kernel without SLUB's sysfs has none). */
static bool has_slab_dir(void)
{
	int fd = sleeb_root_open(SLEEB_SYSFS_SLAB_DIR, O_PATH | O_DIRECTORY);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

int sleeb_reader_load(struct sleeb_reader *rd, sleeb_reader_want_fn want, void *userdata,
		      struct sleeb_cache_set *out, struct sleeb_error *err)
{
	char path[PATH_MAX];
	size_t i, kept = 0;
	ssize_t len;
	bool slab_dir;
	int r;

	out->n = 0;
	out->sleeb_kernel = false;
	if (strcmp(rd->root, sleeb_root_get()) != 0) {
		/* Another tree: nothing known or kept applies. */
		sleeb_reader_forget(rd, NULL);
		sleeb_slabinfo_memo_forget(rd->memo);
		if (rd->slabinfo_fd >= 0)
			close(rd->slabinfo_fd);
		rd->slabinfo_fd = -1;
		snprintf(rd->root, sizeof(rd->root), "%s", sleeb_root_get());
	}
	rd->gen++;

	r = sleeb_root_path(path, sizeof(path), "/proc/slabinfo");
	if (r < 0)
		return sleeb_error_set(err, r, "/proc/slabinfo: path too long under root %s",
				       sleeb_root_get());
	len = read_slabinfo(rd, path, err);
	if (len < 0)
		return (int)len;
	out->timestamp_usec = now_usec();
	r = sleeb_slabinfo_parse_buffer_memo(rd->buf, (size_t)len, path, rd->memo, cache_append,
					     out, err);
	if (r == -ENOMEM)
		sleeb_error_set(err, ENOMEM, "slabinfo: out of memory");
	if (r < 0)
		goto fail;
	/* Without sysfs, non-zero tunables in slabinfo still prove SLEEB. */
	for (i = 0; i < out->n; i++)
		if (out->caches[i].si.limit)
			out->sleeb_kernel = true;

	slab_dir = has_slab_dir();
	if (out->n > rd->ks_cap) {
		struct known **ks = reallocarray(rd->ks, out->n, sizeof(*ks));

		if (!ks) {
			r = sleeb_error_set(err, ENOMEM, "out of memory");
			goto fail;
		}
		rd->ks = ks;
		rd->ks_cap = out->n;
	}
	/* Listed again only for a name not seen before (a new cache, or
	 * forgotten after a uevent): aliases change only then. */
	for (i = 0; i < out->n; i++)
		if (!(rd->ks[i] = known_find(rd, out->caches[i].si.name)))
			rd->listed = false;
	if (!rd->listed) {
		r = relist(rd, slab_dir, out, err);
		if (r < 0)
			goto fail;
		for (i = 0; i < out->n; i++)
			rd->ks[i] = known_find(rd, out->caches[i].si.name);
	}
	r = alias_pool_fill(rd, out, err);
	if (r < 0)
		goto fail;

	for (i = 0; i < out->n; i++) {
		struct sleeb_cache *c = &out->caches[i];
		struct known *k = rd->ks[i];
		unsigned what;

		if (!k || k->gone)
			continue;  /* dropped below */
		k->gen = rd->gen;
		c->has_sysfs = k->has_sysfs;
		c->has_queues = k->has_queues;
		if (k->id)
			sleeb_strscpy(c->id, k->id, sizeof(c->id));
		if (!c->has_queues)
			continue;
		out->sleeb_kernel = true;
		/* slabinfo's columns as they were when sysfs was last read:
		 * what sysfs said then still holds.  (The same numbers on a
		 * kernel; a fake tree's slabinfo is never rewritten.) */
		if (k->has_sysfs_tun && memcmp(&k->si_tun, &c->tunables, sizeof(c->tunables)) == 0)
			c->tunables = k->sysfs_tun;
		what = want ? want(c, userdata) : SLEEB_READ_ALL;
		r = 0;
		if (what & SLEEB_READ_TUNABLES) {
			struct sleeb_tunables si = slabinfo_tunables(&c->si);

			r = load_tunables(rd, k, c, err);
			if (r == 0) {
				k->has_sysfs_tun = true;
				k->sysfs_tun = c->tunables;
				k->si_tun = si;
			}
		}
		if (r == 0 && (what & SLEEB_READ_STATS))
			r = load_stats(rd, k, c, err);
		if (r < 0)
			goto fail;
		if (r > 0)
			k->gone = true;
	}

	/* Caches destroyed since /proc/slabinfo was read are not there. */
	for (i = 0; i < out->n; i++) {
		struct known *k = rd->ks[i];

		if (k && k->gone)
			continue;
		if (kept != i)
			memcpy(&out->caches[kept], &out->caches[i], sizeof(out->caches[i]));
		kept++;
	}
	out->n = kept;
	/* Forget what no longer exists: a name that comes back is new. */
	for (i = 0; i < rd->n_known; i++)
		if (rd->known[i].gen != rd->gen || rd->known[i].gone) {
			sleeb_reader_forget(rd, rd->known[i].name);
			rd->listed = true;  /* the others are still complete */
			i--;
		}
	sleeb_error_clear(err);
	return out->n > INT_MAX ? INT_MAX : (int)out->n;
fail:
	out->n = 0;
	return r;
}

/* The same @what (a pointer to it in @userdata) for every cache. */
static unsigned want_the_same(const struct sleeb_cache *c, void *userdata)
{
	(void)c;
	return *(const unsigned *)userdata;
}

int sleeb_cache_set_load_only(struct sleeb_cache_set *out, unsigned what, struct sleeb_error *err)
{
	struct sleeb_reader *rd;
	int r;

	memset(out, 0, sizeof(*out));
	r = sleeb_reader_new(&rd);
	if (r < 0)
		return sleeb_error_set(err, -r, "out of memory");
	r = sleeb_reader_load(rd, want_the_same, &what, out, err);
	sleeb_reader_free(rd);
	if (r < 0)
		sleeb_cache_set_free(out);
	return r;
}

int sleeb_cache_set_load(struct sleeb_cache_set *out, struct sleeb_error *err)
{
	return sleeb_cache_set_load_only(out, SLEEB_READ_ALL, err);
}

void sleeb_cache_set_free(struct sleeb_cache_set *set)
{
	free(set->caches);
	free(set->alias_pool);
	set->caches = NULL;
	set->alias_pool = NULL;
	set->n = set->cap = set->alias_pool_cap = 0;
}

const struct sleeb_cache *sleeb_cache_set_find(const struct sleeb_cache_set *set,
					       const char *name)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (strcmp(set->caches[i].si.name, name) == 0)
			return &set->caches[i];
	return NULL;
}

bool sleeb_cache_has_tunables(const struct sleeb_cache *c)
{
	return c->has_queues || c->si.limit || c->si.batchcount || c->si.sharedfactor;
}

uint64_t sleeb_cache_memory(const struct sleeb_cache *c)
{
	uint64_t pages, bytes;
	long ps = sysconf(_SC_PAGESIZE);

	if (__builtin_mul_overflow(c->si.num_slabs, (uint64_t)c->si.pagesperslab, &pages) ||
	    __builtin_mul_overflow(pages, (uint64_t)(ps > 0 ? ps : 4096), &bytes))
		return UINT64_MAX;
	return bytes;
}

uint64_t sleeb_cache_waste(const struct sleeb_cache *c)
{
	uint64_t unused, bytes;

	if (c->si.active_objs >= c->si.num_objs)
		return 0;
	unused = c->si.num_objs - c->si.active_objs;
	if (__builtin_mul_overflow(unused, (uint64_t)c->si.objsize, &bytes))
		return UINT64_MAX;
	return bytes;
}

unsigned sleeb_cache_use_percent(const struct sleeb_cache *c)
{
	if (c->si.num_objs == 0)
		return 0;
	if (c->si.active_objs >= c->si.num_objs)
		return 100;
	return (unsigned)((c->si.active_objs * 100.0) / (double)c->si.num_objs);
}
