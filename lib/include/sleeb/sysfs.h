/* SPDX-License-Identifier: GPL-2.0-only */
#pragma once

/*
 * Per-cache attributes under <root>/sys/kernel/slab/<cache>/.
 *
 * Values are "N\n"; some SLUB attributes append per-node or per-cpu
 * breakdowns ("123 N0=100 N1=23"), of which we take the first number.
 * Merged caches are directories named like ":a-0000104" with one symlink
 * per cache name; a write through a symlink affects every merged cache.
 */

#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "sleeb/error.h"
#include "sleeb/slabinfo.h"

#define SLEEB_SYSFS_SLAB_DIR "/sys/kernel/slab"

/*
 * Build "<root>/sys/kernel/slab/<cache>[/<attr>]" (@attr may be NULL).
 * Returns the length, -EINVAL for a cache name containing '/' or equal to
 * "." or "..", -ENAMETOOLONG if it does not fit.
 */
int sleeb_sysfs_path(char *buf, size_t len, const char *cache, const char *attr);

/*
 * Open <cache>[/<attr>] resolved inside the root (sleeb_root_open_file():
 * a regular file, never blocking on a FIFO). Returns the descriptor or
 * -errno with "PATH: reason" in @err (-EINVAL: invalid name).
 */
int sleeb_sysfs_open(const char *cache, const char *attr, int flags, struct sleeb_error *err);

/* fstat() of <cache>[/<attr>], resolved inside the root. 0 or -errno. */
int sleeb_sysfs_stat(const char *cache, const char *attr, struct stat *st);

/*
 * Parse a sysfs value: a decimal number, optionally followed by white
 * space and anything (per-node breakdown), optionally ending in "\n".
 * Returns 0, -EINVAL (no leading number), -ERANGE (overflow).
 */
int sleeb_sysfs_parse_value(const char *buf, size_t len, uint64_t *ret);

/*
 * Read an attribute as a string with the trailing newline removed.
 * Returns the length or -errno (-ENOENT: no such cache or attribute).
 */
int sleeb_sysfs_read_string(const char *cache, const char *attr, char *buf, size_t len,
			    struct sleeb_error *err);

/* Read and parse a numeric attribute.  -errno from reading, -EINVAL or
 * -ERANGE from parsing; the message is "PATH: reason". */
int sleeb_sysfs_read_u64(const char *cache, const char *attr, uint64_t *ret,
			 struct sleeb_error *err);

/*
 * Write "<value>\n" through sleeb_sysfs_open(O_WRONLY | O_NOFOLLOW).
 * -ELOOP for an attribute that is a link, -EBADFD for one that is not a
 * regular file (a FIFO would block).  Otherwise returns 0 or the kernel's -errno
 * from open(), write() or close(), unmodified, so the caller can report
 * exactly what the kernel said (-EINVAL, -EOPNOTSUPP, -EACCES, ...).
 * The message is "cache: attr: value: strerror".
 */
int sleeb_sysfs_write_u64(const char *cache, const char *attr, uint64_t value,
			  struct sleeb_error *err);

/*
 * Write "<value>\n" in one write(), as sleeb_sysfs_write_u64() does, for
 * attributes that take a line (queue_sizes: "queue batch shared").
 * Returns 0 or the kernel's -errno, unmodified. The message is
 * "PATH: value: strerror".
 */
int sleeb_sysfs_write_string(const char *cache, const char *attr, const char *value,
			     struct sleeb_error *err);

/* True if the cache directory has @attr (e.g. "cpu_queue_size"). */
bool sleeb_sysfs_has_attr(const char *cache, const char *attr);

/*
 * True if any cache under <root>/sys/kernel/slab has cpu_queue_size, i.e.
 * the kernel has SLEEB (a single cache may lack it if it cannot queue).
 * False also when the directory cannot be read.
 */
bool sleeb_sysfs_kernel_has_queues(void);

/* Queue counters from queue_stats ("name value" lines). */
enum sleeb_queue_stat {
	SLEEB_QSTAT_ALLOC_REFILL,
	SLEEB_QSTAT_FREE_DRAIN,
	SLEEB_QSTAT_SHARED_ALLOC_HIT,
	SLEEB_QSTAT_SHARED_ALLOC_MISS,
	SLEEB_QSTAT_SHARED_FREE,
	SLEEB_QSTAT_SHARED_OVERFLOW,
	SLEEB_QSTAT_REMOTE_FREE,
	SLEEB_QSTAT_REMOTE_ALLOC,
	SLEEB_QSTAT_REAP_DRAINED,
	SLEEB_QSTAT_RESIZE,
	SLEEB_QSTAT_FASTPATH_OPS,	/* allocations and frees a cpu queue served */
	SLEEB_QSTAT_ARRAY_FAIL,		/* queue array allocations that failed */
	SLEEB_QSTAT_REFILL_NOMEM,	/* refills the node's slabs could not serve */
	SLEEB_QSTAT_BULK_ALLOC,		/* objects bulk allocations took from a cpu queue */
	SLEEB_QSTAT_BULK_FREE,		/* objects bulk frees passed to the queues' frees */
	SLEEB_QSTAT_RESIZE_DRAINED,	/* objects a resize gave back: they did not fit */
	_SLEEB_QSTAT_MAX,
};

struct sleeb_queue_stats {
	uint64_t value[_SLEEB_QSTAT_MAX];
	unsigned present;  /* bit (1 << stat) when the kernel printed it */
};

/* "alloc_refill" etc.; NULL for an out-of-range value. */
const char *sleeb_queue_stat_name(enum sleeb_queue_stat s);

/*
 * Parse queue_stats content.  Unknown names are accepted and ignored (the
 * kernel may add counters); a duplicate known name, a line without a
 * value, or trailing garbage is -EINVAL, overflow -ERANGE; the message
 * names the line ("FNAME:3: ...").
 */
int sleeb_queue_stats_parse(const char *buf, size_t len, const char *fname,
			    struct sleeb_queue_stats *out, struct sleeb_error *err);

/* Read and parse <cache>/queue_stats.  -ENOENT on a kernel without SLEEB. */
int sleeb_sysfs_read_queue_stats(const char *cache, struct sleeb_queue_stats *out,
				 struct sleeb_error *err);

/*
 * One entry of /sys/kernel/slab.  @id is the directory the name resolves
 * to (itself for a plain directory, the symlink target such as
 * ":a-0000104" for a merged alias); caches with the same @id share one
 * kmem_cache.
 */
struct sleeb_sysfs_entry {
	char name[SLEEB_CACHE_NAME_MAX];
	char id[SLEEB_CACHE_NAME_MAX];
	bool is_link;
};

struct sleeb_sysfs_list {
	struct sleeb_sysfs_entry *entries;
	size_t n;
};

/*
 * List every entry of <root>/sys/kernel/slab sorted by name.  Returns the
 * count, -errno from opendir/readlink (-ENOENT: no SLUB sysfs), -ENOMEM.
 */
int sleeb_sysfs_list_caches(struct sleeb_sysfs_list *out, struct sleeb_error *err);
void sleeb_sysfs_list_free(struct sleeb_sysfs_list *l);

/* The id (see above) of @name in @l, or NULL if not listed. */
const char *sleeb_sysfs_list_id(const struct sleeb_sysfs_list *l, const char *name);

/*
 * Write the names (other than @name) that share @name's kmem_cache into
 * @buf, comma-separated, skipping ":a-..." ids.  Returns the number of
 * aliases, or -ENOBUFS if @buf was too small (it then holds a prefix).
 */
int sleeb_sysfs_list_aliases(const struct sleeb_sysfs_list *l, const char *name,
			     char *buf, size_t len);
